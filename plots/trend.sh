#!/usr/bin/env bash
# plots/trend.sh CAMPAIGNS="a b c" | CAMPAIGNS='nightly-*' [NAME=name]
# [RESULTS=dir] (make trend): the history of campaigns of one identity (the
# same series lines in their manifests), in date order by each campaign's
# earliest start (collect --trend orders them by the merge's facts) over
# their merged tables (merged anew where missing or older than the outputs)
# into RESULTS/trend-<name>/:
# trend.csv, findings.json, findings.tsv and trend.png. NAME defaults to the
# campaigns' common prefix. Prints the findings' sentences.
# Exit status: 0 no change, 1 a change found, 2 bad input (an unknown
# campaign, one of another identity, fewer than two), 3 a tool failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/../campaigns/lib.sh"
# shellcheck source=plots/lib.sh
. "$here/lib.sh"
script_options aller-trend "usage: aller-trend CAMPAIGNS=\"a b ...\"|'prefix-*' [NAME=name] [RESULTS=dir]" "$@"

tool_args --campaign "CAMPAIGNS NAME" "$@"
# shellcheck disable=SC2153 # tool_args sets them
list=$CAMPAIGNS name=$NAME
locate_campaign "${REST_ARGS[@]}"
[ -n "$list" ] || die "give CAMPAIGNS=\"a b ...\" or a pattern, CAMPAIGNS='nightly-*'"
names=()
for w in $list; do
	case $w in
	*[*?[]*) for d in "$RESULTS"/$w/; do [ -f "$d/manifest" ] && names+=("$(basename "$d")"); done ;;
	*) names+=("$w") ;;
	esac
done
dup=$(printf '%s\n' "${names[@]}" | sort | uniq -d | head -n 1)
[ -z "$dup" ] || die "campaign '$dup' is named twice in CAMPAIGNS ('$list'): a history counts each run once"
[ ${#names[@]} -ge 2 ] || die "a history needs two campaigns or more: '$list' names ${#names[@]} in $RESULTS"
collect=$(find_tool collect)
# each campaign: merged if need be, of the first's identity (collect --trend
# orders them by their earliest starts)
dirs=()
for c in "${names[@]}"; do
	d=$RESULTS/$c
	{ is_name "$c" && [ -f "$d/manifest" ]; } || die "no campaign '$c' in $RESULTS (no $d/manifest)"
	rc=0
	merge_campaign "$d" || rc=$?
	[ "$rc" -le 1 ] || die "the collector failed on '$c' (exit $rc)" 3
	diff=$(diff <(grep '^series ' "$RESULTS/${names[0]}/manifest" | sort) <(grep '^series ' "$d/manifest" | sort) |
		grep '^[<>]' | head -n 2 | paste -sd' ' || true)
	[ -z "$diff" ] || die "campaign '$c' is not of the identity of '${names[0]}': $diff"
	dirs+=("$d/merged")
done
# NAME's default: the campaigns' common prefix, less its trailing '-', '_' or '.'
[ -n "$name" ] || name=$(printf '%s\n' "${names[@]}" | sed -e '1{h;d}' -e 'G;s/^\(.*\).*\n\1.*$/\1/;h;$!d' | sed 's/[-_.]*$//')
[ -n "$name" ] || name=campaigns
is_name "$name" || die "invalid NAME '$name': allowed are letters, digits, '.', '_' and '-'"
out=$RESULTS/trend-$name
mkdir -p "$out"
rc=0
"$collect" --trend "$out" "${dirs[@]}" || rc=$?
[ "$rc" -eq 0 ] || die "collect --trend failed (exit $rc)" 3
# the plot: each curve at its largest size, runs in order (collect's trend.dat)
n=$(grep -c '^"' "$out/trend.dat" || true)
[ "$n" -eq 0 ] || gnuplot_render "$here/trend.gp" "$out/trend.dat" "$out/trend.png" png \
	"aller: trend of $name" "${#dirs[@]} runs, busbw at each curve's largest size" "$n" >/dev/null || true
table_select "$out/findings.tsv" text
table_select "$out/findings.tsv" severity | grep -qx warning && exit 1
exit 0
