# campaigns/manifest.sh: the campaign is what its manifest says (manifest_read),
# and what a submission adds to it (manifest_begin). Sourced
# after lib.sh. The manifest (results/<campaign>/manifest) is append-only,
# one record a line:
#   manifest 2                       its format
#   setting VAR=value                the campaign's settings (the last one wins)
#   series S VAR=value               what the points of series S measure with
#   submission SUB time=... toolkit=...
#   sbatch_env SUB SBATCH_...=...    the environment sbatch saw
#   plan SUB KEY                     a point this submission is to run
#   submitting SUB KEY name=NAME     ... its sbatch begins (manifest_reconcile)
#   point SUB KEY job=J name=NAME    ... and the job that runs it
#   missing SUB KEY why              ... not submitted (sbatch failed midway)
#   final SUB job=J after=J:J...     the merge and plots
# A point's KEY is n<nodes>-<mode>-t<tasks per node>-L<LONGS>-<variant>-s<series>
# [-<placement>] (cyclic or random<SEED>; none for block);
# SUB is <UTC time>-<pid>, e.g. 20261202T021500Z-4711.
# shellcheck shell=bash disable=SC2034,SC2153,SC2154 # the M_* arrays are read by the scripts; manifest, SERIES and the settings come from submit.sh, plan.sh and lib.sh

MANIFEST_FORMAT=2
declare -A M_SETTING=() M_SERIES=() M_POINT_SERIES=() M_POINT_JOB=() M_POINT_NAME=()
declare -A M_POINT_MISSING=() M_POINT_SUBMITTING=()
M_NSERIES=0
M_POINTS=()

# A point's key and its raw files' names, defined here once: the key
# n<nodes>-<mode>-t<tasks per node>-L<LONGS>-<variant>-s<series>[-<placement>]
# (POINT_KEY_RE, an ERE: its parts as groups 1-6 and 8, the placement's
# without its '-'; the job writes it and its parts, point_parse's, into the
# file, which collect reads); a raw file
# <campaign>-<KEY>-<submission>-j<job>[-r<restart>]-a<attempt>.out, the
# printf format RAW_NAME_FORMAT (campaign, key, submission, job, "-rN" or "",
# attempt) that the job files give jobs/aller.sbatch (ALLER_RAW_NAME).
# The placement (PLACEMENTS) is in the key unless it is block, so the keys
# of campaigns that never named one stay as they were: random:SEED is
# random<SEED> there, plain random its seed 1 (random1), as aller's header
# names it ("random:1"; point_parse turns it back).
POINT_KEY_RE='n([0-9]+)-(contiguous|strided)-t([0-9]+)-L(-?[0-9]+)-([A-Za-z0-9_.-]+)-s([0-9]+)(-(cyclic|random[0-9]+))?'
RAW_NAME_FORMAT='%s-%s-%s-j%s%s-a%02d.out'

# point_key NODES MODE TPN LONGS VARIANT SERIES [PLACEMENT]: the key in KEY
# (no subshell: a plan of 10^4 points forks none per point)
point_key() {
	local p=${7:-block}
	[ "$p" != random ] || p=random1
	p=${p/:/}
	printf -v KEY 'n%s-%s-t%s-L%s-%s-s%s' "$1" "$2" "$3" "$4" "$5" "$6"
	[ "$p" = block ] || KEY+=-$p
}

# point_parse KEY: P_NODES P_MODE P_TPN P_LONGS P_VARIANT P_SERIES
# P_PLACEMENT (aller's --placement value: block, cyclic, random[:SEED]),
# P_IDENT (the key less its node count and mode: what the job writes as
# '# point_series:') and P_BASE (P_IDENT less the placement's suffix:
# '# point_base:', collect's series across placements), or returns 1.
point_parse() {
	[[ $1 =~ ^$POINT_KEY_RE$ ]] || return 1
	P_NODES=${BASH_REMATCH[1]} P_MODE=${BASH_REMATCH[2]} P_TPN=${BASH_REMATCH[3]}
	P_LONGS=${BASH_REMATCH[4]} P_VARIANT=${BASH_REMATCH[5]} P_SERIES=${BASH_REMATCH[6]}
	P_PLACEMENT=${BASH_REMATCH[8]:-block}
	P_BASE=t$P_TPN-L$P_LONGS-$P_VARIANT-s$P_SERIES P_IDENT=t$P_TPN-L$P_LONGS-$P_VARIANT-s$P_SERIES${BASH_REMATCH[7]}
	[[ $P_PLACEMENT != random* ]] || P_PLACEMENT=random:${P_PLACEMENT#random}
}

# placement_arg P: aller's option for a point of placement P in PA, or
# nothing when the campaign's PLACEMENTS is block alone (the launcher's
# order, as a campaign without PLACEMENTS always ran).
placement_arg() { if [ "$PLACEMENTS" = block ]; then PA=; else PA=--placement=$1; fi; }

# manifest_format F: F is a manifest of this toolkit's format, or the campaign is refused.
manifest_format() {
	grep -qx "manifest $MANIFEST_FORMAT" "$1" ||
		die "campaign '$CAMPAIGN' was made by an older toolkit (no 'manifest $MANIFEST_FORMAT' in $1): use a new CAMPAIGN"
}

manifest_read() {
	local f=$1 kind a b c j
	[ -f "$f" ] || return 0
	manifest_format "$f"
	while IFS=' ' read -r kind a b c; do
		case $kind in
		setting) M_SETTING[${a%%=*}]=${a#*=}${b:+ $b}${c:+ $c} ;;
		series) M_SERIES[$a,${b%%=*}]=${b#*=}${c:+ $c}; [ "$a" -le "$M_NSERIES" ] || M_NSERIES=$a ;;
		plan)
			if [ -z "${M_POINT_SERIES[$b]+set}" ]; then
				M_POINTS+=("$b")
				point_parse "$b" && M_POINT_SERIES[$b]=$P_SERIES
			fi
			unset "M_POINT_MISSING[$b]"
			;;
		submitting) M_POINT_SUBMITTING[$b]="$a ${c#name=}" ;;
		point) j=${c%% *} M_POINT_JOB[$b]=${j#job=} M_POINT_NAME[$b]=${c#* name=}; unset "M_POINT_SUBMITTING[$b]" ;;
		missing) M_POINT_MISSING[$b]=1 ;;
		esac
	done <"$f"
}

# manifest_reconcile: a point whose sbatch was cut short (a 'submitting'
# record and no 'point' one) gets the job that sbatch queued, where Slurm
# has one of that name and submission (its comment), as a 'point' record;
# one it never queued stays unsubmitted.
manifest_reconcile() {
	local key sub name id
	for key in "${!M_POINT_SUBMITTING[@]}"; do
		read -r sub name <<<"${M_POINT_SUBMITTING[$key]}"
		id=$(squeue -h -n "$name" -o '%i %k' 2>/dev/null | awk -v s="submission $sub" 'index($0, s) { print $1; exit }')
		[ -n "$id" ] || continue
		append_lines "$manifest" "point $sub $key job=$id name=$name"
		M_POINT_JOB[$key]=$id M_POINT_NAME[$key]=$name
	done
}

# series_value S VAR
series_value() { printf '%s' "${M_SERIES[$1,$2]-}"; }

# series_diff S [GIVEN]: the first identity setting that differs from series
# S (with GIVEN, of those given here or in the CONF file), or nothing.
series_diff() {
	local v
	for v in "${IDENTITY_VARS[@]}"; do
		[ -z "${2:-}" ] || [ -n "${given[$v]+set}" ] || [ -n "${from_conf[$v]+set}" ] || continue
		[ "${M_SERIES[$1,$v]-}" = "${!v}" ] || { echo "$v"; return; }
	done
}

# The series whose identity settings equal the current ones, or 0.
matching_series() {
	local s
	for ((s = 1; s <= M_NSERIES; s++)); do [ -n "$(series_diff "$s")" ] || { echo "$s"; return; }; done
	echo 0
}

# For an existing campaign: what was not given comes from the manifest
# (identity settings from series S, the others from its settings).
settings_from_manifest() {
	local s=$1 v
	for v in "${IDENTITY_VARS[@]}"; do
		[ -n "${given[$v]+set}" ] || [ -n "${from_conf[$v]+set}" ] || printf -v "$v" '%s' "${M_SERIES[$s,$v]-}"
	done
	for v in NODES MODES PLACEMENTS "${SUBMIT_VARS[@]}"; do
		[ -n "${given[$v]+set}" ] || [ -n "${from_conf[$v]+set}" ] || [ -z "${M_SETTING[$v]+set}" ] ||
			printf -v "$v" '%s' "${M_SETTING[$v]}"
	done
}

# points_states: every point's "STATE<TAB>REASON<TAB>FILE<TAB>FILES<TAB>RETRIED" in
# P_STATE[KEY]: collect --state --points over raw/ (each file's key is its
# '# point:' line; the state of the file a merge takes, by the collector's
# own rule, point_newer, how many files the key has, and how its job's
# earlier attempts ended, "-" for none).
declare -A P_STATE=()
points_states() {
	local key line
	P_STATE=()
	[ -d "$DIR/raw" ] || return 0
	while IFS=$'\t' read -r key line; do
		P_STATE[$key]=$line
	done < <("$COLLECT" --state --points "$DIR/raw")
}

# Words of both lists, once each, in order: "1 2 4" + "8 2" = "1 2 4 8".
union() {
	# shellcheck disable=SC2086 # word lists
	printf '%s\n' $1 $2 | awk '!seen[$0]++' | paste -sd' ' -
}

# The manifest's records of this submission, before anything is queued.
manifest_begin() {
	local v key now fresh=0 recs
	[ -s "$manifest" ] || fresh=1
	MANIFEST_SIZE=$([ -e "$manifest" ] && stat -c %s "$manifest" || echo new)   # what a failed write cuts back to
	recs=$({
		[ "$fresh" = 0 ] || printf 'manifest %s\ncampaign %s\n' "$MANIFEST_FORMAT" "$CAMPAIGN"
		for v in NODES MODES PLACEMENTS; do
			now=$(union "${M_SETTING[$v]:-}" "${!v}")
			[ "$now" = "${M_SETTING[$v]:-}" ] || echo "setting $v=$now"
		done
		for v in "${SUBMIT_VARS[@]}"; do
			[ "${M_SETTING[$v]-}" = "${!v}" ] && [ -n "${M_SETTING[$v]+set}" ] || echo "setting $v=${!v}"
		done
		[ "$NEW_SERIES" = 0 ] || for v in "${IDENTITY_VARS[@]}"; do echo "series $SERIES $v=${!v}"; done
		echo "submission $SUB time=$(date -u +%FT%TZ) toolkit=$(toolkit_version | tr ' ' _) conf=$CONF"
		env | LC_ALL=C sort | grep '^SBATCH_' | sed "s/^/sbatch_env $SUB /" || true
		for key in "${TODO[@]}"; do echo "plan $SUB $key"; done
	})
	append_lines "$manifest" "$recs"
}
