#!/usr/bin/env bash
# bench/bench-simulate.sh (make bench-simulate): a simulated campaign's cost
# by its size. For each of SIZES (128 512 1024 4096 nodes of
# bench/fattree-4096.fabric, TPN tasks each, both modes, LONGS longs a task)
# it times build/bin/simulate writing the campaign, collect's merge and
# collect's judging (collect -o is merge + judge; collect --findings the
# judging alone: the merge is the difference), and prints the times, and
# each size's total over the size's a quarter its nodes (linear: 4; item 5
# of issue 79 allows 6). Prints figures; asserts nothing.
# Settings: SIZES, TPN (4), LONGS (16777216), BENCH_DIR (a fresh temporary directory).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sizes=${SIZES:-128 512 1024 4096} tpn=${TPN:-4} longs=${LONGS:-16777216}
dir=${BENCH_DIR:-$(mktemp -d)}
trap 'rm -rf "$dir"' EXIT
now() { date +%s.%N; }
printf '%-6s %-7s %-6s %-10s %-10s %-10s %-10s %s\n' nodes tasks rows simulate_s merge_s judge_s total_s 'x(n/4)'
declare -A total=()
for n in $sizes; do
	c=$dir/c$n
	t0=$(now)
	"$root/build/bin/simulate" --results="$c" --campaign="c$n" --fabric="$root/bench/fattree-4096.fabric" \
		--hosts="n[1-$n]" --tasks-per-node="$tpn" --modes="contiguous strided" --longs="$longs"
	t1=$(now)
	"$root/build/bin/collect" -q -o "$c/merged" "$c/raw" 2>/dev/null || [ $? -le 1 ]
	t2=$(now)
	"$root/build/bin/collect" --findings "$c/merged" >/dev/null 2>&1 || [ $? -le 1 ]
	t3=$(now)
	rows=$(($(wc -l <"$c/merged/points.csv") - 1))
	total[$n]=$(awk -v a="$t0" -v b="$t2" 'BEGIN { print b - a }')
	q=$((n / 4))
	awk -v n="$n" -v w=$((n * tpn)) -v r="$rows" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v p="${total[$q]:-}" \
		'BEGIN { j = d - c; m = c - b - j; if (m < 0) m = 0
			printf "%-6d %-7d %-6d %-10.3f %-10.3f %-10.3f %-10.3f %s\n", n, w, r, b - a, m, j, c - a,
				p == "" ? "-" : sprintf("%.2f", (c - a) / p) }'
done
