#!/usr/bin/env bats
# Campaigns end to end on the local cluster: submit, status, re-run, failures.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers
load ../lib/cluster

setup_file() {
	campaign_results test-results
}

setup() {
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
}

# a node a test killed comes back whatever the test did: the next tests need all four
teardown() {
	[ -z "${killed:-}" ] || { bash "$ROOT/cluster/node.sh" revive "$killed" && wait_idle 4; }
}

@test "the smoke campaign completes: every point, the final job, merged data and plots" {
	final=$(submit CAMPAIGN=smoke)
	wait_job "$final" 300
	run -0 status CAMPAIGN=smoke
	printf '%s\n' "$output"   # shown when the test fails
	[ "$(printf '%s\n' "$output" | grep -c ' complete$')" = 6 ]
	[ "$(printf '%s\n' "$output" | grep -c 'COMPLETED')" = 6 ]
	# each point's last attempt is complete (a transient failure may add one before it)
	for key in n{1,2,4}-{contiguous,strided}-t2-L524288-default-s1; do
		f=$(latest "$RES"/smoke/raw/smoke-"$key"-*.out)
		grep -qx '# Done' "$f"
		grep -qx '# exit: 0' "$f"
		grep -qx "# point: $key" "$f"
	done
	[ -s "$RES/smoke/merged/points.csv" ]
	[ "$(find "$RES/smoke/plots" -name '*.png' | wc -l)" = 22 ]
	grep -q '^final .* job=' "$RES/smoke/manifest"
	grep -qx 'setting NODES=1 2 4' "$RES/smoke/manifest"
	grep -qx 'series 1 LONGS=524288' "$RES/smoke/manifest"
}

@test "DRYRUN prints the sbatch command lines and submits nothing" {
	run -0 submit CAMPAIGN=dry DRYRUN=1 NODES="2 4" PARTITION=debug
	[[ $output == *"sbatch --parsable --job-name=aller-dry-n2-t2-s1 -N 2 --ntasks-per-node=2"*"--partition=debug"* ]]
	[[ $output == *"--dependency=afterany:"*"jobs/finish.sbatch"* ]]
	[[ $output == *"#   NODES=2 4"* ]]
	# no job of its name (the queue's length moved as the last test's final job left it: a CI run)
	run ! grep -q '^aller-dry-' < <(squeue -h -o %j)
	[ ! -e "$RES/dry" ]
}

@test "bad NODES, MODES and CAMPAIGN values are refused before anything is submitted" {
	run -2 submit CAMPAIGN=bad NODES="1 x 4"
	[ "$output" = "campaign: error: invalid node count 'x' in NODES: allowed are positive integers" ]
	run -2 submit CAMPAIGN=bad NODES="2 2"
	[ "$output" = "campaign: error: node count '2' appears twice in NODES" ]
	run -2 submit CAMPAIGN=bad MODES="contiguous diagonal"
	[ "$output" = "campaign: error: invalid mode 'diagonal' in MODES: allowed are contiguous and strided" ]
	run -2 submit "CAMPAIGN=a/b"
	[[ $output == "campaign: error: invalid CAMPAIGN 'a/b': allowed are letters, digits"* ]]
	run -2 submit CAMPAIGN=bad ITERS=3x
	[[ $output == "campaign: error: invalid ITERS '3x'"* ]]
	run -2 submit CAMPAIGN=bad TIME=soon
	[[ $output == "campaign: error: invalid TIME 'soon'"* ]]
	run -2 submit CAMPAIGN=bad NOPE=1
	[[ $output == "campaign: error: unknown variable 'NOPE'"* ]]
	[ ! -e "$RES/bad" ]
}

@test "a re-run resubmits exactly the point whose output is missing" {
	rm "$RES"/smoke/raw/smoke-n2-strided-*.out
	run -1 status CAMPAIGN=smoke
	printf '%s\n' "$output"   # shown when the test fails
	before=$(grep -c '^point ' "$RES/smoke/manifest")
	final=$(submit CAMPAIGN=smoke)
	[ "$(grep -c '^point ' "$RES/smoke/manifest")" = $((before + 1)) ]
	[[ $(grep '^point ' "$RES/smoke/manifest" | tail -n 1) == "point "*" n2-strided-t2-L524288-default-s1 job="* ]]
	wait_job "$final" 300
	run -0 status CAMPAIGN=smoke
	printf '%s\n' "$output"   # shown when the test fails
	[ -e "$(latest "$RES"/smoke/raw/smoke-n2-strided-*.out)" ]
	run --separate-stderr -0 submit CAMPAIGN=smoke
	[ -z "$output" ]
	[[ $stderr == *"nothing to submit, all 6 points complete or queued"* ]]
}

@test "a failing point shows as FAILED while the collector merges the rest" {
	# rank 3 exists at 2 nodes (4 ranks), not at 1: it damages what it receives
	final=$(ALLER_TEST_CORRUPT=3 submit CAMPAIGN=fail NODES="1 2" MODES=contiguous LONGS=64)
	wait_job "$final" 300
	run -1 status CAMPAIGN=fail
	printf '%s\n' "$output"   # shown when the test fails
	[[ $output == *"n1-contiguous-t2-L64-default-s1 "*"COMPLETED"*" complete"* ]]
	[[ $output == *"n2-contiguous-t2-L64-default-s1 "*"FAILED "*"1:0"*"failed (exit 1)"* ]]
	# a verification failure is not tried again (a transient crash before it may be)
	grep -qx '# exit: 1' "$(latest "$RES"/fail/raw/fail-n2-*.out)"
	[ "$(grep -lx '# exit: 1' "$RES"/fail/raw/fail-n2-*.out | wc -l)" = 1 ]
	# the failed point is listed with its state, and has no rows
	p1=$(grep ',fail,contiguous,1,2,2,host,no,complete,' "$RES/fail/merged/points-index.csv" | cut -d, -f1)
	p2=$(grep ',fail,contiguous,2,2,4,host,no,failed,' "$RES/fail/merged/points-index.csv" | cut -d, -f1)
	grep -q "^$p1," "$RES/fail/merged/points.csv"
	run ! grep -q "^$p2," "$RES/fail/merged/points.csv"
	grep -q 'collect: 2 points: 1 complete, 0 incomplete, 1 failed' "$RES/fail/merged/summary.txt"
}

@test "what aller would refuse is refused before anything is queued" {
	before=$(squeue -h | wc -l)
	run -2 submit CAMPAIGN=refuse NODES="1 2" MODES=contiguous LONGS=3
	[ "$output" = "campaign: error: point n2-contiguous-t2-L3-default-s1 (4 ranks): longs 3 is smaller than the world size 4: each peer needs at least one long (use LONGS >= 4)" ]
	run -2 submit CAMPAIGN=refuse NODES=1 ITERS=1000001
	[[ $output == *"iterations '1000001' is out of range"* ]]
	run -2 submit CAMPAIGN=refuse NODES=1 ALLER_ARGS=--bogus
	[[ $output == *"unknown option '--bogus'"* ]]
	run -2 submit "CAMPAIGN=$(printf 'c%.0s' $(seq 70))" NODES=1
	[[ $output == *"70 characters, at most 64"* ]]
	run -2 submit CAMPAIGN=refuse NODES=1 TIME=99999999999999999999
	[[ $output == *"invalid TIME '99999999999999999999'"* ]]
	run -2 submit CAMPAIGN=refuse NODES=1 TIME=0:30
	[[ $output == *"at least 1 minute"* ]]
	run -2 submit CAMPAIGN=refuse NODES=1 RESULTS=/tmp/aller-results
	[[ $output == *"RESULTS '/tmp/aller-results' is node-local"* ]]
	[ "$(squeue -h | wc -l)" = "$before" ]
	[ ! -e "$RES/refuse/manifest" ]
}

@test "the GPU options reach srun when GPUS_PER_TASK=1" {
	final=$(submit CAMPAIGN=gpu NODES=1 MODES=contiguous GPUS_PER_TASK=1)
	wait_job "$final" 300
	run -0 status CAMPAIGN=gpu
	printf '%s\n' "$output"   # shown when the test fails
	grep -qx '# launcher: srun --mpi=pmix --kill-on-bad-exit=1 --export=ALL --gpus-per-task=1 --gpu-bind=closest' "$RES"/gpu/raw/*.out
}

@test "a --reveal campaign across nodes: traffic lines, matrices and heatmaps per point" {
	final=$(submit CAMPAIGN=rv NODES=2 MODES="contiguous strided" LONGS=256 ALLER_ARGS=--reveal)
	wait_job "$final" 300
	run -0 status CAMPAIGN=rv
	printf '%s\n' "$output"   # shown when the test fails
	for f in $(latest "$RES"/rv/raw/*contiguous*.out) $(latest "$RES"/rv/raw/*strided*.out); do
		grep -q '^# reveal: pml; ' "$f"
		perl "$ROOT/tests/lib/check-traffic.pl" pairwise/linear "$f"
		point=$(basename "$f" .out)
		grep -q "^# reveal_dir: .*/rv/reveal/$point\$" "$f"
		[ -s "$RES/rv/reveal/$point/matrix-L0-c64.dat" ]
		[ -s "$RES/rv/plots/matrix-$point-L0-c64.png" ]
	done
	grep -q ',yes,' "$RES/rv/merged/points-index.csv"
}

@test "a node killed during a job gives a failed point that a re-run completes" {
	# rank 0 sleeps a minute in its first call: the job runs aller when the node goes
	final=$(ALLER_TEST_HANG=0 submit CAMPAIGN=nodefail NODES=4 MODES=contiguous ITERS=2 LONGS=64)
	last_point_running nodefail
	killed=n4
	bash "$ROOT/cluster/node.sh" kill n4
	wait_job "$job" 120
	bash "$ROOT/cluster/node.sh" revive n4
	run -1 status CAMPAIGN=nodefail
	printf '%s\n' "$output"   # shown when the test fails
	[[ $output == *"NODE_FAIL"*"incomplete"* ]]
	cat "$RES"/nodefail/raw/*.out | grep '^# incomplete: '   # shown when the test fails
	# the point's file says a node failed, not "scancel or preemption"
	grep -q '^# incomplete: ended by SIGTERM at .* (a node of the allocation failed: .*\(down\|\*\)' \
		"$RES"/nodefail/raw/*.out
	wait_job "$final" 60
	wait_idle 4
	final=$(submit CAMPAIGN=nodefail NODES=4 MODES=contiguous ITERS=2 LONGS=64)
	wait_job "$final" 300
	run -0 status CAMPAIGN=nodefail
	printf '%s\n' "$output"   # shown when the test fails
	[[ $output == *"COMPLETED"*" complete"* ]]
}

@test "a point stopped by its time limit is marked incomplete in its file" {
	# a one-minute limit: USR1 (15 s before the end: a quarter of TIME) comes while rank 0 sleeps
	final=$(ALLER_TEST_HANG=0 submit CAMPAIGN=limit NODES=1 MODES=contiguous ITERS=2 LONGS=64 TIME=1)
	grep -q -- '--signal=B:USR1@15' <(submit CAMPAIGN=limit2 NODES=1 TIME=1 DRYRUN=1)
	wait_job "$final" 200
	run -1 status CAMPAIGN=limit
	printf '%s\n' "$output"   # shown when the test fails
	[[ $output == *" incomplete (time limit reached at "* ]]
	grep -q '^# incomplete: time limit reached' "$RES"/limit/raw/*.out
}

@test "a task that exits by itself gives the point its code, not srun's 143 for the others it ended" {
	# rank 0 sleeps a minute before its first call; the others' --timeout of 5 s ends them (3)
	final=$(ALLER_TEST_HANG=0 submit CAMPAIGN=tmo NODES=1 MODES=contiguous ITERS=1 LONGS=64 \
		RETRIES=0 ALLER_ARGS=--timeout=5)
	wait_job "$final" 120
	run -1 status CAMPAIGN=tmo
	printf '%s\n' "$output"   # shown when the test fails
	[[ $output == *" failed (exit 3)"* ]]
	grep -qx '# exit: 3' "$RES"/tmo/raw/*.out
	# (srun said 143 here in every run seen; the file says so when it does)
	! grep -q '^# step: ' "$RES"/tmo/raw/*.out ||
		grep -qx '# step: a task exited with 3 and srun ended the others (exit 143)' "$RES"/tmo/raw/*.out
}
