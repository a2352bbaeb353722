# campaigns/ and jobs/: make campaign, make status, make demo. None of them
# installs anything (make deps, make test, make demo and make cluster-up do).
# The campaign variables given on make's command line reach the scripts
# byte for byte, as CAMPAIGN_ARG_<VAR> in their environment (never re-quoted);
# the environment's own NODES or TIME are not read, so a stray one in a shell
# cannot leak in. The variables are campaigns/vars' rows: the campaign's
# and the tools' own (BASE, TOL, HOSTS, ...: scope tool, each tool reads its
# own by check.sh's tool_args).
CAMPAIGN_VARS := $(shell bash -c '. campaigns/lib.sh && echo "$${CAMPAIGN_VARS[*]} $${TOOL_VARS[*]}"')
campaign_given := $(foreach v,$(CAMPAIGN_VARS),$(if $(filter command line,$(origin $v)),$v))
$(foreach v,$(campaign_given),$(eval export CAMPAIGN_ARG_$v := $$(value $v)))
# Slurm's commands reach the local cluster when it is up, unless SLURM_CONF is set.
slurm_env = $(if $(SLURM_CONF),,$(if $(wildcard $(B)/cluster/env.sh),. $(B)/cluster/env.sh;))

# A typo on make's command line is never a campaign: make would drop an
# unknown NODE=4 and run the default. Every upper-case variable given there
# must be the campaign's (CAMPAIGN_VARS) or the Makefile's own (MAKE_VARS).
MAKE_VARS := MPI MPICC CC NVCC CUDA CUDA_HOME NCCL NCCL_HOME NVCC_ARCH NVCCFLAGS PREFIX DESTDIR \
	WERROR CFLAGS CPPFLAGS LDFLAGS LDLIBS V B PROVE TESTS FUZZ_SECONDS FUZZ_CC DEMO_CAMPAIGN \
	SLURM_CONF $(CLUSTER_VARS)
command_line_vars := $(sort $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v)))
.PHONY: make-vars
make-vars:
	@bash campaigns/make-vars.sh '$(firstword $(MAKECMDGOALS))' '$(MAKE_VARS)' -- $(command_line_vars)

campaign: make-vars all
	@$(slurm_env) bash campaigns/submit.sh

status: make-vars
	@$(slurm_env) bash campaigns/status.sh

# Re-check the nodes aller drained (HOSTS="n4 ..." for some), resume the clean ones.
undrain: make-vars all
	@$(slurm_env) bash campaigns/undrain.sh

# The slow node among NODES="n[1-8]" (or CAMPAIGN=name's), by bisection over Slurm jobs.
isolate: make-vars all
	@$(slurm_env) bash campaigns/isolate.sh

# A campaign every day at AT (CAMPAIGN_PREFIX-YYYY-MM-DD), then make trend and,
# with TEXTFILE_DIR, make export; make unschedule removes it.
schedule: make-vars all
	@$(slurm_env) bash campaigns/schedule.sh
unschedule: make-vars
	@$(slurm_env) bash campaigns/schedule.sh --remove

# A campaign drawn from the fabric model (docs/simulate.md): no MPI, no Slurm.
simulate: make-vars all
	@bash campaigns/simulate.sh

# The main job: the local cluster, the smoke campaign, its plots. The build
# runs on every core (DEMO_JOBS) beside the cluster's start (bench-demo: 15 s
# of a fresh demo's 31 s were the build on one core).
DEMO_CAMPAIGN ?= demo
DEMO_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
demo: deps-demo
	@$(MAKE) --no-print-directory -j$(DEMO_JOBS) all cluster-up
	@. $(B)/cluster/env.sh; \
	id=$$(bash campaigns/submit.sh CONF=campaigns/smoke.conf CAMPAIGN=$(DEMO_CAMPAIGN) 'NODES=1 2 4' FORCE=1) && \
	echo "demo: waiting for the campaign (final job $$id) ..." && \
	while [ -n "$$(squeue -h -j $$id 2>/dev/null)" ]; do sleep 2; done; \
	bash campaigns/status.sh CAMPAIGN=$(DEMO_CAMPAIGN) || true; \
	echo "demo: plots in results/$(DEMO_CAMPAIGN)/plots:"; \
	ls results/$(DEMO_CAMPAIGN)/plots/*
