#!/usr/bin/env bash
# cluster/config.sh SETTINGS: the local cluster's configuration, written by
# up.sh before the daemons start: fake GPU devices and gres.conf, the
# TaskProlog, slurm.conf (SETTINGS in its first line), mpi.conf, cgroup.conf
# and topology.conf (the fabric's switches, net.sh). Settings: see lib.sh.
set -euo pipefail
# shellcheck source=cluster/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=cluster/shape.sh
. "$(dirname "$0")/shape.sh"
settings=$1
gres_line=""
: >"$ETC/gres.conf"
if [ "$CLUSTER_GPUS" -gt 0 ]; then
	for ((g = 0; g < CLUSTER_GPUS; g++)); do
		[ -e "$DEV/nvidia$g" ] || mknod "$DEV/nvidia$g" c 195 "$g"
	done
	gres_line="Gres=gpu:$CLUSTER_GPUS"
	printf '# Fake GPUs: device nodes only; no driver behind them.\nAutoDetect=off\nName=gpu File=%s\n' \
		"$DEV/nvidia[0-$((CLUSTER_GPUS - 1))]" >"$ETC/gres.conf"
fi

# What MPI needs on emulated nodes: TCP over the node's NICs (eth0 on the
# fabric, with rails eth0,eth1 ...: each message striped over them;
# loopback without it), and yielding, since all nodes share this machine's
# cores. A cluster property, so it lives here, not in the job templates (a
# job that names its own, e.g. one rail, keeps it). On the fabric,
# ALLER_FABRIC_INFO tells a job how to ask for its node's NICs, rates and
# faults (its provenance), and ALLER_LINE_RATE declares the node's built
# rate in GB/s, its NICs' together (a veth's sysfs speed is not the cap):
# aller's eff is judged against it, so a slowed NIC shows.
nic=lo fabric="" ctld_addr=127.0.0.1
if fabric_on; then
	nic=eth0 ctld_addr=$HEAD_IP
	for ((k = 1; k < CLUSTER_RAILS; k++)); do nic+=",eth$k"; done
	fabric="echo \"export ALLER_FABRIC_INFO=$CLUSTER_ROOT/cluster/fabric.sh info\"
echo \"export ALLER_LINE_RATE=$(awk -v k="$(rate_kbit "$CLUSTER_NIC_RATE")" -v r="$CLUSTER_RAILS" 'BEGIN { printf "%.6g", k * r / 8e6 }')\""
fi
render "$CLUSTER_ROOT/cluster/task-prolog.sh.in" NIC="$nic" FABRIC="$fabric" >"$ETC/task-prolog.sh"
chmod 755 "$ETC/task-prolog.sh"

host=$(hostname -s)
# node lines: on loopback one for all; on the fabric each node at its NIC's address
node_lines() {
	local n
	if ! fabric_on; then
		echo "NodeName=n[1-$CLUSTER_NODES] NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((CLUSTER_PORT + 1))-$((CLUSTER_PORT + CLUSTER_NODES)) CPUs=$CLUSTER_CPUS RealMemory=1024 $gres_line State=UNKNOWN"
		return
	fi
	for n in $(node_names); do
		echo "NodeName=$n NodeHostname=$n NodeAddr=$(node_ip "$n") Port=$(node_port "$n") CPUs=$CLUSTER_CPUS RealMemory=1024 $gres_line State=UNKNOWN"
	done
}
accounting="AccountingStorageType=accounting_storage/none"
[ "$CLUSTER_ACCOUNTING" != 1 ] || accounting="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$DBD_PORT
AccountingStoragePass=$RUN/munge.socket"
render "$CLUSTER_ROOT/cluster/slurm.conf.in" SETTINGS="$settings" CLUSTER_NAME="$CLUSTER_NAME" HOST="$host" \
	CTLD_ADDR="$ctld_addr" PORT="$CLUSTER_PORT" RUN="$RUN" STATE="$STATE" SPOOL="$SPOOL" LOG="$LOG" \
	ETC="$ETC" NODES_COUNT="$CLUSTER_NODES" ACCOUNTING="$accounting" NODES="$(node_lines)" >"$SLURM_CONF"
: >"$ETC/cgroup.conf"
render "$CLUSTER_ROOT/cluster/mpi.conf.in" >"$ETC/mpi.conf"
# the switches the fabric has (net.sh's plan), or would have on loopback
plan -t >"$ETC/topology.conf"
