# campaigns/pairs.sh: aller --pairs for drain.sh, undrain.sh and
# isolate.sh: the re-check of one node (recheck), and reading an output: the
# links aller judged slow and the nodes they are slow for (its
# '# slow_link:' lines: the one rule of a slow link, in
# aller/modes/linkmap.h). Sourced after sh/toolkit.sh.
# shellcheck shell=bash

# The re-checks' --slow-below: a node is slow when a link of it carries under
# half of its reference (the median of the links that avoid it). A campaign's
# --pairs names links below aller's 0.8; a re-check that takes a node out of
# service, or puts it back, asks for more than the noise.
# shellcheck disable=SC2034 # the scripts that source this use it
PAIRS_SLOW_BELOW=0.5

# pairs_read OUT DIR: aller's --pairs output OUT read by collect, the one
# reader of aller's outputs, into DIR (its facts.tsv: the slow_link and
# slow_links lines), which pairs_ran and pairs_slow read.
pairs_read() { "$(find_tool collect)" -q -o "$2" "$1" >/dev/null 2>&1 || true; }

# pairs_ran DIR: whether the --pairs output read into DIR judged its links.
pairs_ran() { table_select "$1/facts.tsv" key | grep -qx slow_links; }

# pairs_slow NODE DIR: of the --pairs output read into DIR, the slowest link
# that is slow for NODE: its GB/s, its reference and its hosts ("0.0024 0.11
# n4 -> n1"); nothing, and status 1, where none is. A slow_link fact reads
# "0 (n4) -> 1 (n1): 0.0024 GB/s, 0.02 of the median 0.11 GB/s; slow for: n4".
pairs_slow() {
	table_select "$2/facts.tsv" key value | awk -F'\t' -v n="$1" '$1 == "slow_link" {
		k = split($2, w, " "); s = w[2]; d = w[5]; gsub(/[():]/, "", s); gsub(/[():]/, "", d)
		for (i = 16; i <= k; i++) if (w[i] == n) { print w[6], w[12] + 0, s " -> " d; found = 1; exit }
	} END { exit !found }'
}

# outside_job CMD...: CMD without a job's SLURM_* variables (but SLURM_CONF):
# its srun makes a job of its own (within a job's, the pmix plugin of the new
# job's steps fails on the outer job's variables); it execs CMD: run it in
# the background or a subshell
outside_job() {
	local u=() v
	for v in $(compgen -e SLURM_ || true); do [ "$v" = SLURM_CONF ] || u+=(-u "$v"); done
	exec env "${u[@]}" "$@"
}
# The re-check's state changes complete or roll back on every way out, a
# signal too (recheck_traps): its reservation (RESERVED) is deleted, its job
# (RECHECK_JOB) ended, and a node it resumed (RESUMED) that the caller has
# not yet settled (resumed for good, or drained again: the caller empties
# RESUMED) is drained again, each said in a line.
RESERVED="" RESUMED="" RECHECK_JOB=""
recheck_end() {
	[ -z "$RECHECK_JOB" ] || { kill "$RECHECK_JOB" && wait "$RECHECK_JOB"; } 2>/dev/null || true
	[ -z "$RESERVED" ] || scontrol delete reservationname="$RESERVED" >/dev/null 2>&1 || true
	RESERVED="" RECHECK_JOB=""
}
recheck_abort() {
	local n=${RESUMED:-${RESERVED#aller-recheck-}} did="nothing changed (its reservation removed)"
	recheck_end
	[ -z "$RESUMED" ] || did=$(scontrol update nodename="$RESUMED" state=drain reason="aller: its re-check was interrupted" &&
		echo "rolled back: left drained" || echo "left resumed: scontrol could not drain it again")
	[ -z "$n" ] || echo "$TOOL: $n: its re-check was interrupted: $did"
}
# recheck_traps: recheck_abort on every way out (a signal ends the script through EXIT)
recheck_traps() { trap recheck_abort EXIT && trap 'exit 130' INT && trap 'exit 143' TERM; }
# recheck NODE: a second measurement of NODE: a reservation of it and two
# idle nodes (slurm_nodes idle: nothing else starts there), NODE resumed
# inside it when drained (RESUMED=NODE), and a short aller --pairs between
# the three as a job of its own (outside any allocation this runs in; in the
# background, so that a signal ends it at once). Status 0 clean, 1 slow
# (WHY: its slowest link), 3 it could not run (WHY: why); PEERS the two others.
recheck() {
	local n=$1 out worst median link
	out=$(mktemp -d)
	PEERS=$(slurm_nodes idle | grep -vx "$n" | head -n 2 | paste -sd,)
	[[ $PEERS == *,* ]] || { WHY="not two idle nodes to check $n against"; return 3; }
	RESERVED=aller-recheck-$n
	scontrol create reservation reservationname="$RESERVED" nodes="$n,$PEERS" starttime=now duration=10 \
		users="$(id -un)" flags=ignore_jobs >/dev/null || { RESERVED=""; WHY="cannot reserve $n and $PEERS"; return 3; }
	[[ $(slurm_nodes all -n "$n" | cut -f2) != drain* ]] || { RESUMED=$n && scontrol update nodename="$n" state=resume; }
	outside_job timeout 120 srun --reservation="$RESERVED" -N3 -n3 -w "$n,$PEERS" \
		"$(find_tool aller)" --pairs=1M --slow-below="$PAIRS_SLOW_BELOW" 0 3 >"$out/pairs.out" 2>/dev/null &
	wait "${RECHECK_JOB:=$!}" || true
	RECHECK_JOB="" && recheck_end
	pairs_read "$out/pairs.out" "$out/m"
	if ! pairs_ran "$out/m"; then
		WHY="the re-check against $PEERS did not run" worst=3
	elif read -r worst median link < <(pairs_slow "$n" "$out/m"); then
		WHY="its link $link carries $worst GB/s, the others $median (a re-check against $PEERS)" worst=1
	else
		WHY="no link of it under $PAIRS_SLOW_BELOW x the links that avoid it (a re-check against $PEERS)" worst=0
	fi
	rm -rf "$out"
	return "$worst"
}
