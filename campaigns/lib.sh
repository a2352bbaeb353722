# campaigns/lib.sh: a campaign's settings: where they come from and whether
# they are valid. Sourced by submit.sh and status.sh (with manifest.sh).
#
# Settings are VAR=value arguments, or CAMPAIGN_ARG_VAR in the environment
# (how make passes what was given on its command line, byte for byte), over
# a CONF file of plain VAR=value lines, over the defaults. For a campaign
# that exists, its manifest takes the place of the CONF file and defaults
# (manifest.sh).
# shellcheck shell=bash disable=SC2034 # the settings are used by the scripts that source this

CAMPAIGN_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The variables, one row each in campaigns/vars (its header says the columns):
# CAMPAIGN_VARS all, in its order; IDENTITY_VARS what makes a measurement (a
# point's identity, with its node count and mode); SUBMIT_VARS how a
# submission asks Slurm (may change from one submission to the next);
# TOOL_VARS the tools' own (not a campaign's: check.sh's tool_args); and
# per variable its VAR_DEFAULT, VAR_SCOPE, VAR_FORM, VAR_JOB, VAR_OPTION and VAR_CHECK.
CAMPAIGN_VARS=() IDENTITY_VARS=() SUBMIT_VARS=() TOOL_VARS=()
declare -A VAR_DEFAULT=() VAR_SCOPE=() VAR_FORM=() VAR_JOB=() VAR_OPTION=() VAR_CHECK=()
while IFS=$'\t' read -r name def scope form job option check; do
	[[ -z $name || $name == '#'* ]] && continue
	if [ "$scope" = tool ]; then TOOL_VARS+=("$name"); else CAMPAIGN_VARS+=("$name"); fi
	[ "$def" != - ] || def=
	[ "$job" != - ] || job=
	[ "$option" != - ] || option=
	VAR_DEFAULT[$name]=$def VAR_SCOPE[$name]=$scope VAR_FORM[$name]=$form VAR_JOB[$name]=$job
	VAR_OPTION[$name]=$option
	VAR_CHECK[$name]=$check
	case $scope in identity) IDENTITY_VARS+=("$name") ;; submission) SUBMIT_VARS+=("$name") ;; esac
done <"$CAMPAIGN_ROOT/campaigns/vars"
unset name def scope form job option check
CAMPAIGN_MAX_NAME=64      # so that every file name of a point fits
VARIANT_MAX_NAME=48       # ... with a variant's name in its key (NAME_MAX is 255)
TIME_MIN_SECONDS=60       # the job's warning comes a quarter of it, at most 60 s, before the end

# shellcheck source=sh/toolkit.sh
. "$CAMPAIGN_ROOT/sh/toolkit.sh"

# Settings as given: arguments and CAMPAIGN_ARG_* win over the CONF file.
declare -A given=()
declare -A from_conf=()

is_var() { [[ " ${CAMPAIGN_VARS[*]} " == *" $1 "* ]]; }

give() {
	local k=$1 v=$2
	is_var "$k" || die "unknown variable '$k'$(hint=$(nearest_name "$k" "${CAMPAIGN_VARS[@]}") &&
		[ -n "$hint" ] && echo " (did you mean $hint?)"): allowed are ${CAMPAIGN_VARS[*]}"
	[[ $v != *$'\n'* ]] || die "invalid $k: its value has a newline; give it on one line"
	given[$k]=$v
}

parse_args() {
	local a k
	for k in "${CAMPAIGN_VARS[@]}"; do
		local e=CAMPAIGN_ARG_$k
		[ -z "${!e+set}" ] || give "$k" "${!e}"
	done
	for a in "$@"; do
		[[ $a == *=* ]] || die "unexpected argument '$a': expected VAR=value"
		give "${a%%=*}" "${a#*=}"
	done
}

# Plain VAR=value lines; '#' comments; no shell code is run.
read_conf() {
	local file=$1 line k v n=0
	[ -r "$file" ] || die "cannot read the campaign file '$file'"
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%$'\r'}
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		[[ $line =~ ^([A-Z_]+)=(.*)$ ]] || die "$file:$n: expected VAR=value, got '$line'"
		k=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
		is_var "$k" || die "$file:$n: unknown variable '$k'"
		[[ $v =~ ^\"(.*)\"$ ]] && v=${BASH_REMATCH[1]}
		from_conf[$k]=$v
	done <"$file"
}

# setting VAR DEFAULT [INTO]: as given, else from the CONF file, else the
# default: printed, or set in the variable INTO.
setting() {
	local k=$1 v=${2-}
	if [ -n "${given[$k]+set}" ]; then v=${given[$k]}; elif [ -n "${from_conf[$k]+set}" ]; then v=${from_conf[$k]}; fi
	if [ -n "${3:-}" ]; then printf -v "$3" '%s' "$v"; else printf '%s' "$v"; fi
}


# Where the campaign lives: CAMPAIGN, RESULTS, DIR.
locate_campaign() {
	parse_args "$@"
	local conf base
	setting CONF "$CAMPAIGN_ROOT/campaigns/smoke.conf" conf
	base=${conf##*/}
	setting CAMPAIGN "${base%.conf}" CAMPAIGN
	setting RESULTS "$(default_results)" RESULTS
	is_name "$CAMPAIGN" || die "invalid CAMPAIGN '$CAMPAIGN': allowed are letters, digits, '.', '_' and '-', the first a letter or digit"
	[ ${#CAMPAIGN} -le $CAMPAIGN_MAX_NAME ] ||
		die "invalid CAMPAIGN '${CAMPAIGN:0:20}...': ${#CAMPAIGN} characters, at most $CAMPAIGN_MAX_NAME"
	[[ $RESULTS == /* ]] || RESULTS=$PWD/$RESULTS
	DIR=$RESULTS/$CAMPAIGN
	[ -n "${READS_ONLY:-}" ] || safe_dir "$RESULTS"   # before anything is written in it
}

# The SBATCH_* input variables that say where and for whom jobs run, not
# what a job is; every other one (SBATCH_ARRAY_INX, _REQUEUE, _WAIT,
# _SIGNAL, _TIMELIMIT, ...) would reshape aller's own jobs: cleared from
# this process before any sbatch, and said in one line.
SBATCH_KEPT="ACCOUNT PARTITION QOS RESERVATION CLUSTERS CONSTRAINT EXPORT WCKEY GET_USER_ENV ACCTG_FREQ PROFILE"
sbatch_env_clean() {
	local v cleared=()
	for v in $(compgen -e SBATCH_ || true); do
		[[ " $SBATCH_KEPT " == *" ${v#SBATCH_} "* ]] || { cleared+=("$v=${!v}"); unset "$v"; }
	done
	[ ${#cleared[@]} -eq 0 ] || echo "$TOOL: not passed to aller's jobs (each would change what a job is): ${cleared[*]}" >&2
}

# One submission of a campaign at a time: a flock on RESULTS/.CAMPAIGN.lock,
# waited for 5 s; then exit 1 naming the holder.
lock_campaign() {
	local lock=$RESULTS/.$CAMPAIGN.lock
	mkdir -p "$RESULTS" 2>/dev/null || die "cannot create RESULTS '$RESULTS'" 3
	{ exec 9>>"$lock"; } 2>/dev/null || die "cannot write in RESULTS '$RESULTS' (the lock '$lock')" 3
	flock -w 5 9 ||
		die "campaign '$CAMPAIGN' is being submitted by another process ($(cat "$lock.holder" 2>/dev/null || echo unknown)); try again when it is done" 1
	write_file "$lock.holder" echo "pid $$ on $(hostname) since $(date -u +%FT%TZ)"
}


# Every setting, from the arguments, the CONF file and the defaults
# (campaigns/vars); a word list's words one space apart ("srun  --mpi=pmix "
# is "srun --mpi=pmix", one identity).
resolve_settings() {
	local v w
	# an existing campaign reads a CONF file only when one is named
	[[ -z ${given[CONF]+set} && ${1:-} == existing ]] ||
		read_conf "$(setting CONF "$CAMPAIGN_ROOT/campaigns/smoke.conf")"
	setting CONF "$CAMPAIGN_ROOT/campaigns/smoke.conf" CONF
	for v in "${CAMPAIGN_VARS[@]}"; do
		[ "${VAR_SCOPE[$v]}" != where ] || continue
		setting "$v" "${VAR_DEFAULT[$v]}" "$v"
		[ "${VAR_FORM[$v]}" != words ] || { read -r -a w <<<"${!v}" && printf -v "$v" '%s' "${w[*]}"; }
	done
}

# shellcheck source=campaigns/check.sh
. "$CAMPAIGN_ROOT/campaigns/check.sh"
