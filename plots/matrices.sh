#!/usr/bin/env bash
# plots/matrices.sh DIR OUT_DIR FORMAT TITLE file|campaign: heatmaps of the
# aller --reveal traffic matrices under DIR (matrix-L<level>-c<count>.dat,
# in one directory per point for a campaign), the smallest and the largest
# count of each level, into OUT_DIR (matrix-L..., or matrix-<point>-L... for
# a campaign). Prints every file it wrote, one per line; one that fails is
# skipped with a line "plots: skipped FILE: why" on stderr. Called by plot.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=sh/toolkit.sh
. "$here/../sh/toolkit.sh"
# shellcheck source=plots/lib.sh
. "$here/lib.sh"
reveal_dir=$1 out=$2 fmt=$3 title=$4 kind=$5

find "$reveal_dir" -name 'matrix-L*-c*.dat' | sed -E 's/^(.*)\/matrix-L([0-9]+)-c([0-9]+)\.dat$/\1\t\2\t\3/' |
	sort -t$'\t' -k1,1 -k2,2n -k3,3n | awk -F'\t' '
	{ key = $1 "\t" $2; if (!(key in lo)) { lo[key] = $3; order[++n] = key } hi[key] = $3 }
	END { for (i = 1; i <= n; i++) { k = order[i]; print k "\t" lo[k]; if (hi[k] != lo[k]) print k "\t" hi[k] } }' |
	while IFS=$'\t' read -r mdir level count; do
		m=$mdir/matrix-L$level-c$count.dat name=matrix-L$level-c$count.$fmt
		[ "$kind" = file ] || name=matrix-$(basename "$mdir")-L$level-c$count.$fmt
		gnuplot_render "$here/matrix.gp" "$m" "$out/$name" "$fmt" "$title: traffic matrix, level $level" \
			"$(sed -n '1s/^# aller traffic matrix: //p' "$m")" || true
	done
