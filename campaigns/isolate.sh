#!/usr/bin/env bash
# campaigns/isolate.sh NODES="n[1-8]" | CAMPAIGN=name [PARTITION=p] [TIME=5]
# [SIZE=1M] [SLOW_BELOW=0.7] [NAME=name] [RESULTS=dir] (make isolate): finds
# the slow node of a set by bisection over Slurm jobs. Each step measures
# the two halves of the set apart, one job each (aller's all-to-all of SIZE
# per peer, one task per node, the world level only, bandwidth from the
# median call), and keeps the half that carries under SLOW_BELOW of the
# other; halves alike at the first step: no slow node. At 3 nodes or fewer
# (or halves alike further down) one aller --pairs job over the slow set and
# a node of the last clean half (across the boundary the halves were cut at)
# names the culprit: a node a link is slow for (campaigns/pairs.sh: under
# half of the median of the links that avoid it). At most 2 x log2 N + 2 jobs, each
# bounded (srun --time=TIME minutes, --immediate=300). The nodes are taken
# in their list's order, so halves follow the list (a switch's nodes
# together when the list is in topology order).
# Writes RESULTS/isolate-NAME/: jobs.tsv (each job: its nodes, GB/s, exit),
# suspects.tsv (collect's columns), job-K.out (each job's output) and job-K/ (it read
# by collect: its points.csv or facts.tsv is what this script reads).
# Exit status: 0 no slow node, 1 a culprit named, 2 usage (also fewer than
# 3 nodes, a node Slurm does not know or that cannot run jobs), 3 Slurm or
# aller failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/lib.sh"
# shellcheck source=campaigns/pairs.sh
. "$here/pairs.sh"
script_options aller-isolate "usage: aller-isolate NODES=\"n[1-8]\"|CAMPAIGN=name [PARTITION=p] [TIME=minutes] [SIZE=1M] [SLOW_BELOW=0.7] [NAME=name] [RESULTS=dir]" "$@"

tool_args "NODES CAMPAIGN PARTITION TIME SIZE SLOW_BELOW NAME RESULTS" "$@"
below=$SLOW_BELOW minutes=${TIME:-5}
bytes=$(numfmt --from=iec "$SIZE" 2>/dev/null || echo 0)   # its form checked by its row (campaigns/vars)
{ [ "$bytes" -ge 1 ] && [ "$bytes" -le $((1 << 30)) ]; } || die "invalid SIZE '$SIZE': at most 1G per peer"
[[ $minutes =~ ^[1-9][0-9]{0,3}$ ]] || die "invalid TIME '$minutes': expected a job's limit in minutes, 1..9999"
[ -z "$CAMPAIGN" ] || is_name "$CAMPAIGN" || die "invalid CAMPAIGN '$CAMPAIGN': allowed are letters, digits, '.', '_' and '-', the first a letter or digit"
results=${RESULTS:-$(default_results)}
safe_dir "$results"

# The nodes: NODES (a Slurm host list, or names apart), or a campaign's (its merge's host facts).
if [ -n "$NODES" ]; then
	spec=$NODES
elif [ -n "$CAMPAIGN" ]; then
	facts=$results/$CAMPAIGN/merged/facts.tsv
	[ -d "$results/$CAMPAIGN/raw" ] || die "no campaign '$CAMPAIGN' in $results (no $results/$CAMPAIGN/raw)"
	spec=$(table_select "$facts" key value | awk -F'\t' '$1 == "host" { split($2, w, " "); print w[1] }' | sort -u | paste -sd,)
	[ -n "$spec" ] || die "campaign '$CAMPAIGN' names no host (no host in $facts: not merged yet? make plots CAMPAIGN=$CAMPAIGN)"
else
	die "give the nodes: NODES=\"n[1-8]\" (a Slurm host list) or CAMPAIGN=name (its nodes)"
fi
mapfile -t nodes < <(scontrol show hostnames "${spec// /,}" 2>/dev/null | awk '!seen[$0]++')
[ ${#nodes[@]} -ge 3 ] || die "isolation needs 3 nodes or more (two halves, then a third node to tell a pair's ends apart): '$spec' names ${#nodes[@]}"
for n in "${nodes[@]}"; do
	state=$(slurm_nodes all -n "$n" | cut -f2)
	[ -n "$state" ] || die "node '$n' of '$spec': Slurm does not know it"
	[ -n "$(slurm_nodes usable -n "$n")" ] || die "node '$n' of '$spec' is $state: resume it (or leave it out) to isolate among these"
done
name=${NAME:-$(date -u +%Y%m%dT%H%M%SZ)}
dir=$results/isolate-$name
mkdir -p "$dir" || die "cannot create '$dir'" 3
aller=$(find_tool aller) collect=$(find_tool collect)
srun_args=(--time="$minutes" --immediate=300 --ntasks-per-node=1)
[ -z "$PARTITION" ] || srun_args+=(-p "$PARTITION")
since=$(date -u +%FT%TZ) jobs=0 failed=0
printf 'job\tkind\tnodes\tGBs\texit\n' >"$dir/jobs.tsv.tmp"

# run KIND NODE...: one job over the nodes, its output job-K.out read by
# collect (the one reader of aller's outputs) into job-K/, its exit in RC.
run() {
	local kind=$1 out=$dir/job-$((jobs + 1)).out
	shift
	jobs=$((jobs + 1)) RC=0
	local args=(--commsizes=world --min-bytes="$bytes" --max-bytes="$bytes" 0 5 $((bytes * $# / 8)))
	[ "$kind" = alltoall ] || args=(--pairs="$bytes" --slow-below="$PAIRS_SLOW_BELOW" 0 3)
	# one launch: one that fails is a failed job, never hidden by another try
	timeout $((minutes * 60 + 330)) srun "${srun_args[@]}" -N $# -n $# -w "$(hosts "$@")" \
		"$aller" "${args[@]}" >"$out" 2>"$dir/job-$jobs.err" || RC=$?
	"$collect" -q -o "$dir/job-$jobs" "$out" >/dev/null 2>&1 || true
}

# measure NODE...: one all-to-all job; BW its GB/s (busbw of the median call; 0 when it failed).
measure() {
	run alltoall "$@"
	BW=$(table_select "$dir/job-$jobs/points.csv" bytes_per_peer commsize tmed_s |
		awk -F'\t' '$3 > 0 { printf "%.4g\n", $1 * ($2 - 1) / $3 / 1e9; exit }')
	{ [ "$RC" = 0 ] && [ -n "$BW" ]; } || BW=0 failed=$((failed + 1))
	printf '%s\talltoall\t%s\t%s\t%s\n' "$jobs" "$(hosts "$@")" "$BW" "$RC" >>"$dir/jobs.tsv.tmp"
}
hosts() { (IFS=,; echo "$*"); }
slower() { awk -v a="$1" -v b="$2" -v f="$below" 'BEGIN { exit !(a < f * b) }'; }

set=("${nodes[@]}") ref=() steps=()
while [ ${#set[@]} -gt 3 ]; do
	h=$(((${#set[@]} + 1) / 2))
	A=("${set[@]:0:h}") B=("${set[@]:h}")
	measure "${A[@]}"
	a=$BW
	measure "${B[@]}"
	b=$BW
	[ "$failed" -lt 2 ] || die "both halves' jobs failed ($dir/job-$((jobs - 1)).err, job-$jobs.err)" 3
	echo "isolate: halves $(hosts "${A[@]}"): $a GB/s, $(hosts "${B[@]}"): $b GB/s"
	if slower "$a" "$b"; then
		steps+=("$(hosts "${A[@]}") $a GB/s against $(hosts "${B[@]}") $b") set=("${A[@]}") ref=("${B[0]}")
	elif slower "$b" "$a"; then
		steps+=("$(hosts "${B[@]}") $b GB/s against $(hosts "${A[@]}") $a") set=("${B[@]}") ref=("${A[0]}")
	else
		break
	fi
	failed=0
done

# finish WHAT: the jobs' table, the suspects (collect writes them: the
# culprits, "host" and why), and the last line.
finish() {
	mv "$dir/jobs.tsv.tmp" "$dir/jobs.tsv"
	"$collect" --suspect "$dir" || exit 3   # (collect says why)
	for i in "${!culprits[@]}"; do
		"$collect" --suspect "$dir" host "${culprits[i]}" "isolated: ${whys[i]}" "$since" "isolate-$name" || exit 3
	done
	echo "isolate: $1 ($jobs of at most $bound jobs; $dir)"
}
bound=$(awk -v n=${#nodes[@]} 'BEGIN { l = 0; while (2 ^ l < n) l++; print 2 * l + 2 }')
culprits=() whys=()
if [ ${#steps[@]} = 0 ] && [ ${#nodes[@]} -gt 3 ]; then
	finish "no slow node: the halves carry alike"
	exit 0
fi
run pairs "${set[@]}" "${ref[@]}"
[ "$RC" = 0 ] || die "the pairs job over $(hosts "${set[@]}" "${ref[@]}") failed (exit $RC; $dir/job-$jobs.err)" 3
printf '%s\tpairs\t%s\t-\t%s\n' "$jobs" "$(hosts "${set[@]}" "${ref[@]}")" "$RC" >>"$dir/jobs.tsv.tmp"
for n in "${set[@]}"; do
	read -r worst median link < <(pairs_slow "$n" "$dir/job-$jobs") || continue
	why="its slowest link $link carries $worst GB/s, the links that avoid it $median (--pairs)"
	[ ${#steps[@]} = 0 ] || why="$why; halves: $(printf '%s; ' "${steps[@]}" | sed 's/; $//')"
	echo "isolate: $n: the slow node: $why"
	culprits+=("$n") whys+=("$why")
done
if [ ${#culprits[@]} = 0 ]; then
	finish "no slow node confirmed: no node of $(hosts "${set[@]}") stands out in the pairs against $(hosts "${ref[@]:-none}")"
	exit 0
fi
finish "${#culprits[@]} slow: $(hosts "${culprits[@]}")"
exit 1
