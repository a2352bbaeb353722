#!/usr/bin/env bash
# plots/plot.sh: renders a campaign's plots, several campaigns' on the same
# axes, or a single aller output's.
#   plot.sh --campaign-dir results/NAME [--campaign-dir results/OTHER ...] [--out-dir DIR] [--format png|svg|pdf]
#   plot.sh CAMPAIGN=NAME [CAMPAIGN=OTHER ...] [RESULTS=dir] [--out-dir DIR] [--format ...]
#   plot.sh --file OUT.txt [--out-dir results/file-NAME] [--format ...]
# Runs the collector first when its output is missing or older than the raw
# files, then draws the plots collect lists (collect --plots: merged/plots.tsv
# and its data sets) with plots/*.gp; the scripts pick their columns by name. Several campaigns go to results/overlay-A-B
# (legends name the campaign). Heatmaps of aller --reveal traffic matrices
# (a campaign's reveal/*/, or the '# reveal_dir:' of a file) by matrices.sh.
# Prints every file it wrote, one per line; a plot that fails is skipped
# with one line on stderr saying which and why.
# Exit status: 0 at least one plot drawn, 2 usage error, 3 collector failed
# or no plot drawn.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=sh/toolkit.sh
. "$here/../sh/toolkit.sh"
# shellcheck source=plots/lib.sh
. "$here/lib.sh"
# shellcheck source=plots/prepare.sh
. "$here/prepare.sh"
script_options aller-plots "usage: aller-plots CAMPAIGN=name [CAMPAIGN=name ...] [RESULTS=dir] | --campaign-dir DIR [--campaign-dir DIR ...] | --file OUT.txt [--out-dir DIR] [--format png|svg|pdf]" "$@"

prepare_plots "$@"
# The plots are collect's list (collect --plots: merged/plots.tsv, a row a
# plot, each plot's data sets a table of merged/plotsets/); here each row is
# drawn.
"$(find_tool collect)" --plots "$merged" || die "collect --plots failed on $merged" 3
plot_rows "$merged" "$dir/plots" "$fmt"
drawn=$DRAWN skipped=$SKIPPED
[ "$drawn$skipped" != 00 ] || [ -n "$reveal_dir" ] || die "no data to plot in $merged (see $merged/summary.txt)" 3

# Traffic matrices of --reveal runs.
if [ -n "$reveal_dir" ] && [ -d "$reveal_dir" ]; then
	while read -r m; do
		case $m in "plots: skipped "*) skipped=$((skipped + 1)) ;; *) printf '%s\n' "$m"; drawn=$((drawn + 1)) ;; esac
	done < <(bash "$here/matrices.sh" "$reveal_dir" "$dir/plots" "$fmt" "aller: $(basename "$dir")" \
		"$([ -n "$file" ] && echo file || echo campaign)" 2>&1)
fi
[ "$drawn" -gt 0 ] || die "no plot drawn ($skipped skipped)" 3
[ "$skipped" -eq 0 ] || echo "plots: $drawn drawn, $skipped skipped" >&2
