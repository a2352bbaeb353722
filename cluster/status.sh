#!/usr/bin/env bash
# cluster/status.sh [-q]: whether every daemon of the local cluster runs,
# and each node Slurm starts no job on (drained, down: its state and reason).
# Exit status 0 when all do, 1 otherwise; -q prints nothing.
set -uo pipefail
# shellcheck source=cluster/lib.sh
. "$(dirname "$0")/lib.sh"

quiet=0
[ "${1:-}" = -q ] && quiet=1
ok=0
report() { [ "$quiet" = 1 ] || printf '%-12s %s\n' "$1" "$2"; }
check() {
	if pid_alive "$RUN/$2.pid"; then
		report "$1" "running (pid $(cat "$RUN/$2.pid"))"
	else
		report "$1" "not running"
		ok=1
	fi
}
[ -f "$RUN/settings" ] || { report cluster "not up"; exit 1; }
report settings "$(cat "$RUN/settings")"
check munged munged
check slurmctld slurmctld
if grep -q 'accounting=1' "$RUN/settings"; then check mariadbd mariadbd; check slurmdbd slurmdbd; fi
for f in "$RUN"/slurmd-*.pid; do
	n=${f##*/slurmd-} n=${n%.pid}
	check "slurmd $n" "slurmd-$n"
done
# the nodes, and those Slurm starts no job on with the reason (an administrator's drain too)
[ "$quiet" = 1 ] || [ "$ok" = 1 ] || { sinfo -N -o '%N %T %C %G' 2>&1 &&
	nodes_unusable | while read -r n state why; do report "$n" "$state $why: Slurm starts no job there"; done; } || ok=1
exit "$ok"
