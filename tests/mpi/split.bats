#!/usr/bin/env bats
# aller --split under mpirun: uneven all-to-alls verified, their columns, bad
# specs and matrix files, counts that do not fit, uniform as before.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

# MPICH polls without yielding: no more ranks than cores there
N=4
[ "$TEST_MPI" = openmpi ] || N=2
SPECS="uniform spread:1 zipf:1.2 zipf:2:9 hot:1:0.9 idle:0.5 rotate:1:0.8 lognormal:1 nodes:0.7"

@test "every spec, with alltoallv, pairwise and put, verifies every element: exit 0, a data set each" {
	args=()
	for s in $SPECS; do args+=("--split=$s"); done
	run --separate-stderr -0 mpirun_n "$N" "$ALLER" --algo=alltoallv,pairwise,put "${args[@]}" c 3 256
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	[ -z "$stderr" ] || { printf '%s\n' "$stderr"; false; }
	grep -qx '# splits: uniform spread:1 zipf:1.2:1 zipf:2:9 hot:1:0.9 idle:0.5 rotate:1:0.8 lognormal:1:1 nodes:0.7' "$BATS_TEST_TMPDIR/out"
	levels=$(grep -c '^# level: ' "$BATS_TEST_TMPDIR/out")
	# every level x 3 algorithms x 9 splits; uniform's data sets have no '# split:' line
	[ "$levels" = $(((N == 4 ? 3 : 2) * 3 * 9)) ]
	[ "$(grep -c '^# split: ' "$BATS_TEST_TMPDIR/out")" = $((levels * 8 / 9)) ]
	grep -qx '# split: zipf:1.2:1' "$BATS_TEST_TMPDIR/out"
	run ! grep -q '^# failed' "$BATS_TEST_TMPDIR/out"
	tail -n 1 "$BATS_TEST_TMPDIR/out" | grep -qx '# Done'
	# the collector reads it and keeps the splits apart
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/out"
	[ "$(awk -F'\t' 'NR > 1 && $3 == "bandwidth" { print $17 }' "$BATS_TEST_TMPDIR/m/sets.tsv" | sort -u | wc -l)" = 9 ]
}

@test "a wrong element at a skewed count is caught: one message, exit 1" {
	for a in alltoallv pairwise put; do
		ALLER_TEST_CORRUPT=1 run --separate-stderr -1 mpirun_n "$N" "$ALLER" --algo="$a" --split=hot:1:0.9 c 2 64
		[[ $stderr == *"verification failed at level 0 (communicator 0 of 1, commsize $N), algorithm $a, count "* ]]
		[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	done
	# a moving hot spot: each call's blocks are checked where that call put them
	ALLER_TEST_CORRUPT=0 run --separate-stderr -1 mpirun_n "$N" "$ALLER" --split=rotate:1:0.9 c 3 64
	[[ $stderr == *"verification failed at level 0"* ]]
}

@test "the split's columns: a hot receiver is named, imbalance and nccl-tests' alltoallv busbw follow it" {
	run --separate-stderr -0 mpirun_n "$N" "$ALLER" --split=hot:1:0.9 --commsizes=world c 2 1024
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	# receiver 0 gets 0.9 of every sender's N x c (rounded down): N of those in, N x c out,
	# against 2 x N x c per task on average
	# (at the smallest counts rounding may leave every task alike: then no hottest rank)
	paste <(column_of count "$BATS_TEST_TMPDIR/out") <(column_of imbalance "$BATS_TEST_TMPDIR/out") \
		<(column_of busbw_v_GBs "$BATS_TEST_TMPDIR/out") <(column_of tavg_s "$BATS_TEST_TMPDIR/out") \
		<(column_of hottest_rank "$BATS_TEST_TMPDIR/out") |
		awk -v n="$N" '{ c = $1; in0 = n * int(0.9 * n * c + 1e-9); want = (in0 + n * c) / (2 * n * c)
			if ($5 != (in0 > n * c ? 0 : "-")) { print "hottest rank " $5 " at " c; bad = 1 }
			if ($2 < want * 0.999 || $2 > want * 1.001) { print "imbalance " $2 " at " c ", want " want; bad = 1 }
			bus = in0 * 8 / $4 / 1e9 * (n - 1) / n
			if ($3 < bus * 0.999 || $3 > bus * 1.001) { print "busbw_v " $3 " at " c ", want " bus; bad = 1 } }
		END { exit bad }'
	# uniform: 1, and nobody hotter than another
	run --separate-stderr -0 mpirun_n "$N" "$ALLER" --algo=alltoallv --commsizes=world c 2 1024
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/uni"
	[ "$(column_of imbalance "$BATS_TEST_TMPDIR/uni" | sort -u)" = 1.000000e+00 ]
	[ "$(column_of hottest_rank "$BATS_TEST_TMPDIR/uni" | sort -u)" = - ]
}

@test "--split=uniform is the run without --split: the same header, data sets and identity columns" {
	# the machine's measured lines (copy rate, NIC and TCP counters: other tests' traffic) differ run to run
	strip() { grep -v -e '^# limit: copy' -e '^# nic_counters:' -e '^# command:' -e '^# start:' -e '^# wall' "$1" | awk '/^[0-9]/ { print $1, $2, $3, $4, $20, $22; next } { print }'; }
	mpirun_n "$N" "$ALLER" --algo=alltoallv,pairwise c 2 64 >"$BATS_TEST_TMPDIR/plain"
	mpirun_n "$N" "$ALLER" --algo=alltoallv,pairwise --split=uniform c 2 64 >"$BATS_TEST_TMPDIR/uniform"
	diff <(strip "$BATS_TEST_TMPDIR/plain") <(strip "$BATS_TEST_TMPDIR/uniform")
	run ! grep -q '^# split' "$BATS_TEST_TMPDIR/uniform"
}

@test "counts whose busiest task does not fit LONGS are skipped in their place; the smaller ones measured" {
	run --separate-stderr -0 mpirun_n "$N" "$ALLER" --split=hot:1:0.9 --commsizes=world c 2 256
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	grep -q "^# skipped: count $((256 / N)): the busiest task sends or receives [0-9]* longs, more than its buffer's 256 (LONGS): raise LONGS to measure it\$" "$BATS_TEST_TMPDIR/out"
	[ "$(column_of count "$BATS_TEST_TMPDIR/out" | head -n 1)" -lt $((256 / N)) ]
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/out"
}

@test "matrix:FILE: rank 0 reads it, it shapes the level of its size; a bad file is one line and exit 2" {
	m=$BATS_TEST_TMPDIR/m2.txt
	printf '# two tasks: 0 sends three times what 1 does\n3 3\n1 1\n' >"$m"
	run --separate-stderr -0 mpirun_n "$N" "$ALLER" --split=matrix:"$m" --split=uniform c 2 256
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	# measured at commsize 2 only; uniform at every level
	[ "$(grep -c "^# split: matrix:$m\$" "$BATS_TEST_TMPDIR/out")" = 1 ]
	grep -B4 "^# split: matrix:" "$BATS_TEST_TMPDIR/out" | grep -q "commsize 2\$"
	# each bad file by the parser the run uses (--check-args reads it as rank 0 does); one under mpirun
	for bad in '1 2 3\n4 5 6\n' '1 -1\n1 1\n' '1 x\n1 1\n' '' '0 0\n0 0\n'; do
		printf "%b" "$bad" >"$m"
		run --separate-stderr -2 "$ALLER" --check-args="$N" --split=matrix:"$m" c 2 256
		[ "$(printf '%s\n' "$stderr" | grep -c "^aller: error: matrix file '$m'")" = 1 ]
	done
	run --separate-stderr -2 mpirun_n "$N" "$ALLER" --split=matrix:"$m" c 2 256
	[ "$(printf '%s\n' "$stderr" | grep -c "^aller: error: matrix file '$m': every weight is 0")" = 1 ]
	[ -z "$output" ]
	run --separate-stderr -2 mpirun_n "$N" "$ALLER" --split=matrix:"$BATS_TEST_TMPDIR/none" c 2 256
	[[ $stderr == *"aller: error: matrix file '$BATS_TEST_TMPDIR/none' cannot be opened: No such file or directory"* ]]
	# a 3 x 3 matrix fits no level of a world of 2 or 4
	printf '1 1 1\n1 1 1\n1 1 1\n' >"$m"
	run --separate-stderr -2 "$ALLER" --check-args="$N" --split=matrix:"$m"
	[[ $stderr == "aller: error: the matrix of --split=matrix:$m is 3 x 3, and no measured level of a world of $N has communicators of 3 tasks"* ]]
}

@test "trace:FILE from PARAM-style traces (tools/param2trace): each call its own matrix, verified where it put the blocks" {
	d=$BATS_TEST_TMPDIR
	# three all-to-all calls per rank: rank i sends (i + j + k) mod 3 + 1 longs' weight to rank j in call k
	for ((i = 0; i < N; i++)); do
		awk -v i="$i" -v n="$N" 'BEGIN { printf "["; for (k = 0; k < 3; k++) { printf "%s{\"comms\": \"all_to_allv\", \"in_split\": [", k ? ", " : ""
			for (j = 0; j < n; j++) printf "%s%d", j ? ", " : "", (i + j + k) % 3 + 1; printf "]}" } print "]" }' >"$d/rank$i.json"
	done
	run --separate-stderr -0 "$ROOT/tools/param2trace" "$d"/rank*.json
	printf '%s\n' "$output" >"$d/trace.txt"
	[ "$(grep -c '^# call ' "$d/trace.txt")" = 3 ]
	run --separate-stderr -0 mpirun_n "$N" "$ALLER" --split=trace:"$d/trace.txt" --commsizes=world c 4 1024
	printf '%s\n' "$output" | grep -qx "# split: trace:$d/trace.txt"
	[[ $output == *$'\n# Done' ]]
	ALLER_TEST_CORRUPT=1 run --separate-stderr -1 mpirun_n "$N" "$ALLER" --split=trace:"$d/trace.txt" --commsizes=world c 4 1024
	[[ $stderr == *"verification failed at level 0"* ]]
	# a bad file: the matrix and the line named, exit 2
	printf '1 1\n1 1\n\n1 1\n1\n' >"$d/bad.txt"
	run --separate-stderr -2 mpirun_n 2 "$ALLER" --split=trace:"$d/bad.txt" c 2 64
	[[ $stderr == *"aller: error: trace file '$d/bad.txt', matrix 2 (from line 4): line 5 has 1 numbers, the first row 2: a matrix must be N x N"* ]]
	# the converter's own refusal: one line, exit 2
	run --separate-stderr -2 "$ROOT/tools/param2trace" "$d/rank0.json"
	[[ $stderr == "param2trace: error: $d/rank0.json: record 1: in_split has $N sizes, expected 1 (one per rank, a file per rank)" ]]
}

# bats test_tags=openmpi
@test "--transport=nccl takes uneven blocks (stubbed: no GPU here, the output path and the check)" {
	[ "$TEST_MPI" = openmpi ] || skip "one MPI is enough"
	ALLER_TEST_NCCL_STUB=1 run --separate-stderr -0 mpirun_n "$N" "$ALLER" --transport=nccl \
		--split=uniform --split=zipf:1.2 --split=hot:1:0.9 c 2 256
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	grep -qx '# algos: nccl' "$BATS_TEST_TMPDIR/out"
	grep -qx '# split: hot:1:0.9' "$BATS_TEST_TMPDIR/out"
	run ! grep -q '^# failed' "$BATS_TEST_TMPDIR/out"
	ALLER_TEST_NCCL_STUB=1 ALLER_TEST_CORRUPT=1 run --separate-stderr -1 mpirun_n "$N" "$ALLER" \
		--transport=nccl --split=hot:1:0.9 c 2 256
	[[ $stderr == *"verification failed at level 0 (communicator 0 of 1, commsize $N), algorithm nccl"* ]]
}

@test "bad --split: one line, exit 2, with or without mpirun" {
	run --separate-stderr -2 "$ALLER" --check-args --split=zipf:x
	[[ $stderr == "aller: error: invalid split 'zipf:x': zipf takes an exponent S"* ]]
	run --separate-stderr -2 "$ALLER" --check-args --algo=alltoall --split=hot:1:0.5
	[ "$stderr" = "aller: error: --split=hot:1:0.5 sends uneven blocks, which alltoall cannot: allowed with it are --algo=alltoallv, pairwise and put, and --transport=nccl" ]
	run --separate-stderr -2 mpirun_n 2 "$ALLER" --split=bogus c 2 64
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	[ -z "$output" ]
}

@test "a DEL byte and the four characters \\x7f in matrix files' names are two splits, escaped apart" {
	cd "$BATS_TEST_TMPDIR"
	del=$(printf 'm\177.txt') lit='m\x7f.txt'
	printf '3 3\n1 1\n' >"$del"
	printf '1 1\n3 3\n' >"$lit"
	run --separate-stderr -0 mpirun_n "$N" "$ALLER" "--split=matrix:$del" "--split=matrix:$lit" c 2 256
	printf '%s\n' "$output" >out
	grep -qxF '# split: matrix:m\x7f.txt' out
	grep -qxF '# split: matrix:m\\x7f.txt' out
	run --separate-stderr -0 "$COLLECT" -q -o m out
	[ "$(awk -F, 'NR > 1 { print $4 }' m/points.csv | sort -u | grep -c '^matrix:')" = 2 ]
}
