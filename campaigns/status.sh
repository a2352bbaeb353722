#!/usr/bin/env bash
# campaigns/status.sh CAMPAIGN=name [VAR=value ...]: one row per point:
# nodes, mode, job, Slurm state and exit code, elapsed, node list, and
# whether its output is complete. Uses one sacct call where accounting
# exists, else squeue and scontrol. Exit status: 0 when every point is
# complete, 1 otherwise, 2 for an invalid setting or unknown campaign.
set -euo pipefail
# shellcheck disable=SC2153 # NODES, MODES come from lib.sh
# shellcheck source=campaigns/lib.sh
. "$(dirname "$0")/lib.sh"
load_campaign "$@"

manifest=$DIR/manifest
[ -f "$manifest" ] || die "no campaign '$CAMPAIGN' in $RESULTS (no $manifest)"
# The points are those of the manifest's submissions, plus NODES x MODES.
declare -A job=() seen=()
order=()
add_point() {
	[ -n "${seen["$1 $2"]:-}" ] && return
	seen["$1 $2"]=1
	order+=("$1 $2")
}
while read -r _ n m j _; do
	n=${n#nodes=} m=${m#mode=}
	job["$n $m"]=${j#job=}
	add_point "$n" "$m"
done < <(grep '^point ' "$manifest")
for n in $NODES; do for m in $MODES; do add_point "$n" "$m"; done; done

# field KEY: KEY=value from the scontrol line in $line.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $line"; }

# Slurm's view of every job: id -> "state|exit|elapsed|nodelist".
declare -A info=()
ids=$(printf '%s\n' "${job[@]}" | sort -u | paste -sd, -)
if [ -n "$ids" ]; then
	if out=$(sacct -X -n -P -j "$ids" -o JobID,State,ExitCode,Elapsed,NodeList 2>/dev/null) && [ -n "$out" ]; then
		while IFS='|' read -r id state code elapsed list; do
			info[$id]="${state%% *}|$code|$elapsed|$list"
		done <<<"$out"
	fi
	for id in ${ids//,/ }; do
		[ -n "${info[$id]:-}" ] && continue
		line=$(scontrol -o show job "$id" 2>/dev/null || true)
		if [ -n "$line" ]; then
			info[$id]="$(field JobState)|$(field ExitCode)|$(field RunTime)|$(field NodeList)"
		else
			info[$id]="UNKNOWN|-|-|-"
		fi
	done
fi

# latest_attempt PREFIX: PREFIX.out, or PREFIX-rN.out of the highest N.
latest_attempt() {
	local f best="" r max=-1
	for f in "$1.out" "$1"-r*.out; do
		[ -e "$f" ] || continue
		r=0
		[[ $f =~ -r([0-9]+)\.out$ ]] && r=${BASH_REMATCH[1]}
		if ((r > max)); then
			max=$r
			best=$f
		fi
	done
	printf '%s' "$best"
}

complete=0
printf '%-6s %-11s %-8s %-12s %-6s %-10s %-12s %s\n' NODES MODE JOB STATE EXIT ELAPSED NODELIST OUTPUT
for p in "${order[@]}"; do
	read -r n m <<<"$p"
	j=${job[$p]:-}
	if [ -z "$j" ]; then
		printf '%-6s %-11s %-8s %-12s %-6s %-10s %-12s %s\n' "$n" "$m" - "not-submitted" - - - missing
		complete=1
		continue
	fi
	IFS='|' read -r state code elapsed list <<<"${info[$j]}"
	file=$(latest_attempt "$DIR/raw/$CAMPAIGN-n$n-$m-$j")
	output=$(point_output "$file")
	# the point's own step can fail while the allocation goes on
	if [[ $output == failed* ]] && [[ $state == COMPLETED || $state == FAILED ]]; then
		state=FAILED
		code="${output#failed (exit }"
		code="${code%)}:0"
	fi
	[ "$output" = complete ] || complete=1
	printf '%-6s %-11s %-8s %-12s %-6s %-10s %-12s %s\n' "$n" "$m" "$j" "$state" "$code" \
		"$elapsed" "${list:--}" "$output"
done
exit "$complete"
