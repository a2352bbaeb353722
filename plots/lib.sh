# plots/lib.sh: reading the collector's index of data sets (sets.tsv, columns
# by name) and its facts of each point (facts.tsv). Sourced by plot.sh,
# compare.sh and report.sh.
# shellcheck shell=bash

# index_sets INDEX CONDITION FIELDS [VAR=VALUE ...]: the rows of INDEX where
# an awk CONDITION holds, FIELDS printed tab-separated; v("name") is a
# column by name, VARs are awk variables.
index_sets() {
	local index=$1 cond=$2 fields=$3 vars=() a
	shift 3
	# awk -v reads escapes: a value's backslashes doubled reach it as they are
	for a in "$@"; do vars+=(-v "${a//\\/\\\\}"); done
	awk -F'\t' -v OFS='\t' "${vars[@]}" 'function v(name) { return $c[name] }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		'"$cond"' { print '"$fields"' }' "$index"
}

# late_hosts: from collect --samples' output on stdin, the host of each
# straggling call (one task, or one host's tasks, came late), one a line.
late_hosts() {
	grep -o 'straggler, \(rank [0-9]* on \|the tasks of \)[^ ]*' | sed 's/.* //'
}

# The one rule of a straggling host, an awk function: it came late in N of
# TOTAL straggling calls, and N is 3 or more and half of TOTAL or more.
STRAGGLER_AWK='function straggler(n, total) { return n >= 3 && 2 * n >= total }'

# straggler_suspects DIR: a campaign's straggling hosts (STRAGGLER_AWK) over
# the straggling calls of all its samples (SAMPLES=1), added to
# DIR/merged/suspects.tsv by collect --suspect (kind host); none where the
# samples come from one host (it is then every straggler's).
straggler_suspects() {
	local late since hosts host k total collect
	[ -s "$1/merged/suspects.tsv" ] && [ -d "$1/samples" ] || return 0
	hosts=$(find "$1"/samples -name 'samples-*.txt' | sed 's|.*/samples-||' | sort -u | wc -l)
	[ "$hosts" -ge 2 ] || return 0
	collect=$(find_tool collect)
	late=$("$collect" --samples "$1"/samples/*/ 2>/dev/null | late_hosts) || true
	[ -n "$late" ] || return 0
	since=$(point_facts "$1/merged/facts.tsv" "" start | sort | head -n 1) || true
	sort <<<"$late" | uniq -c | sort -k1,1rn -k2,2 | awk -v total="$(wc -l <<<"$late")" "$STRAGGLER_AWK"'
		straggler($1, total) { print $2, $1, total }' | while read -r host k total; do
		"$collect" --suspect "$1/merged" host "$host" \
			"came late in $k of the $total straggling calls (--samples): its peers waited" "$since" "$(basename "$1")"
	done
}

# point_facts FACTS POINT KEY...: the collector's facts (facts.tsv) of that
# point (its row of points-index.csv; "" every point) and those KEYs, in
# order: its value, one per line (with several KEYs, "KEY: value").
point_facts() {
	table_select "$1" point key value | awk -F'\t' -v p="$2" -v keys=" ${*:3} " -v n=$(($# - 2)) \
		'(p == "" || $1 == p) && index(keys, " " $2 " ") { print (n > 1 ? $2 ": " : "") $3 }'
}

# index_list INDEX CONDITION "NAME ..." [VAR=VALUE ...]: a plot's data sets by
# name, as the gnuplot scripts read them (common.gp, sets_col): a first line
# naming the columns, then the NAMEd columns of the rows where CONDITION
# holds, tab-separated.
index_list() {
	local index=$1 cond=$2 cols
	read -r -a cols <<<"$3"
	shift 3
	(IFS=$'\t' && printf '%s\n' "${cols[*]}")
	index_sets "$index" "$cond" "$(printf 'v("%s"), ' "${cols[@]}" | sed 's/, $//')" "$@"
}

# gnuplot_render SCRIPT DATA OUT FORMAT ARGS...: one plot; prints OUT, or a
# line "plots: skipped OUT: why" on stderr and returns 1. gnuplot reads a
# data file named "<cmd" through a pipe and writes an output named "|cmd"
# into one: DATA, OUT and every ARG that names an existing file (the lists
# of data sets) reach it absolute (abs_path). It runs in SCRIPT's directory,
# where the scripts' `load "common.gp"` finds plots/common.gp.
gnuplot_render() {
	local script=$1 data out err a args=() shown=$3
	data=$(abs_path "$2")
	out=$(abs_path "$3")
	shift 3
	for a in "$@"; do
		if [ -n "$a" ] && [ -f "$a" ]; then args+=("$(abs_path "$a")"); else args+=("$a"); fi
	done
	set -- "${args[@]}"
	if ! err=$(cd "$(dirname "$script")" && gnuplot -c "$(basename "$script")" "$data" "$out" "$@" 2>&1) || [ -n "$err" ]; then
		printf 'plots: skipped %s: %s\n' "$out" "$(printf '%s' "$err" | grep -v '^ *$' | tail -n 1)" >&2
		rm -f "$out"
		return 1
	fi
	printf '%s\n' "$shown"
}
