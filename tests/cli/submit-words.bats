#!/usr/bin/env bats
# What a submission says to a person at a terminal: its counts in words that
# agree with them, and the final job's id on standard output only for a
# script that captures it (issue 78, item 10).
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers
load ../lib/fake-slurm

# Slurm's commands as stand-ins (sbatch prints 4241, 4242, ...), a RESULTS of its own
setup() {
	fake_slurm
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH
	res=$ROOT/build/submit-words-$$   # a shared directory (not /tmp), as RESULTS must be
	rm -rf "$res"
	mkdir -p "$res"
}

teardown() { rm -rf "$res"; }

@test "a submission of one node says '1 node', of two '2 nodes'" {
	run --separate-stderr -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=w "RESULTS=$res" NODES=1 MODES=contiguous LONGS=64
	[[ $stderr == *"campaign: w: submitted job 4241: 1 node, "* ]]
	[[ $stderr != *"1 nodes"* ]]
	run --separate-stderr -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=w2 "RESULTS=$res" NODES=2 MODES=contiguous LONGS=64
	[[ $stderr == *"submitted job 4243: 2 nodes, "* ]]
}

@test "the final job's id goes to standard output for a script that captures it, never as a stray line on a terminal" {
	run --separate-stderr -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=f "RESULTS=$res" NODES=1 MODES=contiguous LONGS=64
	[ "$output" = 4242 ]
	# at a terminal (script(1) gives it one): the line on stderr says the id, stdout nothing more
	run -0 script -qec "bash '$ROOT/campaigns/submit.sh' CAMPAIGN=g 'RESULTS=$res' NODES=1 MODES=contiguous LONGS=64 2>/dev/null" /dev/null
	[ -z "$(tr -d '\r' <<<"$output")" ]
}
