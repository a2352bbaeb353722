#!/usr/bin/env bash
# cluster/node.sh start|kill|revive NODE: one emulated node of the local cluster.
#
# start: runs slurmd -N NODE in its own mount and UTS namespaces, with the
#        hostname NODE and private /tmp and /dev/shm, so PMIx and Open MPI
#        files of different nodes never meet. Paths under /tmp that jobs and
#        slurmd need (the repository, CLUSTER_DIR, when they live there) stay
#        visible. On the fabric,
#        in the node's network namespace too (net.sh), with a hosts file
#        that names the nodes by their NICs' addresses.
# kill:  fault injection: ends the node's slurmd and everything in its
#        namespace (job steps too), as a crashed node would.
# revive: starts it again.
set -euo pipefail
# shellcheck source=cluster/lib.sh
. "$(dirname "$0")/lib.sh"

usage() { die "usage: node.sh start|kill|revive NODE"; }
[ $# -eq 2 ] || usage
node=$2
[[ $node =~ ^n[0-9]+$ ]] || die "invalid node '$node': expected n1..n$CLUSTER_NODES"

start() {
	local pidfile=$RUN/slurmd-$node.pid
	! pid_alive "$pidfile" || return 0   # running already
	mkdir -p "$SPOOL/$node" "$CLUSTER_DIR/nodes/$node/stage"
	local net=() hosts=""
	if [ -e "$(ns_path "$node")" ]; then
		net=(nsenter --net="$(ns_path "$node")" --)
		hosts=$FAB/hosts
	fi
	# The namespace part runs in the child of unshare; it ends in exec slurmd.
	# shellcheck disable=SC2016 # expanded by that child
	(exec_without_fds "${net[@]}" unshare -m -u --propagation private bash -euc '
		node=$1 root=$2 stage=$3 conf=$4 pidfile=$5 nsfile=$6 hosts=$7 dir=$8
		hostname "$node"
		[ -z "$hosts" ] || mount --bind "$hosts" /etc/hosts
		mount -t tmpfs -o mode=1777,size=2g "tmpfs-$node" "$stage"
		for keep in "$root" "$dir"; do
			case $keep in
			"$root"/*) ;;
			/tmp/*)
				mkdir -p "$stage/${keep#/tmp/}"
				mount --bind "$keep" "$stage/${keep#/tmp/}" ;;
			esac
		done
		mount --move "$stage" /tmp
		mount -t tmpfs -o mode=1777,size=2g "shm-$node" /dev/shm
		readlink /proc/self/ns/mnt >"$nsfile"
		exec slurmd -N "$node" -f "$conf" 
	' node-ns "$node" "$CLUSTER_ROOT" "$CLUSTER_DIR/nodes/$node/stage" "$SLURM_CONF" \
		"$pidfile" "$RUN/$node.mntns" "$hosts" "$CLUSTER_DIR" </dev/null >>"$LOG/slurmd-$node.start" 2>&1)
	retry 100 0.1 pid_alive "$pidfile" || die "slurmd of node $node did not start; see $LOG/slurmd-$node.log"
}

# every process of the node's namespace ended and gone, or a line naming one
# that runs still and status 1 (the namespace file kept)
kill_node() {
	local pids p rc=0 tries=0
	stop_pid "$RUN/slurmd-$node.pid" || rc=1
	# what is in its namespace after slurmd, until none (a step it started as it stopped: 90-cluster-down)
	while pids=$(node_ns_pids "$node") && [ -n "$pids" ] && ((tries++ < 5)); do
		for p in $pids; do
			kill -9 "$p" 2>/dev/null
			retry 50 0.1 gone "$p" || { say "error: process $p of node $node still runs after KILL"; rc=1; }
		done
	done
	[ "$rc" = 1 ] || rm -f "$RUN/$node.mntns"
	return "$rc"
}

case $1 in
start | revive) start ;;
kill) kill_node ;;
*) usage ;;
esac
