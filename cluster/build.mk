# cluster/: a real Slurm cluster on this machine (see cluster/lib.sh).
CLUSTER_VARS = CLUSTER_NODES CLUSTER_CPUS CLUSTER_GPUS CLUSTER_PORT CLUSTER_ACCOUNTING CLUSTER_DIR \
	CLUSTER_FABRIC CLUSTER_NIC_RATE CLUSTER_OVERSUB CLUSTER_LEAVES CLUSTER_TIERS CLUSTER_RAILS
export $(CLUSTER_VARS)

# the fabric's plan (cluster/plan.c): its links and Slurm's topology, from the settings
$(B)/bin/cluster-plan: cluster/plan.c common/bytes.c common/bytes.h $(B)/flags
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) -Icommon $(filter-out -MMD -MP,$(ALLER_CFLAGS)) $(CFLAGS) $(LDFLAGS) -o $@ cluster/plan.c common/bytes.c
all: $(B)/bin/cluster-plan

cluster-up: deps-demo $(B)/bin/cluster-plan
	@CLUSTER_PLAN=$(abspath $(B)/bin/cluster-plan) bash cluster/up.sh

cluster-down:
	@bash cluster/down.sh

cluster-status:
	@bash cluster/status.sh
