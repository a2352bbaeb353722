#!/usr/bin/env bats
# Expected against measured (issue 79, item 6): a measured campaign compared
# with a simulated one of the same settings on its fabric (make compare
# BASE=simulated NEW=measured, make report EXPECTED=), on kept data: the
# local cluster's campaign with n3's NIC slowed (tests/data/slownic), no
# cluster.
# shellcheck disable=SC2154 # bats sets output, stderr and lines

load ../lib/helpers

setup() {
	res=$BATS_TEST_TMPDIR/res
	mkdir -p "$res/slownic"
	cp -r "$ROOT/tests/data/slownic/raw" "$res/slownic/"
	printf 'manifest 2\n' >"$res/slownic/manifest"
	# the local cluster's fabric as a site declares it (tests/e2e/15-fabric.bats)
	printf 'switch leaf1 1000000kbit n[1-2]\nswitch leaf2 1000000kbit n[3-4]\nnic n[1-4] 1000000kbit\n' \
		>"$BATS_TEST_TMPDIR/local.fabric"
}

# simulated NAME [VAR=value...]: make simulate of the kept campaign's settings (its README) as RESULTS/NAME
simulated() {
	bash "$ROOT/campaigns/simulate.sh" CAMPAIGN="$1" "RESULTS=$res" FABRIC="$BATS_TEST_TMPDIR/local.fabric" HOSTS='n[1-4]' \
		NODES=4 TASKS_PER_NODE=1 MODES="contiguous strided" LONGS=524288 ALLER_ARGS=--min-bytes=256K "${@:2}" >/dev/null
}

@test "compare BASE=simulated NEW=measured: merged apart, the rows through the slowed NIC named short of the expected (simulated), exit 1" {
	simulated expected
	run --separate-stderr -1 bash "$ROOT/plots/compare.sh" BASE=expected NEW=slownic "RESULTS=$res"
	[ "${lines[0]}" = "# aller compare: expected (simulated) BASE 'expected' ($res/expected) vs measured NEW 'slownic' ($res/slownic)" ]
	[[ $stderr != *"merge them apart"* ]]
	# every row of the whole world (commsize 4: through n3's NIC) short (those in a node, commsize 1,
	# are the model's node memory against this machine's: not the fabric's)
	[ "$(grep -cE '^(contiguous|strided) .* 4 alltoall .* short$' <<<"$output")" = 6 ]
	[[ ${lines[-1]} == "compare: 24 points matched against the expected (simulated): "*" short, "* ]]
	out=$res/compare-expected-vs-slownic
	grep -q "^warning	regression	Against the expected (simulated) expected: [0-9]* of 24 rows fall short of what the fabric should give" \
		"$out/findings.tsv"
	# per (mode, nodes): the ratio in the simulated band, the bandwidth beside the expected dashed
	for m in contiguous strided; do [ -s "$out/plots/expected-$m-n4.png" ] && [ -s "$out/plots/ratio-$m-n4.png" ]; done
}

@test "the reverse order, a simulated NEW against a measured BASE, is refused: one line, exit 2" {
	simulated expected
	run --separate-stderr -2 "$COLLECT" --compare "$res/slownic" "$res/expected"
	[ "$stderr" = "collect: error: NEW '$res/expected' is simulated and BASE '$res/slownic' measured: the expected (simulated) campaign is BASE, the measured NEW" ]
	[ -z "$output" ]
}

@test "a simulation of other settings (a smaller LONGS) is refused: the measured rows it lacks in one line, exit 2" {
	simulated other LONGS=131072
	run --separate-stderr -2 "$COLLECT" --compare "$res/other" "$res/slownic"
	[ "$stderr" = "collect: error: NEW '$res/slownic' has 12 rows that the expected (simulated) BASE '$res/other' lacks: simulate the same NODES, MODES, TASKS_PER_NODE, LONGS and --min-bytes" ]
}

@test "make report CAMPAIGN=measured EXPECTED=simulated: the expected (simulated) table, the rows short, the bandwidth dashed beside the measured" {
	simulated expected
	run --separate-stderr -0 make -s -C "$ROOT" report CAMPAIGN=slownic EXPECTED=expected "RESULTS=$res"
	page=$res/slownic/report.html
	grep -q '<h2 id="comparison">Expected (simulated): expected</h2>' "$page"
	grep -q 'Against the expected (simulated) expected: [0-9]* of 24 rows fall short' "$page"
	grep -q ' short$' "$page"
	# the bandwidth plots, embedded: the measured solid, the expected (simulated) dashed, a curve each per level
	svg=$res/compare-expected-vs-slownic/plots/expected-strided-n4.svg
	[ "$(grep -c '<text>commsize [124], expected (simulated)</text>' "$svg")" = 3 ]
	[ "$(grep -c '<text>commsize [124], measured</text>' "$svg")" = 3 ]
	grep -q 'alt="expected-strided-n4.svg"' "$page"
}

@test "a simulated output whose fabric's lines pass the merge's 1 MiB of facts is still simulated: never merged with a measured one" {
	# 16,384 nodes under 256 leaves: 1.4 MB of '# fabric:' lines
	for l in $(seq 0 255); do printf 'switch leaf%d 100gbit n[%d-%d]\n' $((l + 1)) $((l * 64 + 1)) $((l * 64 + 64)); done >"$BATS_TEST_TMPDIR/big.fabric"
	echo 'nic n[1-16384] 100gbit' >>"$BATS_TEST_TMPDIR/big.fabric"
	"$BUILD/bin/simulate" --fabric="$BATS_TEST_TMPDIR/big.fabric" --hosts='n[1-16384]' --longs=16384 --campaign=big >"$BATS_TEST_TMPDIR/big.out"
	[ "$(grep -c '^# fabric: ' "$BATS_TEST_TMPDIR/big.out")" -gt 30000 ]
	run --separate-stderr -2 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/big.out" "$res"/slownic/raw/*contiguous*
	[ "$stderr" = "collect: error: 1 of the 2 outputs are simulated ('# simulated:'), the others measured: nothing merged; merge them apart" ]
}
