#!/usr/bin/env bats
# The doors of issue 77 that need no cluster: the nodes a script picks from
# Slurm (sh/toolkit.sh's slurm_nodes, by sinfo's full state: a fake sinfo
# answers as Slurm 22.05 does, whose '-t idle' lists IDLE+DRAIN nodes too),
# the sites that would go around it, and what ended a task (srun's "task 1:
# Killed" as SIGKILL, never SIGTERM; the retried finding then a warning).
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

# A fake Slurm: sinfo answers from nodes.tsv (name, full state %T, short
# state %t, partition, reason) for -N -h -n -p -t -o as 22.05 does ('-t idle'
# is every node whose base state is idle: drained ones too); scontrol and
# srun log their arguments in called.
setup() {
	cd "$BATS_TEST_TMPDIR" || return
	mkdir bin
	{
		printf 'n1\tidle\tidle\tdebug*\tnone\nn2\tdrained\tdrain\tdebug*\tadmin: bad DIMM\nn3\tidle\tidle\tdebug*\tnone\n'
		printf 'n4\tidle\tidle\tdebug*\tnone\nn5\tdraining\tdrng\tdebug*\tadmin\nn6\tdown*\tdown*\tdebug*\tNot responding\n'
		printf 'n7\tidle*\tidle*\tdebug*\tnone\nn8\treserved\tresv\tdebug*\tnone\nn9\tcompleting\tcomp\tdebug*\tnone\n'
		printf 'n10\tmixed\tmix\tdebug*\tnone\nn10\tmixed\tmix\tlong\tnone\n'
	} >nodes.tsv
	cat >bin/sinfo <<-EOF
		#!/usr/bin/env bash
		n="" p="" t="" o=""
		while [ \$# -gt 0 ]; do
			case \$1 in -n) n=\$2; shift ;; -p) p=\$2; shift ;; -t) t=\$2; shift ;; -o) o=\$2; shift ;; esac
			shift
		done
		while IFS=\$'\\t' read -r N T s P E; do
			[ -z "\$n" ] || [ "\$n" = "\$N" ] || continue
			[ -z "\$p" ] || [ "\$p" = "\${P%\\*}" ] || continue
			case \$t in idle) [[ \$T =~ ^(idle|drained) ]] || continue ;; drain) [[ \$T == drain* ]] || continue ;; esac
			f=\${o//%N/\$N}; f=\${f//%T/\$T}; f=\${f//%t/\$s}; f=\${f//%P/\$P}; f=\${f//%E/\$E}
			printf '%s\\n' "\$f"
		done <$PWD/nodes.tsv
	EOF
	for t in scontrol srun; do
		printf '#!/bin/sh\n[ "$1 $2" != "show hostnames" ] || { echo "$3"; exit 0; }\necho "%s $*" >>%s/called\n' "$t" "$PWD" >"bin/$t"
	done
	chmod +x bin/*
	export PATH=$PWD/bin:$PATH
}

@test "slurm_nodes idle is the nodes exactly idle: not drained, draining, down, reserved, completing or not responding" {
	. "$ROOT/sh/toolkit.sh"
	run -0 slurm_nodes idle
	[ "$output" = "$(printf 'n1\nn3\nn4')" ]
	run -0 slurm_nodes usable
	[ "$output" = "$(printf 'n1\nn3\nn4\nn10')" ]
	run -0 slurm_nodes all -n n2
	[ "$output" = "$(printf 'n2\tdrained\tadmin: bad DIMM')" ]
	run -0 slurm_nodes partitions -n n10
	[ "$output" = "$(printf 'debug\nlong')" ]
	# what Slurm 22.05's '-t idle' answers: the administrator's drained n2 among them
	[[ $(sinfo -h -N -t idle -o %N | paste -sd,) == n1,n2,n3,* ]]
}

@test "the re-check takes as peers two idle nodes, never one an administrator drained" {
	. "$ROOT/sh/toolkit.sh"
	. "$ROOT/campaigns/pairs.sh"
	run -3 recheck n1
	[[ $output == "" ]]
	grep -q 'scontrol create reservation reservationname=aller-recheck-n1 nodes=n1,n3,n4 ' called
	grep -q 'srun --reservation=aller-recheck-n1 -N3 -n3 -w n1,n3,n4 ' called
	# undrain of an aller-drained node: its peers are n3 and n4, not the admin's n2
	sed -i 's/^n1\tidle\tidle\tdebug\*\tnone$/n1\tdrained\tdrain\tdebug*\taller: a test/' nodes.tsv
	: >called
	run -3 bash "$ROOT/campaigns/undrain.sh" HOSTS=n1
	[[ $output == "undrain: n1: drained again: the re-check against n3,n4 did not run" ]]
	grep -q 'nodes=n1,n3,n4 ' called
	grep -qx 'scontrol update nodename=n1 state=resume' called
}

@test "drain counts as others of a partition only nodes that could run a job, and names the state it leaves alone" {
	mkdir -p c/merged
	printf 'kind\tname\tevidence\tsince\tcampaign\tpoint\nhost\tn2\tslow\t\tc\t1\nhost\tn5\tslow\t\tc\t1\n' >c/merged/suspects.tsv
	run -0 bash "$ROOT/campaigns/drain.sh" c 5
	[ "$output" = "$(printf 'drain: n2: already drained\ndrain: n5: already draining')" ]
	# the last usable node of partition long (n10; the other nodes of long: none)
	printf 'n11\tdrained\tdrain\tlong\tadmin\n' >>nodes.tsv
	printf 'host\tn10\tslow\t\tc\t1\n' >>c/merged/suspects.tsv
	run -0 bash "$ROOT/campaigns/drain.sh" c 5
	[[ $output == *"drain: n10: left in service: the last node of partition long that can run jobs" ]]
}

@test "every site that asks Slurm for nodes goes through slurm_nodes; none asks 'sinfo -t idle'" {
	# the toolkit's scripts: sinfo only in the door, and in the job's own
	# health check of its nodes (jobs/job-lib.sh's node_states: on a node, the toolkit not sourced)
	cd "$ROOT"
	door='^sh/toolkit.sh:[0-9]*:	sinfo -h -N "${@:2}" -o '
	job_site='^jobs/job-lib.sh:[0-9]*:	timeout 10 sinfo -h -n "${SLURM_JOB_NODELIST:-}" -o %T '
	run bash -c 'grep -rnE "^[^#]*(\bsinfo\b|scontrol[^|#]*show +nodes?\b)" campaigns sh jobs tools bench plots reframe packaging |
		grep -v -e "$0" -e "$1"' "$door" "$job_site"
	[ -z "$output" ] || { echo "around the door: $output"; return 1; }
	# nowhere (the cluster's scripts and the tests too) a state filter of sinfo's
	run bash -c "grep -rnE '^[^#]*sinfo[^|#]*(-t ?[a-z]|--states)' campaigns sh jobs tools bench plots reframe cluster tests/lib tests/e2e 2>/dev/null |
		grep -v 'tests/e2e/[0-9a-z-]*.bats:[0-9]*:.*-t drain -o %N'"
	[ -z "$output" ] || { echo "a state filter: $output"; return 1; }
	# the door itself filters on the full state
	grep -qF "sinfo -h -N \"\${@:2}\" -o '%N|%T|%P|%E'" sh/toolkit.sh
}

@test "a task killed by a signal ends its point as that signal: SIGKILL, not srun's SIGTERM" {
	. "$ROOT/jobs/job-lib.sh"
	steperr=$PWD/err current=$PWD/point.out
	printf 'srun: error: n2: task 1: Killed\nsrun: error: n1: tasks 0,2-3: Terminated\n' >err
	rc=143
	task_exit
	[ "$rc" = 137 ]
	grep -qx '# step: a task was killed by signal 9 (Killed) and srun ended the others (exit 143)' point.out
	printf 'srun: error: n3: task 2: Segmentation fault (core dumped)\nsrun: error: n1: task 0: Terminated\n' >err
	rc=143
	task_exit
	[ "$rc" = 139 ]
	# the others' Terminated alone: srun's code stands; a task's own exit code as before
	printf 'srun: error: n1: task 0: Terminated\n' >err
	rc=143
	task_exit
	[ "$rc" = 143 ]
	printf 'srun: error: n2: task 1: Exited with exit code 3\n' >err
	rc=143
	task_exit
	[ "$rc" = 3 ]
}

@test "an attempt killed by SIGKILL and retried: the retried finding is a warning (a crash a retry hid)" {
	mkdir raw
	printf '# campaign: smoke\n# point_nodes: 4\n# point_mode: strided\n# job: 21\n# restart: 0\n# attempt: 1\n# exit: 137\n' \
		>raw/s-a01.out
	sed 's/^# restart: 0$/# restart: 0\n# attempt: 2/' "$ROOT/tests/data/smoke/raw/smoke-n4-strided-21.out" >raw/s-a02.out
	cp "$ROOT/tests/data/smoke/raw/smoke-n4-contiguous-21.out" raw/
	run -1 "$COLLECT" -q -o out raw
	grep -qx "1	retried	attempt 1: incomplete: ended by SIGKILL" out/facts.tsv
	run -0 awk -F'\t' '$2 == "retried" { print $1 "|" $3 }' out/findings.tsv
	[ "$output" = "warning|On 4 nodes (strided): its job needed 2 attempts (the point is complete); attempt 1: incomplete: ended by SIGKILL." ]
}

# recheck_running: the fake srun of a re-check has started
recheck_running() { grep -q '^srun ' called 2>/dev/null; }
ended() { ! kill -0 "$1" 2>/dev/null; }

@test "a re-check stopped by SIGTERM rolls back what it changed and says so: undrain's node drained again, drain's left alone" {
	printf '#!/bin/sh\necho "srun $*" >>%s/called\nexec sleep 60\n' "$PWD" >bin/srun
	sed -i 's/^n1\tidle\tidle\tdebug\*\tnone$/n1\tdrained\tdrain\tdebug*\taller: a test/' nodes.tsv
	bash "$ROOT/campaigns/undrain.sh" HOSTS=n1 >out 2>&1 3>&- &
	pid=$!
	wait_for "undrain's re-check to run" 20 recheck_running
	kill -TERM "$pid"
	wait_for "undrain to end" 20 ended "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 143 ]
	[ "$(cat out)" = "undrain: n1: its re-check was interrupted: rolled back: left drained" ]
	grep -qx 'scontrol update nodename=n1 state=resume' called
	[ "$(tail -n 2 called)" = "$(printf '%s\n' 'scontrol delete reservationname=aller-recheck-n1' \
		'scontrol update nodename=n1 state=drain reason=aller: its re-check was interrupted')" ]
	# drain's re-check of a node in service: nothing to roll back but the reservation
	: >called
	sed -i 's/^n1\tdrained\tdrain\tdebug\*\taller: a test$/n1\tidle\tidle\tdebug*\tnone/' nodes.tsv
	mkdir -p c/merged
	printf 'kind\tname\tevidence\tsince\tcampaign\tpoint\nhost\tn3\tslow\t\tc\t1\n' >c/merged/suspects.tsv
	bash "$ROOT/campaigns/drain.sh" c 1 >out 2>&1 3>&- &
	pid=$!
	wait_for "drain's re-check to run" 20 recheck_running
	kill -TERM "$pid"   # (a background job here ignores SIGINT, as bash starts it)
	wait_for "drain to end" 20 ended "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 143 ]
	[ "$(cat out)" = "drain: n3: its re-check was interrupted: nothing changed (its reservation removed)" ]
	[ "$(tail -n 1 called)" = "scontrol delete reservationname=aller-recheck-n3" ]
	run ! grep -q 'state=drain' called
}
