#!/usr/bin/env bash
# campaigns/undrain.sh [HOSTS="n4 n7"] (make undrain): re-checks each node
# aller drained (its reason starts "aller: "; HOSTS: those only) and
# resumes it only when clean. The check: a reservation of the node and two
# idle neighbours (so nothing else starts there), the node resumed inside
# it, and a short aller --pairs between the three; the node is slow when
# a link of it is slow for it (campaigns/pairs.sh: under half of the median
# of the links that avoid it), and is then drained again ("aller: still
# slow after a re-check: ..."). Exit status: 0 every node resumed (or none to check), 1 one or more
# still slow, 2 usage, 3 Slurm or aller failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/lib.sh"
# shellcheck source=campaigns/pairs.sh
. "$here/pairs.sh"
script_options aller-undrain "usage: aller-undrain [HOSTS=\"n4 n7\"]" "$@"
tool_args HOSTS "$@"
nodes=$HOSTS
[ -n "$nodes" ] || nodes=$(sinfo -h -N -t drain -o '%N|%E' | awk -F'|' 'index($2, "aller: ") == 1 { print $1 }' | sort -u)
[ -n "$nodes" ] || { echo "undrain: no node drained by aller"; exit 0; }
aller=$(find_tool aller)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
for n in $nodes; do is_node "$n" || die "invalid host '$n' in HOSTS: one node's name each (a host list such as n[1-4] is not one)"; done
for n in $nodes; do
	peers=$(sinfo -h -N -t idle -o '%N' | grep -vx "$n" | head -n 2 | paste -sd,)
	[[ $peers == *,* ]] || die "not two idle nodes to check $n against" 3
	res=aller-recheck-$n
	scontrol create reservation reservationname="$res" nodes="$n,$peers" starttime=now duration=10 \
		users="$(id -un)" flags=ignore_jobs >/dev/null || die "cannot reserve $n and $peers" 3
	scontrol update nodename="$n" state=resume
	timeout 120 srun --reservation="$res" -N3 -n3 -w "$n,$peers" "$aller" --pairs=1M \
		--slow-below="$PAIRS_SLOW_BELOW" 0 3 >"$tmp/$n.out" 2>/dev/null || true
	scontrol delete reservationname="$res" || true
	pairs_read "$tmp/$n.out" "$tmp/$n"
	if ! pairs_ran "$tmp/$n"; then
		scontrol update nodename="$n" state=drain reason="aller: the re-check did not run"
		echo "undrain: $n: drained again: the re-check against $peers did not run"; rc=3
	elif read -r worst median link < <(pairs_slow "$n" "$tmp/$n"); then
		why="its link $link carries $worst GB/s, the others $median"
		scontrol update nodename="$n" state=drain reason="aller: still slow after a re-check: $why"
		echo "undrain: $n: still slow ($why): drained again"; rc=1
	else
		echo "undrain: $n: clean against $peers (no link of it under $PAIRS_SLOW_BELOW x the links that avoid it): resumed"
	fi
done
exit "$rc"
