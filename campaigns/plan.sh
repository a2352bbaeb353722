# campaigns/plan.sh: what a submission runs: its series, its points, their
# arguments checked by aller, where the results go.
# Sourced by submit.sh after lib.sh and manifest.sh.
# shellcheck shell=bash disable=SC2153,SC2154,SC2034 # settings come from lib.sh; NEW_SERIES, BUDGET go to jobs.sh and manifest.sh

# SERIES: the series this submission's new points belong to.
choose_series() {
	local var old
	NEW_SERIES=0
	[ -f "$manifest" ] || { SERIES=1 NEW_SERIES=1; return; }
	SERIES=$(matching_series)
	[ "$SERIES" = 0 ] || return 0
	var=$(series_diff "$M_NSERIES" given)
	old=$(series_value "$M_NSERIES" "$var")
	[ "$FORCE" = 1 ] ||
		die "campaign '$CAMPAIGN' was made with $var=$old, not ${!var}: use a new CAMPAIGN, or FORCE=1 to add these points as a second series"
	SERIES=$((M_NSERIES + 1)) NEW_SERIES=1
}

# QUEUED[ID]: the name of every job in Slurm's queue, from one squeue.
declare -A QUEUED=()
queued_jobs() {
	local id name
	QUEUED=()
	while IFS='|' read -r id name; do
		[ -z "$id" ] || QUEUED[$id]=$name
	done < <(squeue -h -o '%i|%j' 2>/dev/null || true)
}

# queued KEY: whether the point's last job is still in Slurm's queue (the
# job of that name: an id reused by someone else does not count).
queued() {
	local j=${M_POINT_JOB[$1]:-}
	[ -n "$j" ] && [ -n "${QUEUED[$j]:-}" ] && [ "${QUEUED[$j]}" = "${M_POINT_NAME[$1]:-}" ]
}

# TODO: the points to submit; SKIPPED: how many were not.
plan_points() {
	local n m t l v p key state
	declare -A seen=() product=()
	TODO=() SKIPPED=0
	local keys=("${M_POINTS[@]}")
	for n in $NODES; do for m in $MODES; do for t in $TASKS_PER_NODE; do for l in $LONGS; do
		# LONGS <= 0 is aller's default: L0; "08192" is 8192
		[[ $l == -* ]] && l=0
		for v in $VARIANTS; do for p in $PLACEMENTS; do
			point_key "$((10#$n))" "$m" "$((10#$t))" "$((10#$l))" "${v%%:*}" "$SERIES" "$p"
			product[$KEY]=1
			keys+=("$KEY")
		done; done
	done; done; done; done
	points_states
	queued_jobs
	for key in "${keys[@]}"; do
		[ -z "${seen[$key]:-}" ] || continue
		seen[$key]=1
		if [ "$FORCE" = 0 ] || [ -z "${product[$key]:-}" ]; then
			state=${P_STATE[$key]:-missing}
			if [ "${state%%$'\t'*}" = complete ]; then
				SKIPPED=$((SKIPPED + 1))
				continue
			fi
			if queued "$key"; then
				echo "campaign: point $key: job ${M_POINT_JOB[$key]} is still queued, not resubmitted" >&2
				SKIPPED=$((SKIPPED + 1))
				continue
			fi
		fi
		TODO+=("$key")
	done
}

# Every point's arguments, shown to aller itself as it will run them (aller
# --check-args=@FILE of WORLDS, once per series, mode, LONGS, placement and
# variant with every world of them, in the environment the job gives it:
# this one and the variant's assignments, so that its ALLER_STACK and what
# it sets are judged by aller's own rule): what aller would refuse is
# refused here, before anything is queued. With TIME_PER_SIZE aller also
# says how long each world's timed calls may take at most: BUDGET[key], in
# seconds.
declare -A BUDGET=()
check_points() {
	local key args out group world w line venv bin groups=()
	declare -A worlds=() first=() budget=()
	for key in "${TODO[@]}"; do
		point_parse "$key"
		group="$P_SERIES $P_MODE $P_LONGS $P_PLACEMENT $P_VARIANT" world=$((P_NODES * P_TPN))
		[ -n "${first[$group]:-}" ] || { groups+=("$group") first[$group]=1; }   # (worlds[]: a long list to copy)
		[ -n "${first[$group $world]:-}" ] || { first[$group $world]=$key; worlds[$group]+=",$world"; }
	done
	for group in "${groups[@]}"; do
		read -r P_SERIES P_MODE P_LONGS P_PLACEMENT P_VARIANT <<<"$group"
		placement_arg "$P_PLACEMENT"
		read -r -a args <<<"$(series_aller_args "$P_SERIES") $PA"
		# the variant's VAR=value words (check_variants: no blank, no shell metacharacter)
		read -r -a venv <<<"$(VARIANTS=$(series_setting "$P_SERIES" VARIANTS) variant_env "$P_VARIANT")"
		bin=$(aller_binary "$(series_setting "$P_SERIES" MPI)")   # (set -e: none found ends it, its line said)
		if ! out=$(env "${venv[@]}" "$bin" \
			--check-args=@<(printf '%s\n' "${worlds[$group]#,}") "${args[@]}" "$P_MODE" \
			"$(series_setting "$P_SERIES" ITERS)" "$P_LONGS" 2>&1); then
			out=${out#aller: error: }
			# several worlds: aller names the one it refused
			if [[ $out =~ ^world\ ([0-9]+):\ (.*)$ ]]; then
				world=${BASH_REMATCH[1]} out=${BASH_REMATCH[2]}
			else   # every world alike: named by the first
				world=${worlds[$group]#,} world=${world%%,*}
			fi
			die "point ${first[$group $world]} ($world ranks${venv[0]:+, variant $P_VARIANT: ${venv[*]}}): $out"
		fi
		while read -r line; do
			[[ $line =~ ^budget:\ (world\ ([0-9]+):\ )?.*at\ most\ ([0-9]+)\ s ]] || continue
			w=${BASH_REMATCH[2]:-${worlds[$group]#,}}
			budget[$group $w]=${BASH_REMATCH[3]}
		done <<<"$out"
	done
	[ ${#budget[@]} -gt 0 ] || return 0   # no TIME_PER_SIZE: no point has a budget
	for key in "${TODO[@]}"; do
		point_parse "$key"
		BUDGET[$key]=${budget[$P_SERIES $P_MODE $P_LONGS $P_PLACEMENT $P_VARIANT $((P_NODES * P_TPN))]:-0}
	done
}

# RESULTS must be where every node can write: not node-local storage, by
# its path. A directory inside the toolkit's own tree counts as shared, as a
# site's software tree is (and the local cluster shares it with its nodes).
# Judged by the path itself, '..' and symbolic links resolved (realpath -m):
# $PWD/../../dev/shm/x is /dev/shm/x.
check_results() {
	local real root
	real=$(realpath -m -- "$RESULTS") || die "invalid RESULTS '$RESULTS': not a path"
	root=$(realpath -m -- "$CAMPAIGN_ROOT")
	case $real/ in
	"$root"/*) return 0 ;;
	/tmp/* | /var/tmp/* | /dev/shm/* | /run/*)
		die "RESULTS '$RESULTS'$([ "$real" = "$RESULTS" ] || echo " ($real)") is node-local on most clusters (and private to each node of the local one): the jobs could not write their outputs there; use a shared directory"
		;;
	/proc/* | /sys/* | /dev/*)
		die "RESULTS '$RESULTS'$([ "$real" = "$RESULTS" ] || echo " ($real)") is in a kernel file system ($(cut -d/ -f2 <<<"$real")): no result can be written there; use a shared directory"
		;;
	esac
	# what exists of it must be a directory (a file in its path stops every job)
	local up=$real
	while [ ! -e "$up" ]; do up=$(dirname "$up"); done
	[ -d "$up" ] || die "RESULTS '$RESULTS': '$up' is not a directory"
}


