#!/usr/bin/env bash
# campaigns/undrain.sh [HOSTS="n4 n7"] (make undrain): re-checks each node
# aller drained (its reason starts "aller: "; HOSTS: those only, each one
# aller drained) and resumes it only when clean. The check is pairs.sh's
# recheck: a reservation of the node and two idle neighbours, the node
# resumed inside it, and a short aller --pairs between the three; the node
# is slow when a link of it is slow for it (under half of the median of the
# links that avoid it), and is then drained again ("aller: still slow after
# a re-check: ..."). The reservation goes on every way out, signals too, and
# a node resumed for its re-check and not yet settled is drained again
# ("aller: its re-check was interrupted"), said in a line (rolled back).
# Exit status: 0 every node resumed (or none to check), 1 one or more still
# slow, 2 usage (a node that is not one, that Slurm does not know, or that
# aller did not drain), 3 Slurm or aller failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/lib.sh"
# shellcheck source=campaigns/pairs.sh
. "$here/pairs.sh"
script_options aller-undrain "usage: aller-undrain [HOSTS=\"n4 n7\"]" "$@"
tool_args HOSTS "$@"
ours=$(slurm_nodes all | awk -F'\t' '$2 ~ /^drain/ && index($3, "aller: ") == 1 { print $1 }' | sort -u || true)
nodes=${HOSTS:-$ours}
[ -n "$nodes" ] || { echo "undrain: no node drained by aller"; exit 0; }
for n in $nodes; do
	is_node "$n" || die "invalid host '$n' in HOSTS: one node's name each (a host list such as n[1-4] is not one)"
	IFS=$'\t' read -r _ state why < <(slurm_nodes all -n "$n") || die "node '$n' in HOSTS: Slurm does not know it"
	grep -qx "$n" <<<"$ours" || die "node '$n' in HOSTS was not drained by aller ($state, reason '$why'): not aller's to resume"
done
recheck_traps
rc=0
for n in $nodes; do
	r=0
	recheck "$n" || r=$?
	[ "$r" != 0 ] || { RESUMED="" && echo "undrain: $n: clean against $PEERS: resumed"; continue; }
	[ "$r" = 3 ] || WHY="still slow after a re-check: $WHY"
	scontrol update nodename="$n" state=drain reason="aller: $WHY"
	RESUMED=""
	echo "undrain: $n: drained again: $WHY"
	[ "$rc" = 3 ] || rc=$r
done
exit "$rc"
