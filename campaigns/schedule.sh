#!/usr/bin/env bash
# campaigns/schedule.sh CAMPAIGN_PREFIX=nightly AT=02:00 [TEXTFILE_DIR=dir]
# [VAR=value ...] (make schedule), or --remove CAMPAIGN_PREFIX=nightly (make
# unschedule): a campaign every day at AT, named PREFIX-YYYY-MM-DD, with the
# campaign settings given (checked now by a dry run), then make trend over
# PREFIX-* and, with TEXTFILE_DIR, make export (campaigns/nightly.sh).
# Where Slurm's scrontab is installed: an entry in the user's scrontab,
# between two marker lines (replaced by the next make schedule of the same
# prefix, removed by make unschedule). Without it (Debian's slurm-client has
# no scrontab): a batch job held until AT that first queues its successor
# for the next AT (job name aller-schedule-PREFIX; make unschedule cancels
# it). The settings: RESULTS/schedule-PREFIX/settings, one VAR=value a line.
# Exit status: 0 done, 2 usage or an invalid setting, 3 Slurm failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/lib.sh"
# shellcheck source=campaigns/nightly.sh
. "$here/nightly.sh"
script_options aller-schedule "usage: aller-schedule CAMPAIGN_PREFIX=name AT=HH:MM [TEXTFILE_DIR=dir] [VAR=value ...] | aller-schedule --remove CAMPAIGN_PREFIX=name" "$@"
sbatch_env_clean

remove=0
[ "${1:-}" != --remove ] || { remove=1; shift; }
tool_args --campaign "CAMPAIGN_PREFIX AT TEXTFILE_DIR" "$@"
prefix=$CAMPAIGN_PREFIX at=$AT textfile=$TEXTFILE_DIR settings=()
for a in "${REST_ARGS[@]}"; do
	case $a in
	CAMPAIGN=* | DRYRUN=* | FORCE=*) die "$a: the schedule names each day's campaign itself (CAMPAIGN_PREFIX) and submits it as it stands" ;;
	RESULTS=*) settings+=("RESULTS=$(cd "${a#*=}" 2>/dev/null && pwd || echo "${a#*=}")") ;;
	CONF=[!/]*) settings+=("CONF=$PWD/${a#*=}") ;;
	*) settings+=("$a") ;;
	esac
done
for k in "${CAMPAIGN_VARS[@]}"; do
	e=CAMPAIGN_ARG_$k
	case $k in CAMPAIGN | DRYRUN | FORCE) continue ;; esac
	[ -z "${!e+set}" ] || settings=("$k=${!e}" "${settings[@]}")
done
[ -n "$prefix" ] || die "give CAMPAIGN_PREFIX=name: each day's campaign is PREFIX-YYYY-MM-DD"
{ is_name "$prefix" && [ ${#prefix} -le $((CAMPAIGN_MAX_NAME - 11)) ]; } ||
	die "invalid CAMPAIGN_PREFIX '$prefix': a name (letters, digits, '.', '_', '-'), at most $((CAMPAIGN_MAX_NAME - 11)) characters"
job=aller-schedule-$prefix
marker="# aller-schedule $prefix"
command -v sbatch >/dev/null || die "sbatch is missing: install Slurm's client, or source build/cluster/env.sh" 3

# The crontab without this prefix's entry, on stdout.
crontab_without() {
	scrontab -l 2>/dev/null | awk -v m="$marker" '$0 == m ": begin" { skip = 1 } !skip { print } $0 == m ": end" { skip = 0 }'
}

if [ "$remove" = 1 ]; then
	n=$(squeue -h -n "$job" -o %i | wc -l)
	[ "$n" = 0 ] || scancel -n "$job" || die "scancel failed for the jobs named $job" 3
	if command -v scrontab >/dev/null && scrontab -l 2>/dev/null | grep -qxF "$marker: begin"; then
		tmp=$(mktemp) || die "cannot make a temporary file in ${TMPDIR:-/tmp}" 3   # a new name, never one planted
		crontab_without >"$tmp"
		scrontab "$tmp" || { rm -f "$tmp"; die "scrontab refused the crontab without $prefix's entry" 3; }
		rm -f "$tmp"
		echo "schedule: $prefix: the scrontab entry removed"
	fi
	echo "schedule: $prefix: $n queued job(s) $job cancelled"
	exit 0
fi

[[ $at =~ ^([01][0-9]|2[0-3]):([0-5][0-9])$ ]] || die "invalid AT '$at': expected the time of day as HH:MM, e.g. 02:00"
[ -z "$textfile" ] || [[ $textfile == /* ]] || textfile=$PWD/$textfile
# the settings, checked now as the night's submission would take them
locate_campaign "${settings[@]}" CAMPAIGN="$prefix-$(date +%F)"
out=$(bash "$here/submit.sh" "${settings[@]}" CAMPAIGN="$prefix-check" DRYRUN=1 2>&1 >/dev/null) ||
	die "the campaign would be refused: ${out##*$'\n'}"
sdir=$RESULTS/schedule-$prefix
mkdir -p "$sdir/logs" || die "cannot create '$sdir'" 3
settings_file() { printf '%s\n' "${settings[@]}" | grep -v '^RESULTS=' || true; echo "RESULTS=$RESULTS"; }
write_file "$sdir/settings" settings_file
run=(bash "$here/nightly.sh" "$prefix" "$sdir" "$at" "$textfile")
if command -v scrontab >/dev/null; then
	h=$((10#${BASH_REMATCH[1]})) m=$((10#${BASH_REMATCH[2]}))
	# shellcheck disable=SC2317 # write_file calls it
	entry() {
		crontab_without
		echo "$marker: begin (make schedule; make unschedule removes it)"
		echo "#SCRON --job-name=$job --time=10 --output=$sdir/logs/%x-%j.out"
		printf '%d %d * * * %s\n' "$m" "$h" "$(sh_quote "${run[@]}")"
		echo "$marker: end"
	}
	write_file "$sdir/scrontab" entry
	scrontab "$sdir/scrontab" || die "scrontab refused the entry ($sdir/scrontab)" 3
	echo "schedule: $prefix: a scrontab entry at $at every day ($sdir)"
	exit 0
fi
scancel -n "$job" 2>/dev/null || true
id=$(nightly_submit "$at" "$job" "$sdir" "${run[@]}" --renew) || die "sbatch refused the scheduled job" 3
echo "schedule: $prefix: job $id held until $(squeue -h -j "$id" -o %S), then every day at $at ($sdir)"
