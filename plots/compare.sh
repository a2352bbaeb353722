#!/usr/bin/env bash
# plots/compare.sh BASE=name NEW=name [TOL=5%] [RESULTS=dir] [FORMAT=png]:
# compares two campaigns (make compare): collect --compare's table on stdout
# and, in RESULTS/compare-BASE-vs-NEW/, compare.txt, compare.csv,
# compare.dat and the plots: the ratio NEW/BASE per (mode, nodes) with the
# tolerance band, and the two campaigns' plots on the same axes.
# Exit status: 0 nothing slower, 1 something slower, 2 bad input (an
# unknown campaign, no common points, a bad TOL), 3 a tool failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=sh/toolkit.sh
. "$here/../sh/toolkit.sh"
# shellcheck source=plots/lib.sh
. "$here/lib.sh"
script_options aller-compare "usage: aller-compare BASE=name NEW=name [TOL=5%] [RESULTS=dir] [FORMAT=png|svg|pdf]" "$@"
die() { printf 'compare: error: %s\n' "$1" >&2; exit "${2:-2}"; }

results=$PWD/results
[ -f "$here/../Makefile" ] && results=$(dirname "$here")/results
base="${CAMPAIGN_ARG_BASE:-}" new="${CAMPAIGN_ARG_NEW:-}" tol="${CAMPAIGN_ARG_TOL:-5%}"
results="${CAMPAIGN_ARG_RESULTS:-$results}" fmt="${CAMPAIGN_ARG_FORMAT:-png}"
for a in "$@"; do
	case $a in
	BASE=*) base=${a#BASE=} ;;
	NEW=*) new=${a#NEW=} ;;
	TOL=*) tol=${a#TOL=} ;;
	RESULTS=*) results=${a#RESULTS=} ;;
	FORMAT=*) fmt=${a#FORMAT=} ;;
	*) die "unknown argument '$a': allowed are BASE=, NEW=, TOL=, RESULTS=, FORMAT=" ;;
	esac
done
{ [ -n "$base" ] && [ -n "$new" ]; } || die "give BASE=campaign and NEW=campaign"
results=$(abs_path "$results")
for c in "$base" "$new"; do
	is_name "$c" || die "invalid campaign name '$c': allowed are letters, digits, '.', '_' and '-', the first a letter or digit"
	[ -d "$results/$c/raw" ] || die "no campaign '$c' in $results (no $results/$c/raw)"
done
[[ $fmt =~ ^(png|svg|pdf)$ ]] || die "invalid format '$fmt': allowed are png, svg and pdf"
out=$results/compare-$base-vs-$new
mkdir -p "$out/plots"

rc=0
"$(find_tool collect)" --compare --tol="$tol" -o "$out" "$results/$base" "$results/$new" || rc=$?
[ "$rc" -le 1 ] || exit "$rc"

# The ratio per (mode, nodes), one curve per level.
index=$out/sets.tsv
list=$(mktemp)
trap 'rm -f "$list"' EXIT
while IFS=$'\t' read -r mode nodes; do
	index_list "$index" 'v("mode") == m && v("nodes") == n' "index commsize" m="$mode" n="$nodes" >"$list"
	gnuplot_render "$here/ratio.gp" "$out/compare.dat" "$out/plots/ratio-$mode-n$nodes.$fmt" "$fmt" \
		"aller: $new / $base: time per call, $mode, $nodes nodes" "TOL $tol; below 1: $new is faster" \
		"$mode" "$list" >&2 || true
done < <(index_sets "$index" 'v("rows") > 0' 'v("mode"), v("nodes")' | sort -u -k1,1 -k2,2n)
# Both campaigns on the same axes.
bash "$here/plot.sh" --campaign-dir "$results/$base" --campaign-dir "$results/$new" \
	--out-dir "$out" --format "$fmt" >&2 || rc=3
echo "compare: plots in $out/plots" >&2
exit "$rc"
