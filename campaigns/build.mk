# campaigns/ and jobs/: make campaign, make status, make demo.
# Campaign variables given on make's command line are passed on; the
# environment is not read, so a stray NODES or TIME in a shell cannot leak in.
CAMPAIGN_VARS := CONF CAMPAIGN RESULTS NODES MODES TASKS_PER_NODE GPUS_PER_TASK BUFFERS ITERS \
	LONGS PARTITION ACCOUNT QOS TIME EXCLUSIVE LAUNCHER EXTRA_SBATCH ALLER_ARGS SPLIT DRYRUN \
	FORCE FORMAT
campaign_args = $(foreach v,$(CAMPAIGN_VARS),$(if $(filter command line,$(origin $v)),'$v=$($v)'))
# Slurm's commands reach the local cluster when it is up, unless SLURM_CONF is set.
slurm_env = $(if $(SLURM_CONF),,$(if $(wildcard $(B)/cluster/env.sh),. $(B)/cluster/env.sh;))

campaign: deps all
	@$(slurm_env) bash campaigns/submit.sh $(campaign_args)

status:
	@$(slurm_env) bash campaigns/status.sh $(campaign_args)

# The main job: the local cluster, the smoke campaign, its plots.
DEMO_CAMPAIGN ?= demo
demo: deps all cluster-up
	@. $(B)/cluster/env.sh; \
	id=$$(bash campaigns/submit.sh CONF=campaigns/smoke.conf CAMPAIGN=$(DEMO_CAMPAIGN) 'NODES=1 2 4' FORCE=1) && \
	echo "demo: waiting for the campaign (final job $$id) ..." && \
	while [ -n "$$(squeue -h -j $$id 2>/dev/null)" ]; do sleep 2; done; \
	bash campaigns/status.sh CAMPAIGN=$(DEMO_CAMPAIGN) CONF=campaigns/smoke.conf 'NODES=1 2 4' || true; \
	echo "demo: plots in results/$(DEMO_CAMPAIGN)/plots:"; \
	ls results/$(DEMO_CAMPAIGN)/plots/*
