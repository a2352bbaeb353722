# campaigns/series.sh: a series, what the points of one identity measure
# with (the manifest's "series S VAR=value" records, or this submission's
# settings): its settings, the aller its jobs run and the options they give
# it. Sourced by submit.sh after lib.sh and manifest.sh.
# shellcheck shell=bash disable=SC2153 # SERIES and the settings come from plan.sh and lib.sh

# series_setting S VAR: an identity setting of series S: this submission's, or the manifest's.
series_setting() {
	if [ "$1" = "$SERIES" ]; then printf '%s' "${!2}"; else series_value "$1" "$2"; fi
}

# series_aller_args S: the options series S gives aller, from its settings
# that are an option of aller's (campaigns/vars' OPTION), in their order.
series_aller_args() {
	local a=() k o v w
	for k in "${IDENTITY_VARS[@]}"; do
		o=${VAR_OPTION[$k]} v=$(series_setting "$1" "$k")
		[[ -n $o && -n $v ]] || continue
		if [[ $o != *= ]]; then   # a switch: 0 none, 1 itself, else its value
			case $v in 0) ;; 1) a+=("$o") ;; *) a+=("$o=$v") ;; esac
		elif [ "$v" != "${VAR_DEFAULT[$k]}" ]; then   # --NAME=VALUE unless the default; a word list a word each
			if [ "${VAR_FORM[$k]}" = words ]; then for w in $v; do a+=("$o$w"); done; else a+=("$o$v"); fi
		fi
	done
	v=$(series_setting "$1" ALLER_ARGS)
	printf '%s' "${a[*]}${v:+${a[*]:+ }$v}"
}

# series_aller_bin S: the aller its jobs run: with MODULES, the one the
# modules put on PATH (its name); else this toolkit's.
series_aller_bin() {
	local mpi
	mpi=$(series_setting "$1" MPI)
	if [ -n "$(series_setting "$1" MODULES)" ]; then
		if [ "$mpi" = mpich ]; then echo aller.mpich; else echo aller; fi
	else
		aller_binary "$mpi"
	fi
}

# job_aller_args S: what a job of series S gives aller: its options and a
# --timeout unless they set one, so that a call that makes no progress (a
# stopped rank, a dead link) ends its point and never holds the allocation:
# aller's own default, 600 s, or TIME when that is less (the job's warning,
# before it, still marks the point cut short by the time limit).
job_aller_args() {
	local a t=600
	a=$(series_aller_args "$1")
	if [[ " $a " != *" --timeout="* ]]; then
		[ -z "$TIME" ] || [ "$TIME_SECONDS" -ge $t ] || t=$TIME_SECONDS
		a="${a:+$a }--timeout=$t"
	fi
	printf '%s' "$a"
}
