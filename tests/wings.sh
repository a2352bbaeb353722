#!/usr/bin/env bash
# tests/wings.sh [ALLER_DIR]: aller's wings (its subdirectories) and what each
# includes of the others. Prints "WING -> WING ..." per wing; a pair of wings
# that include each other is an error (one line each, exit 1). The face
# (aller/'s top: main, run, options, output) is not a wing: every wing may
# read its options and output, and it includes the wings.
set -euo pipefail
dir=${1:-$(cd "$(dirname "$0")/../aller" && pwd)}
cd "$dir"
for f in */*.c */*.h */*.cu; do
	[ -e "$f" ] || continue
	from=${f%%/*}
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		case $inc in
		*/*) to=${inc%%/*} ;;                  # "plan/split.h": that wing's
		*) [ -e "$from/$inc" ] && to=$from || to= ;;   # a sibling, or the face's or common's
		esac
		if [ -n "$to" ] && [ "$to" != "$from" ] && [ -d "$to" ]; then
			printf '%s %s %s\n' "$from" "$to" "$f"
		fi
	done
done | sort -u | awk '
	{ edge[$1 " " $2] = edge[$1 " " $2] ? edge[$1 " " $2] : $3; to[$1] = to[$1] " " $2 }
	END {
		for (w in to) { n = split(to[w], t, " "); delete seen; s = ""
			for (i = 1; i <= n; i++) if (!(t[i] in seen)) { seen[t[i]]; s = s " " t[i] }
			print w " ->" s | "sort" }
		close("sort")
		bad = 0
		for (e in edge) { split(e, p, " ")
			if (p[1] < p[2] && ((p[2] " " p[1]) in edge)) {
				printf "wings: %s and %s include each other (%s, %s)\n", p[1], p[2], edge[e], edge[p[2] " " p[1]] > "/dev/stderr"
				bad = 1 } }
		exit bad
	}'
