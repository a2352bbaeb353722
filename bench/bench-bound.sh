#!/usr/bin/env bash
# bench/bench-bound.sh: what the fabric model costs collect's merge at N
# (10,000) synthetic points that declare their fabric (gen_outputs ... fabric:
# 1..1024 nodes of 8 tasks, 16 nodes per leaf, NICs and uplinks rated, so
# every network row has a bound and the locate pass reads them): the merge by
# collect, and by the same sources built with -DCOLLECT_NO_FABRIC (no point
# has a fabric: no bound, no bottleneck, no located link), rounds
# interleaved, medians. aller works out its own bound from measured bytes (collect, from the
# facts aller and the job write). Prints figures; asserts nothing.
# Settings: N (10000), ROUNDS (3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${N:-10000} rounds=${ROUNDS:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
make -s -C "$root" B=build/bench/nofabric CPPFLAGS=-DCOLLECT_NO_FABRIC build/bench/nofabric/bin/collect >/dev/null
with=$root/build/bin/collect without=$root/build/bench/nofabric/bin/collect
mkdir -p "$dir/raw"
"$root/build/bench/gen_outputs" "$dir/raw" "$n" fabric
bytes=$(du -sb "$dir/raw" | cut -f1)

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# merge BIN FILE: one merge into a fresh directory, its seconds appended to FILE
merge() {
	local t0
	rm -rf "$dir/merged"
	t0=$(now)
	"$1" -q -o "$dir/merged" "$dir/raw"
	awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }' >>"$2"
}
: >"$dir/t.with" && : >"$dir/t.without"
for ((r = 1; r <= rounds; r++)); do
	merge "$without" "$dir/t.without"
	merge "$with" "$dir/t.with"
done
bound_rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bound_s") c = i; next } $c != "" { k++ } END { print k + 0 }' "$dir/merged/points.csv")
rows=$(($(wc -l <"$dir/merged/points.csv") - 1))
tw=$(median <"$dir/t.with") to=$(median <"$dir/t.without")
awk -v n="$n" -v b="$bytes" -v r="$rows" -v k="$bound_rows" -v tw="$tw" -v to="$to" -v m="$rounds" 'BEGIN {
	printf "# bench-bound: %d synthetic points declaring their fabric, %.1f MB, %d rows (%d with a bound); median of %d rounds\n", n, b / 1e6, r, k, m
	printf "merge with the fabric model:    %.3f s\n", tw
	printf "merge without (-DCOLLECT_NO_FABRIC): %.3f s\n", to
	printf "the model'\''s share of the merge:  %.1f%% (target < 5%%)\n", 100 * (tw - to) / tw
	printf "aller: bound_s from the measured bytes of each row, O(nodes + leaves) per row on rank 0 (85 us a row at 10,000 nodes: docs/development.md)\n"
}'
