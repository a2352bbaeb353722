#!/usr/bin/env bash
# campaigns/status.sh CAMPAIGN=name [RESULTS=dir]: one row per point of the
# campaign's manifest: its key, job, Slurm state and exit code, elapsed
# time, node list, attempts, and its output's state (collect --state, once
# over every raw file). One sacct call where accounting exists, and one
# scontrol for the jobs it has not seen end. A job whose
# name is not the one submitted (its id was reused) shows as 'unknown'; one
# pending for a reason that will not clear as 'stuck (reason)'; one Slurm
# has no record of (cluster down, accounting purged) as its output says it
# ended, 'complete (output)', 'failed (output)' or 'incomplete (output)'.
# With --tsv first, the same rows tab-separated (for the report).
# Exit status: 0 when every point is complete, 1 otherwise, 2 for an
# invalid setting or unknown campaign.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/lib.sh"
# shellcheck source=campaigns/manifest.sh
. "$here/manifest.sh"
script_options aller-status "usage: aller-status [--tsv] CAMPAIGN=name [RESULTS=dir]   (man aller-campaign)" "$@"
TOOL=campaign   # its errors are the campaign's, as make campaign's
row='%-42s %-8s %-22s %-6s %-10s %-12s %-5s %s\n'
if [ "${1:-}" = --tsv ]; then
	row='%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n'
	shift
fi

locate_campaign "$@"
for k in "${!given[@]}"; do
	[[ $k == CAMPAIGN || $k == RESULTS || $k == CONF ]] ||
		die "status reads the campaign's manifest: give CAMPAIGN (and RESULTS), not $k"
done
manifest=$DIR/manifest
[ -f "$manifest" ] || die "no campaign '$CAMPAIGN' in $RESULTS (no $manifest)"
manifest_read "$manifest"
COLLECT=$(find_tool collect)
points_states

# Slurm's view of every job: id -> "name|state|exit|elapsed|nodelist|reason".
declare -A info=()
ids=$(printf '%s\n' "${M_POINT_JOB[@]}" | sort -u | paste -sd, -)
if [ -n "$ids" ]; then
	if out=$(sacct -X -n -P -j "$ids" -o JobID,JobName%200,State,ExitCode,Elapsed,NodeList,Reason 2>/dev/null) &&
		[ -n "$out" ]; then
		while IFS='|' read -r id name state code elapsed list reason; do
			info[$id]="$name|${state%% *}|$code|$elapsed|$list|$reason"
		done <<<"$out"
	fi
	# the name each job was submitted with
	declare -A want=()
	for key in "${M_POINTS[@]}"; do
		[ -z "${M_POINT_JOB[$key]:-}" ] || want[${M_POINT_JOB[$key]}]=${M_POINT_NAME[$key]:-}
	done
	final_states='^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED|BOOT_FAIL|DEADLINE)$'
	# slurmdbd's record lags the controller's: a pending job's reason stays
	# None, an ended job may still read RUNNING, and a job whose start record
	# has not landed is named "allocation" (measured under load, 2 of 3 runs);
	# unless sacct has the job ended under its own name, the controller's live
	# record (kept MinJobAge) wins where it has one: one scontrol for them all
	need=()
	for id in ${ids//,/ }; do
		IFS='|' read -r name state _ <<<"${info[$id]:-}"
		[ -n "${info[$id]:-}" ] && [[ $state =~ $final_states ]] && [ "$name" = "${want[$id]:-$name}" ] ||
			need+=("$id")
	done
	if [ ${#need[@]} -gt 0 ]; then
		declare -A live=()
		while IFS='|' read -r id rest; do
			[ -z "$id" ] || live[$id]=$rest
		done < <(scontrol -o show job 2>/dev/null | awk '{
			delete f
			for (i = 1; i <= NF; i++) if ((p = index($i, "=")) > 0) f[substr($i, 1, p - 1)] = substr($i, p + 1)
			print f["JobId"] "|" f["JobName"] "|" f["JobState"] "|" f["ExitCode"] "|" f["RunTime"] "|" \
				f["NodeList"] "|" f["Reason"] }')
		for id in "${need[@]}"; do info[$id]=${live[$id]:-${info[$id]:-"-|UNKNOWN|-|-|-|-"}}; done
	fi
fi

# Pending reasons that will not clear by waiting.
stuck_reasons='^(PartitionConfig|PartitionNodeLimit|PartitionTimeLimit|ReqNodeNotAvail.*|BadConstraints|InvalidAccount|InvalidQOS|QOSMax.*|AssocMax.*|AccountNotAllowed|QOSNotAllowed|JobHeldAdmin|JobHeldUser)$'

complete=0 unrecorded=0
# shellcheck disable=SC2059 # the format is ours
printf "$row" POINT JOB STATE EXIT ELAPSED NODELIST TRIES OUTPUT
for key in "${M_POINTS[@]}"; do
	j=${M_POINT_JOB[$key]:-}
	IFS=$'\t' read -r out reason _ tries <<<"${P_STATE[$key]:-missing	-	-	0}"
	if [ -z "$j" ] || [ -n "${M_POINT_MISSING[$key]:-}" ]; then
		state=not-submitted code=- elapsed=- list=- j=${j:--}
	else
		IFS='|' read -r name state code elapsed list why <<<"${info[$j]}"
		if [ "$name" != - ] && [ "$name" != "${M_POINT_NAME[$key]:-}" ]; then
			state=unknown code=- elapsed=- list=-   # the id is someone else's now
		elif [ "$state" = PENDING ] && [[ $why =~ $stuck_reasons ]]; then
			state="stuck ($why)"
		elif [ "$state" = UNKNOWN ] && [ "$out" != missing ]; then
			# Slurm has no record (cluster down, accounting purged): the output says how it ended
			state="$out (output)" code=-
			[ "$out" != complete ] || code=0:0
			[[ ! $reason =~ ^exit\ ([0-9]+) ]] || code="${BASH_REMATCH[1]}:0"
			unrecorded=$((unrecorded + 1))
		fi
	fi
	# the point's own step can fail while the allocation goes on
	if [ "$out" = failed ] && [[ $state == COMPLETED || $state == FAILED ]]; then
		state=FAILED
		[[ $reason =~ ^exit\ ([0-9]+) ]] && code="${BASH_REMATCH[1]}:0"
	fi
	[ "$out" = complete ] || complete=1
	[ "$out" = complete ] || [ "$out" = missing ] || out="$out ($reason)"
	# shellcheck disable=SC2059
	printf "$row" "$key" "$j" "$state" "$code" "$elapsed" "${list:--}" "$tries" "$out"
done
[ "$unrecorded" = 0 ] || echo "status: Slurm has no record of the jobs of $unrecorded points (cluster down, or accounting purged): their state is their output's, marked (output)" >&2
exit "$complete"
