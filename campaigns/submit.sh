#!/usr/bin/env bash
# campaigns/submit.sh [VAR=value ...]: submits a campaign to Slurm.
#
# Settings (see README, "Campaigns"): CONF (campaigns/smoke.conf), CAMPAIGN,
# NODES, MODES, TASKS_PER_NODE, GPUS_PER_TASK, BUFFERS, ITERS, LONGS,
# PARTITION, ACCOUNT, QOS, TIME, EXCLUSIVE, LAUNCHER, EXTRA_SBATCH, ALLER_ARGS,
# SPLIT (1: one job per point), DRYRUN (1: print, submit nothing), FORCE (1:
# resubmit complete points too), RESULTS (results/), FORMAT (png).
# Every value is checked before anything is submitted. Points with a complete
# output, or whose job is still queued, are skipped. A final job, dependent on
# all others, merges the outputs and renders the plots.
# Exit status: 0 submitted (or nothing to do), 2 invalid setting, 3 sbatch failed.
set -euo pipefail
# shellcheck disable=SC2153 # MODES, ALLER_ARGS come from lib.sh
# shellcheck source=campaigns/lib.sh
. "$(dirname "$0")/lib.sh"
load_campaign "$@"

# The toolkit: a source tree (build/bin) or an installed copy (PREFIX/bin).
tool() {
	local t
	for t in "$CAMPAIGN_ROOT/build/bin/$1" "$CAMPAIGN_ROOT/../../bin/$1"; do
		[ -x "$t" ] && { (cd "$(dirname "$t")" && printf '%s/%s' "$(pwd)" "$1"); return; }
	done
	command -v "$1" || die "cannot find '$1': run 'make' first"
}
aller=$(tool aller)
rev=$(git -C "$CAMPAIGN_ROOT" describe --always --dirty 2>/dev/null || echo "installed $(basename "$CAMPAIGN_ROOT")")
command -v sbatch >/dev/null || die "sbatch is missing: is Slurm installed (make deps), or source build/cluster/env.sh?"

manifest=$DIR/manifest
# Latest job of each point, from earlier submissions.
declare -A last_job=()
if [ -f "$manifest" ]; then
	while read -r _ n m j _; do
		last_job["${n#nodes=} ${m#mode=}"]=${j#job=}
	done < <(grep '^point ' "$manifest")
fi
queued() {
	local j=${last_job["$1 $2"]:-}
	[ -n "$j" ] && [ -n "$(squeue -h -j "$j" -o %i 2>/dev/null)" ]
}

# What to run: per node count, the modes that need it.
declare -A todo=()
skipped=0
for n in $NODES; do
	for m in $MODES; do
		if [ "$FORCE" = 0 ] && point_complete "$n" "$m"; then
			skipped=$((skipped + 1))
			continue
		fi
		if [ "$FORCE" = 0 ] && queued "$n" "$m"; then
			echo "campaign: point $n nodes $m: job ${last_job["$n $m"]} is still queued, not resubmitted" >&2
			skipped=$((skipped + 1))
			continue
		fi
		todo[$n]="${todo[$n]:-}${todo[$n]:+ }$m"
	done
done
if [ ${#todo[@]} -eq 0 ]; then
	echo "campaign: $CAMPAIGN: nothing to submit, all $skipped points complete or queued (FORCE=1 resubmits)" >&2
	exit 0
fi

common=()
[ -z "$PARTITION" ] || common+=("--partition=$PARTITION")
[ -z "$ACCOUNT" ] || common+=("--account=$ACCOUNT")
[ -z "$QOS" ] || common+=("--qos=$QOS")
read -r -a extra <<<"$EXTRA_SBATCH"
aller_args=$ALLER_ARGS
[ "$BUFFERS" = cuda ] && aller_args="--buffers=cuda${aller_args:+ }$aller_args"

# submit CMD...: runs sbatch, leaving the job id in $id; with DRYRUN=1 it
# prints the command instead.
id=""
submit() {
	if [ "$DRYRUN" = 1 ]; then
		printf '%q ' "$@"
		printf '\n'
		return
	fi
	id=$("$@") || exit 3
	id=${id%%;*}
}

stamp=$(date -u +%FT%TZ)
if [ "$DRYRUN" = 1 ]; then
	echo "# campaign $CAMPAIGN: effective settings (DRYRUN=1, nothing is submitted)"
	for v in "${CAMPAIGN_VARS[@]}"; do echo "#   $v=${!v}"; done
	env | LC_ALL=C sort | grep '^SBATCH_' | sed 's/^/#   (environment) /' || true
else
	mkdir -p "$DIR/raw" "$DIR/logs" "$DIR/merged" "$DIR/plots"
	{
		echo "# submission $stamp"
		echo "submit time=$stamp conf=$CONF toolkit=$rev"
		for v in "${CAMPAIGN_VARS[@]}"; do echo "param $v=${!v}"; done
		env | LC_ALL=C sort | grep '^SBATCH_' | sed 's/^/sbatch_env /' || true
	} >>"$manifest"
fi

jobs=()
for n in $(printf '%s\n' "${!todo[@]}" | sort -n); do
	if [ "$SPLIT" = 1 ]; then read -r -a groups <<<"${todo[$n]}"; else groups=("${todo[$n]}"); fi
	for modes in "${groups[@]}"; do
		suffix=""
		[ "$SPLIT" = 1 ] && suffix="-$modes"
		cmd=(env "ALLER_BIN=$aller" "ALLER_RAW=$DIR/raw" "ALLER_CAMPAIGN=$CAMPAIGN"
			"ALLER_MODES=$modes" "ALLER_ITERS=$ITERS" "ALLER_LONGS=$LONGS"
			"ALLER_ARGS=$aller_args" "ALLER_LAUNCHER=$LAUNCHER"
			"ALLER_GPUS_PER_TASK=$GPUS_PER_TASK" "ALLER_TOOLKIT_REV=$rev"
			sbatch --parsable "--job-name=aller-$CAMPAIGN-n$n$suffix" -N "$n"
			"--ntasks-per-node=$TASKS_PER_NODE" "--output=$DIR/logs/%x-%j.out" "${common[@]}")
		[ -z "$TIME" ] || cmd+=("--time=$TIME")
		[ "$EXCLUSIVE" = 0 ] || cmd+=(--exclusive)
		[ "$GPUS_PER_TASK" = 0 ] || cmd+=("--gpus-per-task=$GPUS_PER_TASK")
		cmd+=("${extra[@]}" "$CAMPAIGN_ROOT/jobs/aller.sbatch")
		submit "${cmd[@]}"
		[ "$DRYRUN" = 0 ] || continue
		jobs+=("$id")
		for m in $modes; do
			echo "point nodes=$n mode=$m job=$id submitted=$(date -u +%FT%TZ)" >>"$manifest"
		done
		echo "campaign: $CAMPAIGN: submitted job $id: $n nodes, $modes" >&2
	done
done

deps=$(IFS=:; echo "${jobs[*]:-}")
final=(env "ALLER_HOME=$CAMPAIGN_ROOT" "ALLER_RESULTS=$DIR" "ALLER_FORMAT=$FORMAT"
	sbatch --parsable "--job-name=aller-$CAMPAIGN-finish" "--output=$DIR/logs/%x-%j.out"
	"${common[@]}" --kill-on-invalid-dep=yes)
[ "$DRYRUN" = 1 ] && deps='<jobs above>'
final+=("--dependency=afterany:$deps" "$CAMPAIGN_ROOT/jobs/finish.sbatch")
submit "${final[@]}"
[ "$DRYRUN" = 0 ] || exit 0
echo "final job=$id after=$deps" >>"$manifest"
echo "campaign: $CAMPAIGN: final job $id merges and plots into $DIR when the points end" >&2
echo "$id"
