#!/usr/bin/env bats
# aller under mpirun on this machine: the output checked against the spec.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

# check N MODE: runs N ranks with small buffers and checks every column.
check() {
	local n=$1 mode=$2 out="$BATS_TEST_TMPDIR/out.$1.$2"
	mpirun_n "$n" "$ALLER" "$mode" 2 48 >"$out"
	perl "$ROOT/tests/lib/check-aller.pl" "$n" 48 2 "$mode" "$out"
}

@test "aller at 1 rank matches the spec in both modes" { check 1 contiguous; check 1 strided; }
@test "aller at 2 ranks matches the spec in both modes; its two wall figures say which is which" {
	check 2 contiguous
	check 2 strided
	# the sweep's, and the whole run's in wall_parts
	grep -qE "^# wall: [0-9.]+ s in the sweep \(the whole run: wall_parts' total\), of which [0-9.]+ s inside the all-to-all calls" "$BATS_TEST_TMPDIR/out.2.contiguous"
	grep -qE '^# wall_parts: total=[0-9.]+ ' "$BATS_TEST_TMPDIR/out.2.contiguous"
}
@test "aller at 3 ranks matches the spec in both modes" { check 3 contiguous; check 3 strided; }
@test "aller at 4 ranks matches the spec in both modes, and reports the hosts and the node count" {
	check 4 contiguous
	check 4 strided
	grep -qx '# nodes: 1' "$BATS_TEST_TMPDIR/out.4.strided"
	grep -qx '# tasks_per_node: 4' "$BATS_TEST_TMPDIR/out.4.strided"
	grep -qx "# host: $(hostname) 0-3" "$BATS_TEST_TMPDIR/out.4.strided"
}
@test "aller at 5 ranks matches the spec in both modes" { check 5 contiguous; check 5 strided; }
@test "aller at 6 ranks matches the spec in both modes" { check 6 contiguous; check 6 strided; }
@test "aller at 7 ranks lists the uneven sizes 3 3 1" {
	check 7 contiguous
	grep -qx '# sizes: 3x2 1 (uneven)' "$BATS_TEST_TMPDIR/out.7.contiguous"
	check 7 strided
	grep -qx '# sizes: 3 2x2 (uneven)' "$BATS_TEST_TMPDIR/out.7.strided"
}
@test "aller at 8 ranks matches the spec in both modes" { check 8 contiguous; check 8 strided; }

@test "the checker itself rejects a damaged output" {
	mpirun_n 2 "$ALLER" c 2 16 >"$BATS_TEST_TMPDIR/good"
	sed '$d' "$BATS_TEST_TMPDIR/good" >"$BATS_TEST_TMPDIR/no-done"
	run -1 perl "$ROOT/tests/lib/check-aller.pl" 2 16 2 contiguous "$BATS_TEST_TMPDIR/no-done"
	sed 's/^1 2 8 /1 2 9 /' "$BATS_TEST_TMPDIR/good" >"$BATS_TEST_TMPDIR/bad-count"
	run -1 perl "$ROOT/tests/lib/check-aller.pl" 2 16 2 contiguous "$BATS_TEST_TMPDIR/bad-count"
	[[ $output == *"count 9, expected 8"* ]]
	# a median above the 99th percentile, a bus bandwidth off by a factor
	awk '/^1 2 8 / { t = $13; $13 = $14; $14 = t * 0.5 } { print }' "$BATS_TEST_TMPDIR/good" >"$BATS_TEST_TMPDIR/bad-p"
	run -1 perl "$ROOT/tests/lib/check-aller.pl" 2 16 2 contiguous "$BATS_TEST_TMPDIR/bad-p"
	[[ $output == *"percentiles not tmin <= tmed <= tp99 <= tmax"* ]]
	awk '/^1 2 8 / { $15 = $15 * 2 } { print }' "$BATS_TEST_TMPDIR/good" >"$BATS_TEST_TMPDIR/bad-bus"
	run -1 perl "$ROOT/tests/lib/check-aller.pl" 2 16 2 contiguous "$BATS_TEST_TMPDIR/bad-bus"
	[[ $output == *"busbw "*", expected "* ]]
	awk '/^1 2 8 / { $9 = $9 * 1.5 } { print }' "$BATS_TEST_TMPDIR/good" >"$BATS_TEST_TMPDIR/bad-bw"
	run -1 perl "$ROOT/tests/lib/check-aller.pl" 2 16 2 contiguous "$BATS_TEST_TMPDIR/bad-bw"
	[[ $output == *"bwavg "*", expected GiB / tavg"* ]]
	# a row the selection should not have
	run -1 perl "$ROOT/tests/lib/check-aller.pl" --max-bytes=32 2 16 2 contiguous "$BATS_TEST_TMPDIR/good"
}

@test "size and level selections give exactly the rows asked for" {
	local out=$BATS_TEST_TMPDIR/sel
	mpirun_n 4 "$ALLER" --min-bytes=16 --max-bytes=100 c 2 128 >"$out"
	perl "$ROOT/tests/lib/check-aller.pl" --min-bytes=16 --max-bytes=100 4 128 2 contiguous "$out"
	[ "$(grep -c '^[0-9]' "$out")" = 9 ]   # 64 32 16 B at each of the 3 levels
	mpirun_n 8 "$ALLER" --commsizes=world,2 s 2 64 >"$out"
	perl "$ROOT/tests/lib/check-aller.pl" --commsizes=world,2 8 64 2 strided "$out"
	[ "$(grep -c '^# level: ' "$out")" = 2 ]
	grep -q '^# level: 2 target 2 comms 4 commsize 2$' "$out"
	run --separate-stderr -2 mpirun_n 6 "$ALLER" --commsizes=3 --min-bytes=2K c 1 600
	[[ $stderr == *"aller: error: no count to measure: no size per peer of the selected levels lies in 2 KiB..any (they are 8 B..1600 B with LONGS 600)"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	run --separate-stderr -2 mpirun_n 4 "$ALLER" --commsizes=3 c 1 64
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: commsize 3 is not a level of a world of 4 ranks: allowed are world, 4, 2, 1$')" = 1 ]
}

# bats test_tags=openmpi,slow
@test "pairwise beyond one window of 64 steps: 66 ranks, every block verified, a damaged one caught" {
	[ "$TEST_MPI" = openmpi ] || skip "one MPI is enough: the windows are aller's (66 MPICH ranks: 60 s more)"
	out=$BATS_TEST_TMPDIR/wide
	mpirun_n 66 "$ALLER" --algo=pairwise --commsizes=world c 2 264 >"$out"
	perl "$ROOT/tests/lib/check-aller.pl" --commsizes=world 66 264 2 contiguous "$out"
	ALLER_TEST_CORRUPT=65 run --separate-stderr -1 mpirun_n 66 "$ALLER" --algo=pairwise \
		--commsizes=world c 1 132
	[[ $stderr == *"verification failed at level 0"* ]]
}

@test "--warmup=N makes N untimed calls, and an uneven world still checks out" {
	local out=$BATS_TEST_TMPDIR/w
	mpirun_n 5 "$ALLER" --warmup=3 --fresh-data s 2 40 >"$out"
	perl "$ROOT/tests/lib/check-aller.pl" 5 40 2 strided "$out"
	grep -qx '# warmup: 3' "$out"
	grep -qx '# data: fresh' "$out"
}

@test "a corrupted element is detected: one message, exit 1" {
	ALLER_TEST_CORRUPT=2 run --separate-stderr -1 mpirun_n 4 "$ALLER" s 2 32
	[[ $stderr == *"aller: error: rank 2 on "*": verification failed at level 0 (communicator 0 of 1, commsize 4), algorithm alltoall, count 8, iteration 0 (warm-up): element 0 from rank 2: expected 0x"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	[[ $output != *"# Done"* ]]
}

@test "a failed buffer operation on one rank: every rank agrees, one message, exit 3" {
	ALLER_TEST_BUFFER_FAIL=2 run --separate-stderr -3 mpirun_n 4 "$ALLER" c 2 32
	[[ $stderr == *"aller: error: rank 2 on "*": fill failed (ALLER_TEST_BUFFER_FAIL=2) at level 0, count 8"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	[[ $output != *"# Done"* ]]
	[ "$(grep -c '^[0-9]' <<<"$output")" = 0 ] # no row: the first count failed
}

@test "verification catches data in every iteration, not only the first" {
	ALLER_TEST_CORRUPT=0 run --separate-stderr -1 mpirun_n 2 "$ALLER" c 3 8
	[[ $stderr == *"(4 wrong elements over all checked calls)"* ]]
}

@test "with --fresh-data a rank that sends the previous iteration's data is caught" {
	ALLER_TEST_STALE=1 run --separate-stderr -1 mpirun_n 3 "$ALLER" --fresh-data c 2 24
	[[ $stderr == *"verification failed at level 0 (communicator 0 of 1, commsize 3), algorithm alltoall, count 8, iteration 1: element 0 from rank 1: expected 0x"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	# reused data is the same in every call by design: the hook changes nothing
	ALLER_TEST_STALE=1 run -0 mpirun_n 3 "$ALLER" c 2 24
}

@test "--verify=warmup catches a corrupted warm-up and checks no timed call" {
	ALLER_TEST_CORRUPT=1 run --separate-stderr -1 mpirun_n 2 "$ALLER" --verify=warmup --warmup=2 c 3 8
	[[ $stderr == *"iteration 0 (warm-up)"* ]]
	[[ $stderr == *"(2 wrong elements over all checked calls)"* ]]
	ALLER_TEST_CORRUPT=1 run -0 mpirun_n 2 "$ALLER" --verify=none c 3 8
}

@test "bad arguments under mpirun: one error line, every rank exits 2" {
	run --separate-stderr -2 mpirun_n 4 "$ALLER" c 12x
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	[[ $stderr == *"cannot parse iterations '12x'"* ]]
}

@test "LONGS smaller than the world is a usage error" {
	run --separate-stderr -2 mpirun_n 4 "$ALLER" c 1 3
	[[ $stderr == *"aller: error: longs 3 is smaller than the world size 4"* ]]
}

@test "buffers that do not fit the node are refused before any rank allocates: one line, exit 3" {
	# 3 ranks x 2 x 1 Mi longs x 8 B = 48 MiB, against 40 MiB available
	ALLER_TEST_MEMAVAIL=$((40 << 20)) run --separate-stderr -3 mpirun_n 3 "$ALLER" c 1 $((1 << 20))
	[[ $stderr == *"aller: error: rank 0 on $(hostname): the buffers do not fit: 3 ranks on $(hostname) need 0.05 GiB (2 x 1048576 longs each), the node has 0.04 GiB available: use a smaller LONGS or fewer ranks per node"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	[ -z "$output" ]
	ALLER_TEST_MEMAVAIL=$((60 << 20)) run -0 mpirun_n 3 "$ALLER" --commsizes=1 c 1 $((1 << 20))
}

@test "--check-args answers as a run would, without MPI" {
	run -0 "$ALLER" --check-args=8 --max-bytes=4K s 3 1024
	run --separate-stderr -2 "$ALLER" --check-args=8 s 3 4
	[ "$stderr" = "aller: error: longs 4 is smaller than the world size 8: each peer needs at least one long (use LONGS >= 8)" ]
	run --separate-stderr -2 "$ALLER" --check-args=8 --commsizes=3 c 1 64
	[[ $stderr == *"commsize 3 is not a level of a world of 8 ranks"* ]]
	run --separate-stderr -2 "$ALLER" --check-args --frob
	[ "$stderr" = "aller: error: unknown option '--frob' (see 'aller --help')" ]
	run --separate-stderr -2 "$ALLER" --check-args=0 c
	[[ $stderr == *"invalid world size '0'"* ]]
	# several worlds at once (a campaign's): each checked, the refused one named
	run -0 "$ALLER" --check-args=2,4,8 s 3 1024
	[ -z "$output" ]
	run --separate-stderr -2 "$ALLER" --check-args=2,16,8 s 3 8
	[ "$stderr" = "aller: error: world 16: longs 8 is smaller than the world size 16: each peer needs at least one long (use LONGS >= 16)" ]
	run --separate-stderr -2 "$ALLER" --check-args=2,x c
	[[ $stderr == *"invalid world size 'x'"* ]]
	run -0 "$ALLER" --check-args=2,4 --time-per-size=0.5 c 3 64
	[ "$output" = "budget: world 2: 13 data set rows, at most 7 s of timed calls
budget: world 4: 18 data set rows, at most 9 s of timed calls" ]
	# =@FILE: a campaign's worlds past what one argument may hold (128 KiB), commas or white space between
	seq 1 40000 >"$BATS_TEST_TMPDIR/worlds"
	[ "$(wc -c <"$BATS_TEST_TMPDIR/worlds")" -gt 131072 ]
	run -0 "$ALLER" --check-args=@"$BATS_TEST_TMPDIR/worlds" c 3 65536
	run --separate-stderr -2 "$ALLER" --check-args=@"$BATS_TEST_TMPDIR/worlds" c 3 8
	[ "$stderr" = "aller: error: world 9: longs 8 is smaller than the world size 9: each peer needs at least one long (use LONGS >= 9)" ]
	printf '2 4\nx\n' >"$BATS_TEST_TMPDIR/worlds"
	run --separate-stderr -2 "$ALLER" --check-args=@"$BATS_TEST_TMPDIR/worlds" c
	[[ $stderr == *"invalid world size 'x'"* ]]
	run --separate-stderr -2 "$ALLER" --check-args=@"$BATS_TEST_TMPDIR/none" c
	[ "$stderr" = "aller: error: --check-args' file '$BATS_TEST_TMPDIR/none' cannot be opened: No such file or directory" ]
}

@test "an impossible LONGS exits 3 naming the size, rank and host" {
	run --separate-stderr -3 mpirun_n 2 "$ALLER" c 1 $((1 << 55))
	[[ $stderr == *"aller: error: rank 0 on $(hostname): the buffers do not fit: 2 ranks on $(hostname) need 1073741824.00 GiB"* ]]
	# past the check (a node that claims enough), the allocation itself fails cleanly
	ALLER_TEST_MEMAVAIL=1e30 run --separate-stderr -3 mpirun_n 2 "$ALLER" c 1 $((1 << 55))
	[[ $stderr == *"aller: error: rank 0 on $(hostname): cannot allocate 2 buffers of 288230376151711744 bytes (36028797018963968 longs)"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
}

@test "--timeout ends a hung call with a message naming level, count and hosts" {
	ALLER_TEST_HANG=1 run --separate-stderr timeout 60 "${MPIRUN[@]}" 2 "$ALLER" --timeout=1 c 1 8
	[ "$status" -ne 0 ]
	[ "$status" -ne 124 ]
	[[ $stderr == *"aller: error: no progress within --timeout=1 s in the all-to-all call at level 0 (commsize 2), algorithm alltoall, count 4, communicator 0 of 1 on hosts $(hostname) (seen by rank 0 on $(hostname))"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
}

# Algorithms (--algo) and isolation (--isolate), with the library's defaults
# (under Open MPI 4 aller chooses the osc component put needs).
ALGOS=alltoall,ialltoall,persistent,alltoallv,pairwise,put
check_algos() {
	local n=$1 out="$BATS_TEST_TMPDIR/algos.$1"
	mpirun_n "$n" "$ALLER" --algo="$ALGOS" --isolate=all c 2 $((n * 8)) >"$out"
	perl "$ROOT/tests/lib/check-aller.pl" "$n" $((n * 8)) 2 contiguous "$out"
	[ "$(grep -c '^# algo: put$' "$out")" -ge 1 ]
}
@test "every algorithm verifies and checks out at 1, 2, 3 and 4 ranks, with --isolate=all" {
	# MPICH polls without yielding: 4 ranks and more on 2 cores take minutes there
	for n in 1 2 3 $([ "$TEST_MPI" = mpich ] || echo 4); do check_algos "$n"; done
}

# (5 and 8 ranks: each communicator alone in turn, up to 8 passes a count: the volume)
# bats test_tags=openmpi,slow
@test "every algorithm verifies and checks out at 5 and 8 ranks, with --isolate=all" {
	[ "$TEST_MPI" = openmpi ] || skip "MPICH polls without yielding: 5 and 8 ranks on 2 cores take minutes there"
	for n in 5 8; do check_algos "$n"; done
}

@test "a corrupted element is caught with every algorithm" {
	local n=4
	[ "$TEST_MPI" = openmpi ] || n=2   # MPICH polls: fewer ranks than cores
	for a in ${ALGOS//,/ }; do
		ALLER_TEST_CORRUPT=1 run --separate-stderr -1 mpirun_n "$n" "$ALLER" --algo="$a" s 2 32
		[[ $stderr == *"verification failed at level 0 (communicator 0 of 1, commsize $n), algorithm $a, count $((32 / n)),"* ]]
		[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	done
}

@test "--isolate: communicator 0 runs alone first (only its ranks call), then all together" {
	ALLER_TEST_TRACE=1 run --separate-stderr -0 mpirun_n 4 "$ALLER" --isolate --commsizes=2 c 2 8
	perl "$ROOT/tests/lib/check-aller.pl" --commsizes=2 4 8 2 contiguous <(printf '%s\n' "$output")
	# rows: talone and interference measured, the =all columns not
	grep '^2 2 ' <<<"$output" | awk '$16 <= 0 || $17 <= 0 || $18 != "-" || $19 != "-" { exit 1 }'
	# calls alone: ranks 0 and 1 (communicator 0), 3 counts x (warm-up + 2 timed)
	alone=$(grep ' alone' <<<"$stderr" | awk '{ print $4 }' | sort | uniq -c | awk '{ print $2 ":" $1 }' | paste -sd' ')
	[ "$alone" = "0:9 1:9" ]
	[ "$(grep -c ' together' <<<"$stderr")" = 36 ]
	# per count, the alone pass comes before the together pass
	awk '/ rank 0 / { k = $10; if ($11 == "together") t[k] = 1; else if (t[k]) exit 1 }' <<<"$stderr"
	# one communicator: nothing to isolate
	run -0 mpirun_n 2 "$ALLER" --isolate --commsizes=world c 1 8
	grep '^1 2 ' <<<"$output" | awk '$16 != "-" || $17 != "-" { exit 1 }'
}

# bats test_tags=openmpi,build
@test "an algorithm is its file and one line of a list, a column one line: all the rest follows" {
	[ "$TEST_MPI" = openmpi ] || skip "one build is enough"
	t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t"
	tar -C "$ROOT" --exclude=./build --exclude=./results --exclude=./.git -cf - . | tar -C "$t" -xf -
	sed -i -e 's/^\(\tX(PUT, put, .*)\)$/\1 \\\n\tX(COPY, copy, ALGO_CAN_CONGEST, 0, "MPI_Alltoall once more (a test)")/' \
		-e 's|^\(\tX(BOTTLENECK, bottleneck, .*\)$|\1 \\\n\tX(TWICE, tavg2_s, REAL, 2 * stats_tavg(\&w->s), "twice tavg_s (a test)")|' \
		"$t/common/format.h"
	sed 's/algo_alltoall/algo_copy/; s/ALGO_ALLTOALL/ALGO_COPY/' "$t/aller/algo/algo_alltoall.c" \
		>"$t/aller/algo/algo_copy.c"
	# two lines each: the new one, and the continuation of the line before
	[ "$(diff "$ROOT/common/format.h" "$t/common/format.h" | grep -c '^>')" = 4 ]
	make -s -C "$t" -j2 build/bin/aller build/bin/collect >&2
	run -0 "$t/build/bin/aller" --help
	[[ $output == *"copy: MPI_Alltoall once more (a test)"* ]]
	run --separate-stderr -2 "$t/build/bin/aller" --algo=nope
	[[ $stderr == *"allowed are alltoall, ialltoall, persistent, alltoallv, pairwise, put, copy" ]]
	# what it can do is said on its line (ALGO_CAN_*), and every check follows
	run --separate-stderr -2 "$t/build/bin/aller" --algo=copy --split=zipf:1
	[[ $stderr == *"which copy cannot: allowed with it are --algo=alltoallv, pairwise and put, and --transport=nccl" ]]
	run --separate-stderr -2 "$t/build/bin/aller" --algo=copy --moe
	[[ $stderr == *"cannot run as copy: allowed with it are --algo=alltoallv and pairwise, and --transport=nccl" ]]
	run --separate-stderr -2 "$t/build/bin/aller" --congestion=0.5:bogus
	[[ $stderr == *"allowed are alltoall, ialltoall, alltoallv, pairwise and copy" ]]
	out=$BATS_TEST_TMPDIR/copy.out
	mpirun_n 2 "$t/build/bin/aller" --algo=alltoall,copy c 1 16 >"$out"
	[ "$(grep -c '^# algo: copy$' "$out")" = 2 ]
	# the header and every row have the column: twice tavg
	grep -q '^# columns: comms .* tcombine_s bound_s bottleneck tavg2_s$' "$out"
	awk '/^[0-9]/ { n++; if (NF != 37 || $37 < 1.99 * $6 || $37 > 2.01 * $6) exit 1 } END { exit n == 0 }' "$out"
	# the collector parses both and merges them by name
	"$t/build/bin/collect" -q -o "$BATS_TEST_TMPDIR/m" "$out"
	[ "$(grep -c ',copy,' "$BATS_TEST_TMPDIR/m/points.csv")" = "$(grep -c ',alltoall,' "$BATS_TEST_TMPDIR/m/points.csv")" ]
	head -n 1 "$BATS_TEST_TMPDIR/m/points.csv" | grep -q ',tcombine_s,tavg2_s,bound_s,bottleneck,eff_bound,above_bound$'
	# a view carries it once its plot names it (format.h's ALLER_COLUMN_VIEWS), not before
	grep -qx '# columns: bytes_per_peer tmin_s tavg_s tmax_s bwmin_GiBs bwavg_GiBs bwmax_GiBs tmed_s imbalance tmed_lo_s tmed_hi_s tcounts_s tdispatch_s tcombine_s bound_s' \
		"$BATS_TEST_TMPDIR/m/bandwidth.dat"
	# (the contract checker knows the columns of this format only)
	sed -i 's/ tavg2_s$//; /^[0-9]/s/ [^ ]*$//' "$out"
	perl "$ROOT/tests/lib/check-aller.pl" 2 16 1 contiguous "$out"
}

# bats test_tags=openmpi
@test "put with Open MPI's defaults: aller chooses osc pt2pt, says so, and every level is measured" {
	[ "$TEST_MPI" = openmpi ] || skip "Open MPI's osc component"
	run --separate-stderr -0 timeout 60 "${MPIRUN[@]}" 4 "$ALLER" --algo=put c 1 16
	[[ $output == *"# osc: pt2pt (set by aller: OMPI_MCA_osc was unset;"* ]]
	[[ $output == *"# env: OMPI_MCA_osc=pt2pt"* ]]
	perl "$ROOT/tests/lib/check-aller.pl" 4 16 1 contiguous <(printf '%s\n' "$output")
	[ "$(grep -c '^# algo: put$' <<<"$output")" = 3 ]
	# the user's own choice is kept
	OMPI_MCA_osc=pt2pt run -0 timeout 60 "${MPIRUN[@]}" 2 "$ALLER" --algo=put c 1 16
	[[ $output == *"# osc: pt2pt (OMPI_MCA_osc, the user's)"* ]]
}

# Open MPI 4.1's osc rdma names a window's shared memory by communicator id:
# the windows of concurrent communicators on one node collide (a loop of
# MPI_Win_create on two halves of 4 ranks hung or failed in 7 of 12 runs,
# 0 of 12 when created one after the other), and it cannot make a window on
# one task. aller refuses those levels before MPI_Win_create.
# bats test_tags=openmpi
@test "put with the user's osc rdma: the levels it cannot serve are named failed, the rest measured, exit 3, no hang" {
	[ "$TEST_MPI" = openmpi ] || skip "Open MPI's osc component"
	OMPI_MCA_osc=rdma run --separate-stderr -3 timeout 60 "${MPIRUN[@]}" 4 "$ALLER" --algo=put,alltoall c 1 16
	[[ $output == *"# osc: rdma (OMPI_MCA_osc, the user's)"* ]]
	[[ $stderr == *"aller: error: rank 0 on "*": put: setting up the level failed at level 1 (commsize 2): Open MPI's osc rdma names a window's shared memory by its communicator's id"*"set it to pt2pt"* ]]
	[[ $stderr == *"aller: error: rank 0 on "*": put: setting up the level failed at level 2 (commsize 1): Open MPI's osc rdma cannot make a window on one task (open-mpi/ompi#10726)"* ]]
	[[ $stderr == *"aller: error: 2 data sets failed to set up"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: ')" = 3 ]
	# each failure in its data set's place; put's level 0 and alltoall's levels measured
	[ "$(grep -c '^# failed: rank 0 on .*: put: setting up the level failed at level [12] ' <<<"$output")" = 2 ]
	[[ $output == *"# Done"* ]]
	awk '/^# algo:/ { a = $3 } /^# level:/ { l = $3 } /^[0-9]/ { n[a " " l]++ }
		END { exit !(n["put 0"] == 3 && n["alltoall 0"] == 3 && n["alltoall 1"] == 4 &&
			n["alltoall 2"] == 5 && !("put 1" in n) && !("put 2" in n)) }' <<<"$output"
	# the collector keeps the measured rows and reports the failed data sets
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/rdma.out"
	run --separate-stderr -1 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/merged" "$BATS_TEST_TMPDIR/rdma.out"
	[ "$(grep -c ': data set failed, no rows: rank 0 on .*: put: setting up the level failed' <<<"$stderr")" = 2 ]
	[ "$(grep -c ',put,' "$BATS_TEST_TMPDIR/merged/points.csv")" = 3 ]
	[ "$(grep -c ',alltoall,' "$BATS_TEST_TMPDIR/merged/points.csv")" = 12 ]
	run -0 "$COLLECT" --state "$BATS_TEST_TMPDIR/rdma.out"
	[[ $output == "failed	2 data sets failed: rank 0 on "*"put: setting up the level failed at level 1"* ]]
	# the plots draw the measured data sets and name the failed ones
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --file "$BATS_TEST_TMPDIR/rdma.out" \
		--out-dir "$BATS_TEST_TMPDIR/plots" --format svg
	[ "$(grep -c '^plots: .*: data set failed, no rows: rank 0 on .*: put: ' <<<"$stderr")" = 2 ]
	[ -s "$BATS_TEST_TMPDIR/plots/plots/bandwidth-contiguous-n1-put.svg" ]
}

@test "--timing=nccl (stubbed): ITERS calls enqueued, one synchronise, then the timer, then the check; the header says so" {
	ALLER_TEST_NCCL_STUB=trace run --separate-stderr -0 mpirun_n 2 "$ALLER" --transport=nccl --timing=nccl c 5 64
	# every count: 5 enqueued back to back, one synchronise, the timer stopped, then checked
	[ "$(grep -c '^aller: nccl trace: count [0-9]*: eeeeestc$' <<<"$stderr")" -gt 0 ]
	[ "$(grep -c '^aller: nccl trace: ' <<<"$stderr")" = "$(grep -c '^aller: nccl trace: count [0-9]*: eeeeestc$' <<<"$stderr")" ]
	grep -qx '# timing: nccl' <<<"$output"
	grep -q "^# timer: .*enqueued back to back on the NCCL stream.*(nccl-tests')" <<<"$output"
	# a stream_time line after each row (no CUDA events in the stub: "-")
	[ "$(grep -c '^# stream_time: count=[0-9]* stream_s=- host_s=' <<<"$output")" = "$(grep -c '^[0-9]' <<<"$output")" ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/n.out"
	perl "$ROOT/tests/lib/check-aller.pl" 2 64 5 contiguous "$BATS_TEST_TMPDIR/n.out"
	# the check still catches a damaged element, and nccl-tests' loop is NCCL's alone
	ALLER_TEST_NCCL_STUB=1 ALLER_TEST_CORRUPT=1 run --separate-stderr -1 mpirun_n 2 "$ALLER" --transport=nccl --timing=nccl c 5 64
	run --separate-stderr -2 "$ALLER" --timing=nccl c 5 64
	[[ $stderr == *"acts only with --transport=nccl, whose stream --timing=nccl times"* ]]
}

@test "--transport=nccl's output (stubbed: no GPU here) passes the checker; the collector keeps it apart" {
	ALLER_TEST_NCCL_STUB=1 mpirun_n 4 "$ALLER" --transport=nccl c 1 64 >"$BATS_TEST_TMPDIR/nccl.out"
	perl "$ROOT/tests/lib/check-aller.pl" 4 64 1 contiguous "$BATS_TEST_TMPDIR/nccl.out"
	grep -qx '# transport: nccl (stub: MPI_Alltoall on host buffers, tests only)' "$BATS_TEST_TMPDIR/nccl.out"
	[ "$(grep -c '^# algo: nccl$' "$BATS_TEST_TMPDIR/nccl.out")" = 3 ]
	mpirun_n 4 "$ALLER" c 1 64 >"$BATS_TEST_TMPDIR/mpi.out"
	grep -qx '# transport: mpi' "$BATS_TEST_TMPDIR/mpi.out"
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/merged" "$BATS_TEST_TMPDIR/nccl.out" "$BATS_TEST_TMPDIR/mpi.out"
	[ "$(grep -c '^bandwidth.dat	.*	nccl	' "$BATS_TEST_TMPDIR/merged/sets.tsv")" = 3 ]
	[ "$(grep -c '^bandwidth.dat	.*	alltoall	' "$BATS_TEST_TMPDIR/merged/sets.tsv")" = 3 ]
}
