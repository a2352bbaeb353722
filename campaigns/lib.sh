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
CAMPAIGN_VARS=(CONF CAMPAIGN RESULTS NODES MODES TASKS_PER_NODE GPUS_PER_TASK BUFFERS ITERS
	LONGS VARIANTS MPI TRANSPORT ALGOS SPLITS ISOLATE TIMING COLD_CACHE TIME_PER_SIZE PARTITION ACCOUNT QOS
	TIME EXCLUSIVE LAUNCHER EXTRA_SBATCH ALLER_ARGS SPLIT SAMPLES RETRIES DRYRUN FORCE FORMAT
	MODULES MODULES_PURGE MODULE_USE SWITCHES)
# What makes a measurement: a point's identity (with its node count and mode).
IDENTITY_VARS=(TASKS_PER_NODE GPUS_PER_TASK BUFFERS ITERS LONGS VARIANTS MPI TRANSPORT ALGOS ISOLATE
	ALLER_ARGS LAUNCHER SPLITS TIMING COLD_CACHE TIME_PER_SIZE MODULES MODULES_PURGE EXCLUSIVE)
# How a submission asks Slurm; may change from one submission to the next.
SUBMIT_VARS=(PARTITION ACCOUNT QOS TIME EXTRA_SBATCH SPLIT SAMPLES RETRIES FORMAT MODULE_USE
	SWITCHES)
CAMPAIGN_MAX_NAME=64      # so that every file name of a point fits
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
		k=${BASH_REMATCH[1]}
		v=${BASH_REMATCH[2]}
		is_var "$k" || die "$file:$n: unknown variable '$k'"
		[[ $v =~ ^\"(.*)\"$ ]] && v=${BASH_REMATCH[1]}
		from_conf[$k]=$v
	done <"$file"
}

# setting VAR DEFAULT: as given, else from the CONF file, else the default.
setting() {
	local k=$1 def=${2-}
	if [ -n "${given[$k]+set}" ]; then
		printf '%s' "${given[$k]}"
	elif [ -n "${from_conf[$k]+set}" ]; then
		printf '%s' "${from_conf[$k]}"
	else
		printf '%s' "$def"
	fi
}

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }
is_int() { [[ $1 =~ ^-?[0-9]+$ ]]; }
# A name starts with a letter or digit (never '.', '..' or a dot-file, nor an option).
is_name() { [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]]; }
# words TEXT: its words, one space apart (a word list's identity, whatever its spacing).
words() {
	local w
	read -r -a w <<<"$1"
	printf '%s' "${w[*]}"
}

# Where the campaign lives: CAMPAIGN, RESULTS, DIR.
locate_campaign() {
	parse_args "$@"
	local conf base
	conf=$(setting CONF "$CAMPAIGN_ROOT/campaigns/smoke.conf")
	base=${conf##*/}
	CAMPAIGN=$(setting CAMPAIGN "${base%.conf}")
	# a source tree keeps results beside it; an installed copy in the working directory
	if [ -f "$CAMPAIGN_ROOT/Makefile" ]; then
		RESULTS=$(setting RESULTS "$CAMPAIGN_ROOT/results")
	else
		RESULTS=$(setting RESULTS "$PWD/results")
	fi
	is_name "$CAMPAIGN" || die "invalid CAMPAIGN '$CAMPAIGN': allowed are letters, digits, '.', '_' and '-', the first a letter or digit"
	[ ${#CAMPAIGN} -le $CAMPAIGN_MAX_NAME ] ||
		die "invalid CAMPAIGN '${CAMPAIGN:0:20}...': ${#CAMPAIGN} characters, at most $CAMPAIGN_MAX_NAME"
	[[ $RESULTS == /* ]] || RESULTS=$PWD/$RESULTS
	DIR=$RESULTS/$CAMPAIGN
}

# One submission of a campaign at a time: a flock on RESULTS/.CAMPAIGN.lock,
# waited for 5 s; then exit 1 naming the holder.
lock_campaign() {
	local lock=$RESULTS/.$CAMPAIGN.lock
	mkdir -p "$RESULTS" || die "cannot create RESULTS '$RESULTS'"
	exec 9>>"$lock"
	if ! flock -w 5 9; then
		die "campaign '$CAMPAIGN' is being submitted by another process ($(cat "$lock.holder" 2>/dev/null || echo unknown)); try again when it is done" 1
	fi
	echo "pid $$ on $(hostname) since $(date -u +%FT%TZ)" >"$lock.holder"
}

# aller_args GET: the options a series gives aller, its settings from GET VAR.
aller_args() {
	local get=$1 a=() s v
	[ "$("$get" BUFFERS)" = cuda ] && a+=(--buffers=cuda)
	[ "$("$get" TRANSPORT)" = nccl ] && a+=(--transport=nccl)
	v=$("$get" ALGOS) && [ -z "$v" ] || a+=("--algo=$v")
	for s in $("$get" SPLITS); do a+=("--split=$s"); done
	case $("$get" ISOLATE) in 1) a+=(--isolate) ;; all) a+=(--isolate=all) ;; esac
	v=$("$get" TIMING) && [ -z "$v" ] || a+=("--timing=$v")
	v=$("$get" COLD_CACHE)
	case $v in "" | 0) ;; 1) a+=(--cold-cache) ;; *) a+=("--cold-cache=$v") ;; esac
	v=$("$get" TIME_PER_SIZE) && [ -z "$v" ] || a+=("--time-per-size=$v")
	v=$("$get" ALLER_ARGS)
	printf '%s' "${a[*]}${v:+${a[*]:+ }$v}"
}

# Every setting, from the arguments, the CONF file and the defaults.
resolve_settings() {
	# an existing campaign reads a CONF file only when one is named
	if [ -n "${given[CONF]+set}" ] || [ "${1:-}" != existing ]; then
		read_conf "$(setting CONF "$CAMPAIGN_ROOT/campaigns/smoke.conf")"
	fi
	CONF=$(setting CONF "$CAMPAIGN_ROOT/campaigns/smoke.conf")
	NODES=$(setting NODES 1)
	MODES=$(setting MODES contiguous)
	TASKS_PER_NODE=$(setting TASKS_PER_NODE 1)
	GPUS_PER_TASK=$(setting GPUS_PER_TASK 0)
	BUFFERS=$(setting BUFFERS host)
	ITERS=$(setting ITERS 0)
	LONGS=$(setting LONGS 0)
	VARIANTS=$(setting VARIANTS default)
	MPI=$(setting MPI openmpi)
	TRANSPORT=$(setting TRANSPORT)
	ALGOS=$(setting ALGOS)
	SPLITS=$(setting SPLITS)
	TIMING=$(setting TIMING)
	COLD_CACHE=$(setting COLD_CACHE)
	TIME_PER_SIZE=$(setting TIME_PER_SIZE)
	SAMPLES=$(setting SAMPLES 0)
	ISOLATE=$(setting ISOLATE)
	PARTITION=$(setting PARTITION)
	ACCOUNT=$(setting ACCOUNT)
	QOS=$(setting QOS)
	TIME=$(setting TIME)
	EXCLUSIVE=$(setting EXCLUSIVE)
	LAUNCHER=$(setting LAUNCHER "srun --mpi=pmix")
	EXTRA_SBATCH=$(setting EXTRA_SBATCH)
	ALLER_ARGS=$(setting ALLER_ARGS)
	SPLIT=$(setting SPLIT 0)
	RETRIES=$(setting RETRIES 1)
	DRYRUN=$(setting DRYRUN 0)
	FORCE=$(setting FORCE 0)
	FORMAT=$(setting FORMAT png)
	MODULES=$(setting MODULES)
	MODULES_PURGE=$(setting MODULES_PURGE)
	MODULE_USE=$(setting MODULE_USE)
	SWITCHES=$(setting SWITCHES)
	# word lists: "srun  --mpi=pmix " is "srun --mpi=pmix", one identity
	local v
	for v in LAUNCHER ALLER_ARGS MODULES SPLITS EXTRA_SBATCH; do
		printf -v "$v" '%s' "$(words "${!v}")"
	done
}

# unique_list NAME ONE ALLOWED PATTERN VALUES...: each value matches, none twice.
unique_list() {
	local name=$1 one=$2 allowed=$3 pattern=$4 v seen=" "
	shift 4
	[ $# -gt 0 ] || die "$name is empty: allowed are $allowed"
	for v in "$@"; do
		[[ $v =~ $pattern ]] || die "invalid $one '$v' in $name: allowed are $allowed"
		[[ $seen == *" $v "* ]] && die "$one '$v' appears twice in $name"
		seen="$seen$v "
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

validate_settings() {
	local n
	# shellcheck disable=SC2086 # lists of words
	unique_list NODES "node count" "positive integers" '^[1-9][0-9]{0,5}$' $NODES
	# shellcheck disable=SC2086
	unique_list MODES mode "contiguous and strided" '^(contiguous|strided)$' $MODES
	# shellcheck disable=SC2086
	unique_list TASKS_PER_NODE "task count" "positive integers" '^[1-9][0-9]{0,5}$' $TASKS_PER_NODE
	# shellcheck disable=SC2086
	unique_list LONGS "buffer size" "integers (<= 0: aller's default)" '^-?[0-9]{1,18}$' $LONGS
	is_uint "$GPUS_PER_TASK" || die "invalid GPUS_PER_TASK '$GPUS_PER_TASK': expected 0 or a positive integer"
	[[ $BUFFERS == host || $BUFFERS == cuda ]] || die "invalid BUFFERS '$BUFFERS': allowed are host and cuda"
	[[ $MPI == openmpi || $MPI == mpich ]] || die "invalid MPI '$MPI': allowed are openmpi and mpich (an aller built with make MPI=mpich)"
	is_int "$ITERS" || die "invalid ITERS '$ITERS': expected an integer (<= 0: aller's default)"
	[[ $TRANSPORT =~ ^(|mpi|nccl)$ ]] || die "invalid TRANSPORT '$TRANSPORT': allowed are mpi and nccl (an aller built with make CUDA=1 NCCL=1)"
	[[ -z $ALGOS || $ALGOS =~ ^[a-z]+(,[a-z]+)*$ ]] ||
		die "invalid ALGOS '$ALGOS': expected aller's --algo list, e.g. alltoall,pairwise,put"
	[[ -z $SPLITS || $SPLITS =~ ^[A-Za-z0-9_.:/+-]+([[:space:]]+[A-Za-z0-9_.:/+-]+)*$ ]] ||
		die "invalid SPLITS '$SPLITS': expected aller's --split specs, space-separated, e.g. \"uniform zipf:1.2 hot:1:0.5\""
	[[ $TIMING =~ ^(|barrier|loop|osu)$ ]] || die "invalid TIMING '$TIMING': allowed are barrier (aller's), loop (IMB's) and osu (OSU's)"
	[[ $COLD_CACHE =~ ^(|0|1|[1-9][0-9]*[KMGkmg]?)$ ]] ||
		die "invalid COLD_CACHE '$COLD_CACHE': allowed are 0, 1 (a ring as large as the last-level cache) or a size, e.g. 64M"
	[[ -z $TIME_PER_SIZE || $TIME_PER_SIZE =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
		die "invalid TIME_PER_SIZE '$TIME_PER_SIZE': expected seconds, e.g. 0.5"
	[[ $ISOLATE =~ ^(|0|1|all)$ ]] || die "invalid ISOLATE '$ISOLATE': allowed are 0, 1 (communicator 0 alone) and all"
	check_variants
	for n in PARTITION ACCOUNT QOS; do
		[ -z "${!n}" ] || is_name "${!n}" || die "invalid $n '${!n}': allowed are letters, digits, '.', '_' and '-', the first a letter or digit"
	done
	check_time
	[[ -z $MODULES || $MODULES =~ ^[A-Za-z0-9_.+/-]+([[:space:]]+[A-Za-z0-9_.+/-]+)*$ ]] ||
		die "invalid MODULES '$MODULES': expected module names, space-separated, e.g. \"openmpi/4.1 cuda/12\""
	[[ -z $MODULE_USE || $MODULE_USE =~ ^/[A-Za-z0-9_.+/@-]*(:/[A-Za-z0-9_.+/@-]*)*$ ]] ||
		die "invalid MODULE_USE '$MODULE_USE': expected absolute directories, colon-separated, e.g. /opt/site/modulefiles"
	[[ -z $SWITCHES || $SWITCHES =~ ^[1-9][0-9]{0,3}(@[0-9]{1,3}(-[0-9]{1,2})?(:[0-9]{1,2}){0,2})?$ ]] ||
		die "invalid SWITCHES '$SWITCHES': expected sbatch's --switches=COUNT[@MAX_WAIT], e.g. 1 or 1@10:00"
	[[ $MODULES_PURGE =~ ^(|0|1)$ ]] || die "invalid MODULES_PURGE '$MODULES_PURGE': allowed are 0 and 1 (module purge before module load)"
	[[ $EXCLUSIVE =~ ^(|0|1)$ ]] || die "invalid EXCLUSIVE '$EXCLUSIVE': allowed are 0 and 1 (whole nodes: sbatch --exclusive)"
	for n in SPLIT SAMPLES DRYRUN FORCE; do
		[[ ${!n} =~ ^[01]$ ]] || die "invalid $n '${!n}': allowed are 0 and 1"
	done
	[[ $RETRIES =~ ^([0-9]|10)$ ]] || die "invalid RETRIES '$RETRIES': allowed are 0..10"
	# the job gives each point its own --samples: aller refuses a second one
	[[ $SAMPLES == 0 || " $ALLER_ARGS " != *" --samples="* ]] ||
		die "ALLER_ARGS has --samples, and SAMPLES=1 gives each point its own folder of DIR/samples: use one of them"
	[[ $FORMAT =~ ^(png|svg|pdf)$ ]] || die "invalid FORMAT '$FORMAT': allowed are png, svg and pdf"
	[ -n "${LAUNCHER// /}" ] || die "LAUNCHER is empty: e.g. LAUNCHER=\"srun --mpi=pmix\""
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
	[ "$TIME_SECONDS" -ge $TIME_MIN_SECONDS ] ||
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
