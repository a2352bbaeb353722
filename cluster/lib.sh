# cluster/lib.sh: settings and helpers shared by the local cluster's scripts.
# Sourced, not run. Settings (environment, or make variables of the same name):
#   CLUSTER_NODES (4)  CLUSTER_CPUS (2)  CLUSTER_GPUS (2)  CLUSTER_PORT (17000)
#   CLUSTER_ACCOUNTING (0: no slurmdbd; 1: MariaDB + slurmdbd for sacct)
#   CLUSTER_FABRIC (veth: nodes with their own NICs, switches and capped
#     links, see net.sh; lo: all nodes on this machine's loopback)
#   CLUSTER_NIC_RATE (1gbit) each node's NIC; CLUSTER_TIERS (2: leaves
#     under a spine; 3: leaves under aggregation switches under a core; 1:
#     one switch); CLUSTER_LEAVES (2, 4 with three tiers, one for one node)
#     the leaf switches, the nodes in blocks under them; CLUSTER_OVERSUB (2)
#     a switch's uplink carries what is under it over this ("A B": a factor
#     per tier boundary from the leaves up); CLUSTER_RAILS (1) each node's
#     NICs, each on its own rail of leaves (two tiers); cluster/plan.c,
#     CLUSTER_PLAN, makes the plan
#   CLUSTER_DIR (build/cluster): configuration, state, logs, keys
# shellcheck shell=bash disable=SC2034 # the settings are used by the scripts that source this

CLUSTER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${CLUSTER_NODES:=4}" "${CLUSTER_CPUS:=2}" "${CLUSTER_GPUS:=2}" "${CLUSTER_PORT:=17000}" "${CLUSTER_ACCOUNTING:=0}"
: "${CLUSTER_DIR:=$CLUSTER_ROOT/build/cluster}" "${CLUSTER_FABRIC:=veth}" "${CLUSTER_NIC_RATE:=1gbit}" "${CLUSTER_OVERSUB:=2}"
: "${CLUSTER_TIERS:=2}" "${CLUSTER_RAILS:=1}" "${CLUSTER_PLAN:=$CLUSTER_ROOT/build/bin/cluster-plan}"
CLUSTER_LEAVES=${CLUSTER_LEAVES:-}   # empty: the plan's default
# the burst each link's shaper (htb) lets through at once, bytes: fabric.sh
# info says it (nic_burst, uplink_burst), and collect explains by it a row
# that beat its bound
SHAPE_BURST=65536
CLUSTER_NAME=aller

# where its configuration, runtime files, logs, spool, state, fake devices and database go
ETC=$CLUSTER_DIR/etc RUN=$CLUSTER_DIR/run LOG=$CLUSTER_DIR/log SPOOL=$CLUSTER_DIR/spool
STATE=$CLUSTER_DIR/state DEV=$CLUSTER_DIR/dev DB=$CLUSTER_DIR/mysql
export SLURM_CONF=$ETC/slurm.conf
# The cluster of this CLUSTER_DIR is the one its settings name: every script
# but up.sh (CLUSTER_NEW=1) takes its port from them, never from the
# environment, so that no command of this clone reaches another cluster's
# namespaces or daemons on the port it was given.
[ -n "${CLUSTER_NEW:-}" ] || [ ! -s "$RUN/settings" ] ||
	CLUSTER_PORT=$(sed -n 's/.* port=\([0-9]*\) .*/\1/p' "$RUN/settings")
# shellcheck source=cluster/net.sh
. "$CLUSTER_ROOT/cluster/net.sh"
# With the fabric, the Slurm clients reach the controller in its namespace
# through the wrappers in $CLUSTER_DIR/bin (made by up.sh), and daemons of the
# head start there: $HEAD is the prefix that puts a command in it.
HEAD=()
[ ! -e "$(ns_path head)" ] || HEAD=(nsenter --net="$(ns_path head)" --)
[[ ! -d $CLUSTER_DIR/bin || :$PATH: == *":$CLUSTER_DIR/bin:"* ]] || PATH=$CLUSTER_DIR/bin:$PATH

die() { printf 'cluster: error: %s\n' "$*" >&2; exit 1; }

# render TEMPLATE NAME=VALUE...: the template (cluster/*.in: a daemon's
# configuration) with each @NAME@ its VALUE, its own '##' lines left out.
render() {
	local t a n v
	t=$(grep -v '^##' "$1")
	shift
	for a in "$@"; do
		n=${a%%=*} v=${a#*=}
		t=${t//"@$n@"/"$v"}   # quoted: a value's '&' or '\' is itself
	done
	printf '%s\n' "$t"
}

say() { printf 'cluster: %s\n' "$*" >&2; }

check_settings() {
	local v
	for v in CLUSTER_NODES CLUSTER_CPUS CLUSTER_PORT; do
		[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v '${!v}' is not a positive integer"
	done
	[[ $CLUSTER_GPUS =~ ^[0-9]+$ ]] || die "CLUSTER_GPUS '$CLUSTER_GPUS' is not a non-negative integer"
	[[ $CLUSTER_ACCOUNTING =~ ^[01]$ ]] || die "CLUSTER_ACCOUNTING '$CLUSTER_ACCOUNTING' must be 0 or 1"
	((CLUSTER_NODES <= 64)) || die "CLUSTER_NODES '$CLUSTER_NODES' is over 64"
	((CLUSTER_CPUS <= $(nproc))) ||
		die "CLUSTER_CPUS '$CLUSTER_CPUS' is over this machine's $(nproc) cores: Slurm would drain every node (Low CPUs)"
	((CLUSTER_PORT >= 1024 && CLUSTER_PORT <= 65000)) ||
		die "CLUSTER_PORT '$CLUSTER_PORT' must be 1024..65000"
	[[ $CLUSTER_FABRIC =~ ^(veth|lo)$ ]] || die "CLUSTER_FABRIC '$CLUSTER_FABRIC' must be veth or lo"
	[ -x "$CLUSTER_PLAN" ] || die "'$CLUSTER_PLAN' is missing: 'make cluster-up' builds it (cluster/plan.c)"
	valid_rate "$CLUSTER_NIC_RATE" ||
		die "CLUSTER_NIC_RATE '$CLUSTER_NIC_RATE' is not a rate: a number and kbit, mbit or gbit (e.g. 500mbit, 2gbit)"
	v=$(plan links 2>&1 >/dev/null) || die "$v"   # CLUSTER_TIERS, CLUSTER_LEAVES, CLUSTER_OVERSUB
}

node_names() {
	local i
	for ((i = 1; i <= CLUSTER_NODES; i++)); do printf 'n%d\n' "$i"; done
}

# Ports: slurmctld at the base, slurmd of node i at base+i, slurmdbd and
# MariaDB at base+100 and base+101.
node_port() { echo $((CLUSTER_PORT + ${1#n})); }
DBD_PORT=$((CLUSTER_PORT + 100))
SQL_PORT=$((CLUSTER_PORT + 101))

# number_in V LO HI: V is a decimal number, LO < V <= HI
number_in() {
	[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] || return 1
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v > lo && v <= hi) }'
}

# port_taken PORT: something listens on it (in the head's namespace, with the fabric)
port_taken() {
	# shellcheck disable=SC2016 # expanded by that bash
	"${HEAD[@]}" bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' port "$1" 2>/dev/null
}

# exec_without_fds CMD...: closes every descriptor but 0-2, then execs CMD.
# Use it in a subshell: '(exec_without_fds daemon ...)'. A daemon must not
# keep a caller's pipe open: a test runner reading it would wait for ever.
exec_without_fds() {
	local fd
	for fd in "/proc/$BASHPID/fd"/*; do
		fd=${fd##*/}
		[[ ! $fd =~ ^[0-9]+$ || $fd -le 2 ]] || eval "exec $fd>&-"
	done
	exec "$@"
}

# gone PID: the process has ended (a zombie, ended but not reaped, too)
gone() { [[ ! -e /proc/$1 || $(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) == Z ]]; }

# pid_alive FILE: the process named in a pid file runs (a zombie, killed and
# not yet reaped, does not).
pid_alive() {
	local pid
	pid=$(cat "$1" 2>/dev/null) && [[ $pid =~ ^[0-9]+$ ]] && ! gone "$pid"
}

# retry TRIES PAUSE CMD...: CMD until it succeeds, at most TRIES times,
# PAUSE seconds apart; whether it did.
retry() {
	local n=$1 pause=$2 i
	shift 2
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep "$pause"
	done
	return 1
}

# stop_pid FILE: ends the process a pid file of the cluster names, when it runs
# the daemon the file is named for (slurmd-n3.pid: slurmd; another command
# under a reused pid is left alone): TERM, then KILL after $STOP_WAIT s (20),
# waiting on the process itself, not on its file (slurmctld removes its pid
# file as it begins to stop). The file goes once the process is gone; one
# still running is a line naming it, and status 1.
stop_pid() {
	local f=$1 pid name=${1##*/}
	name=${name%.pid} name=${name%%-*}
	pid=$(cat "$f" 2>/dev/null) || return 0
	if [[ $pid =~ ^[0-9]+$ && $(cat "/proc/$pid/comm" 2>/dev/null) == "$name" ]]; then
		kill "$pid" 2>/dev/null
		retry $((${STOP_WAIT:-20} * 10)) 0.1 gone "$pid" || { kill -9 "$pid" 2>/dev/null; retry 50 0.1 gone "$pid"; } ||
			{ say "error: $name (pid $pid of $f) still runs after TERM and KILL"; return 1; }
	fi
	rm -f "$f"
}

# cluster_lock: one cluster-up or cluster-down of this CLUSTER_DIR at a
# time (flock on $CLUSTER_DIR/lock, held until the command ends; the
# scripts it runs inherit it: CLUSTER_LOCKED), and with PORT one start on
# that port from any tree at a time (/run/lock/aller-PORT.lock), so that no
# start takes another's namespaces, still without processes, for orphans.
# cluster_lock PORT ARGS...: waits up to 120 s for the other (then one
# line, exit 1), and then runs the script again with ARGS, locked: what the
# other made (the clients' wrappers, the head's namespace) read anew.
cluster_lock() {
	[ -z "${CLUSTER_LOCKED:-}" ] || return 0
	mkdir -p "$CLUSTER_DIR" /run/lock && exec 8>>"$CLUSTER_DIR/lock" && exec 7>>"/run/lock/aller-${1:-none}.lock"
	flock -n 8 || { waited=1 && flock -w 120 8; } || die "another cluster-up or cluster-down of $CLUSTER_DIR still runs after 120 s ($CLUSTER_DIR/lock)"
	[ -z "$1" ] || flock -n 7 || { waited=1 && flock -w 120 7; } || die "another tree's cluster-up on port $1 still runs after 120 s (/run/lock/aller-$1.lock)"
	export CLUSTER_LOCKED=1
	[ -z "${waited:-}" ] || exec bash "$0" "${@:2}"
}

# nodes_unusable: 'NODE STATE (REASON)' of each node Slurm would start no
# job on now (sinfo's full state, %T, not idle, mixed or allocated: drained,
# draining, down, not responding '*', ...).
nodes_unusable() { sinfo -h -N -o '%N|%T|%E' 2>/dev/null | awk -F'|' '!seen[$1]++ && $2 !~ /^(idle|mixed|allocated)$/ { print $1, $2, "(" $3 ")" }'; }

# The processes in a node's mount namespace (its slurmd, slurmstepd and job
# steps), found through the namespace recorded when the node started.
node_ns_pids() {
	local nsfile=$RUN/$1.mntns ns p
	[ -s "$nsfile" ] || return 0
	ns=$(cat "$nsfile")
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] && echo "${p#/proc/}"
	done
	return 0
}
