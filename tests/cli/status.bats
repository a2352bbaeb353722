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

@test "a point whose job needed a retry says how the earlier attempt ended, in the table and its --tsv" {
	run -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=st "RESULTS=$res" NODES=1 MODES=contiguous LONGS=8192
	sub=$(sed -n 's/^submission \([^ ]*\) .*/\1/p' "$res/st/manifest")
	pre=$res/st/raw/st-n1-contiguous-t2-L8192-default-s1-$sub-j4242
	printf '# campaign: st\n# point: n1-contiguous-t2-L8192-default-s1\n# job: 4242\n# restart: 0\n# attempt: 1\n# exit: 139\n' \
		>"$pre-a01.out"
	{ printf '# point: n1-contiguous-t2-L8192-default-s1\n# attempt: 2\n'; cat "$ROOT/tests/data/smoke/raw/smoke-n1-contiguous-19.out"; } |
		sed 's/^# job: 19$/# job: 4242/' >"$pre-a02.out"
	run --separate-stderr -0 bash "$ROOT/campaigns/status.sh" CAMPAIGN=st "RESULTS=$res"
	grep -Eq "^n1-contiguous-t2-L8192-default-s1 +4242 +complete \(output\) +0:0 .* 2 +complete; retried after attempt 1: failed: exit 139 \(signal 11, SIGSEGV\) before aller's header" <<<"$output"
	run --separate-stderr -0 bash "$ROOT/campaigns/status.sh" --tsv CAMPAIGN=st "RESULTS=$res"
	[[ $output == *"	2	complete; retried after attempt 1: failed: exit 139 (signal 11, SIGSEGV) before aller's header (the launcher or MPI_Init)"* ]]
}

@test "a point of a job that runs, whose output has only begun, is running, not failed" {
	run -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=st "RESULTS=$res" NODES=1 MODES=contiguous LONGS=8192
	sub=$(sed -n 's/^submission \([^ ]*\) .*/\1/p' "$res/st/manifest")
	name=$(sed -n 's/^point .* name=\([^ ]*\).*/\1/p' "$res/st/manifest")
	# Slurm's controller: the job runs
	printf '#!/bin/sh\necho "JobId=4242 JobName=%s JobState=RUNNING ExitCode=0:0 RunTime=00:00:05 NodeList=n1 Reason=None"\n' \
		"$name" >"$bin/scontrol"
	# the job's provenance lines, and nothing of aller yet
	printf '# campaign: st\n# point: n1-contiguous-t2-L8192-default-s1\n# job: 4242\n# attempt: 1\n' \
		>"$res/st/raw/st-n1-contiguous-t2-L8192-default-s1-$sub-j4242-a01.out"
	run --separate-stderr -1 bash "$ROOT/campaigns/status.sh" CAMPAIGN=st "RESULTS=$res"
	grep -Eq '^n1-contiguous-t2-L8192-default-s1 +4242 +RUNNING .* running$' <<<"$output"
	# once it ends without aller's output, it failed
	sed -i 's/RUNNING/FAILED/; s/ExitCode=0:0/ExitCode=1:0/' "$bin/scontrol"
	run --separate-stderr -1 bash "$ROOT/campaigns/status.sh" CAMPAIGN=st "RESULTS=$res"
	grep -Eq ' failed \(no aller output\)$' <<<"$output"
}

@test "a submission stopped by SIGTERM records what got in, merges it, marks the rest; a cut sbatch's job is found again" {
	# sbatch: the second job's call is where the signal comes (to the submission)
	cat >"$bin/sbatch" <<-EOF
		#!/bin/bash
		case " \$* " in *" --test-only "*) exit 0 ;; esac
		n=\$(( \$(cat "$bin/n" 2>/dev/null || echo 0) + 1 )); echo "\$n" >"$bin/n"
		[ "\$n" != 2 ] || [ ! -e "$bin/stop" ] || kill -TERM "\$(pgrep -o -f 'campaigns/submit.sh CAMPAIGN=sig')"
		echo \$((4240 + n))
	EOF
	touch "$bin/stop"
	run --separate-stderr -143 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=sig "RESULTS=$res" NODES="1 2 4" MODES=contiguous LONGS=64
	[[ $stderr == *"campaign: error: stopped midway, interrupted (signal 15): the 2 jobs already in will be merged; 'make campaign CAMPAIGN=sig' submits the rest"* ]]
	m=$res/sig/manifest
	[ "$(grep -c '^point ' "$m")" = 2 ]
	grep -q '^missing .* n4-contiguous-t2-L64-default-s1 interrupted (signal 15)$' "$m"
	grep -q '^final .* job=4243 after=4241:4242$' "$m"
	# a re-run submits what is missing (Slurm says nothing here of the two queued)
	rm "$bin/stop"
	run --separate-stderr -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=sig "RESULTS=$res"
	[[ $stderr == *": 4 nodes, n4-contiguous-t2-L64-default-s1"* ]]
	# an sbatch cut short after Slurm queued its job: the re-run finds it by name and submission
	sub=$(awk '/^submission / { s = $2 } END { print s }' "$m")
	echo "submitting $sub n8-contiguous-t2-L64-default-s1 name=aller-sig-n8-t2-s1" >>"$m"
	echo "plan $sub n8-contiguous-t2-L64-default-s1" >>"$m"
	# squeue: the job that sbatch queued, by its comment (the reconcile's question) and in the queue
	printf '#!/bin/sh\ncase "$*" in *%%k*) echo "5000 aller campaign sig submission %s" ;; *) echo "5000|aller-sig-n8-t2-s1" ;; esac\n' \
		"$sub" >"$bin/squeue"
	run --separate-stderr -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=sig "RESULTS=$res" NODES=8
	grep -q "^point $sub n8-contiguous-t2-L64-default-s1 job=5000 name=aller-sig-n8-t2-s1$" "$m"
	[[ $stderr == *"point n8-contiguous-t2-L64-default-s1: job 5000 is still queued, not resubmitted"* ]]
	[[ $stderr != *"8 nodes, n8"* ]]
}

@test "make report with no plot to draw (every point failed): the page still, with the status and why no plots" {
	run -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=st "RESULTS=$res" NODES=1 MODES=contiguous LONGS=8192
	sub=$(sed -n 's/^submission \([^ ]*\) .*/\1/p' "$res/st/manifest")
	printf '# campaign: st\n# point: n1-contiguous-t2-L8192-default-s1\n# job: 4242\n# exit: 2\n' \
		>"$res/st/raw/st-n1-contiguous-t2-L8192-default-s1-$sub-j4242-a01.out"
	run --separate-stderr -0 bash "$ROOT/plots/report.sh" CAMPAIGN=st "RESULTS=$res"
	[ "$output" = "$res/st/report.html" ]
	grep -q '<p>No plot could be drawn: collect: error: none of the 1 files read is an aller output' "$res/st/report.html"
	grep -q '<tr class="failed">' "$res/st/report.html"
	[ -z "$stderr" ]
}
