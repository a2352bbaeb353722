#!/usr/bin/env bash
# plots/plot.sh: renders a campaign's plots, several campaigns' on the same
# axes, or a single aller output's.
#   plot.sh --campaign-dir results/NAME [--campaign-dir results/OTHER ...] [--out-dir DIR] [--format png|svg|pdf]
#   plot.sh --file OUT.txt [--out-dir results/file-NAME] [--format ...]
# Runs the collector first when its output is missing or older than the raw
# files, then gnuplot with plots/*.gp over the data sets listed in the
# collector's index (merged/sets.tsv, read by column name); the scripts pick
# their columns by name too. Several campaigns go to results/overlay-A-B
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
script_options aller-plots "usage: aller-plots --campaign-dir DIR [--campaign-dir DIR ...] | --file OUT.txt [--out-dir DIR] [--format png|svg|pdf]" "$@"
die() { printf 'plots: error: %s\n' "$1" >&2; exit "${2:-2}"; }

camps=() dir="" file="" fmt=png
while [ $# -gt 0 ]; do
	case $1 in
	--campaign-dir) camps+=("${2:?}"); shift 2 ;;
	--out-dir) dir=${2:?}; shift 2 ;;
	--file) file=${2:?}; shift 2 ;;
	--format) fmt=${2:?}; shift 2 ;;
	*) die "unknown argument '$1' (see the header of plots/plot.sh)" ;;
	esac
done
[[ $fmt =~ ^(png|svg|pdf)$ ]] || die "invalid format '$fmt': allowed are png, svg and pdf"
command -v gnuplot >/dev/null || die "gnuplot is missing: install it (Debian: gnuplot-nox)" 3
collect=$(find_tool collect)

inputs=() reveal_dir=""
if [ -n "$file" ]; then
	[ -r "$file" ] || die "cannot read '$file'"
	name=$(basename "$file")
	results=$PWD/results
	[ -f "$here/../Makefile" ] && results=$(dirname "$here")/results
	dir=${dir:-$results/file-${name%.*}}
	inputs=("$file")
	# the matrices' directory as aller named it, maybe relative to the file's
	reveal_dir=$(sed -n 's/^# reveal_dir: //p' "$file" | head -n 1)
	if [ -n "$reveal_dir" ] && [ ! -d "$reveal_dir" ] && [ "${reveal_dir#/}" = "$reveal_dir" ]; then
		reveal_dir=$(dirname "$file")/$reveal_dir
	fi
else
	[ ${#camps[@]} -gt 0 ] || die "give --campaign-dir DIR or --file FILE"
	for c in "${camps[@]}"; do
		[ -d "$c/raw" ] || die "no raw outputs in '$c' (no $c/raw)"
		inputs+=("$c/raw")
	done
	if [ ${#camps[@]} -eq 1 ]; then
		dir=${dir:-${camps[0]}} reveal_dir=${camps[0]}/reveal
	else
		dir=${dir:-$(dirname "${camps[0]}")/overlay-$(for c in "${camps[@]}"; do basename "$c"; done | paste -sd-)}
	fi
fi
merged=$dir/merged index=$dir/merged/sets.tsv
mkdir -p "$merged" "$dir/plots"

if [ ! -s "$index" ] || [ -n "$(find "${inputs[@]}" -newer "$index" -type f 2>/dev/null | head -n 1)" ]; then
	rc=0
	"$collect" -q -o "$merged" "${inputs[@]}" 2>"$dir/collect.log" || rc=$?
	[ "$rc" -le 1 ] || { cat "$dir/collect.log" >&2; die "the collector failed (exit $rc)" 3; }
	[ "$rc" -eq 0 ] || echo "plots: the collector reported problems: see $merged/summary.txt" >&2
	# data sets that failed to set up have no rows to draw: each is named
	grep -F ': data set failed, no rows: ' "$dir/collect.log" | sed 's/^/plots: /' >&2 || true
fi

sets() { index_sets "$index" "$@"; }
# distinct COLUMN: its values over the bandwidth sets, joined by " | ".
distinct() { sets 'v("kind") == "bandwidth"' "v(\"$1\")" | awk '!seen[$0]++' | paste -sd'|' | sed 's/|/ | /g'; }

campaigns=$(distinct campaign)
[ -n "$campaigns" ] || die "no data to plot in $merged (see $merged/summary.txt)" 3
title="aller: ${campaigns// | /, }"
[ "$campaigns" = - ] && title="aller: $(basename "$dir")"
mpi=$(distinct mpi | sed "s/^-$/MPI unknown/")
subtitle="$mpi; $(distinct tasks_per_node) tasks per node; $(distinct buffers) buffers"

drawn=0 skipped=0
render() {
	local script=$1 data=$2 out=$3
	shift 3
	if gnuplot_render "$here/$script" "$data" "$out" "$fmt" "$@"; then
		drawn=$((drawn + 1))
	else
		skipped=$((skipped + 1))
	fi
}

# Bandwidth and latency versus message size: one plot each per (mode, nodes,
# algorithm: named in the file but for alltoall); the commsize-1 level apart
# (it does not set the scale) when there are others.
bw='v("kind") == "bandwidth" && v("rows") > 0 && v("mode") == m && v("nodes") == n && v("algo") == a'
while IFS=$'\t' read -r mode nodes algo; do
	f='v("index") ":" v("commsize") ":" v("label")'
	main=$(sets "$bw"' && v("commsize") > 1' "$f" m="$mode" n="$nodes" a="$algo" | paste -sd' ')
	local1=$(sets "$bw"' && v("commsize") == 1' "$f" m="$mode" n="$nodes" a="$algo" | paste -sd' ')
	[ -n "$main" ] || { main=$local1; local1=""; }
	suffix="" about=""
	[ "$algo" = alltoall ] || suffix=-$algo about=", $algo"
	for kind in bandwidth latency; do
		render $kind.gp "$merged/bandwidth.dat" "$dir/plots/$kind-$mode-n$nodes$suffix.$fmt" \
			"$title: $([ $kind = bandwidth ] && echo bandwidth || echo time per call) versus message size, $mode, $nodes nodes$about" \
			"$subtitle" "$mode" "$main" "$local1"
	done
done < <(sets 'v("kind") == "bandwidth" && v("rows") > 0' 'v("mode"), v("nodes"), v("algo")' | sort -u -k1,1 -k2,2n -k3,3)

# The algorithms side by side: per (mode, nodes, commsize) that has two or more.
while IFS=$'\t' read -r mode nodes commsize; do
	list=$(sets 'v("kind") == "bandwidth" && v("rows") > 0 && v("mode") == m && v("nodes") == n && v("commsize") == cs' \
		'v("index") ":" v("algo") ":" v("label")' m="$mode" n="$nodes" cs="$commsize" | paste -sd' ')
	render algorithms.gp "$merged/bandwidth.dat" "$dir/plots/algorithms-$mode-n$nodes-c$commsize.$fmt" \
		"$title: the algorithms, $mode, $nodes nodes, commsize $commsize" "$subtitle" "$list"
done < <(sets 'v("kind") == "bandwidth" && v("rows") > 0' 'v("mode"), v("nodes"), v("commsize"), v("algo")' |
	sort -u | awk -F'\t' '{ n[$1 FS $2 FS $3]++ } END { for (k in n) if (n[k] > 1) print k }' | sort -k1,1 -k2,2n -k3,3nr)

# Concurrency: per node count, at the largest, a middle and the smallest
# message size that every level has (the sets with the most rows).
cc='v("kind") == "concurrency" && v("nodes") == n && v("rows") > 0'
for nodes in $(sets 'v("kind") == "concurrency"' 'v("nodes")' | sort -un); do
	max=$(sets "$cc" 'v("rows")' n="$nodes" | sort -n | tail -n 1)
	mapfile -t sizes < <(sets "$cc"' && v("rows") == max' 'v("bytes_per_peer")' n="$nodes" max="${max:-0}" | sort -un)
	[ ${#sizes[@]} -gt 0 ] || continue
	for b in $(printf '%s\n' "${sizes[-1]}" "${sizes[$((${#sizes[@]} / 2))]}" "${sizes[0]}" | sort -unr); do
		list=$(sets "$cc"' && v("bytes_per_peer") == b' 'v("index") ":" v("mode") ":" v("label")' \
			n="$nodes" b="$b" | paste -sd' ')
		size=$(sets "$cc"' && v("bytes_per_peer") == b' 'v("size")' n="$nodes" b="$b" | head -n 1)
		render concurrency.gp "$merged/concurrency.dat" "$dir/plots/concurrency-n$nodes-${b}B.$fmt" \
			"$title: bandwidth versus concurrency, $nodes nodes, $size per peer" "$subtitle" "$list"
	done
done

# Interference (aller --isolate): per (nodes, algorithm), communicator 0's
# factor versus the number of communicators, per mode at up to three sizes.
if awk -v c=interference '/^# columns: / { for (i = 3; i <= NF; i++) if ($i == c) k = i - 2; next }
	/^[0-9]/ && k && $k ~ /^[0-9]/ { found = 1; exit } END { exit !found }' "$merged/concurrency.dat"; then
	ci='v("kind") == "concurrency" && v("rows") > 1 && v("nodes") == n && v("algo") == a'
	while IFS=$'\t' read -r nodes algo; do
		mapfile -t sizes < <(sets "$ci" 'v("bytes_per_peer")' n="$nodes" a="$algo" | sort -un)
		[ ${#sizes[@]} -gt 0 ] || continue
		pick=$(printf '%s\n' "${sizes[-1]}" "${sizes[$((${#sizes[@]} / 2))]}" "${sizes[0]}" | sort -un | paste -sd' ')
		list=$(sets "$ci"' && index(" " p " ", " " v("bytes_per_peer") " ")' \
			'v("index"), v("mode"), v("size")' n="$nodes" a="$algo" p="$pick" |
			awk -F'\t' '{ gsub(/ /, "~", $3); printf "%s%s:%s:%s:%d", sep, $1, $2, $3, ++shade[$2]; sep = " " }')
		suffix="" about=""
		[ "$algo" = alltoall ] || suffix=-$algo about=", $algo"
		render interference.gp "$merged/concurrency.dat" "$dir/plots/interference-n$nodes$suffix.$fmt" \
			"$title: interference between concurrent communicators, $nodes nodes$about" "$subtitle" "$list"
	done < <(sets 'v("kind") == "concurrency" && v("rows") > 1' 'v("nodes"), v("algo")' | sort -u -k1,1n -k2,2)
fi

# Scaling: per (mode, label, commsize), the largest message size; needs two node counts.
list=$(sets 'v("kind") == "scaling" && v("rows") > 0' \
	'v("mode"), v("label"), v("commsize"), v("bytes_per_peer"), v("index"), v("size")' |
	sort -t$'\t' -k1,1 -k2,2 -k3,3n -k4,4n | awk -F'\t' '
	function out(f) { split(last, f, "\t"); gsub(/ /, "~", f[6])
		printf "%s%s:%s:%s:%s:%d:%s", sep, f[5], f[1], f[3], f[6], ++shade[f[1]], f[2]; sep = " " }
	$1 FS $2 FS $3 != key { if (NR > 1) out(); key = $1 FS $2 FS $3 }
	{ last = $0 }
	END { if (NR) out() }')
if [ -n "$list" ] && [ "$(sets 'v("kind") == "bandwidth"' 'v("nodes")' | sort -u | wc -l)" -ge 2 ]; then
	render scaling.gp "$merged/scaling.dat" "$dir/plots/scaling.$fmt" \
		"$title: scaling over node counts at the largest message size" "$subtitle" "$list"
fi

# Traffic matrices of --reveal runs.
if [ -n "$reveal_dir" ] && [ -d "$reveal_dir" ]; then
	while read -r m; do
		case $m in "plots: skipped "*) skipped=$((skipped + 1)) ;; *) printf '%s\n' "$m"; drawn=$((drawn + 1)) ;; esac
	done < <(bash "$here/matrices.sh" "$reveal_dir" "$dir/plots" "$fmt" "$title" "$([ -n "$file" ] && echo file || echo campaign)" 2>&1)
fi
[ "$drawn" -gt 0 ] || die "no plot drawn ($skipped skipped)" 3
[ "$skipped" -eq 0 ] || echo "plots: $drawn drawn, $skipped skipped" >&2
