#!/usr/bin/env bash
# cluster/down.sh [-q]: stops every process the local cluster started, by
# pid files (and, for nodes, the namespace each node ran in), never by name,
# waiting until each has ended; then removes the fabric's network namespaces
# (net.sh). Exit 1, naming the pid, when a process of its own runs still.
set -euo pipefail
# shellcheck source=cluster/lib.sh
. "$(dirname "$0")/lib.sh"

quiet=0
[ "${1:-}" = -q ] && quiet=1
cluster_lock "" "$@"   # the tree's lock (a stop takes no port's)
if [ ! -d "$RUN" ]; then
	fabric_remove
	exit 0
fi

rc=0
for f in "$RUN"/slurmd-*.pid "$RUN"/*.mntns; do
	[ -e "$f" ] || continue
	n=${f##*/} n=${n#slurmd-} n=${n%.pid} n=${n%.mntns}   # slurmd-n3.pid, n3.mntns: n3
	"$(dirname "$0")/node.sh" kill "$n" || rc=1
done
for d in slurmctld slurmdbd mariadbd munged; do stop_pid "$RUN/$d.pid" || rc=1; done
# a daemon that runs still keeps what it needs: exit 1, its pid named above
[ "$rc" = 0 ] || exit 1
rm -f "$RUN/settings" "$RUN/munge.socket" "$RUN/munge.socket.lock"
# the fabric's namespaces (with their links, bridges and qdiscs) and the
# clients' way into them
fabric_remove
rm -rf "${CLUSTER_DIR:?}/bin" "$CLUSTER_DIR/env.sh"
[ "$quiet" = 1 ] || say "down"
