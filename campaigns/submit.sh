#!/usr/bin/env bash
# campaigns/submit.sh [VAR=value ...]: creates a campaign, or submits what
# its manifest still lacks (docs/campaigns.md).
#
# A new campaign takes its settings from CONF (campaigns/smoke.conf) and the
# arguments; an existing one from its manifest: an argument that changes what
# is measured is refused unless FORCE=1, which adds the points as a new
# series; NODES and MODES add points. Every point's arguments are shown to
# aller --check-args, every job to sbatch --test-only, before anything is
# queued; one refusal, and nothing is. Points
# that are complete, or whose job is still queued, are not submitted again
# (FORCE=1: complete ones are). A final job merges and plots.
# Exit status: 0 submitted (or nothing to do), 1 the campaign is locked by
# another submission, 2 invalid setting, 3 sbatch refused or failed, 130 or
# 143 stopped by SIGINT or SIGTERM (what got in is recorded and merged); 3
# also when RESULTS cannot be written midway (a full disk): the submission
# is undone, its queued jobs cancelled.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/lib.sh"
# shellcheck source=campaigns/manifest.sh
. "$here/manifest.sh"
# shellcheck source=campaigns/series.sh
. "$here/series.sh"
# shellcheck source=campaigns/plan.sh
. "$here/plan.sh"
# shellcheck source=campaigns/jobs.sh
. "$here/jobs.sh"

# Queues every job of the plan, recording each point before its sbatch
# ('submitting') and its job after ('point'); then the final job for what got
# in. SIGINT or SIGTERM stops it between two sbatch calls (an sbatch cut
# short is found again by manifest_reconcile): exit 130 or 143.
submit_all() {
	local i key id failed="" stop=""
	trap 'stop=130' INT
	trap 'stop=143' TERM
	manifest_begin
	for i in "${!G_KEYS[@]}"; do
		[ -z "$stop" ] || [ -n "$failed" ] || failed="interrupted (signal $((stop - 128)))"
		write_file "$DIR/jobs/$SUB-$i.conf" job_settings "$i"
		job_cmd "$i"
		[ -n "$failed" ] || for key in ${G_KEYS[$i]}; do append_lines "$manifest" "submitting $SUB $key name=${G_NAME[$i]}"; done
		if [ -n "$failed" ] || ! id=$("${CMD[@]}" 2>&1); then
			[ -n "$failed" ] || failed="sbatch failed: ${id##*$'\n'}"
			for key in ${G_KEYS[$i]}; do append_lines "$manifest" "missing $SUB $key $failed"; done
			continue
		fi
		id=${id##*$'\n'} id=${id%%;*}   # its last line: the job id (before it, sbatch's warnings)
		IDS+=("$id")
		for key in ${G_KEYS[$i]}; do append_lines "$manifest" "point $SUB $key job=$id name=${G_NAME[$i]}"; done
		echo "campaign: $CAMPAIGN: submitted job $id: ${G_NODES[$i]} nodes, ${G_KEYS[$i]// /, }" >&2
	done
	[ ${#IDS[@]} -gt 0 ] && submit_final "${IDS[@]}"
	[ -z "$failed" ] || die "stopped midway, $failed: the ${#IDS[@]} jobs already in will be merged; 'make campaign CAMPAIGN=$CAMPAIGN' submits the rest" "${stop:-3}"
}

# A write that fails (a full RESULTS) undoes the submission, never half
# records it: the jobs it queued cancelled, the manifest cut back to what
# it held before (removed, when it made it), its job files removed; then
# one line, exit 3 (docs/campaigns.md).
IDS=() FINAL_ID="" MANIFEST_SIZE=""
write_failed() {
	[ -n "$MANIFEST_SIZE" ] || die "$1" 3   # before its first record: nothing written yet
	[ ${#IDS[@]} -eq 0 ] || scancel "${IDS[@]}" ${FINAL_ID:+"$FINAL_ID"} 2>/dev/null || true
	if [ "$MANIFEST_SIZE" = new ]; then rm -f "$manifest"; else truncate -s "$MANIFEST_SIZE" "$manifest" 2>/dev/null || true; fi
	rm -f "$DIR/jobs/$SUB-"*
	die "$1: nothing of this submission is left (${#IDS[@]} queued jobs cancelled, the manifest as it was)" 3
}

submit_final() {
	local deps id
	deps=$(IFS=:; echo "$*")
	CMD=(sbatch --parsable "--job-name=aller-$CAMPAIGN-finish" "--output=$DIR/logs/%x-%j.out"
		"--comment=aller campaign $CAMPAIGN submission $SUB")
	slurm_opts
	CMD+=(--kill-on-invalid-dep=yes "--dependency=afterany:$deps" "$CAMPAIGN_ROOT/jobs/finish.sbatch"
		"$CAMPAIGN_ROOT" "$DIR" "$FORMAT" "$([ "$DRAIN" = 1 ] && echo "$DRAIN_MAX" || echo 0)")
	id=$("${CMD[@]}") || die "sbatch failed for the final job: merge with 'make plots CAMPAIGN=$CAMPAIGN'" 3
	id=${id%%;*}
	FINAL_ID=$id
	append_lines "$manifest" "final $SUB job=$id after=$deps"
	echo "campaign: $CAMPAIGN: final job $id merges and plots into $DIR when the points end" >&2
	echo "$id"
}

SUB=$(date -u +%Y%m%dT%H%M%SZ)-$$   # this submission: part of every file name
script_options aller-campaign "usage: aller-campaign [VAR=value ...]   (man aller-campaign)" "$@"
sbatch_env_clean

locate_campaign "$@"
manifest=$DIR/manifest
# one submission of a campaign at a time, and it reads the manifest under the lock
[ "${given[DRYRUN]:-0}" = 1 ] || lock_campaign
if [ -f "$manifest" ]; then
	manifest_read "$manifest"
	manifest_reconcile
	resolve_settings existing
	settings_from_manifest "$M_NSERIES"
else
	resolve_settings new
fi
validate_settings
command -v sbatch >/dev/null ||
	die "sbatch is missing: install Slurm's client (Debian: slurm-client), or source build/cluster/env.sh" 3
COLLECT=$(find_tool collect)
choose_series

check_results   # a dry run says what the submission would
plan_points
if [ ${#TODO[@]} -eq 0 ]; then
	echo "campaign: $CAMPAIGN: nothing to submit, all $SKIPPED points complete or queued (FORCE=1 resubmits)" >&2
	exit 0
fi
check_points   # a refusal leaves no campaign directory behind
[ "$DRYRUN" = 1 ] || mkdir -p "$DIR/raw" "$DIR/logs" "$DIR/merged" "$DIR/plots" "$DIR/jobs" 2>/dev/null ||
	die "cannot create the campaign's directories in '$DIR' (a full disk?)" 3
plan_jobs
[ "$DRYRUN" = 1 ] && { dry_run; exit 0; }
preflight
submit_all
