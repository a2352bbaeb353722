#!/usr/bin/env bats
# aller-status when Slurm cannot say (cluster down, accounting purged): each
# point's state is what its own output records, marked so, never UNKNOWN.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

setup() {
	bin=$BATS_TEST_TMPDIR/bin res=$ROOT/build/status-test-$$
	mkdir -p "$bin"
	printf '#!/bin/sh\ncase " $* " in *" --test-only "*) exit 0 ;; esac\necho 4242\n' >"$bin/sbatch"
	for t in squeue sacct scontrol; do printf '#!/bin/sh\nexit 1\n' >"$bin/$t"; done   # Slurm is down
	chmod +x "$bin"/*
	export PATH=$bin:$PATH
}

teardown() {
	rm -rf "$res"
}

@test "with Slurm down, a point's state is its output's: complete (output), failed (output) with its exit" {
	run -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=st "RESULTS=$res" NODES="1 2" MODES=contiguous LONGS=8192
	sub=$(sed -n 's/^submission \([^ ]*\) .*/\1/p' "$res/st/manifest")
	# the two points' outputs, as their job wrote them (its key first): one complete, one failed with exit 2
	{ echo '# point: n1-contiguous-t2-L8192-default-s1'; cat "$ROOT/tests/data/smoke/raw/smoke-n1-contiguous-19.out"; } \
		>"$res/st/raw/st-n1-contiguous-t2-L8192-default-s1-$sub-j4242-a01.out"
	printf '# campaign: st\n# point: n2-contiguous-t2-L8192-default-s1\n# job: 4242\n# exit: 2\n' \
		>"$res/st/raw/st-n2-contiguous-t2-L8192-default-s1-$sub-j4242-a01.out"
	run --separate-stderr -1 bash "$ROOT/campaigns/status.sh" CAMPAIGN=st "RESULTS=$res"
	[[ $output != *UNKNOWN* ]]
	grep -Eq '^n1-contiguous-t2-L8192-default-s1 +4242 +complete \(output\) +0:0 ' <<<"$output"
	grep -Eq '^n2-contiguous-t2-L8192-default-s1 +4242 +failed \(output\) +2:0 ' <<<"$output"
	[[ $stderr == *"status: Slurm has no record of the jobs of 2 points (cluster down, or accounting purged)"* ]]
}
