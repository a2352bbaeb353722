# campaigns/jobs.sh: the jobs of a submission: which points each runs
# (plan_jobs), its settings file (job_settings) and its sbatch command
# (job_cmd), shown in a dry run or first to sbatch --test-only. Sourced by
# submit.sh after plan.sh.
# shellcheck shell=bash disable=SC2153,SC2154 # settings come from lib.sh

# job_time I: without TIME, a TIME_PER_SIZE job's limit in JOB_MINUTES: twice
# its points' timed calls at most, plus 2 minutes (warm-ups, set-up,
# launch), in whole minutes; 0 without a budget.
job_time() {
	local key sum=0
	for key in ${G_KEYS[$1]}; do sum=$((sum + ${BUDGET[$key]:-0})); done
	JOB_MINUTES=0
	[ "$sum" -eq 0 ] || JOB_MINUTES=$(((2 * sum + 120 + 59) / 60))
}

# G_*: the jobs, one allocation per (series, nodes, tasks per node), or per point with SPLIT=1.
plan_jobs() {
	local key group name
	declare -A index=()
	G_KEYS=() G_SERIES=() G_NODES=() G_TPN=() G_NAME=()
	for key in "${TODO[@]}"; do
		point_parse "$key"
		group="$P_SERIES $P_NODES $P_TPN" name=n$P_NODES-t$P_TPN-s$P_SERIES
		[ "$SPLIT" = 0 ] || group=$key name=$key   # a job per point, named by its key
		if [ -z "${index[$group]+set}" ]; then
			index[$group]=${#G_KEYS[@]}
			G_KEYS+=("$key") G_SERIES+=("$P_SERIES") G_NODES+=("$P_NODES") G_TPN+=("$P_TPN")
			G_NAME+=("aller-$CAMPAIGN-$name")
		else
			G_KEYS[${index[$group]}]+=" $key"
		fi
	done
	job_caches
}



# job_lines SCOPE [S]: the job's KEY=value lines of SCOPE's variables that
# campaigns/vars takes to the job (its JOB column), series S's for identity;
# an empty value is left out (the job's default).
job_lines() {
	local v val
	for v in "${CAMPAIGN_VARS[@]}"; do
		if [ "${VAR_SCOPE[$v]}" != "$1" ] || [ -z "${VAR_JOB[$v]}" ]; then continue; fi
		if [ "$1" = identity ]; then val=$(series_setting "$2" "$v"); else val=${!v}; fi
		[ -z "$val" ] || printf '%s=%s\n' "${VAR_JOB[$v]}" "$val"
	done
}

# What every job file of this submission says, and each series' part of it,
# its empty lines left out, computed once (a campaign of thousands of jobs
# forks nothing per job):
# JOB_COMMON, SERIES_LINES[S], SERIES_GPUS[S], SERIES_EXCLUSIVE[S], VARIANT_ENV[S,VARIANT].
declare -A SERIES_LINES=() SERIES_GPUS=() SERIES_EXCLUSIVE=() VARIANT_ENV=()
JOB_COMMON=""
job_caches() {
	local s v name
	JOB_COMMON=$(grep . <<<"# aller campaign job settings: $CAMPAIGN, submission $SUB (jobs/aller.sbatch)
ALLER_JOB_LIB=$CAMPAIGN_ROOT/jobs/job-lib.sh
ALLER_RAW=$DIR/raw
ALLER_RAW_NAME=$RAW_NAME_FORMAT
ALLER_REVEAL_DIR=$DIR/reveal
$([ "$SAMPLES" = 0 ] || echo "ALLER_SAMPLES_DIR=$DIR/samples")
ALLER_CAMPAIGN=$CAMPAIGN
ALLER_SUBMISSION=$SUB
ALLER_TOOLKIT=$(toolkit_version)
$(job_lines submission)
$(env | LC_ALL=C sort | grep '^ALLER_TEST_' | sed 's/^/ENV=/' || true)")
	for s in $(printf '%s\n' "${G_SERIES[@]}" | sort -u); do
		SERIES_LINES[$s]=$(grep . <<<"ALLER_BIN=$(series_aller_bin "$s")
ALLER_ARGS=$(job_aller_args "$s")
$(job_lines identity "$s")")
		SERIES_GPUS[$s]=$(series_setting "$s" GPUS_PER_TASK)
		SERIES_EXCLUSIVE[$s]=$(series_setting "$s" EXCLUSIVE)
		for v in $(series_setting "$s" VARIANTS); do
			name=${v%%:*}
			VARIANT_ENV[$s,$name]=$(VARIANTS=$(series_setting "$s" VARIANTS) variant_env "$name")
		done
	done
}

# job_settings I [PREFIX]: the job's settings file (jobs/aller.sbatch reads
# it), each line after PREFIX.
job_settings() {
	local i=$1 p=${2:-} s=${G_SERIES[$1]} key PA t=$JOB_COMMON$'\n'${SERIES_LINES[${G_SERIES[$1]}]}
	printf '%s%s\n' "$p" "${t//$'\n'/$'\n'$p}"
	for key in ${G_KEYS[$i]}; do
		point_parse "$key"
		placement_arg "$P_PLACEMENT"
		printf '%sPOINT=%s %s %s %s %s %s %s %s\n' "$p" "$key" "$P_MODE" "$P_LONGS" "$P_VARIANT" \
			"${PA:--}" "$P_IDENT" "$P_BASE" "${VARIANT_ENV[$s,$P_VARIANT]:-}"
	done
}

# slurm_opts: the campaign's PARTITION, ACCOUNT and QOS as sbatch's options, onto CMD.
slurm_opts() {
	local k
	for k in PARTITION ACCOUNT QOS; do [ -z "${!k}" ] || CMD+=("--${k,,}=${!k}"); done
}

# job_cmd I: the sbatch command of job I in CMD.
job_cmd() {
	local i=$1 s=${G_SERIES[$1]} gpus extra
	gpus=${SERIES_GPUS[$s]}
	CMD=(sbatch --parsable "--job-name=${G_NAME[$i]}" -N "${G_NODES[$i]}"
		"--ntasks-per-node=${G_TPN[$i]}" "--output=$DIR/logs/%x-%j.out"
		"--comment=aller campaign $CAMPAIGN submission $SUB")
	slurm_opts
	[ -z "$SWITCHES" ] || CMD+=("--switches=$SWITCHES")
	if [ -n "$TIME" ]; then
		CMD+=("--time=$TIME" "--signal=B:USR1@$WARN_SECONDS")
	elif job_time "$i" && [ "$JOB_MINUTES" -gt 0 ]; then
		CMD+=("--time=$JOB_MINUTES" "--signal=B:USR1@60")
	fi
	[ "${SERIES_EXCLUSIVE[$s]}" != 1 ] || CMD+=(--exclusive)
	[ "$gpus" = 0 ] || CMD+=("--gpus-per-task=$gpus")
	read -r -a extra <<<"$EXTRA_SBATCH"
	CMD+=("${extra[@]}" "$CAMPAIGN_ROOT/jobs/aller.sbatch" "$DIR/jobs/$SUB-$i.conf")
}

dry_run() {
	local i v
	echo "# campaign $CAMPAIGN: effective settings (DRYRUN=1, nothing is submitted), series $SERIES"
	for v in "${CAMPAIGN_VARS[@]}"; do echo "#   $v=${!v}"; done
	env | LC_ALL=C sort | grep '^SBATCH_' | sed 's/^/#   (environment) /' || true
	for i in "${!G_KEYS[@]}"; do
		echo "# job $i: ${G_KEYS[$i]}; its settings file:"
		job_settings "$i" "#   "
		job_cmd "$i"
		printf '%q ' "${CMD[@]}"
		printf '\n'
	done
	echo "# then the final job: sbatch ... --dependency=afterany:<jobs above> $CAMPAIGN_ROOT/jobs/finish.sbatch"
}

# Every job shown to sbatch --test-only first: one refusal, and nothing is queued.
preflight() {
	local i out refused=0
	for i in "${!G_KEYS[@]}"; do
		job_cmd "$i"
		if ! out=$("${CMD[0]}" --test-only "${CMD[@]:1}" 2>&1); then
			printf 'campaign: error: sbatch refuses the job of %s nodes, %s tasks per node (%s): %s\n' \
				"${G_NODES[$i]}" "${G_TPN[$i]}" "${G_KEYS[$i]// /, }" "$(tail -n 1 <<<"$out")" >&2
			refused=1
		fi
	done
	[ "$refused" = 0 ] || die "nothing was submitted" 3
}
