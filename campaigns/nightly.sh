#!/usr/bin/env bash
# campaigns/nightly.sh PREFIX SDIR AT TEXTFILE_DIR [--renew]: what the job
# make schedule installs does each day (campaigns/schedule.sh): with
# --renew, first queue its successor held until the next AT; then submit
# the campaign PREFIX-YYYY-MM-DD with the settings of SDIR/settings, and a
# job after its final one that runs
# campaigns/nightly.sh --after PREFIX SDIR CAMPAIGN TEXTFILE_DIR: make trend
# over PREFIX-* (NAME=PREFIX; a first night has no history yet) and, with
# TEXTFILE_DIR, make export of the day's campaign. Each step says a line in
# the job's log (SDIR/logs). Sourced by schedule.sh for nightly_submit.
# Exit status: submit.sh's, trend's, export's (the first that failed).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=sh/toolkit.sh
. "$here/../sh/toolkit.sh"

# next_at HH:MM: the next such time, at least 30 s from now, as sbatch's --begin takes it.
next_at() {
	local t now
	now=$(date +%s)
	t=$(date -d "today $1" +%s)
	[ "$t" -gt $((now + 30)) ] || t=$(date -d "tomorrow $1" +%s)
	date -d "@$t" +%Y-%m-%dT%H:%M:%S
}

# slurm_args SDIR: SDIR/settings' partition, account and QOS as sbatch's options, in SARGS.
slurm_args() {
	local k v
	SARGS=()
	while IFS='=' read -r k v; do
		case $k in PARTITION | ACCOUNT | QOS) [ -z "$v" ] || SARGS+=("--${k,,}=$v") ;; esac
	done <"$1/settings"
}

# nightly_submit AT JOB SDIR COMMAND...: a job named JOB held until the next
# AT that runs COMMAND (in SDIR/settings' partition, account and QOS); its id.
nightly_submit() {
	local at=$1 job=$2 sdir=$3 id
	shift 3
	slurm_args "$sdir"
	id=$(sbatch --parsable --job-name="$job" --begin="$(next_at "$at")" --time=10 "${SARGS[@]}" \
		--output="$sdir/logs/%x-%j.out" --wrap="$(sh_quote "$@")") || return 3
	echo "${id%%;*}"
}

[ "${BASH_SOURCE[0]}" = "$0" ] || return 0
if [ "${1:-}" = --after ]; then
	prefix=$2 sdir=$3 campaign=$4 textfile=$5 rc=0
	results=$(sed -n 's/^RESULTS=//p' "$sdir/settings" | tail -n 1)
	bash "$here/../plots/trend.sh" CAMPAIGNS="$prefix-*" NAME="$prefix" RESULTS="$results" || rc=$?
	echo "nightly: $campaign: trend over $prefix-*: exit $rc (0 no change, 1 a change, 2 not two campaigns yet)"
	[ "$rc" -le 2 ] || exit "$rc"
	[ -n "$textfile" ] || exit 0
	bash "$here/../plots/export.sh" CAMPAIGN="$campaign" TEXTFILE_DIR="$textfile" RESULTS="$results"
	exit
fi
[ $# -ge 4 ] || { echo "usage: nightly.sh PREFIX SDIR AT TEXTFILE_DIR [--renew]" >&2; exit 2; }
prefix=$1 sdir=$2 at=$3 textfile=$4
mapfile -t settings <"$sdir/settings"
if [ "${5:-}" = --renew ]; then
	id=$(nightly_submit "$at" "aller-schedule-$prefix" "$sdir" bash "$here/nightly.sh" "$@")
	echo "nightly: the next run: job $id, held until $(squeue -h -j "$id" -o %S)"
fi
campaign=$prefix-$(date +%F)
final=$(bash "$here/submit.sh" "${settings[@]}" CAMPAIGN="$campaign")
echo "nightly: $campaign: submitted${final:+, final job $final}"
slurm_args "$sdir"
after=$(sbatch --parsable --job-name="aller-schedule-$prefix-after" --time=30 "${SARGS[@]}" \
	${final:+--dependency=afterany:$final} --output="$sdir/logs/%x-%j.out" \
	--wrap="$(sh_quote bash "$here/nightly.sh" --after "$prefix" "$sdir" "$campaign" "$textfile")")
echo "nightly: $campaign: trend${textfile:+ and export} in job ${after%%;*}"
