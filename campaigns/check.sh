# campaigns/check.sh: whether a campaign's settings are valid, each by its
# check in campaigns/vars (check_var), the checks a row names (call), what a
# variant sets (variant_env) and the tools' own variables (tool_args).
# Sourced by submit.sh and the tools (tool_args) after lib.sh.
# shellcheck shell=bash disable=SC2153,SC2034 # settings come from lib.sh; TIME_SECONDS, WARN_SECONDS go to jobs.sh

# unique_list NAME ONE ALLOWED PATTERN VALUES...: each value matches, none twice.
unique_list() {
	local name=$1 one=$2 allowed=$3 pattern=$4 v
	local -A once=()   # by value: a list of 10^5 nodes checked in linear time
	shift 4
	[ $# -gt 0 ] || die "$name is empty: allowed are $allowed"
	for v in "$@"; do
		[[ $v =~ $pattern ]] || die "invalid $one '$v' in $name: allowed are $allowed"
		[ -z "${once[$v]:-}" ] || die "$one '$v' appears twice in $name"
		# a value and its default spelled out are one (random is random:1)
		[[ ! (($v == random && -n ${once[random:1]:-}) || ($v == random:1 && -n ${once[random]:-})) ]] ||
			die "$one '$v' appears twice in $name (random is random:1)"
		once[$v]=1
	done
	return 0
}

# A variant: NAME or NAME:VAR=value,VAR=value (no shell metacharacters).
check_variants() {
	local v name assigns a seen=" " alist
	[ -n "${VARIANTS// /}" ] || die "VARIANTS is empty: e.g. VARIANTS=\"default bruck:OMPI_MCA_coll_tuned_use_dynamic_rules=1\""
	for v in $VARIANTS; do
		name=${v%%:*}
		[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || die "invalid variant name '$name' in VARIANTS: allowed are letters, digits, '.', '_' and '-'"
		[ ${#name} -le "$VARIANT_MAX_NAME" ] || die "invalid variant name '${name:0:20}...' in VARIANTS: ${#name} characters, at most $VARIANT_MAX_NAME (every point's file name holds it)"
		[[ $seen == *" $name "* ]] && die "variant '$name' appears twice in VARIANTS"
		seen="$seen$name "
		[[ $v == *:* ]] || continue
		assigns=${v#*:}
		[ -n "$assigns" ] || die "variant '$name' in VARIANTS has ':' and no assignment: give NAME:VAR=value[,VAR=value]"
		IFS=, read -r -a alist <<<"$assigns"
		for a in "${alist[@]}"; do
			[[ $a =~ ^[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_./:+@%=^-]*$ ]] ||
				die "invalid assignment '$a' in variant '$name': expected VAR=value, the value of letters, digits and _ . / : + @ % = ^ -"
		done
	done
}

# check_var VAR CHECK ARGS...: VAR's value against its check (campaigns/vars);
# an aller option's is one word (or words), aller judging it.
check_var() {
	local k=$1 kind=$2 v=${!1} w
	shift 2
	[[ -z ${VAR_OPTION[$k]-} || ${VAR_FORM[$k]} == words || $v != *[[:space:]]* ]] ||
		die "invalid $k '$v': one word, aller's ${VAR_OPTION[$k]%=}"
	case $kind in
	list)
		read -r -a w <<<"$v"
		unique_list "$k" "$1" "$2" "$3" "${w[@]}"
		;;
	match) [[ $v =~ $1 ]] || die "invalid $k '$v': $2" ;;
	name) [ -z "$v" ] || is_name "$v" || die "invalid $k '$v': allowed are letters, digits, '.', '_' and '-', the first a letter or digit" ;;
	nonempty) [ -n "${v// /}" ] || die "$k is empty: $1" ;;
	call) "$1" ;;
	esac
}

validate_settings() {
	local v check
	for v in "${CAMPAIGN_VARS[@]}"; do
		IFS=$'\t' read -r -a check <<<"${VAR_CHECK[$v]}"
		check_var "$v" "${check[@]}"
	done
	# the job gives each point its own --samples: aller refuses a second one
	[[ $SAMPLES == 0 || " $ALLER_ARGS " != *" --samples="* ]] ||
		die "ALLER_ARGS has --samples, and SAMPLES=1 gives each point its own folder of DIR/samples: use one of them"
	# an MPI library that does not speak the launcher's PMI runs every task alone (aller then exits 3)
	[[ $MPI != mpich || " $LAUNCHER " != *" --mpi=pmix"* ]] ||
		die "MPI=mpich with LAUNCHER '$LAUNCHER': Debian's MPICH speaks no PMIx (each task would run alone); allowed is a PMI it speaks, e.g. LAUNCHER=\"srun --mpi=pmi2\""
	# each point's --placement comes from PLACEMENTS: aller refuses a second one
	[[ $PLACEMENTS == block || " $ALLER_ARGS " != *" --placement="* ]] ||
		die "ALLER_ARGS has --placement, and PLACEMENTS='$PLACEMENTS' gives each point its own: use PLACEMENTS alone"
}

# TIME: Slurm's minutes, minutes:seconds, hours:minutes:seconds, days-hours[:minutes[:seconds]].
check_time() {
	local d=0 h=0 m=0 s=0 rest=$TIME
	[ -n "$TIME" ] || return 0
	if [[ $rest =~ ^([0-9]{1,3})-([0-9]{1,2})(:([0-9]{1,2}))?(:([0-9]{1,2}))?$ ]]; then
		d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} m=${BASH_REMATCH[4]:-0} s=${BASH_REMATCH[6]:-0}
	elif [[ $rest =~ ^([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})$ ]]; then
		h=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
	elif [[ $rest =~ ^([0-9]{1,6}):([0-9]{1,2})$ ]]; then
		m=${BASH_REMATCH[1]} s=${BASH_REMATCH[2]}
	elif [[ $rest =~ ^[0-9]{1,6}$ ]]; then
		m=$rest
	else
		die "invalid TIME '$TIME': expected Slurm's minutes, minutes:seconds, hours:minutes:seconds or days-hours[:minutes[:seconds]]"
	fi
	TIME_SECONDS=$(((10#$d * 24 + 10#$h) * 3600 + 10#$m * 60 + 10#$s))
	[ "$TIME_SECONDS" -le $((365 * 86400)) ] || die "invalid TIME '$TIME': at most a year"
	[ "$TIME_SECONDS" -ge "$TIME_MIN_SECONDS" ] ||
		die "invalid TIME '$TIME': at least 1 minute (the job needs time to mark a point cut short)"
	WARN_SECONDS=$((TIME_SECONDS / 4 < 60 ? TIME_SECONDS / 4 : 60))
}

# The variant's assignments, "VAR=value VAR=value", or "" for a plain name.
variant_env() {
	local v
	for v in $VARIANTS; do
		if [ "${v%%:*}" = "$1" ]; then
			[[ $v == *:* ]] && printf '%s' "${v#*:}" | tr , ' '
			return 0
		fi
	done
}

# tool_args [--campaign] "NAME..." ARG...: a tool's variables as shell
# variables: make's CAMPAIGN_ARG_NAME, then a NAME=value argument; a tool
# variable (campaigns/vars, scope tool) empty takes its default and is
# checked by its row. With --campaign, other campaign variables' arguments
# go to REST_ARGS (for locate_campaign); any other argument is one line
# naming the allowed ones, exit 2.
tool_args() {
	local rest=0 names k e a check
	[ "$1" != --campaign ] || { rest=1; shift; }
	read -r -a names <<<"$1"
	shift
	for k in "${names[@]}"; do e=CAMPAIGN_ARG_$k; printf -v "$k" '%s' "${!e-}"; done
	REST_ARGS=()
	for a in "$@"; do
		k=${a%%=*}
		if [[ $a == *=* && " ${names[*]} " == *" $k "* ]]; then
			printf -v "$k" '%s' "${a#*=}"
		elif [[ $a == *=* && $rest == 1 ]] && is_var "$k"; then
			REST_ARGS+=("$a")
		else
			die "unknown argument '$a': allowed are ${names[*]}$([ $rest = 0 ] || echo " and the campaign's") (VAR=value)"
		fi
	done
	for k in "${names[@]}"; do
		[ "${VAR_SCOPE[$k]-}" = tool ] || continue
		[ -n "${!k}" ] || printf -v "$k" '%s' "${VAR_DEFAULT[$k]}"
		IFS=$'\t' read -r -a check <<<"${VAR_CHECK[$k]}"
		check_var "$k" "${check[@]}"
	done
}
