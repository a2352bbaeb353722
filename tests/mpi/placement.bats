#!/usr/bin/env bats
# aller --placement under mpirun (one node here: the order changes nothing it
# can show, so the tests check the header, the verification and the refusals;
# tests/e2e/15-fabric.bats renumbers 4 nodes).
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

@test "--placement: each verifies every element; its header says the spec and the nodes per communicator" {
	for p in block cyclic random random:7; do
		run --separate-stderr -0 mpirun_n 4 "$ALLER" --placement="$p" c 2 256
		[ -z "$stderr" ] || { printf '%s\n' "$stderr"; false; }
		want=$p
		[ "$p" != random ] || want=random:1
		[[ $output == *$'\n'"# placement: $want"$'\n'"# placed: nodes per communicator (contiguous), by communicator size: 4: 1, 2: 1, 1: 1"$'\n'* ]]
		[[ $output == *$'\n# Done' ]]
	done
	run -0 mpirun_n 4 "$ALLER" --placement=cyclic s 2 256
	[[ $output == *"# placed: nodes per communicator (strided), by communicator size: 4: 1, 2: 1, 1: 1"* ]]
	# without it, no such line
	run -0 mpirun_n 2 "$ALLER" c 2 64
	[[ $output != *"# placement:"* ]]
}

@test "the collector keeps placements apart and names them in the legend" {
	for p in block cyclic; do
		mpirun_n 2 "$ALLER" --placement="$p" c 2 64 >"$BATS_TEST_TMPDIR/$p.out"
	done
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/block.out" "$BATS_TEST_TMPDIR/cyclic.out"
	[ "$(tail -n +2 "$BATS_TEST_TMPDIR/m/points-index.csv" | wc -l)" = 2 ]
	[ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "label") c = i; next } { print $c }' \
		"$BATS_TEST_TMPDIR/m/sets.tsv" | sort -u | paste -sd' ')" = "block cyclic" ]
	grep -q '	placed	nodes per communicator (contiguous), by communicator size: 2: 1, 1: 1$' "$BATS_TEST_TMPDIR/m/facts.tsv"
}

@test "bad --placement: one line, exit 2; not with --pairs or --reveal" {
	run --separate-stderr -2 "$ALLER" --check-args --placement=round
	[ "$stderr" = "aller: error: invalid placement 'round': allowed are block (a node's tasks together), cyclic (one task of each node in turn) and random[:SEED] (SEED a non-negative integer)" ]
	run --separate-stderr -2 "$ALLER" --check-args --placement=cyclic --pairs
	[[ $stderr == "aller: error: '--placement' renumbers the world "*": not with --pairs" ]]
	run --separate-stderr -2 "$ALLER" --check-args --placement=cyclic --reveal
	[[ $stderr == "aller: error: '--placement' renumbers the world "*": not with --reveal" ]]
	run --separate-stderr -2 "$ALLER" --check-args --placement=
	[[ $stderr == "aller: error: "*"placement"* ]]
}
