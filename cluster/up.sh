#!/usr/bin/env bash
# cluster/up.sh: starts the local Slurm cluster: munge, slurmctld and one
# slurmd per emulated node (see node.sh), optionally MariaDB + slurmdbd.
# Idempotent: a cluster that is up is left alone; stale state from a crash
# is cleaned first. Settings: see lib.sh. Writes $CLUSTER_DIR/env.sh.
set -euo pipefail
here=$(dirname "$0")
# shellcheck source=cluster/lib.sh
. "$here/lib.sh"

check_settings
[ "$(id -u)" -eq 0 ] || die "the local cluster runs its daemons as root: run 'make cluster-up' as root"
unshare -m -u true 2>/dev/null || die "this machine does not allow mount and UTS namespaces (unshare -m -u failed)"
for cmd in munged slurmctld slurmd sbatch; do
	command -v "$cmd" >/dev/null || die "'$cmd' is missing: run 'make deps'"
done
if fabric_on; then
	why=$(fabric_available)
	[ -z "$why" ] || die "cannot build the fabric: $why; CLUSTER_FABRIC=lo runs the cluster on loopback"
fi

settings="nodes=$CLUSTER_NODES cpus=$CLUSTER_CPUS gpus=$CLUSTER_GPUS port=$CLUSTER_PORT accounting=$CLUSTER_ACCOUNTING"
settings+=" fabric=$CLUSTER_FABRIC"
fabric_on && settings+=" nic_rate=$CLUSTER_NIC_RATE oversub=$CLUSTER_OVERSUB"
if [ -f "$RUN/settings" ] && [ "$(cat "$RUN/settings")" = "$settings" ] && "$here/status.sh" -q; then
	say "already up ($settings)"
	exit 0
fi
fabric_taken && die "port $CLUSTER_PORT is taken: choose another base with CLUSTER_PORT=... (its fabric, $NS-*, is another cluster's)"
# Stale or different: start from a clean slate.
"$here/down.sh" -q

# On loopback the ports are this machine's; with the fabric, the namespaces'.
if ! fabric_on; then
	for p in "$CLUSTER_PORT" $(for n in $(node_names); do node_port "$n"; done); do
		port_taken "$p" && die "port $p is taken: choose another base with CLUSTER_PORT=..."
	done
	if [ "$CLUSTER_ACCOUNTING" = 1 ]; then
		for p in "$DBD_PORT" "$SQL_PORT"; do
			port_taken "$p" && die "port $p is taken: choose another base with CLUSTER_PORT=..."
		done
	fi
fi

mkdir -p "$ETC" "$RUN" "$LOG" "$SPOOL" "$STATE" "$DEV" "$CLUSTER_DIR/munge"
# A start that fails half-way leaves nothing running, and no namespace.
# shellcheck disable=SC2317 # invoked by the trap
on_exit() {
	local rc=$?
	if [ "$rc" -ne 0 ]; then "$here/down.sh" -q; fi
}
trap on_exit EXIT

# --- the fabric, and the clients' way into the head's namespace -----------
if fabric_on; then
	"$here/fabric.sh" build 2>"$LOG/fabric.err" || die "building the fabric failed: $(tail -n 1 "$LOG/fabric.err")"
	HEAD=(nsenter --net="$(ns_path head)" --)
	client_wrappers
	PATH=$CLUSTER_DIR/bin:$PATH
fi
chmod 700 "$CLUSTER_DIR/munge"

# --- munge, with this cluster's own key and socket ----------------------
if [ ! -s "$CLUSTER_DIR/munge/munge.key" ]; then
	dd if=/dev/urandom of="$CLUSTER_DIR/munge/munge.key" bs=1024 count=1 status=none
fi
chmod 400 "$CLUSTER_DIR/munge/munge.key"
# Daemons get no inherited descriptors beyond their logs (exec_without_fds).
(exec_without_fds munged --force --socket="$RUN/munge.socket" --key-file="$CLUSTER_DIR/munge/munge.key" \
	--pid-file="$RUN/munged.pid" --log-file="$LOG/munged.log" \
	--seed-file="$CLUSTER_DIR/munge/munged.seed" </dev/null >/dev/null 2>>"$LOG/munged.log") ||
	die "munged did not start; see $LOG/munged.log"

# --- fake GPU devices and configuration ----------------------------------
gres_line=""
if [ "$CLUSTER_GPUS" -gt 0 ]; then
	for ((g = 0; g < CLUSTER_GPUS; g++)); do
		[ -e "$DEV/nvidia$g" ] || mknod "$DEV/nvidia$g" c 195 "$g"
	done
	gres_line="Gres=gpu:$CLUSTER_GPUS"
	{
		echo "# Fake GPUs: device nodes only; no driver behind them."
		echo "AutoDetect=off"
		echo "Name=gpu File=$DEV/nvidia[0-$((CLUSTER_GPUS - 1))]"
	} >"$ETC/gres.conf"
else
	: >"$ETC/gres.conf"
fi

# What MPI needs on emulated nodes: TCP over the node's NIC (eth0 on the
# fabric, loopback without it), and yielding, since all nodes share this
# machine's cores. A cluster property, so it lives here, not in the job
# templates. On the fabric, ALLER_FABRIC_INFO tells a job how to ask for its
# node's NIC, rate and faults (its provenance).
nic=lo
fabric_on && nic=eth0
cat >"$ETC/task-prolog.sh" <<PROLOG
#!/bin/sh
echo "export OMPI_MCA_btl_tcp_if_include=$nic"
echo "export OMPI_MCA_oob_tcp_if_include=$nic"
echo "export UCX_NET_DEVICES=$nic"
$(fabric_on && printf 'echo "export ALLER_FABRIC_INFO=\"%s info\""
' "$CLUSTER_ROOT/cluster/fabric.sh")
PROLOG
cat >>"$ETC/task-prolog.sh" <<'PROLOG'
echo "export OMPI_MCA_mpi_yield_when_idle=1"
# A session directory per step: back-to-back steps of one job never share one
# (a step that finalises can otherwise remove what the next one just made).
dir="/tmp/ompi-$SLURM_JOB_ID.${SLURM_STEP_ID:-batch}"
mkdir -p "$dir" && echo "export OMPI_MCA_orte_tmpdir_base=$dir"
PROLOG
chmod 755 "$ETC/task-prolog.sh"

host=$(hostname -s)
ctld_addr=127.0.0.1
fabric_on && ctld_addr=$HEAD_IP
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
cat >"$SLURM_CONF" <<CONF
# Generated by cluster/up.sh: the local cluster ($settings).
ClusterName=$CLUSTER_NAME
SlurmctldHost=$host($ctld_addr)
SlurmctldPort=$CLUSTER_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$RUN/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$STATE
SlurmdSpoolDir=$SPOOL/%n
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd-%n.pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$LOG/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
TaskProlog=$ETC/task-prolog.sh
MpiDefault=pmix
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
GresTypes=gpu
ReturnToService=2
# a point lost with its node is re-run by the campaign, not requeued behind its back
JobRequeue=0
SlurmdTimeout=10
SlurmctldTimeout=10
MessageTimeout=10
InactiveLimit=0
KillWait=5
MinJobAge=3600
SchedulerType=sched/backfill
# two leaf switches under one spine (topology.conf), for --switches and the jobs' provenance
TopologyPlugin=topology/tree
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
$(if [ "$CLUSTER_ACCOUNTING" = 1 ]; then
	echo "AccountingStorageType=accounting_storage/slurmdbd"
	echo "AccountingStorageHost=127.0.0.1"
	echo "AccountingStoragePort=$DBD_PORT"
	echo "AccountingStoragePass=$RUN/munge.socket"
else
	echo "AccountingStorageType=accounting_storage/none"
fi)
$(node_lines)
PartitionName=debug Nodes=n[1-$CLUSTER_NODES] Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
: >"$ETC/cgroup.conf"
# the switches the fabric has (net.sh: leaf_of), or would have on loopback
{
	echo "# Generated by cluster/up.sh: the leaf switches$([ "$(leaf_count)" -gt 1 ] && echo " under a spine")."
	for leaf in leaf1 leaf2; do
		nodes=$(leaf_hostlist "$leaf")
		[ -z "$nodes" ] || echo "SwitchName=$leaf Nodes=$nodes"
	done
	[ "$(leaf_count)" -eq 1 ] || echo "SwitchName=spine Switches=leaf[1-2]"
} >"$ETC/topology.conf"

if [ "$CLUSTER_ACCOUNTING" = 1 ]; then
	"$here/accounting.sh"
fi

# --- daemons ---------------------------------------------------------------
(exec_without_fds "${HEAD[@]}" slurmctld -f "$SLURM_CONF" -i </dev/null >/dev/null 2>>"$LOG/slurmctld.start") || die "slurmctld did not start; see $LOG/slurmctld.log"
for n in $(node_names); do
	"$here/node.sh" start "$n"
done

{
	echo "# Source this file to point sbatch, srun, squeue, sacct, ... at the local cluster."
	echo "export SLURM_CONF=$SLURM_CONF"
	! fabric_on || echo "case :\$PATH: in *:$CLUSTER_DIR/bin:*) ;; *) export PATH=$CLUSTER_DIR/bin:\$PATH ;; esac"
} >"$CLUSTER_DIR/env.sh"
echo "$settings" >"$RUN/settings"

# Wait until every node answers.
for ((i = 0; i < 150; i++)); do
	if [ "$(sinfo -h -N -t idle,mixed,alloc -o '%N' 2>/dev/null | sort -u | wc -l)" -ge "$CLUSTER_NODES" ]; then
		# Jobs slurmctld recovered from its state ran in daemons that are gone
		# (a machine restarted without cluster-down); they would hold nodes
		# until their time limit.
		left=$(squeue -h -o %i 2>/dev/null | tr '\n' ' ')
		if [ -n "${left// /}" ]; then
			# shellcheck disable=SC2086 # a list of job ids
			scancel $left 2>/dev/null || true
			say "up: cancelled jobs left from an earlier run: $left"
		fi
		say "up: $CLUSTER_NODES nodes ($settings); source $CLUSTER_DIR/env.sh"
		exit 0
	fi
	sleep 0.2
done
sinfo -N >&2 || true
die "nodes did not become idle within 30 s; see $LOG/"
