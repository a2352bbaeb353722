# plots/lib.sh: drawing the collector's plot list (plots.tsv), reading its
# facts of each point (facts.tsv), the straggling hosts. Sourced by plot.sh,
# compare.sh and report.sh.
# shellcheck shell=bash

# straggler_suspects DIR: a campaign's straggling hosts over the straggling
# calls of all its samples (SAMPLES=1) added to DIR/merged/suspects.tsv by
# collect --samples --suspect (its rule, samples.h); none where the samples
# come from one host (it is then every straggler's).
straggler_suspects() {
	[ -s "$1/merged/suspects.tsv" ] && compgen -G "$1/samples/*/samples-*.txt" >/dev/null || return 0
	"$(find_tool collect)" --samples --suspect "$1/merged" "$(basename "$1")" "$1"/samples/*/ 2>/dev/null || true
}

# point_facts FACTS POINT KEY...: the collector's facts (facts.tsv) of that
# point (its row of points-index.csv; "" every point) and those KEYs, in
# order: its value, one per line (with several KEYs, "KEY: value").
point_facts() {
	table_select "$1" point key value | awk -F'\t' -v p="$2" -v keys=" ${*:3} " -v n=$(($# - 2)) \
		'(p == "" || $1 == p) && index(keys, " " $2 " ") { print (n > 1 ? $2 ": " : "") $3 }'
}

# gnuplot_render SCRIPT DATA OUT FORMAT ARGS...: one plot; prints OUT, or a
# line "plots: skipped OUT: why" on stderr and returns 1 where gnuplot
# failed (a warning, its exit 0, is said on stderr and the plot kept). gnuplot reads a
# data file named "<cmd" through a pipe and writes an output named "|cmd"
# into one: DATA, OUT and every ARG that names an existing file (the lists
# of data sets) reach it absolute (abs_path). It runs in SCRIPT's directory,
# where the scripts' `call "common.gp"` finds plots/common.gp.
gnuplot_render() {
	local script=$1 data out err a args=() shown=$3
	data=$(abs_path "$2") out=$(abs_path "$3")
	shift 3
	for a in "$@"; do
		if [ -n "$a" ] && [ -f "$a" ]; then args+=("$(abs_path "$a")"); else args+=("$a"); fi
	done
	set -- "${args[@]}"
	if ! err=$(cd "$(dirname "$script")" && gnuplot -c "$(basename "$script")" "$data" "$out" "$@" 2>&1); then
		printf 'plots: skipped %s: %s\n' "$out" "$(printf '%s' "$err" | grep -v '^ *$' | tail -n 1)" >&2
		rm -f "$out"
		return 1
	fi
	[ -z "$err" ] || printf 'plots: %s: gnuplot warned: %s\n' "$out" "$(printf '%s' "$err" | grep -v '^ *$' | tail -n 1)" >&2
	# a heatmap's bitmap (n x n pixels stretched to the plot) keeps its cells apart at any
	# zoom: a browser would smooth it into a gradient
	[[ $out != *.svg ]] || ! grep -q '<image ' "$out" ||
		sed -i "s/<image /<image image-rendering='optimizeSpeed' style='image-rendering: pixelated' /" -- "$out"
	printf '%s\n' "$shown"
}

# plot_rows DIR OUT FORMAT: each plot of DIR/plots.tsv (collect's list:
# collect --plots, or a comparison's) drawn into OUT by gnuplot_render (the
# files it wrote on stdout, each skipped one a line on stderr; an argument
# naming a plotsets/ table of DIR reaches it as DIR's); DRAWN and SKIPPED
# count them. A plot is drawn again only when its key changed: its row and
# format, and the md5 of the scripts (plots/*.gp) and of the tables it may
# read (DIR's *.dat, plotsets/ and points.csv), kept in OUT/.NAME.FORMAT.key.
plot_rows() {
	local dir=$1 out=$2 fmt=$3 script data name title subtitle a6 a7 a8 a9 a args key h f old
	local -A md5=()
	DRAWN=0 SKIPPED=0
	while read -r h f; do md5[x${f#./}]=${h:0:16}; done < <(cd "$dir" && md5sum -- points.csv ./*.dat plotsets/* 2>/dev/null)
	md5[gp]=$(cat "$CAMPAIGN_ROOT"/plots/*.gp | md5sum | cut -c1-16)
	while IFS=$'\037' read -r script data name title subtitle a6 a7 a8 a9; do
		args=() f=$out/$name.$fmt key="$fmt ${md5[gp]} ${md5[xpoints.csv]:-} ${md5[x$data]:-} $script $name $title $subtitle"
		for a in "$a6" "$a7" "$a8" "$a9"; do
			key+=" $a ${md5[x$a]:-}"
			[[ $a != plotsets/* ]] || a=$dir/$a
			args+=("$a")
		done
		if { { IFS= read -r old <"$out/.$name.$fmt.key"; } 2>/dev/null && [ "$old" = "$key" ] && [ -s "$f" ] && echo "$f"; } ||
			{ gnuplot_render "$CAMPAIGN_ROOT/plots/$script" "$dir/$data" "$f" "$fmt" "$title" "$subtitle" "${args[@]}" &&
				{ (write_file "$out/.$name.$fmt.key" printf '%s\n' "$key") 2>/dev/null || :; }; }; then
			DRAWN=$((DRAWN + 1))
		else
			SKIPPED=$((SKIPPED + 1))
		fi
	done < <(table_select "$dir/plots.tsv" script data out title subtitle arg6 arg7 arg8 arg9 | tr '\t' '\037')
}
