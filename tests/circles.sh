#!/usr/bin/env bash
# tests/circles.sh [ROOT]: include circles among the modules of aller/,
# collect/ and common/. A module is a name's .c and .h (NAME_impl.h, what
# its files share, belongs to NAME); an include names a file beside the
# includer, else under its program's top (aller/ or collect/), else in
# common/. Prints each circle as "circle: A B ..." with the includes that
# close it, exit 1; nothing and exit 0 where there is none.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
find aller collect common \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) | sort | while read -r f; do
	d=${f%/*} top=${f%%/*}
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		for t in "$d/$inc" "$top/$inc" "common/$inc"; do
			[ -e "$t" ] && break
		done
		[ -e "$t" ] && printf '%s %s %s\n' "$f" "$t" "$f"
	done
done | awk '
	function module(p) { sub(/\.(c|h|cu)$/, "", p); sub(/_impl$/, "", p); return p }
	{ a = module($1); b = module($2); if (a == b) next
	  if (!(a in id)) { id[a] = ++n; name[n] = a }
	  if (!(b in id)) { id[b] = ++n; name[n] = b }
	  r[id[a], id[b]] = 1; why[id[a], id[b]] = $3 " includes " $2 }
	END {
		for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if ((i, k) in r)
			for (j = 1; j <= n; j++) if ((k, j) in r) r[i, j] = 1
		bad = 0
		for (i = 1; i <= n; i++) {
			if (done[i] || !((i, i) in r)) continue
			s = ""; e = ""
			for (j = 1; j <= n; j++) if ((i, j) in r && (j, i) in r) {
				done[j] = 1; s = s " " name[j]
				for (k = 1; k <= n; k++) if ((j, k) in why && (k, i) in r && (i, k) in r) e = e "; " why[j, k]
			}
			printf "circle:%s (%s)\n", s, substr(e, 3); bad = 1
		}
		exit bad
	}'
