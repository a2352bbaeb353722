#!/usr/bin/env bash
# bench/bench-report.sh: what `make report` waits on, for a campaign that
# exists (CAMPAIGN, default demo; RESULTS, default results/): the whole
# report (plots/report.sh) drawn anew (every plot and the page: their keys,
# plots/.NAME.svg.key and .report.inputs, removed first) and then again on the
# campaign unchanged (nothing drawn, the page kept), and apart its plots
# drawn anew (plots/plot.sh --format svg: one gnuplot process per plot) and
# its status (campaigns/status.sh --tsv); the page's own assembly is the
# rest. ROUNDS (5) rounds, the three interleaved, medians. Prints seconds per
# part, the page's size and the targets (3 s, under 1 s unchanged, 2 MB);
# asserts nothing. Run make demo (or any campaign) first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
campaign=${CAMPAIGN:-demo} results=${RESULTS:-$root/results} rounds=${ROUNDS:-5}
dir=$results/$campaign
[ -f "$dir/manifest" ] || { echo "bench-report: no campaign '$campaign' in $results: run make demo first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
anew() { rm -f "$dir"/plots/.*.key "$dir/.report.inputs"; }   # (what keeps a plot or the page)
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# timed NAME CMD...: CMD's seconds appended to $tmp/NAME
timed() {
	local name=$1 t0
	shift
	t0=$(now)
	"$@" >/dev/null 2>"$tmp/err" || [ $? -le 1 ] ||   # (status: 1, a point not complete)
		{ echo "bench-report: $name failed: $(tail -n 1 "$tmp/err")" >&2; exit 3; }
	awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }' >>"$tmp/$name"
}
for ((r = 1; r <= rounds; r++)); do
	for v in $(printf '%s\n' report plots status | shuf); do
		case $v in
		report)
			anew
			timed report bash "$root/plots/report.sh" "CAMPAIGN=$campaign" "RESULTS=$results"
			timed unchanged bash "$root/plots/report.sh" "CAMPAIGN=$campaign" "RESULTS=$results" ;;
		plots) anew; timed plots bash "$root/plots/plot.sh" --campaign-dir "$dir" --format svg ;;
		status) timed status bash "$root/campaigns/status.sh" --tsv "CAMPAIGN=$campaign" "RESULTS=$results" ;;
		esac
	done
done
plots=$(awk -F'\t' 'NR > 1' "$dir/merged/plots.tsv" | wc -l)
awk -v r="$(median <"$tmp/report")" -v u="$(median <"$tmp/unchanged")" -v p="$(median <"$tmp/plots")" -v s="$(median <"$tmp/status")" \
	-v n="$plots" -v b="$(wc -c <"$dir/report.html")" -v c="$campaign" -v m="$rounds" 'BEGIN {
	printf "# bench-report: make report CAMPAIGN=%s, median of %d interleaved rounds\n", c, m
	printf "report, whole:        %6.2f s (target <= 3 s), the page %.0f KB (target <= 2 MB)\n", r, b / 1024
	printf "report, unchanged:    %6.2f s (target < 1 s: no plot drawn again, the page kept)\n", u
	printf "  its plots:          %6.2f s (%d SVG plots, a gnuplot process each: %.0f ms a plot)\n", p, n, 1000 * p / (n ? n : 1)
	printf "  its status:         %6.2f s\n", s
	printf "  the page'\''s own:     %6.2f s (the rest: findings, tables, SVG embedded)\n", r - p - s
}'
