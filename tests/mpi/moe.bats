#!/usr/bin/env bats
# aller --moe under mpirun: the round trip (counts, dispatch, combine) on
# every communicator, each phase timed and verified, its columns, what it
# refuses.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

N=4
[ "$TEST_MPI" = openmpi ] || N=2

@test "--moe: every phase verified with alltoallv and pairwise, uneven and uniform; the phases add up to the trip" {
	out=$BATS_TEST_TMPDIR/out
	run --separate-stderr -0 mpirun_n "$N" "$ALLER" --moe --algo=alltoallv,pairwise \
		--split=uniform --split=zipf:1.2 --split=lognormal:1 --split=hot:1:0.9 c 3 1024
	[ -z "$stderr" ] || { printf '%s\n' "$stderr"; false; }
	printf '%s\n' "$output" >"$out"
	grep -q '^# moe: each call a mixture-of-experts step.s round trip on every communicator: counts ' "$out"
	tail -n 1 "$out" | grep -qx '# Done'
	# every row: the three phases measured, their sum within the trip's tavg
	paste <(column_of tcounts_s "$out") <(column_of tdispatch_s "$out") <(column_of tcombine_s "$out") <(column_of tavg_s "$out") |
		awk '{ if (!($1 > 0 && $2 > 0 && $3 > 0) || $1 + $2 + $3 > $4 * 1.001) { print "row " NR ": " $0; bad = 1 } }
			END { exit bad }'
	# uniform: GiB and busbw count the blocks both ways
	mpirun_n "$N" "$ALLER" --moe c 3 1024 >"$out"
	perl "$ROOT/tests/lib/check-aller.pl" "$N" 1024 3 contiguous "$out"
	# the collector keeps the columns
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$out"
	head -n 1 "$BATS_TEST_TMPDIR/m/points.csv" | grep -q ',eff,tcounts_s,tdispatch_s,tcombine_s,bound_s,bottleneck,eff_bound,above_bound$'
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["tcounts_s"]) == "" || $(c["tcombine_s"]) == ""' "$BATS_TEST_TMPDIR/m/points.csv" | wc -l)" = 0 ]
	# the stacked phases' plot, for --moe's data sets only
	run -0 bash "$ROOT/plots/plot.sh" --file "$out" --out-dir "$BATS_TEST_TMPDIR/r"
	[[ $output == *"/plots/phases-contiguous-n1-alltoallv.png"* ]]
	mpirun_n 2 "$ALLER" c 2 64 >"$BATS_TEST_TMPDIR/plain.out"
	run -0 bash "$ROOT/plots/plot.sh" --file "$BATS_TEST_TMPDIR/plain.out" --out-dir "$BATS_TEST_TMPDIR/p"
	[[ $output != *"/plots/phases-"* ]]
}

@test "--moe: a wrong count, a wrong dispatched element, a wrong combined element: exit 1, the phase named" {
	ALLER_TEST_MOE_CORRUPT=counts run --separate-stderr -1 mpirun_n "$N" "$ALLER" --moe --split=zipf:1 c 2 64
	[[ $stderr == *"verification failed at level 0 (communicator 0 of 1, commsize $N), algorithm alltoallv, count "*", --moe's counts: element 0 from rank "* ]]
	ALLER_TEST_MOE_CORRUPT=combine run --separate-stderr -1 mpirun_n "$N" "$ALLER" --moe --algo=pairwise c 2 64
	[[ $stderr == *"algorithm pairwise, count "*", --moe's combine: element "* ]]
	ALLER_TEST_CORRUPT=1 run --separate-stderr -1 mpirun_n "$N" "$ALLER" --moe c 2 64
	[[ $stderr == *"verification failed at level 0"* ]]
	[[ $stderr != *"--moe's"* ]]   # the dispatch: the harness's own check
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
}

@test "--moe with --transport=nccl (stubbed: no GPU here): the trip through the transport's uneven call, every phase checked" {
	out=$BATS_TEST_TMPDIR/out
	ALLER_TEST_NCCL_STUB=1 run --separate-stderr -0 mpirun_n "$N" "$ALLER" --transport=nccl --moe \
		--split=uniform --split=zipf:1.2 c 3 1024
	[ -z "$stderr" ] || { printf '%s\n' "$stderr"; false; }
	printf '%s\n' "$output" >"$out"
	grep -q '^# moe: ' "$out"
	grep -q '^# algo: nccl' "$out"
	[ "$(column_of tcombine_s "$out" | grep -vc '^-$')" -gt 0 ]
	tail -n 1 "$out" | grep -qx '# Done'
	ALLER_TEST_NCCL_STUB=1 ALLER_TEST_MOE_CORRUPT=combine run --separate-stderr -1 mpirun_n "$N" "$ALLER" \
		--transport=nccl --moe c 2 64
	[[ $stderr == *"algorithm nccl, count "*", --moe's combine: element "* ]]
}

@test "--moe refuses what it cannot time apart: one line, exit 2" {
	run --separate-stderr -2 "$ALLER" --check-args --moe --algo=alltoall
	[ "$stderr" = "aller: error: --moe's dispatch and combine cannot run as alltoall: allowed with it are --algo=alltoallv and pairwise, and --transport=nccl" ]
	for o in --cold-cache --split=rotate:1:0.5 --timing=loop --congestion=0.5 --pairs; do
		run --separate-stderr -2 "$ALLER" --check-args --moe "$o"
		[[ $stderr == "aller: error: "*"not with"* ]]
	done
}
