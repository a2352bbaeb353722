#!/usr/bin/env bats
# aller --pairs: the node-pair bandwidth matrix under mpirun: every ordered
# pair measured and verified, a link made slow on purpose named alone, the
# collector and the plots.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

@test "--pairs: an N x N matrix; the one link made slow is the one slow link named" {
	out=$BATS_TEST_TMPDIR/pairs.out
	# 200 ms on one link, and slow means 1000 x the median time: a rank descheduled for a
	# time slice or two (4 ms each, 4 ranks on 2 loaded cores) is not a slow link
	ALLER_TEST_SLOW_PAIR=2:1:200000 mpirun_n 4 "$ALLER" --pairs=64K --slow-below=0.001 0 5 >"$out"
	grep -q '^# pairs: 65536 bytes per message; 4 tasks; .* 5 timed exchanges per step (1 warm-up)' "$out"
	grep -qx '# columns: src dst src_host dst_host bw_GBs tbest_s tavg_s' "$out"
	# 16 rows, the diagonal NaN, a blank line after each sender
	[ "$(grep -c '^[0-3] [0-3] ' "$out")" = 16 ]
	[ "$(awk '/^# pair_hosts: / { on = 1; next } on && NF == 4' "$out" | wc -l)" = 4 ]
	[ "$(grep -c '^\([0-3]\) \1 .* NaN NaN NaN$' "$out")" = 4 ]
	[ "$(grep -c '^# slow_link: ' "$out")" = 1 ]
	grep -q '^# slow_link: 2 ([^)]*) -> 1 ([^)]*): ' "$out"
	grep -q '^# slow_links: 1 below 0.001 x the median link .* (of 12 links); each link against the median of the links that avoid one of its ends. nodes$' "$out"
	grep -qx '# Done' "$out"
	# the slow link took the delay: its best time is near 200 ms (less the receiver's later
	# barrier exit, milliseconds on a loaded machine), the others' microseconds
	awk '$1 == 2 && $2 == 1 { exit !($6 >= 0.1) }' "$out"
	# the collector names the point in pairs.tsv and merges no rows of it; the plot is its heatmap
	run --separate-stderr -0 "$COLLECT" -o "$BATS_TEST_TMPDIR/m" "$out"
	[[ $stderr == *"1 points: 1 complete"* ]]
	[ "$(tail -n +2 "$BATS_TEST_TMPDIR/m/pairs.tsv" | cut -f2,3)" = "$(printf '1\tcomplete')" ]
	# the hook that made the link slow is in the header: a test, so no suspect to drain, nothing exported
	grep -qx '# test_hooks: ALLER_TEST_SLOW_PAIR=2:1:200000' "$out"
	grep -q '^warning	test_hooks	.*aller ran with its test hooks set (ALLER_TEST_SLOW_PAIR=2:1:200000): a test' \
		"$BATS_TEST_TMPDIR/m/findings.tsv"
	[ "$(tail -n +2 "$BATS_TEST_TMPDIR/m/suspects.tsv" | wc -l)" = 0 ]
	run -0 "$COLLECT" --openmetrics "$BATS_TEST_TMPDIR/m"
	run ! grep -q 'aller_point_state{' <<<"$output"
	run -0 bash "$ROOT/plots/plot.sh" --file "$out" --out-dir "$BATS_TEST_TMPDIR/p"
	[[ $output == *"/plots/pairs-pairs.png"* ]]
	[ -s "$BATS_TEST_TMPDIR/p/plots/pairs-pairs.png" ]
}

@test "--pairs refuses what it cannot measure: one line, exit 2" {
	run --separate-stderr -2 "$ALLER" --check-args --pairs --algo=pairwise
	[[ $stderr == *"'--pairs' measures each pair of tasks alone, one message size: not with --algo"* ]]
	run --separate-stderr -2 "$ALLER" --check-args --pairs c 3 1024
	[[ $stderr == *"not with a LONGS above 0"* ]]
	run --separate-stderr -2 "$ALLER" --check-args --pairs=4
	[[ $stderr == *"size '4' for --pairs is out of range: allowed are 8 B..8 GiB per message"* ]]
	run --separate-stderr -2 "$ALLER" --check-args --pairs --slow-below=1.5
	[[ $stderr == *"invalid --slow-below '1.5'"* ]]
	run --separate-stderr -2 "$ALLER" --check-args=1 --pairs
	[[ $stderr == *"'--pairs' measures pairs of tasks, and a world of 1 has none"* ]]
	run -0 "$ALLER" --check-args=2,64 --pairs=1M 0 5
}
