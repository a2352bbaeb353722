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
# shellcheck source=plots/prepare.sh
. "$here/prepare.sh"
script_options aller-plots "usage: aller-plots --campaign-dir DIR [--campaign-dir DIR ...] | --file OUT.txt [--out-dir DIR] [--format png|svg|pdf]" "$@"
die() { printf 'plots: error: %s\n' "$1" >&2; exit "${2:-2}"; }

prepare_plots "$@"
sets() { index_sets "$index" "$@"; }
# distinct COLUMN: its values over the bandwidth sets, joined by " | ".
distinct() { sets 'v("kind") == "bandwidth"' "v(\"$1\")" | awk '!seen[$0]++' | paste -sd'|' | sed 's/|/ | /g'; }

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

# aller --pairs points (merged/pairs.tsv names each point and its data set of
# the merge's pairs.dat): a heatmap each, the tasks' hosts on the axes (the
# collector's facts of the point).
if [ -s "$merged/pairs.tsv" ]; then
	while IFS=$'\t' read -r f nodes state point matrix; do
		{ [ "$state" = complete ] && [ -n "$matrix" ]; } || continue
		f=$(printf '%b' "$f")   # the collector's escapes: a tab or newline in a name
		# "RANK HOST" pairs, a word each for gnuplot's word(): a quote in a name is a '?'
		tics=$(point_facts "$merged/facts.tsv" "$point" pair_host | sed 's/[^A-Za-z0-9._ -]/?/g' | paste -sd' ')
		# the count and the median (the rule is in docs/aller.md): it fits the plot's width
		slow=$(point_facts "$merged/facts.tsv" "$point" slow_links | head -n 1 | sed 's/;.*//')
		name=$(basename "$f" .out)
		render pairs.gp "$merged/pairs.dat" "$dir/plots/pairs-$name.$fmt" \
			"aller: $(basename "$dir"): node pairs, $nodes nodes ($name)" \
			"${slow:+slow links: $slow}" "$tics" "$matrix"
	done < <(table_select "$merged/pairs.tsv" file nodes state point index)
fi

campaigns=$(distinct campaign)
if [ -z "$campaigns" ] && [ "$drawn" -gt 0 ]; then
	exit 0   # node-pair matrices alone
fi
[ -n "$campaigns" ] || die "no data to plot in $merged (see $merged/summary.txt)" 3
title="aller: ${campaigns// | /, }"
[ "$campaigns" = - ] && title="aller: $(basename "$dir")"
mpi=$(distinct mpi | sed "s/^-$/MPI unknown/")
subtitle="$mpi; $(distinct tasks_per_node) tasks per node; $(distinct buffers) buffers"
# list NAME CONDITION "COLUMN ..." [VAR=VALUE ...]: a plot's data sets, by
# column name, into a file the gnuplot script reads (common.gp); its path.
lists=$(mktemp -d)
trap 'rm -rf "$lists"' EXIT
list() { index_list "$index" "${@:2}" >"$lists/$1" && echo "$lists/$1"; }
count() { echo $(($(wc -l <"$1") - 1)); }
# common_size LIST: the largest bytes per peer that every data set of LIST
# has measured (the least of their bytes_max); 0 when none.
common_size() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bytes_max") c = i; next }
		c && (NR == 2 || $c + 0 < best) { best = $c + 0 } END { print best + 0 }' "$1"
}
# bytes_text BYTES: "64 KiB".
bytes_text() { awk -v b="$1" 'BEGIN { split("B KiB MiB GiB TiB", u, " "); k = 1
	while (b >= 1024 && b % 1024 == 0 && k < 5) { b /= 1024; k++ } printf "%d %s", b, u[k] }'; }
# three SIZE...: of sizes sorted up, the largest, a middle and the smallest.
three() { printf '%s\n' "${@: -1}" "${@:$(($# / 2 + 1)):1}" "$1"; }
# named ALGO [SPLIT]: suffix and about, what a plot's file and title add for
# them (nothing for alltoall and uniform; a split's ':' and '/' become '_').
named() {
	suffix="" about=""
	if [ "$1" != alltoall ]; then suffix=-$1 about=", $1"; fi
	if [ "${2:-uniform}" != uniform ]; then suffix=$suffix-$(printf '%s' "$2" | tr ':/' '__') about="$about, split $2"; fi
}

# Bandwidth and latency versus message size: one plot each per (mode, nodes,
# algorithm, split: named in the file but for alltoall and uniform); the
# commsize-1 level apart (it does not set the scale) when there are others.
bw='v("kind") == "bandwidth" && v("rows") > 0 && v("mode") == m && v("nodes") == n && v("algo") == a && v("split") == s'
while IFS=$'\t' read -r mode nodes algo split; do
	at=(m="$mode" n="$nodes" a="$algo" s="$split")
	main=$(list main "$bw"' && v("commsize") > 1' "index commsize label" "${at[@]}")
	local1=$(list local "$bw"' && v("commsize") == 1' "index commsize label" "${at[@]}")
	[ "$(count "$main")" -gt 0 ] || { mv "$local1" "$main"; local1=$(list local 0 "index commsize label"); }
	named "$algo" "$split"
	for kind in bandwidth latency; do
		render sizes.gp "$merged/bandwidth.dat" "$dir/plots/$kind-$mode-n$nodes$suffix.$fmt" \
			"$title: $([ $kind = bandwidth ] && echo bandwidth || echo time per call) versus message size, $mode, $nodes nodes$about" \
			"$subtitle" "$mode" "$main" "$local1" "$kind"
	done
done < <(sets 'v("kind") == "bandwidth" && v("rows") > 0' 'v("mode"), v("nodes"), v("algo"), v("split")' | sort -u -k1,1 -k2,2n -k3,3 -k4,4)

# The algorithms side by side: per (mode, nodes, commsize, split) that has two or more.
while IFS=$'\t' read -r mode nodes commsize split; do
	named alltoall "$split"
	render algorithms.gp "$merged/bandwidth.dat" "$dir/plots/algorithms-$mode-n$nodes-c$commsize$suffix.$fmt" \
		"$title: the algorithms, $mode, $nodes nodes, commsize $commsize$about" "$subtitle" \
		"$(list algos 'v("kind") == "bandwidth" && v("rows") > 0 && v("mode") == m && v("nodes") == n && v("commsize") == cs && v("split") == s' \
			"index algo label algo_index" m="$mode" n="$nodes" cs="$commsize" s="$split")"
done < <(sets 'v("kind") == "bandwidth" && v("rows") > 0' 'v("mode"), v("nodes"), v("commsize"), v("split"), v("algo")' |
	sort -u | awk -F'\t' '{ n[$1 FS $2 FS $3 FS $4]++ } END { for (k in n) if (n[k] > 1) print k }' | sort -k1,1 -k2,2n -k3,3nr -k4,4)

# Splits (aller --split): time per call versus the split, per (mode, nodes,
# commsize) that has two or more, at the largest size every one measured.
sp='v("kind") == "bandwidth" && v("rows") > 0 && v("mode") == m && v("nodes") == n && v("commsize") == cs'
while IFS=$'\t' read -r mode nodes commsize; do
	f=$(list splits "$sp" "index algo split label algo_index bytes_max" m="$mode" n="$nodes" cs="$commsize")
	b=$(common_size "$f")
	[ "$b" -gt 0 ] || continue
	render splits.gp "$merged/bandwidth.dat" "$dir/plots/splits-$mode-n$nodes-c$commsize.$fmt" \
		"$title: time per call versus the split, $mode, $nodes nodes, commsize $commsize, $(bytes_text "$b") per peer" \
		"$subtitle" "$f" "$b" "$(awk -F'\t' 'NR > 1 && !seen[$3]++ { printf "%s%s", s, $3; s = " " }' "$f")"
done < <(sets 'v("kind") == "bandwidth" && v("rows") > 0' 'v("mode"), v("nodes"), v("commsize"), v("split")' |
	sort -u | awk -F'\t' '{ n[$1 FS $2 FS $3]++ } END { for (k in n) if (n[k] > 1) print k }' | sort -k1,1 -k2,2n -k3,3nr)

# aller --moe: the round trip's phases versus message size, per (mode, nodes,
# algorithm, split) at its largest communicator size (the points whose facts
# have a moe line).
moe=$(awk -F'\t' '$2 == "moe" && !seen[$1]++ { printf "%s ", $1 }' "$merged/facts.tsv" 2>/dev/null || true)
ph='v("kind") == "bandwidth" && v("rows") > 0 && index(" " p, " " v("point") " ")'
while [ -n "$moe" ] && IFS=$'\t' read -r mode nodes algo split commsize; do
	named "$algo" "$split"
	f=$(list phases "$ph"' && v("mode") == m && v("nodes") == n && v("algo") == a && v("split") == s && v("commsize") == cs' \
		"index commsize label" p="$moe" m="$mode" n="$nodes" a="$algo" s="$split" cs="$commsize")
	sed -i '3,$d' "$f"   # one data set: the stacked shares of one curve
	render phases.gp "$merged/bandwidth.dat" "$dir/plots/phases-$mode-n$nodes$suffix.$fmt" \
		"$title: MoE round trip by phase, $mode, $nodes nodes, commsize $commsize$about" \
		"$subtitle" "$f"
done < <([ -z "$moe" ] || sets "$ph" 'v("mode"), v("nodes"), v("algo"), v("split"), v("commsize")' p="$moe" |
	sort -t$'\t' -k1,1 -k2,2n -k3,3 -k4,4 -k5,5nr | awk -F'\t' '!seen[$1 FS $2 FS $3 FS $4]++')

# Concurrency: per node count, at the largest, a middle and the smallest
# message size that every level has (the sets with the most rows).
# (the local copy's row alone, commsize 1, has nothing to draw: off scale)
cc='v("kind") == "concurrency" && v("nodes") == n && v("rows") - (v("local") == "yes") > 0'
for nodes in $(sets 'v("kind") == "concurrency"' 'v("nodes")' | sort -un); do
	max=$(sets "$cc" 'v("rows")' n="$nodes" | sort -n | tail -n 1)
	mapfile -t sizes < <(sets "$cc"' && v("rows") == max' 'v("bytes_per_peer")' n="$nodes" max="${max:-0}" | sort -un)
	[ ${#sizes[@]} -gt 0 ] || continue
	for b in $(three "${sizes[@]}" | sort -unr); do
		size=$(sets "$cc"' && v("bytes_per_peer") == b' 'v("size")' n="$nodes" b="$b" | head -n 1)
		render concurrency.gp "$merged/concurrency.dat" "$dir/plots/concurrency-n$nodes-${b}B.$fmt" \
			"$title: bandwidth versus concurrency, $nodes nodes, $size per peer" "$subtitle" \
			"$(list cc "$cc"' && v("bytes_per_peer") == b' "index mode label local" n="$nodes" b="$b")"
	done
done

# Interference (aller --isolate): per (nodes, algorithm), communicator 0's
# factor versus the number of communicators, per mode at up to three sizes.
if [ -n "$(sets 'v("kind") == "concurrency" && v("isolated") == "yes"' 'v("index")' | head -n 1)" ]; then
	ci='v("kind") == "concurrency" && v("rows") > 1 && v("nodes") == n && v("algo") == a && v("split") == s'
	while IFS=$'\t' read -r nodes algo split; do
		mapfile -t sizes < <(sets "$ci" 'v("bytes_per_peer")' n="$nodes" a="$algo" s="$split" | sort -un)
		[ ${#sizes[@]} -gt 0 ] || continue
		pick=$(three "${sizes[@]}" | sort -un | paste -sd' ')
		named "$algo" "$split"
		render interference.gp "$merged/concurrency.dat" "$dir/plots/interference-n$nodes$suffix.$fmt" \
			"$title: interference between concurrent communicators, $nodes nodes$about" "$subtitle" \
			"$(list ci "$ci"' && index(" " p " ", " " v("bytes_per_peer") " ")' "index mode size" \
				n="$nodes" a="$algo" s="$split" p="$pick")"
	done < <(sets 'v("kind") == "concurrency" && v("rows") > 1' 'v("nodes"), v("algo"), v("split")' | sort -u -k1,1n -k2,2 -k3,3)
fi

# Scaling: per (mode, label, commsize), the largest message size; needs two node counts.
{
	printf 'index\tmode\tcommsize\tsize\tlabel\n'
	sets 'v("kind") == "scaling" && v("rows") > 0' \
		'v("mode"), v("label"), v("commsize"), v("bytes_per_peer"), v("index"), v("size")' |
		sort -t$'\t' -k1,1 -k2,2 -k3,3n -k4,4n | awk -F'\t' -v OFS='\t' '
		$1 FS $2 FS $3 != key { if (NR > 1) print last; key = $1 FS $2 FS $3 }
		{ last = $5 OFS $1 OFS $3 OFS $6 OFS $2 }
		END { if (NR) print last }'
} >"$lists/scaling"
if [ "$(count "$lists/scaling")" -gt 0 ] && [ "$(sets 'v("kind") == "bandwidth"' 'v("nodes")' | sort -u | wc -l)" -ge 2 ]; then
	render scaling.gp "$merged/scaling.dat" "$dir/plots/scaling.$fmt" \
		"$title: scaling over node counts at the largest message size" "$subtitle" "$lists/scaling"
fi

# Traffic matrices of --reveal runs.
if [ -n "$reveal_dir" ] && [ -d "$reveal_dir" ]; then
	while read -r m; do
		case $m in "plots: skipped "*) skipped=$((skipped + 1)) ;; *) printf '%s\n' "$m"; drawn=$((drawn + 1)) ;; esac
	done < <(bash "$here/matrices.sh" "$reveal_dir" "$dir/plots" "$fmt" "$title" "$([ -n "$file" ] && echo file || echo campaign)" 2>&1)
fi
[ "$drawn" -gt 0 ] || die "no plot drawn ($skipped skipped)" 3
[ "$skipped" -eq 0 ] || echo "plots: $drawn drawn, $skipped skipped" >&2
