# campaigns/plan.sh: what a submission runs, and how it asks Slurm for it.
# Sourced by submit.sh after lib.sh and manifest.sh.
# shellcheck shell=bash disable=SC2153,SC2154 # settings come from lib.sh

# SERIES: the series this submission's new points belong to.
choose_series() {
	local var old
	NEW_SERIES=0
	if [ ! -f "$manifest" ]; then
		SERIES=1 NEW_SERIES=1
		return
	fi
	SERIES=$(matching_series)
	[ "$SERIES" = 0 ] || return 0
	var=$(differing_var "$M_NSERIES")
	old=$(series_value "$M_NSERIES" "$var")
	[ "$FORCE" = 1 ] ||
		die "campaign '$CAMPAIGN' was made with $var=$old, not ${!var}: use a new CAMPAIGN, or FORCE=1 to add these points as a second series"
	SERIES=$((M_NSERIES + 1)) NEW_SERIES=1
}

# QUEUED[ID]: the name of every job in Slurm's queue, from one squeue.
declare -A QUEUED=()
queued_jobs() {
	local id name
	QUEUED=()
	while IFS='|' read -r id name; do
		[ -z "$id" ] || QUEUED[$id]=$name
	done < <(squeue -h -o '%i|%j' 2>/dev/null || true)
}

# queued KEY: whether the point's last job is still in Slurm's queue (the
# job of that name: an id reused by someone else does not count).
queued() {
	local j=${M_POINT_JOB[$1]:-}
	[ -n "$j" ] && [ -n "${QUEUED[$j]:-}" ] && [ "${QUEUED[$j]}" = "${M_POINT_NAME[$1]:-}" ]
}

# TODO: the points to submit; SKIPPED: how many were not.
plan_points() {
	local n m t l v key state
	declare -A seen=() product=()
	TODO=() SKIPPED=0
	local keys=("${M_POINTS[@]}")
	for n in $NODES; do for m in $MODES; do for t in $TASKS_PER_NODE; do for l in $LONGS; do
		# LONGS <= 0 is aller's default: L0; "08192" is 8192
		[[ $l == -* ]] && l=0
		for v in $VARIANTS; do
			key=$(point_key "$((10#$n))" "$m" "$((10#$t))" "$((10#$l))" "${v%%:*}" "$SERIES")
			product[$key]=1
			keys+=("$key")
		done
	done; done; done; done
	points_states
	queued_jobs
	for key in "${keys[@]}"; do
		[ -z "${seen[$key]:-}" ] || continue
		seen[$key]=1
		if [ "$FORCE" = 0 ] || [ -z "${product[$key]:-}" ]; then
			state=${P_STATE[$key]:-missing}
			if [ "${state%%$'\t'*}" = complete ]; then
				SKIPPED=$((SKIPPED + 1))
				continue
			fi
			if queued "$key"; then
				echo "campaign: point $key: job ${M_POINT_JOB[$key]} is still queued, not resubmitted" >&2
				SKIPPED=$((SKIPPED + 1))
				continue
			fi
		fi
		TODO+=("$key")
	done
}

# Every point's arguments, shown to aller itself (aller --check-args=WORLDS,
# once per series, mode and LONGS with every world of them): what aller
# would refuse is refused here, before anything is queued. With
# TIME_PER_SIZE aller also says how long each world's timed calls may take
# at most: BUDGET[key], in seconds.
declare -A BUDGET=()
check_points() {
	local key args out group world w line groups=()
	declare -A worlds=() first=() budget=()
	for key in "${TODO[@]}"; do
		point_parse "$key"
		group="$P_SERIES $P_MODE $P_LONGS" world=$((P_NODES * P_TPN))
		[ -n "${worlds[$group]:-}" ] || groups+=("$group")
		[ -n "${first[$group $world]:-}" ] || { first[$group $world]=$key; worlds[$group]+=",$world"; }
	done
	for group in "${groups[@]}"; do
		read -r P_SERIES P_MODE P_LONGS <<<"$group"
		read -r -a args <<<"$(series_aller_args "$P_SERIES")"
		if ! out=$("$(aller_binary "$(series_setting "$P_SERIES" MPI)")" \
			--check-args="${worlds[$group]#,}" "${args[@]}" "$P_MODE" \
			"$(series_setting "$P_SERIES" ITERS)" "$P_LONGS" 2>&1); then
			out=${out#aller: error: }
			# several worlds: aller names the one it refused
			if [[ $out =~ ^world\ ([0-9]+):\ (.*)$ ]]; then
				world=${BASH_REMATCH[1]} out=${BASH_REMATCH[2]}
			else
				world=${worlds[$group]#,}
			fi
			die "point ${first[$group $world]} ($world ranks): $out"
		fi
		while read -r line; do
			[[ $line =~ ^budget:\ (world\ ([0-9]+):\ )?.*at\ most\ ([0-9]+)\ s ]] || continue
			w=${BASH_REMATCH[2]:-${worlds[$group]#,}}
			budget[$group $w]=${BASH_REMATCH[3]}
		done <<<"$out"
	done
	for key in "${TODO[@]}"; do
		point_parse "$key"
		BUDGET[$key]=${budget[$P_SERIES $P_MODE $P_LONGS $((P_NODES * P_TPN))]:-0}
	done
}

# job_time I: without TIME, a TIME_PER_SIZE job's limit in JOB_MINUTES: twice
# its points' timed calls at most, plus 2 minutes (warm-ups, set-up,
# launch), in whole minutes; 0 without a budget.
job_time() {
	local key sum=0
	for key in ${G_KEYS[$1]}; do sum=$((sum + ${BUDGET[$key]:-0})); done
	JOB_MINUTES=0
	[ "$sum" -eq 0 ] || JOB_MINUTES=$(((2 * sum + 120 + 59) / 60))
}

# RESULTS must be where every node can write: not node-local storage, by
# its path. A directory inside the toolkit's own tree counts as shared, as a
# site's software tree is (and the local cluster shares it with its nodes).
# Judged by the path itself, '..' and symbolic links resolved (realpath -m):
# $PWD/../../dev/shm/x is /dev/shm/x.
check_results() {
	local real root
	real=$(realpath -m -- "$RESULTS") || die "invalid RESULTS '$RESULTS': not a path"
	root=$(realpath -m -- "$CAMPAIGN_ROOT")
	case $real/ in
	"$root"/*) return 0 ;;
	esac
	case $real/ in
	/tmp/* | /var/tmp/* | /dev/shm/* | /run/*)
		die "RESULTS '$RESULTS'$([ "$real" = "$RESULTS" ] || echo " ($real)") is node-local on most clusters (and private to each node of the local one): the jobs could not write their outputs there; use a shared directory"
		;;
	esac
}

# The value of an identity setting for a series: this submission's, or the manifest's.
series_setting() {
	if [ "$1" = "$SERIES" ]; then printf '%s' "${!2}"; else series_value "$1" "$2"; fi
}

# The options series S gives aller (lib.sh's aller_args).
series_aller_args() {
	local series=$1
	# shellcheck disable=SC2317 # called through aller_args
	series_get() { series_setting "$series" "$1"; }
	aller_args series_get
}

# G_*: the jobs, one allocation per (series, nodes, tasks per node), or per point with SPLIT=1.
plan_jobs() {
	local key group
	declare -A index=()
	G_KEYS=() G_SERIES=() G_NODES=() G_TPN=() G_NAME=()
	for key in "${TODO[@]}"; do
		point_parse "$key"
		group="$P_SERIES $P_NODES $P_TPN"
		[ "$SPLIT" = 0 ] || group=$key
		if [ -z "${index[$group]+set}" ]; then
			index[$group]=${#G_KEYS[@]}
			G_KEYS+=("$key")
			G_SERIES+=("$P_SERIES")
			G_NODES+=("$P_NODES")
			G_TPN+=("$P_TPN")
			if [ "$SPLIT" = 0 ]; then
				G_NAME+=("aller-$CAMPAIGN-n$P_NODES-t$P_TPN-s$P_SERIES")
			else
				G_NAME+=("aller-$CAMPAIGN-$key")
			fi
		else
			G_KEYS[${index[$group]}]+=" $key"
		fi
	done
	job_caches
}

# series_aller_bin S: the aller its jobs run: with MODULES, the one the
# modules put on PATH (its name); else this toolkit's.
series_aller_bin() {
	local mpi
	mpi=$(series_setting "$1" MPI)
	if [ -n "$(series_setting "$1" MODULES)" ]; then
		if [ "$mpi" = mpich ]; then echo aller.mpich; else echo aller; fi
	else
		aller_binary "$mpi"
	fi
}

# job_aller_args S: what a job of series S gives aller: its options and a
# --timeout unless they set one, so that a call that makes no progress (a
# stopped rank, a dead link) ends its point and never holds the allocation:
# aller's own default, 600 s, or TIME when that is less (the job's warning,
# before it, still marks the point cut short by the time limit).
job_aller_args() {
	local a t=600
	a=$(series_aller_args "$1")
	if [[ " $a " != *" --timeout="* ]]; then
		[ -z "$TIME" ] || [ "$TIME_SECONDS" -ge $t ] || t=$TIME_SECONDS
		a="${a:+$a }--timeout=$t"
	fi
	printf '%s' "$a"
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
# computed once (a campaign of thousands of jobs forks nothing per job):
# JOB_COMMON, SERIES_LINES[S], SERIES_GPUS[S], SERIES_EXCLUSIVE[S], VARIANT_ENV[S,VARIANT].
declare -A SERIES_LINES=() SERIES_GPUS=() SERIES_EXCLUSIVE=() VARIANT_ENV=()
JOB_COMMON=""
job_caches() {
	local s v name
	JOB_COMMON="# aller campaign job settings: $CAMPAIGN, submission $SUB (jobs/aller.sbatch)
ALLER_RAW=$DIR/raw
ALLER_REVEAL_DIR=$DIR/reveal
$([ "$SAMPLES" = 0 ] || echo "ALLER_SAMPLES_DIR=$DIR/samples")
ALLER_CAMPAIGN=$CAMPAIGN
ALLER_SUBMISSION=$SUB
ALLER_TOOLKIT=$(toolkit_version)
$(job_lines submission)
$(env | LC_ALL=C sort | grep '^ALLER_TEST_' | sed 's/^/ENV=/' || true)"
	for s in $(printf '%s\n' "${G_SERIES[@]}" | sort -u); do
		SERIES_LINES[$s]="ALLER_BIN=$(series_aller_bin "$s")
ALLER_ARGS=$(job_aller_args "$s")
$(job_lines identity "$s")"
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
	local i=$1 p=${2:-} s=${G_SERIES[$1]} key line
	while IFS= read -r line; do
		[ -z "$line" ] || printf '%s%s\n' "$p" "$line"
	done <<<"$JOB_COMMON
${SERIES_LINES[$s]}"
	for key in ${G_KEYS[$i]}; do
		point_parse "$key"
		printf '%sPOINT=%s %s %s %s %s\n' "$p" "$key" "$P_MODE" "$P_LONGS" "$P_VARIANT" \
			"${VARIANT_ENV[$s,$P_VARIANT]:-}"
	done
}

# job_cmd I: the sbatch command of job I in CMD.
job_cmd() {
	local i=$1 s=${G_SERIES[$1]} gpus extra
	gpus=${SERIES_GPUS[$s]}
	CMD=(sbatch --parsable "--job-name=${G_NAME[$i]}" -N "${G_NODES[$i]}"
		"--ntasks-per-node=${G_TPN[$i]}" "--output=$DIR/logs/%x-%j.out"
		"--comment=aller campaign $CAMPAIGN submission $SUB")
	[ -z "$PARTITION" ] || CMD+=("--partition=$PARTITION")
	[ -z "$ACCOUNT" ] || CMD+=("--account=$ACCOUNT")
	[ -z "$QOS" ] || CMD+=("--qos=$QOS")
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

SUB=$(date -u +%Y%m%dT%H%M%SZ)-$$

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

# Words of both lists, once each, in order: "1 2 4" + "8 2" = "1 2 4 8".
union() {
	# shellcheck disable=SC2086 # word lists
	printf '%s\n' $1 $2 | awk '!seen[$0]++' | paste -sd' ' -
}

# The manifest's records of this submission, before anything is queued.
manifest_begin() {
	local v key fresh=0
	[ -s "$manifest" ] || fresh=1
	{
		if [ "$fresh" = 1 ]; then
			echo "manifest $MANIFEST_FORMAT"
			echo "campaign $CAMPAIGN"
		fi
		for v in NODES MODES; do
			local now
			now=$(union "${M_SETTING[$v]:-}" "${!v}")
			[ "$now" = "${M_SETTING[$v]:-}" ] || echo "setting $v=$now"
		done
		for v in "${SUBMIT_VARS[@]}"; do
			[ "${M_SETTING[$v]-}" = "${!v}" ] && [ -n "${M_SETTING[$v]+set}" ] || echo "setting $v=${!v}"
		done
		if [ "$NEW_SERIES" = 1 ]; then
			for v in "${IDENTITY_VARS[@]}"; do echo "series $SERIES $v=${!v}"; done
		fi
		echo "submission $SUB time=$(date -u +%FT%TZ) toolkit=$(toolkit_version | tr ' ' _) conf=$CONF"
		env | LC_ALL=C sort | grep '^SBATCH_' | sed "s/^/sbatch_env $SUB /" || true
		for key in "${TODO[@]}"; do echo "plan $SUB $key"; done
	} >>"$manifest"
}

submit_all() {
	local i key id failed="" ids=()
	manifest_begin
	for i in "${!G_KEYS[@]}"; do
		job_settings "$i" >"$DIR/jobs/$SUB-$i.conf"
		job_cmd "$i"
		if [ -n "$failed" ] || ! id=$("${CMD[@]}" 2>"$DIR/jobs/$SUB-$i.err"); then
			[ -n "$failed" ] || failed="$(tail -n 1 "$DIR/jobs/$SUB-$i.err")"
			for key in ${G_KEYS[$i]}; do echo "missing $SUB $key sbatch failed: $failed" >>"$manifest"; done
			continue
		fi
		id=${id%%;*}
		ids+=("$id")
		for key in ${G_KEYS[$i]}; do echo "point $SUB $key job=$id name=${G_NAME[$i]}" >>"$manifest"; done
		echo "campaign: $CAMPAIGN: submitted job $id: ${G_NODES[$i]} nodes, ${G_KEYS[$i]// /, }" >&2
	done
	[ ${#ids[@]} -gt 0 ] && submit_final "${ids[@]}"
	[ -z "$failed" ] || die "sbatch failed midway ($failed): the jobs already in will be merged; 'make campaign CAMPAIGN=$CAMPAIGN' submits the rest" 3
}

submit_final() {
	local deps id
	deps=$(IFS=:; echo "$*")
	CMD=(sbatch --parsable "--job-name=aller-$CAMPAIGN-finish" "--output=$DIR/logs/%x-%j.out"
		"--comment=aller campaign $CAMPAIGN submission $SUB")
	[ -z "$PARTITION" ] || CMD+=("--partition=$PARTITION")
	[ -z "$ACCOUNT" ] || CMD+=("--account=$ACCOUNT")
	[ -z "$QOS" ] || CMD+=("--qos=$QOS")
	CMD+=(--kill-on-invalid-dep=yes "--dependency=afterany:$deps" "$CAMPAIGN_ROOT/jobs/finish.sbatch"
		"$CAMPAIGN_ROOT" "$DIR" "$FORMAT")
	id=$("${CMD[@]}") || die "sbatch failed for the final job: merge with 'make plots CAMPAIGN=$CAMPAIGN'" 3
	id=${id%%;*}
	echo "final $SUB job=$id after=$deps" >>"$manifest"
	echo "campaign: $CAMPAIGN: final job $id merges and plots into $DIR when the points end" >&2
	echo "$id"
}
