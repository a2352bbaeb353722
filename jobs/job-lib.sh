# jobs/job-lib.sh: what jobs/aller.sbatch asks of the node and of Slurm:
# the module system, the network's topology, the time left, the nodes'
# health, how a step ended, and what a point file is named and begins with.
# Sourced by aller.sbatch (from the toolkit that submitted it: ALLER_JOB_LIB
# in its settings); it reads the job's globals (set, aller, job, key, mode, series, base,
# current, steperr, rc, ...) and sets module_error, loaded, topology and
# current.
# shellcheck shell=bash disable=SC2154,SC2034 # the job's globals, read and set

# The module command of Lmod or Environment Modules, from their init scripts
# when the job's shell has none (SBATCH_EXPORT=NONE, a non-login shell).
modules_init() {
	local f
	type module >/dev/null 2>&1 && return 0
	for f in "${LMOD_PKG:+$LMOD_PKG/init/bash}" "${MODULESHOME:+$MODULESHOME/init/bash}" \
		/usr/share/lmod/lmod/init/bash /etc/profile.d/lmod.sh /usr/share/modules/init/bash \
		/etc/profile.d/modules.sh; do
		# shellcheck disable=SC1090 # the site's
		[ -z "$f" ] || [ ! -r "$f" ] || . "$f"
		type module >/dev/null 2>&1 && return 0
	done
	return 1
}

# load_modules: module use, purge and load as the settings say; "" when
# they loaded (the loaded modules in $loaded), else why not in $module_error.
load_modules() {
	local d m errf
	set +eu   # the init scripts and the module command are not written for set -eu
	if ! modules_init; then
		module_error="no module command: neither Lmod nor Environment Modules is set up on ${SLURMD_NODENAME:-$(hostname)}"
	else
		for d in ${set[ALLER_MODULE_USE]//:/ }; do
			module use "$d"
		done
		[ "${set[ALLER_MODULES_PURGE]:-0}" != 1 ] || module purge
		errf=$(mktemp)
		for m in ${set[ALLER_MODULES]:-}; do
			module load "$m" 2>"$errf" && continue
			# Lmod's or Environment Modules' message, on one line
			module_error="module load $m failed: $(grep -v -e '^[[:space:]]*$' -e '^Lmod Warning' "$errf" |
				sed 's/^Lmod has detected the following error: *//' | head -n 2 | paste -sd' ' -)"
			break
		done
		rm -f "$errf"
		loaded=$(module -t list 2>&1 | grep -v -e '^Currently Loaded' -e ':$' -e '^No modules' \
			-e '^[[:space:]]*$' | paste -sd' ' -)
		if [ -z "$module_error" ] && ! command -v "$aller" >/dev/null; then
			module_error="module load ${set[ALLER_MODULES]:-}: no '$aller' on PATH after loading them"
		fi
	fi
	set -eu
}

# What Slurm knows of the network, once per job: its switches ('# topology:'
# lines, with a topology plugin) and the leaf switch of each of the job's
# nodes ('# node_switch: NODE SWITCH'), and the switch above each switch a
# nested switch lists ('# fabric: parent SWITCH ABOVE': the tree the bound
# follows up to the lowest common switch); nothing without a plugin. Where
# the campaign says LinkSpeed's unit (LINKSPEED_UNIT), each switch's
# LinkSpeed as its uplink's rate ('# fabric: uplink_linkspeed SWITCH RATE').
job_topology() {
	local sw mine line s nodes below n v unit=${set[ALLER_LINKSPEED_UNIT]:-}
	topology=""
	{ sw=$(scontrol show topology 2>/dev/null) && [[ $sw == *SwitchName=* ]]; } || return 0
	topology=$(printf '%s\n' "$sw" | grep -o 'SwitchName=.*' | sed 's/^/# topology: /')
	mine=" $(scontrol show hostnames "${SLURM_JOB_NODELIST:-}" 2>/dev/null | paste -sd' ') "
	while read -r line; do
		s=${line#*SwitchName=} s=${s%% *} nodes=${line##*Nodes=} below=${line##*Switches=}
		# a switch above switches: a tree of any depth
		[[ $line != *" Switches="* ]] || for n in $(scontrol show hostnames "${below%% *}" 2>/dev/null); do topology+=$'\n'"# fabric: parent $n $s"; done
		v=${line##*LinkSpeed=} v=${v%% *}
		[[ -z $unit || ! $v =~ ^[0-9]+(\.[0-9]+)?$ ]] || topology+=$'\n'"# fabric: uplink_linkspeed $s $v$unit"
		[[ $line == *" Level=0 "* && $line == *Nodes=* ]] || continue
		for n in $(scontrol show hostnames "${nodes%% *}" 2>/dev/null); do [[ $mine != *" $n "* ]] || topology+=$'\n'"# node_switch: $n $s"; done
	done <<<"$sw"
}

# Seconds the allocation has left, or a large number when Slurm cannot say.
time_left() {
	local left d=0 h=0 m=0 s=0
	left=$(squeue -h -j "$job" -o %L 2>/dev/null || true)
	if [[ $left =~ ^(([0-9]+)-)?(([0-9]+):)?([0-9]+):([0-9]+)$ ]]; then
		d=${BASH_REMATCH[2]:-0} h=${BASH_REMATCH[4]:-0} m=${BASH_REMATCH[5]} s=${BASH_REMATCH[6]}
		echo $(((10#$d * 24 + 10#$h) * 3600 + 10#$m * 60 + 10#$s))
	else
		echo 999999999
	fi
}

# The states of the allocation's nodes, e.g. "alloc alloc*" ('*': not responding).
node_states() {
	timeout 10 sinfo -h -n "${SLURM_JOB_NODELIST:-}" -o %T 2>/dev/null | paste -sd' ' -
}

# failing STATES: a node of them is down, failing or not responding.
failing() { [[ $1 =~ (\*|down|drain|fail|unk) ]]; }

# Whether another attempt can succeed: the job still runs, no node is
# failing (a node failure is not retried in the dying job).
healthy() {
	[ "$(squeue -h -j "$job" -o %T 2>/dev/null || echo RUNNING)" = RUNNING ] && ! failing "$(node_states)"
}

# A step worth another attempt: aller's system errors (3), a signal, or a
# launcher that failed before aller printed its header; never a usage error
# (2), a verification failure (1, after the header) or a data set whose
# set-up failed on every attempt alike ('# failed:', the others measured).
system_failure() {
	! grep -q '^# failed: ' "$current" || return 1
	[ "$1" -eq 3 ] || [ "$1" -ge 128 ] ||
		{ [ "$1" -ne 0 ] && [ "$1" -ne 2 ] && ! grep -q '^# aller: ' "$current"; }
}

# task_exit: when srun ended a step by a signal (rc >= 128) because one of
# its tasks ended by itself, the point ends as that task did, not as srun
# (the others, which srun then terminates, raise its code to 143): a code
# (srun's "task N: Exited with exit code C": a usage error (2) or a timeout
# (3) never reads as a crash or a scancel), or a signal ("task N: Killed",
# "Segmentation fault", ...: 128 + its number, SIGKILL never as SIGTERM).
task_exit() {
	local code
	[ "$rc" -ge 128 ] || return 0
	code=$(awk 'match($0, /^srun: error: .*: tasks? [0-9,-]+: /) { w = substr($0, RLENGTH + 1); sub(/ \(core dumped\)$/, "", w); gsub(/ /, "_", w)
		if (w ~ /^Exited_with_exit_code_[1-9][0-9]*$/) { sub(/.*_/, "", w); print w, "a_task_exited_with_" w; exit }
		n = split("Hangup Interrupt Quit Illegal_instruction Trace/breakpoint_trap Aborted Bus_error Floating_point_exception Killed - Segmentation_fault", s, " ")
		for (i = 1; i <= n; i++) if (s[i] == w) { print 128 + i, "a_task_was_killed_by_signal_" i "_(" w ")"; exit } }' "$steperr" | tr _ ' ')
	[ -n "$code" ] && [ "${code%% *}" != "$rc" ] || return 0
	echo "# step: ${code#* } and srun ended the others (exit $rc)" >>"$current"
	rc=${code%% *}
}

# point_begin: the point file created new (noclobber: never over an earlier
# one), room kept for its provenance and a reason where the file system can
# (fallocate --keep-size), then its provenance, whose size is kept.
# point_failed WHY: a write to it failed (a full RESULTS): what came after
# the provenance is cut off, which frees room, and the reason recorded as
# its '# job_error:' with exit 3, which collect and make status show.
point_begin() {
	(set -o noclobber && : >"$current") || return 1   # (its caller's || turns set -e off in here)
	fallocate -n -l 8192 "$current" 2>/dev/null || true
	kept=0
	provenance 2>/dev/null >>"$current" || { point_failed "cannot write the point file: a full RESULTS?"; return 1; }
	kept=$(stat -c %s "$current")
}
point_failed() {
	{ truncate -s "$kept" "$current" && printf '# job_error: %s\n# exit: 3\n' "$1" >>"$current"; } 2>/dev/null || true
	echo "aller.sbatch: error: $current: $1" >&2
}

# raw_file: the point file of this key and attempt, in current.
raw_file() {
	local name
	# shellcheck disable=SC2059 # the format is the campaign's (ALLER_RAW_NAME)
	printf -v name "$raw_name" "$campaign" "$key" "$sub" "$job" \
		"$([ "$restart" -gt 0 ] && echo "-r$restart")" "$attempt"
	current=$raw/$name
}

# The fabric under the job's nodes, when the site says how to ask
# (ALLER_FABRIC_INFO: a command that prints 'key value' lines for a node: its
# NIC, the NIC's rate, its switch, the faults in force; the local cluster's
# TaskProlog sets it): '# fabric:' lines, once each.
fabric_info() {
	local n
	[ -n "${ALLER_FABRIC_INFO:-}" ] || return 0
	for n in $(scontrol show hostnames "${SLURM_JOB_NODELIST:-}" 2>/dev/null); do
		# shellcheck disable=SC2086 # a command and its arguments
		timeout 10 $ALLER_FABRIC_INFO "$n" 2>/dev/null || true
	done | awk '!seen[$0]++ { print "# fabric: " $0 }'
}

# provenance: the point file's first lines: where, what and how it ran.
provenance() {
	printf '# %s: %s\n' campaign "$campaign" point "$key" point_nodes "$nodes" point_mode "$mode"
	[ -z "$series" ] || printf '# %s: %s\n' point_series "$series" point_base "$base"
	echo "# variant: $variant"
	[ -z "$assigns" ] || echo "# variant_env: $assigns"
	printf '# %s: %s\n' submission "$sub" job "$job" restart "$restart" attempt "$attempt" \
		job_nodes "${SLURM_JOB_NODELIST:-}" tasks "${SLURM_NTASKS:-} (${SLURM_NTASKS_PER_NODE:-} per node)" \
		partition "${SLURM_JOB_PARTITION:-}" account "${SLURM_JOB_ACCOUNT:-}" toolkit "${set[ALLER_TOOLKIT]:-unknown}"
	[ -n "$module_error" ] || echo "# aller_version: $("$aller" --version 2>&1 | head -n 1)"
	echo "# launcher: ${launcher[*]}"
	[ -z "$topology" ] || printf '%s\n' "$topology"
	fabric_info
	[ -z "${set[ALLER_MODULES]:-}" ] || echo "# modules: $loaded (asked: ${set[ALLER_MODULES]})"
	echo "# date: $(date -u +%FT%TZ)"
}
