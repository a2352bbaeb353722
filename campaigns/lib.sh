# campaigns/lib.sh: a campaign's settings: defaults < CONF file < VAR=value
# arguments; validation. Sourced by submit.sh and status.sh.
# shellcheck shell=bash disable=SC2034 # the settings are used by the scripts that source this

CAMPAIGN_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CAMPAIGN_VARS=(CONF CAMPAIGN RESULTS NODES MODES TASKS_PER_NODE GPUS_PER_TASK BUFFERS ITERS
	LONGS PARTITION ACCOUNT QOS TIME EXCLUSIVE LAUNCHER EXTRA_SBATCH ALLER_ARGS SPLIT
	DRYRUN FORCE FORMAT)

die() {
	printf 'campaign: error: %s\n' "$*" >&2
	exit 2
}

# A campaign setting as given: the arguments win over the file.
declare -A given=()

parse_args() {
	local a
	for a in "$@"; do
		[[ $a == *=* ]] || die "unexpected argument '$a': expected VAR=value"
		local k=${a%%=*}
		[[ " ${CAMPAIGN_VARS[*]} " == *" $k "* ]] ||
			die "unknown variable '$k': allowed are ${CAMPAIGN_VARS[*]}"
		given[$k]=${a#*=}
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
		k=${BASH_REMATCH[1]}
		v=${BASH_REMATCH[2]}
		[[ " ${CAMPAIGN_VARS[*]} " == *" $k "* ]] || die "$file:$n: unknown variable '$k'"
		[[ $v =~ ^\"(.*)\"$ ]] && v=${BASH_REMATCH[1]}
		[ -n "${given[$k]+set}" ] || given[$k]=$v
	done <"$file"
}

setting() {
	local k=$1 def=${2-}
	if [ -n "${given[$k]+set}" ]; then printf '%s' "${given[$k]}"; else printf '%s' "$def"; fi
}

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }
is_int() { [[ $1 =~ ^-?[0-9]+$ ]]; }
is_name() { [[ $1 =~ ^[A-Za-z0-9._-]+$ ]]; }

# load_campaign ARGS...: sets the variables of CAMPAIGN_VARS, validated.
load_campaign() {
	parse_args "$@"
	CONF=$(setting CONF "$CAMPAIGN_ROOT/campaigns/smoke.conf")
	read_conf "$CONF"
	local base=${CONF##*/}
	CAMPAIGN=$(setting CAMPAIGN "${base%.conf}")
	# a source tree keeps results beside it; an installed copy in the working directory
	if [ -f "$CAMPAIGN_ROOT/Makefile" ]; then
		RESULTS=$(setting RESULTS "$CAMPAIGN_ROOT/results")
	else
		RESULTS=$(setting RESULTS "$PWD/results")
	fi
	NODES=$(setting NODES 1)
	MODES=$(setting MODES contiguous)
	TASKS_PER_NODE=$(setting TASKS_PER_NODE 1)
	GPUS_PER_TASK=$(setting GPUS_PER_TASK 0)
	BUFFERS=$(setting BUFFERS host)
	ITERS=$(setting ITERS 0)
	LONGS=$(setting LONGS 0)
	PARTITION=$(setting PARTITION)
	ACCOUNT=$(setting ACCOUNT)
	QOS=$(setting QOS)
	TIME=$(setting TIME)
	EXCLUSIVE=$(setting EXCLUSIVE 0)
	LAUNCHER=$(setting LAUNCHER "srun --mpi=pmix")
	EXTRA_SBATCH=$(setting EXTRA_SBATCH)
	ALLER_ARGS=$(setting ALLER_ARGS)
	SPLIT=$(setting SPLIT 0)
	DRYRUN=$(setting DRYRUN 0)
	FORCE=$(setting FORCE 0)
	FORMAT=$(setting FORMAT png)

	is_name "$CAMPAIGN" || die "invalid CAMPAIGN '$CAMPAIGN': allowed are letters, digits, '.', '_' and '-'"
	local n seen=" "
	[ -n "${NODES// /}" ] || die "NODES is empty: give node counts, e.g. NODES=\"1 2 4\""
	for n in $NODES; do
		[[ $n =~ ^[1-9][0-9]{0,5}$ ]] || die "invalid node count '$n' in NODES: expected positive integers"
		[[ $seen == *" $n "* ]] && die "node count '$n' appears twice in NODES"
		seen="$seen$n "
	done
	seen=" "
	[ -n "${MODES// /}" ] || die "MODES is empty: allowed are contiguous and strided"
	for n in $MODES; do
		[[ $n == contiguous || $n == strided ]] || die "invalid mode '$n' in MODES: allowed are contiguous and strided"
		[[ $seen == *" $n "* ]] && die "mode '$n' appears twice in MODES"
		seen="$seen$n "
	done
	[[ $TASKS_PER_NODE =~ ^[1-9][0-9]*$ ]] || die "invalid TASKS_PER_NODE '$TASKS_PER_NODE': expected a positive integer"
	is_uint "$GPUS_PER_TASK" || die "invalid GPUS_PER_TASK '$GPUS_PER_TASK': expected 0 or a positive integer"
	[[ $BUFFERS == host || $BUFFERS == cuda ]] || die "invalid BUFFERS '$BUFFERS': allowed are host and cuda"
	is_int "$ITERS" || die "invalid ITERS '$ITERS': expected an integer (<= 0: aller's default)"
	is_int "$LONGS" || die "invalid LONGS '$LONGS': expected an integer (<= 0: aller's default)"
	for n in PARTITION ACCOUNT QOS; do
		[ -z "${!n}" ] || is_name "${!n}" || die "invalid $n '${!n}': allowed are letters, digits, '.', '_' and '-'"
	done
	[ -z "$TIME" ] || [[ $TIME =~ ^([0-9]+-)?[0-9]+(:[0-9]{1,2}){0,2}$ ]] ||
		die "invalid TIME '$TIME': expected Slurm's [days-]hours:minutes:seconds or minutes"
	for n in EXCLUSIVE SPLIT DRYRUN FORCE; do
		[[ ${!n} =~ ^[01]$ ]] || die "invalid $n '${!n}': allowed are 0 and 1"
	done
	[[ $FORMAT =~ ^(png|svg|pdf)$ ]] || die "invalid FORMAT '$FORMAT': allowed are png, svg and pdf"
	[ -n "${LAUNCHER// /}" ] || die "LAUNCHER is empty: e.g. LAUNCHER=\"srun --mpi=pmix\""
	DIR=$RESULTS/$CAMPAIGN
}

# Every point file of (nodes, mode), one per line.
point_files() {
	local f
	for f in "$DIR/raw/$CAMPAIGN-n$1-$2-"*.out; do
		[ -e "$f" ] && printf '%s\n' "$f"
	done
	return 0
}

# point_output FILE: complete, failed (exit N), incomplete or missing.
point_output() {
	local f=$1 code
	if [ -z "$f" ] || [ ! -e "$f" ]; then
		echo missing
		return
	fi
	code=$(sed -n 's/^# exit: \([0-9]*\)$/\1/p' "$f" | tail -n 1)
	if [ -n "$code" ] && [ "$code" != 0 ]; then
		echo "failed (exit $code)"
	elif grep -qx '# Done' "$f" && [ "$code" = 0 ] && ! grep -q '^# incomplete:' "$f"; then
		echo complete
	else
		echo incomplete
	fi
}

# Whether some file of the point is complete.
point_complete() {
	local f
	while IFS= read -r f; do
		[ "$(point_output "$f")" = complete ] && return 0
	done < <(point_files "$1" "$2")
	return 1
}
