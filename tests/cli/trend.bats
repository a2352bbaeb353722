#!/usr/bin/env bats
# make trend (issue 39): campaigns of one identity in date order, a change
# point per series (collect/judge/changepoint.h; its false-alarm rates are
# tests/unit/test_changepoint.c's), trend.csv, findings and a plot; another
# identity refused. The campaigns here are made by the test: a manifest,
# an output's start and merged tables with busbw_GBs and the start fact, 2% noise, and in one
# history a 31% fall from the eighth run on.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

# campaign NAME DAY FACTOR [LONGS]: one point, 4 nodes, commsizes 8 and 4, 1-8 KiB per peer
campaign() {
	local d=$RES/$1
	mkdir -p "$d/raw" "$d/merged"
	printf 'manifest 2\ncampaign %s\nseries 1 TASKS_PER_NODE=2\nseries 1 LONGS=%s\n' "$1" "${4:-8192}" >"$d/manifest"
	printf '# aller: 1.1.0\n# start: 2026-11-%02dT02:00:00Z\n# Done\n' "$2" >"$d/raw/p.out"
	printf 'point\tkey\tvalue\n0\tstart\t2026-11-%02dT02:00:00Z\n' "$2" >"$d/merged/facts.tsv"
	: >"$d/merged/findings.tsv"   # a merge writes these, findings or not
	: >"$d/merged/sets.tsv"
	printf 'point,campaign,mode,nodes,tasks_per_node,world,state,series,variant,source,key,base\n0,%s,contiguous,4,2,8,complete,t2-L8192-default-s1,default,%s,n4-contiguous-t2-L8192-default-s1,t2-L8192-default-s1\n' \
		"$1" "$d/raw/p.out" >"$d/merged/points-index.csv"
	awk -v f="$3" -v day="$2" 'BEGIN { print "point,level,algo,split,commsize,bytes_per_peer,busbw_GBs"
		for (g = 8; g >= 4; g /= 2) for (b = 1024; b <= 8192; b *= 2) {
			noise = 1 + 0.02 * sin(day * 7 + b / 1024 + g)   # deterministic, within 2%
			printf "0,%d,alltoall,uniform,%d,%d,%.6e\n", (g == 8 ? 0 : 1), g, b, 0.1 * b / 8192 * noise * (g == 8 ? f : 1) } }' \
		>"$d/merged/points.csv"
	touch -d '1 minute ago' "$d/raw/p.out"
}

setup() {
	RES=$BATS_TEST_TMPDIR/results
}

@test "a steady history: no change, exit 0; trend.csv has every series and run; the plot is drawn" {
	for i in 1 2 3 4 5 6 7 8 9 10; do campaign "$(printf 'nightly-%02d' "$i")" "$i" 1; done
	run --separate-stderr -0 bash "$ROOT/plots/trend.sh" "CAMPAIGNS=nightly-*" "RESULTS=$RES"
	[ "$output" = "No change beyond the noise over 10 runs (8 series of 5 runs or more tested)." ]
	t=$RES/trend-nightly
	[ "$(head -n 1 "$t/trend.csv")" = "mode,nodes,tasks_per_node,series,commsize,algo,split,bytes_per_peer,run,campaign,start,busbw_GBs" ]
	[ "$(tail -n +2 "$t/trend.csv" | wc -l)" = 80 ]
	grep -q '^contiguous,4,2,t2-L8192-default-s1,8,alltoall,uniform,8192,9,nightly-10,2026-11-10T02:00:00Z,' "$t/trend.csv"
	[[ $(file -b "$t/trend.png") == "PNG image data, 1100 x 680,"* ]]
}

@test "a 31% fall from the eighth run on: named with its size, run and date, exit 1" {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		campaign "$(printf 'nightly-%02d' "$i")" "$i" "$([ "$i" -ge 8 ] && echo 0.69 || echo 1)"
	done
	# given out of order: the outputs' starts order them
	run --separate-stderr -1 bash "$ROOT/plots/trend.sh" "CAMPAIGNS=nightly-09 nightly-03 nightly-0[1245678] nightly-10" \
		"RESULTS=$RES" NAME=falls
	[[ ${lines[0]} == "1 curve changed beyond the noise over 10 runs"* ]]
	[[ ${lines[1]} == "busbw at "*" KiB per peer on 4 nodes (contiguous, 2 tasks per node, commsize 8, alltoall, uniform) fell 3"*"% from the run of 2026-11-08 (nightly-08) on, after 7 steady runs (4 of 4 sizes of that curve changed)." ]]
	grep -q '"kind": "change", "severity": "warning"' "$RES/trend-falls/findings.json"
	# commsize 4 did not change: no finding names it
	run ! grep -q 'commsize 4' "$RES/trend-falls/findings.tsv"
}

@test "a campaign of another identity, too few, an unknown one: one line each, exit 2" {
	for i in 1 2 3; do campaign "n-$i" "$i" 1; done
	campaign other 4 1 4096
	run --separate-stderr -2 bash "$ROOT/plots/trend.sh" "CAMPAIGNS=n-1 n-2 other n-3" "RESULTS=$RES"
	[ "$stderr" = "trend: error: campaign 'other' is not of the identity of 'n-1': < series 1 LONGS=8192 > series 1 LONGS=4096" ]
	run --separate-stderr -2 bash "$ROOT/plots/trend.sh" "CAMPAIGNS=n-1" "RESULTS=$RES"
	[ "$stderr" = "trend: error: a history needs two campaigns or more: 'n-1' names 1 in $RES" ]
	run --separate-stderr -2 bash "$ROOT/plots/trend.sh" "CAMPAIGNS=n-1 nosuch" "RESULTS=$RES"
	[ "$stderr" = "trend: error: no campaign 'nosuch' in $RES (no $RES/nosuch/manifest)" ]
}
