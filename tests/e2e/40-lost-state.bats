#!/usr/bin/env bats
# Nothing lost, nothing mixed: job ids reused after Slurm's state is lost,
# two submissions of one campaign at once, a point ended by SIGTERM.
# shellcheck disable=SC2154,SC2016,SC2030,SC2031 # bats sets output and stderr; single quotes are meant; each test its own $job

load ../lib/helpers
load ../lib/cluster

empty_queue() { [ -z "$(squeue -h)" ]; }

setup_file() {
	campaign_results test-results-state
}

setup() {
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
}


@test "two submissions of one campaign at once give one set of points" {
	submit CAMPAIGN=twice NODES="1 2" MODES="contiguous strided" LONGS=64 ITERS=1 \
		>"$BATS_TEST_TMPDIR/a" 2>&1 &
	a=$!
	submit CAMPAIGN=twice NODES="1 2" MODES="contiguous strided" LONGS=64 ITERS=1 \
		>"$BATS_TEST_TMPDIR/b" 2>&1 &
	b=$!
	wait "$a" || true
	wait "$b" || true
	[ "$(grep -c '^point ' "$RES/twice/manifest")" = 4 ]
	[ "$(grep -c '^final ' "$RES/twice/manifest")" = 1 ]
	cat "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" | grep -q 'still queued, not resubmitted\|nothing to submit\|being submitted by another process'
	final=$(awk '/^final / { sub("job=", "", $3); print $3 }' "$RES/twice/manifest")
	wait_job "$final" 300
	run -0 status CAMPAIGN=twice
	[ "$(printf '%s\n' "$output" | grep -c ' complete$')" = 4 ]
}

@test "a point whose job pends for a reason that will not clear is shown stuck" {
	final=$(submit CAMPAIGN=held NODES=1 MODES=contiguous LONGS=64 ITERS=1 "EXTRA_SBATCH=--hold")
	job=$(awk '/^point / { sub("job=", "", $4); print $4 }' "$RES/held/manifest")
	run -1 status CAMPAIGN=held
	[[ $output == *"n1-contiguous-t2-L64-default-s1 "*" $job "*"stuck (JobHeldUser)"*" missing"* ]]
	scancel "$job" "$final"
}

@test "a point whose job is cancelled is incomplete, says why, and is not tried again" {
	final=$(ALLER_TEST_HANG=0 submit CAMPAIGN=term NODES=1 MODES=contiguous LONGS=64 ITERS=1)
	last_point_running term
	scancel "$job"
	wait_job "$final" 120
	run -1 status CAMPAIGN=term
	[[ $output == *" incomplete (ended by SIGTERM at "* ]]
	files=("$RES"/term/raw/*.out)
	[ "${#files[@]}" = 1 ]
	run -0 "$COLLECT" --state "${files[0]}"
	[[ $output == "incomplete	ended by SIGTERM at "* ]]
}

@test "after Slurm loses its state, job ids are reused: nothing is overwritten and status tells the truth" {
	final=$(submit CAMPAIGN=lost NODES=1 MODES=contiguous LONGS=64 ITERS=1)
	wait_job "$final" 300
	run -0 status CAMPAIGN=lost
	job=$(awk '/^point / { sub("job=", "", $4); print $4 }' "$RES/lost/manifest")
	bash "$ROOT/cluster/down.sh" >/dev/null
	rm -rf "$CLUSTER_DIR/state"
	cluster_up
	# someone else's jobs take the ids up to ours again (with accounting,
	# slurmctld may go on from the database's last id instead): held and
	# cancelled, but the one with our id, which runs and fails
	while next=$(sbatch --parsable --hold -J other -o /dev/null --wrap false) && [ "$next" -lt "$job" ]; do :; done
	squeue -h -n other -o %i | grep -vx "$job" | xargs -r scancel
	scontrol release "$job" 2>/dev/null || true
	SAW=squeue wait_for "an empty queue" 120 empty_queue
	run -0 status CAMPAIGN=lost
	# our job's record, or 'unknown' (slurmdbd may still have ours): never the other's
	[[ $output == *" complete"* ]]
	[[ $output != *FAILED* ]]
	final=$(submit CAMPAIGN=lost FORCE=1)
	wait_job "$final" 300
	run -0 status CAMPAIGN=lost
	[[ $output == *"COMPLETED"*" complete"* ]]
	files=("$RES"/lost/raw/*.out)
	[ "${#files[@]}" = 2 ]
	for f in "${files[@]}"; do grep -qx '# Done' "$f"; done
}
