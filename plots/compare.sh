#!/usr/bin/env bash
# plots/compare.sh BASE=name NEW=name [TOL=5%] [RESULTS=dir] [FORMAT=png]:
# compares two campaigns (make compare): collect --compare's table on stdout
# and, in RESULTS/compare-BASE-vs-NEW/, compare.txt, compare.csv,
# compare.dat and the plots: the ratio NEW/BASE per (mode, nodes) with the
# tolerance band, and the two campaigns' plots on the same axes; a simulated
# BASE with a measured NEW (collect --compare's expected, docs/simulate.md):
# its bandwidth plots (expected.gp) instead, as the merge never mixes them.
# Exit status: 0 nothing slower, 1 something slower, 2 bad input (an
# unknown campaign, no common points, a bad TOL, a RESULTS another user
# could plant a link in: nothing written), 3 a tool failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/../campaigns/lib.sh"
# shellcheck source=plots/lib.sh
. "$here/lib.sh"
script_options aller-compare "usage: aller-compare BASE=name NEW=name [TOL=5%] [RESULTS=dir] [FORMAT=png|svg|pdf]" "$@"

tool_args "BASE NEW TOL RESULTS FORMAT" "$@"
{ [ -n "$BASE" ] && [ -n "$NEW" ]; } || die "give BASE=campaign and NEW=campaign"
# shellcheck disable=SC2153 # tool_args sets them
results=$(abs_path "${RESULTS:-$(default_results)}") base=$BASE new=$NEW tol=$TOL fmt=${FORMAT:-png}
safe_dir "$results"   # before anything is written in it (a link planted there is never followed)
for c in "$base" "$new"; do [ -d "$results/$c/raw" ] || die "no campaign '$c' in $results (no $results/$c/raw)"; done
[[ $fmt =~ ^(png|svg|pdf)$ ]] || die "invalid format '$fmt': allowed are png, svg and pdf"
out=$results/compare-$base-vs-$new

# collect makes OUT (refusing another's link there); a comparison it refused leaves nothing behind
rc=0
"$(find_tool collect)" --compare --tol="$tol" -o "$out" "$results/$base" "$results/$new" || rc=$?
[ "$rc" -le 1 ] || exit "$rc"
mkdir -p "$out/plots"

# The ratio's plots, collect's list of them (its plots.tsv in OUT).
plot_rows "$out" "$out/plots" "$fmt" >&2
# Both campaigns on the same axes (a simulated BASE: its expected plots are those).
grep -q '^expected\.gp' "$out/plots.tsv" || bash "$here/plot.sh" --campaign-dir "$results/$base" --campaign-dir "$results/$new" \
	--out-dir "$out" --format "$fmt" >&2 || rc=3
echo "compare: plots in $out/plots" >&2
exit "$rc"
