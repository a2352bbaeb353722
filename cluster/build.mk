# cluster/: a real Slurm cluster on this machine (see cluster/lib.sh).
CLUSTER_VARS = CLUSTER_NODES CLUSTER_CPUS CLUSTER_GPUS CLUSTER_PORT CLUSTER_ACCOUNTING CLUSTER_DIR \
	CLUSTER_FABRIC CLUSTER_NIC_RATE CLUSTER_OVERSUB CLUSTER_LEAVES
export $(CLUSTER_VARS)

cluster-up: deps-demo
	@bash cluster/up.sh

cluster-down:
	@bash cluster/down.sh

cluster-status:
	@bash cluster/status.sh
