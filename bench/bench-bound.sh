#!/usr/bin/env bash
# bench/bench-bound.sh: what the fabric model costs collect's merge at N
# (10,000) synthetic points that declare their fabric (gen_outputs ... fabric:
# 1..1024 nodes of 8 tasks, 16 nodes per leaf, NICs and uplinks rated, so
# every network row has a bound and the locate pass reads them; a campaign's
# points of one node count on the same nodes, as jobs on one allocation):
# the merge by collect, and by the same sources built with
# -DCOLLECT_NO_FABRIC (no point has a fabric: no bound, no bottleneck, no
# located link), rounds interleaved, medians. Then the same at N/10 points
# each on nodes of its own (gen_outputs ... fabric-each): the cost of a
# fabric seen once, per fabric. aller works out its own bound from measured
# bytes (collect, from the facts aller and the job write). Prints figures;
# asserts nothing. Settings: N (10000), ROUNDS (3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${N:-10000} rounds=${ROUNDS:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
make -s -C "$root" B=build/bench/nofabric CPPFLAGS=-DCOLLECT_NO_FABRIC build/bench/nofabric/bin/collect >/dev/null
with=$root/build/bin/collect without=$root/build/bench/nofabric/bin/collect

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# merge BIN RAW FILE: one merge of RAW into a fresh directory, its seconds appended to FILE
merge() {
	local t0
	rm -rf "$dir/merged"
	t0=$(now)
	"$1" -q -o "$dir/merged" "$2"
	awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }' >>"$3"
}
# measure RAW: rounds of both merges, interleaved; "with without" medians
measure() {
	: >"$dir/t.with" && : >"$dir/t.without"
	for ((r = 1; r <= rounds; r++)); do
		merge "$without" "$1" "$dir/t.without"
		merge "$with" "$1" "$dir/t.with"
	done
	echo "$(median <"$dir/t.with") $(median <"$dir/t.without")"
}
# distinct RAW: how many distinct fabrics (host lines and node counts) its points declare
distinct() { grep -h '^# host: ' "$1"/*.out | sort -u | wc -l; }

mkdir -p "$dir/raw" "$dir/each"
"$root/build/bench/gen_outputs" "$dir/raw" "$n" fabric
bytes=$(du -sb "$dir/raw" | cut -f1)
read -r tw to <<<"$(measure "$dir/raw")"
bound_rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bound_s") c = i; next } $c != "" { k++ } END { print k + 0 }' "$dir/merged/points.csv")
rows=$(($(wc -l <"$dir/merged/points.csv") - 1))
ne=$(((n + 9) / 10))
"$root/build/bench/gen_outputs" "$dir/each" "$ne" fabric-each
read -r ew eo <<<"$(measure "$dir/each")"
awk -v n="$n" -v b="$bytes" -v r="$rows" -v k="$bound_rows" -v tw="$tw" -v to="$to" -v m="$rounds" \
	-v d="$(distinct "$dir/raw")" -v ne="$ne" -v de="$(distinct "$dir/each")" -v ew="$ew" -v eo="$eo" 'BEGIN {
	printf "# bench-bound: %d synthetic points declaring their fabric, %.1f MB, %d rows (%d with a bound), %d distinct fabrics; median of %d rounds\n", n, b / 1e6, r, k, d, m
	printf "merge with the fabric model:    %.3f s\n", tw
	printf "merge without (-DCOLLECT_NO_FABRIC): %.3f s\n", to
	printf "the model'\''s share of the merge:  %.1f%% (target < 5%%)\n", 100 * (tw - to) / tw
	printf "# breakdown: a fabric is read and its levels'\'' loads worked out once per distinct fabric (read/fabric.h'\''s\n"
	printf "# fabric_shared), by the merge'\''s bound and the judge'\''s located links alike; the rest is per row\n"
	printf "each point on nodes of its own (%d points, %d distinct fabrics): with %.3f s, without %.3f s: %.1f%%, %.2f ms a fabric of 1..1024 nodes\n", ne, de, ew, eo, 100 * (ew - eo) / ew, 1000 * (ew - eo) / de
	printf "aller: bound_s from the measured bytes of each row, O(nodes + leaves) per row on rank 0 (85 us a row at 10,000 nodes: docs/development.md)\n"
}'
