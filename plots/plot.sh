#!/usr/bin/env bash
# plots/plot.sh: renders a campaign's plots, or a single aller output's.
#   plot.sh --campaign-dir results/NAME [--format png|svg|pdf]
#   plot.sh --file OUT.txt [--out-dir results/file-NAME] [--format ...]
# Runs the collector first when its output is missing or older than the raw
# files, then gnuplot with plots/*.gp. Heatmaps of aller --reveal traffic
# matrices (a campaign's reveal/*/, or the '# reveal_dir:' of a file): the
# largest and the smallest count of each level. Prints every file it wrote,
# one per line.
# Exit status: 0 ok, 2 usage error, 3 collector or gnuplot failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/../campaigns/lib.sh"
script_options aller-plots "usage: aller-plots --campaign-dir DIR | --file OUT.txt [--out-dir DIR] [--format png|svg|pdf]" "$@"

die() {
	printf 'plots: error: %s\n' "$*" >&2
	exit "${2:-2}"
}

dir="" file="" fmt=png
while [ $# -gt 0 ]; do
	case $1 in
	--campaign-dir) dir=${2:?}; shift 2 ;;
	--file) file=${2:?}; shift 2 ;;
	--out-dir) dir=${2:?}; shift 2 ;;
	--format) fmt=${2:?}; shift 2 ;;
	*) die "unknown argument '$1' (see the header of plots/plot.sh)" ;;
	esac
done
[[ $fmt =~ ^(png|svg|pdf)$ ]] || die "invalid format '$fmt': allowed are png, svg and pdf"
command -v gnuplot >/dev/null || die "gnuplot is missing: install it (Debian: gnuplot-nox)" 3

collect=$(find_tool collect)

if [ -n "$file" ]; then
	[ -r "$file" ] || die "cannot read '$file'"
	name=$(basename "$file")
	name=${name%.*}
	if [ -z "$dir" ]; then
		results=$PWD/results
		[ -f "$here/../Makefile" ] && results=$(dirname "$here")/results
		dir=$results/file-$name
	fi
	inputs=("$file")
	# the matrices' directory as aller named it: from its working directory,
	# which may have been the file's
	reveal_dir=$(sed -n 's/^# reveal_dir: //p' "$file" | head -n 1)
	if [ -n "$reveal_dir" ] && [ ! -d "$reveal_dir" ] && [ "${reveal_dir#/}" = "$reveal_dir" ]; then
		reveal_dir=$(dirname "$file")/$reveal_dir
	fi
else
	[ -n "$dir" ] || die "give --campaign-dir DIR or --file FILE"
	[ -d "$dir/raw" ] || die "no raw outputs in '$dir' (no $dir/raw)"
	inputs=("$dir/raw")
	reveal_dir=$dir/reveal
fi
merged=$dir/merged
mkdir -p "$merged" "$dir/plots"

# The collector, when its output is older than the inputs.
if [ ! -s "$merged/bandwidth.dat" ] || [ -n "$(find "${inputs[@]}" -newer "$merged/bandwidth.dat" -type f 2>/dev/null | head -n 1)" ]; then
	rc=0
	"$collect" -q -o "$merged" "${inputs[@]}" 2>"$dir/collect.log" || rc=$?
	[ "$rc" -le 1 ] || { cat "$dir/collect.log" >&2; die "the collector failed (exit $rc)" 3; }
	[ "$rc" -eq 0 ] || echo "plots: the collector reported problems: see $merged/summary.txt" >&2
fi

# One line per data set: index mode nodes commsize bytes tpn buffers campaign
# label rows, where label is the set's series (a campaign point's identity
# but nodes and mode) when the data has more than one, else "-".
sets() {
	awk '
	/^# campaign: / {
		if (n++) print line "\t" rows
		rows = 0
		split("", kv)
		for (i = 2; i < NF; i += 2) kv[$i] = $(i + 1)
		line = (n - 1)
		split("mode: nodes: commsize: bytes_per_peer: tasks_per_node: buffers: campaign: series:", keys, " ")
		for (k = 1; k <= 8; k++) line = line "\t" (keys[k] in kv ? kv[keys[k]] : "-")
		next
	}
	/^[0-9]/ { rows++ }
	END { if (n) print line "\t" rows }' "$1" |
		awk -F'\t' -v OFS='\t' '{ a[NR] = $0; s[$9] = 1 } END {
			for (k in s) ns++
			for (i = 1; i <= NR; i++) { $0 = a[i]; if (ns < 2) $9 = "-"; print }
		}'
}

# the MPI library, by its column's name (collect cuts it before any comma)
mpi=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "mpi") c = i; next }
	c && NR == 2 { print $c; exit }' "$merged/points.csv")
read -r _ _ _ _ _ tpn buffers campaign _ < <(sets "$merged/bandwidth.dat" | head -n 1) || true
[ -n "${campaign:-}" ] || die "no data to plot in $merged (see $merged/summary.txt)" 3
title="aller: $campaign"
[ "$campaign" = - ] && title="aller: $(basename "$dir")"
subtitle="${mpi%%,*}; $tpn tasks per node; $buffers buffers"
[ -n "$mpi" ] || subtitle="MPI unknown; $tpn tasks per node; $buffers buffers"

# 65536 -> "64 KiB"
human() {
	local b=$1 u=0 units=(B KiB MiB GiB TiB PiB)
	while [ "$b" -ge 1024 ] && [ $((b % 1024)) -eq 0 ] && [ $u -lt 5 ]; do
		b=$((b / 1024))
		u=$((u + 1))
	done
	printf '%s %s' "$b" "${units[$u]}"
}

render() {
	local script=$1 data=$2 out=$3 err
	shift 3
	if ! err=$(gnuplot -c "$here/$script" "$data" "$out" "$fmt" "$@" 2>&1) || [ -n "$err" ]; then
		printf '%s\n' "$err" >&2
		die "gnuplot failed on $script for $out" 3
	fi
	printf '%s\n' "$out"
}

# Bandwidth versus message size: one plot per (mode, nodes).
while IFS=$'\t' read -r mode nodes; do
	list=$(sets "$merged/bandwidth.dat" | awk -F'\t' -v m="$mode" -v n="$nodes" \
		'$2 == m && $3 == n && $10 > 0 { printf "%s%s:%s:%s", s, $1, $4, $9; s = " " }')
	[ -n "$list" ] || continue
	render bandwidth.gp "$merged/bandwidth.dat" "$dir/plots/bandwidth-$mode-n$nodes.$fmt" \
		"$title: bandwidth versus message size, $mode, $nodes nodes" "$subtitle" "$mode" "$list"
done < <(sets "$merged/bandwidth.dat" | awk -F'\t' '{ print $2 "\t" $3 }' | sort -u -k1,1 -k2,2n)

# Concurrency: per node count, at the largest, a middle and the smallest
# message size that every level has.
while read -r nodes; do
	all=$(sets "$merged/concurrency.dat" | awk -F'\t' -v n="$nodes" '$3 == n')
	max=$(awk -F'\t' '$10 > m { m = $10 } END { print m + 0 }' <<<"$all")
	mapfile -t sizes < <(awk -F'\t' -v m="$max" '$10 == m { print $5 }' <<<"$all" | sort -un)
	[ ${#sizes[@]} -gt 0 ] || continue
	pick=("${sizes[-1]}" "${sizes[$((${#sizes[@]} / 2))]}" "${sizes[0]}")
	for b in $(printf '%s\n' "${pick[@]}" | sort -unr); do
		list=$(awk -F'\t' -v b="$b" '$5 == b { printf "%s%s:%s:%s", s, $1, $2, $9; s = " " }' <<<"$all")
		render concurrency.gp "$merged/concurrency.dat" "$dir/plots/concurrency-n$nodes-${b}B.$fmt" \
			"$title: bandwidth versus concurrency, $nodes nodes, $(human "$b") per peer" "$subtitle" "$list"
	done
done < <(sets "$merged/concurrency.dat" | cut -f3 | sort -un)

# Scaling: per (mode, commsize), the largest message size; needs two node counts.
list=$(sets "$merged/scaling.dat" | sort -t$'\t' -k2,2 -k9,9 -k4,4n -k5,5n | awk -F'\t' '
	$10 > 0 { k2 = $2 "\t" $9 "\t" $4; best[k2] = $1 ":" $2 ":" $4 ":" $5; label[k2] = $9; order[k2] = ++k }
	END {
		for (key in best) print order[key] "\t" best[key] "\t" label[key]
	}' | sort -n | cut -f2,3 | awk -F'\t' '{ split($1, f, ":"); shade[f[2]]++; printf "%s%s:%d:%s", s, $1, shade[f[2]], $2; s = " " }')
node_counts=$(awk '/^# campaign: / { next } /^[0-9]/ { print $1 }' "$merged/scaling.dat" | sort -u | wc -l)
if [ -n "$list" ] && [ "$node_counts" -ge 2 ]; then
	render scaling.gp "$merged/scaling.dat" "$dir/plots/scaling.$fmt" \
		"$title: scaling over node counts at the largest message size" "$subtitle" "$list"
fi

# Traffic matrices: per directory and level, the largest and the smallest count.
if [ -n "${reveal_dir:-}" ] && [ -d "$reveal_dir" ]; then
	find "$reveal_dir" -name 'matrix-L*-c*.dat' | sed -E 's/^(.*)\/matrix-L([0-9]+)-c([0-9]+)\.dat$/\1\t\2\t\3/' |
		sort -t$'\t' -k1,1 -k2,2n -k3,3n | awk -F'\t' '
		{ key = $1 "\t" $2; if (!(key in lo)) { lo[key] = $3; order[++n] = key } hi[key] = $3 }
		END { for (i = 1; i <= n; i++) { k = order[i]; print k "\t" lo[k]; if (hi[k] != lo[k]) print k "\t" hi[k] } }' |
		while IFS=$'\t' read -r mdir level count; do
			m=$mdir/matrix-L$level-c$count.dat
			point=$(basename "$mdir")
			name=matrix-L$level-c$count.$fmt
			[ -n "$file" ] || name=matrix-$point-L$level-c$count.$fmt
			render matrix.gp "$m" "$dir/plots/$name" \
				"$title: traffic matrix, level $level, $(human $((count * 8))) per peer" \
				"$(sed -n '1s/^# aller traffic matrix: //p' "$m")"
		done
fi
