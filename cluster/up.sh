#!/usr/bin/env bash
# cluster/up.sh: starts the local Slurm cluster: munge, slurmctld and one
# slurmd per emulated node (see node.sh), optionally MariaDB + slurmdbd.
# Idempotent: a cluster that is up with these settings is left alone (its
# drained or down nodes said); one up with other settings is refused in one
# line, untouched; stale state from a crash is cleaned first. One start or
# stop of a tree, and one start on a port, at a time (cluster_lock).
# Settings: see lib.sh. Writes $CLUSTER_DIR/env.sh.
set -euo pipefail
here=$(dirname "$0")
# shellcheck source=cluster/lib.sh
CLUSTER_NEW=1 . "$here/lib.sh"

check_settings
[ "$(id -u)" -eq 0 ] || die "the local cluster runs its daemons as root: run 'make cluster-up' as root"
unshare -m -u true 2>/dev/null || die "this machine does not allow mount and UTS namespaces (unshare -m -u failed)"
for cmd in munged slurmctld slurmd sbatch; do
	command -v "$cmd" >/dev/null || die "'$cmd' is missing: run 'make deps'"
done
why=""
! fabric_on || why=$(fabric_available)
[ -z "$why" ] || die "cannot build the fabric: $why; CLUSTER_FABRIC=lo runs the cluster on loopback"

settings="nodes=$CLUSTER_NODES cpus=$CLUSTER_CPUS gpus=$CLUSTER_GPUS port=$CLUSTER_PORT accounting=$CLUSTER_ACCOUNTING"
settings+=" fabric=$CLUSTER_FABRIC tiers=$CLUSTER_TIERS leaves=$(plan links | awk '$1 == "nic" { l[$3] } END { print length(l) }')"
fabric_on && settings+=" nic_rate=$CLUSTER_NIC_RATE oversub=$CLUSTER_OVERSUB rails=$CLUSTER_RAILS"
cluster_lock "$CLUSTER_PORT"
# A cluster that is up is left alone: with these settings, said with each
# node Slurm starts no job on; with others, refused (its jobs are someone's).
if [ -f "$RUN/settings" ] && "$here/status.sh" -q; then
	[ "$(cat "$RUN/settings")" = "$settings" ] || die "the cluster of $CLUSTER_DIR is up with other settings ($(cat "$RUN/settings")), not these ($settings): left as it is; 'make cluster-down' first to start it with these"
	say "already up ($settings)"
	nodes_unusable | while read -r n state why; do say "$n: $state $why: Slurm starts no job there"; done || true
	exit 0
fi
if fabric_taken && fabric_orphaned; then
	say "removing $NS-*: the namespaces of a cluster whose processes are gone (stopped without 'make cluster-down')"
	fabric_remove_namespaces
fi
fabric_taken && die "port $CLUSTER_PORT is taken: choose another base with CLUSTER_PORT=... (its fabric, $NS-*, is another cluster's)"
# Stale or different: start from a clean slate.
"$here/down.sh" -q

# On loopback the ports are this machine's; with the fabric, the namespaces'.
if ! fabric_on; then
	for p in "$CLUSTER_PORT" $(for n in $(node_names); do node_port "$n"; done) \
		$([ "$CLUSTER_ACCOUNTING" != 1 ] || echo "$DBD_PORT $SQL_PORT"); do
		port_taken "$p" && die "port $p is taken: choose another base with CLUSTER_PORT=..."
	done
fi

mkdir -p "$ETC" "$RUN" "$LOG" "$SPOOL" "$STATE" "$DEV" "$CLUSTER_DIR/munge"
# A start that fails half-way leaves nothing running, and no namespace.
trap '[ $? -eq 0 ] || "$here/down.sh" -q' EXIT

# --- the fabric, and the clients' way into the head's namespace -----------
if fabric_on; then
	"$here/fabric.sh" build 2>"$LOG/fabric.err" || die "building the fabric failed: $(tail -n 1 "$LOG/fabric.err")"
	HEAD=(nsenter --net="$(ns_path head)" --)
	client_wrappers
	PATH=$CLUSTER_DIR/bin:$PATH
fi
chmod 700 "$CLUSTER_DIR/munge"

# --- munge, with this cluster's own key and socket ----------------------
[ -s "$CLUSTER_DIR/munge/munge.key" ] || dd if=/dev/urandom of="$CLUSTER_DIR/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$CLUSTER_DIR/munge/munge.key"
# Daemons get no inherited descriptors beyond their logs (exec_without_fds).
(exec_without_fds munged --force --socket="$RUN/munge.socket" --key-file="$CLUSTER_DIR/munge/munge.key" \
	--pid-file="$RUN/munged.pid" --log-file="$LOG/munged.log" \
	--seed-file="$CLUSTER_DIR/munge/munged.seed" </dev/null >/dev/null 2>>"$LOG/munged.log") ||
	die "munged did not start; see $LOG/munged.log"

# --- fake GPU devices and configuration ----------------------------------
"$here/config.sh" "$settings"

[ "$CLUSTER_ACCOUNTING" != 1 ] || "$here/accounting.sh"

# --- daemons ---------------------------------------------------------------
(exec_without_fds "${HEAD[@]}" slurmctld -f "$SLURM_CONF" -i </dev/null >/dev/null 2>>"$LOG/slurmctld.start") || die "slurmctld did not start; see $LOG/slurmctld.log"
for n in $(node_names); do
	"$here/node.sh" start "$n"
done

{
	echo "# Source this file to point sbatch, srun, squeue, sacct, ... at the local cluster."
	echo "export SLURM_CONF=$SLURM_CONF"
	# the tree's aller and collect (README: make, then . build/cluster/env.sh) and,
	# with the fabric, the client wrappers before them
	for d in "$CLUSTER_ROOT/build/bin" "$CLUSTER_DIR/bin"; do [ "$d" = "$CLUSTER_ROOT/build/bin" ] || fabric_on || continue; echo "case :\$PATH: in *:$d:*) ;; *) export PATH=$d:\$PATH ;; esac"; done
} >"$CLUSTER_DIR/env.sh"
echo "$settings" >"$RUN/settings"

# Wait until every node is usable: up and answering, not drained (sinfo's %T
# says "drained" where -t idle would count it).
nodes_up() { [ "$(sinfo -h -N -o '%N %T' 2>/dev/null | awk '$2 ~ /^(idle|mixed|allocated)$/ { print $1 }' | sort -u | wc -l)" -ge "$CLUSTER_NODES" ]; }
retry 150 0.2 nodes_up ||
	die "not every node is usable within 30 s: $(nodes_unusable | paste -sd, -); see $LOG/"
# Jobs slurmctld recovered from its state ran in daemons that are gone (a
# machine restarted without cluster-down); they would hold nodes until their
# time limit.
left=$(squeue -h -o %i 2>/dev/null | paste -sd' ')
# shellcheck disable=SC2086 # a list of job ids
[ -z "$left" ] || { scancel $left 2>/dev/null; say "up: cancelled jobs left from an earlier run: $left"; }
say "up: $CLUSTER_NODES nodes ($settings); source $CLUSTER_DIR/env.sh"
