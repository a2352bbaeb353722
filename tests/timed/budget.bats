#!/usr/bin/env bats
# aller --time-per-size under mpirun: how many calls fit a budget of time is
# what the timers saw, so make test runs this file in the ordered lane, never
# niced nor beside another file's load (see tests/timed/aller.bats).
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers

@test "--time-per-size: the calls of each count chosen from the warm-up, within the budget" {
	budget=0.05
	start=$SECONDS
	run --separate-stderr -0 mpirun_n 2 "$ALLER" --time-per-size=$budget --min-iters=2 c 1000000 4096
	wall=$((SECONDS - start))
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	grep -qx "# budget: $budget s of timed calls per (level, count): as many as fit at the longest warm-up iteration of any task, 2..1000000 (column iters)" "$BATS_TEST_TMPDIR/out"
	pairs=$(grep -c '^[0-9]' "$BATS_TEST_TMPDIR/out")
	# without the budget: 10^6 calls per count, minutes. With it: the budget's calls, one
	# warm-up each and the set-up; stated overhead: 3x the budget per pair, plus 10 s
	# for the launch and a loaded machine
	[ "$wall" -le "$(awk -v b=$budget -v p="$pairs" 'BEGIN { printf "%d", 3 * b * p + 10 }')" ]
	# every count its own number of calls, none below the minimum nor above ITERS
	column_of iters "$BATS_TEST_TMPDIR/out" | awk '$1 < 2 || $1 > 1000000 { exit 1 }'
	[ "$(column_of iters "$BATS_TEST_TMPDIR/out" | sort -u | wc -l)" -gt 1 ]
	# the calls the rows stand for fit the budget: the sum of tavg x iters per count
	paste <(column_of tavg_s "$BATS_TEST_TMPDIR/out") <(column_of iters "$BATS_TEST_TMPDIR/out") |
		awk -v b=$budget '$2 > 2 && $1 * $2 > 3 * b { exit 1 }'
}
