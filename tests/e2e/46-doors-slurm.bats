#!/usr/bin/env bats
# The doors of issue 77 on the local cluster (two rails, for fabric.sh show):
# the nodes a re-check picks (sh/toolkit.sh's slurm_nodes: never a node an
# administrator drained), a re-check's resume that a signal rolls back,
# cluster-up over a running cluster (other settings refused, one start of a
# tree at a time, its drained nodes said) and show of a cut node's NICs.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers
load ../lib/cluster

setup_file() {
	export CLUSTER_RAILS=2
	cluster_up
}

setup() {
	fabric_setup
	# shellcheck source=sh/toolkit.sh
	. "$ROOT/sh/toolkit.sh"
}

teardown() {
	[ -z "${holder:-}" ] || exec 9>&-
	fabric_heal
	scontrol update nodename='n[1-4]' state=resume 2>/dev/null || true
	wait_idle 4
}

no_recheck_left() { ! scontrol -o show reservation 2>/dev/null | grep -q aller-recheck; }
state_of() { slurm_nodes all -n "$1" | cut -f2,3; }
recheck_runs() { [ -n "$(squeue -h -R aller-recheck-n1 -t R 2>/dev/null)" ]; }
ended() { ! kill -0 "$1" 2>/dev/null; }

@test "undrain re-checks against idle nodes, never one an administrator drained (IDLE+DRAIN)" {
	scontrol update nodename=n1 state=drain reason="aller: a test's"
	scontrol update nodename=n2 state=drain reason="admin: bad DIMM"
	run bash "$ROOT/campaigns/undrain.sh" HOSTS=n1
	# the re-check ran against n3 and n4 (its verdict is the fabric's: a busy machine may slow a link)
	[[ ($status = 0 && $output == "undrain: n1: clean against n3,n4: resumed") ||
		($status = 1 && $output == "undrain: n1: drained again: still slow after a re-check: "*"(a re-check against n3,n4)") ]]
	[ "$(state_of n2)" = "$(printf 'drained\tadmin: bad DIMM')" ]
	no_recheck_left
}

@test "a SIGTERM during undrain's re-check leaves the node drained (rolled back), said in a line" {
	run -0 bash "$FABRIC" slow-nic n1 1mbit   # the re-check runs for as long as the test wants
	scontrol update nodename=n1 state=drain reason="aller: a test's"
	bash "$ROOT/campaigns/undrain.sh" HOSTS=n1 >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	SAW="squeue" wait_for "the re-check's job to run" 60 recheck_runs
	kill -TERM "$pid"
	# (its re-check's srun ends its job step first: over 30 s once in a quiet CI run of four lanes)
	SAW="ps $pid" wait_for "undrain to end on SIGTERM" 120 ended "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 143 ]
	[ "$(cat "$BATS_TEST_TMPDIR/out")" = "undrain: n1: its re-check was interrupted: rolled back: left drained" ]
	[[ $(state_of n1) == drain*"	aller: its re-check was interrupted" ]]
	no_recheck_left
}

@test "cluster-up with other settings over the running cluster refuses in one line and leaves it and its jobs" {
	before=$(cat "$CLUSTER_DIR/run/slurmctld.pid")
	id=$(sbatch --parsable -N1 --wrap 'sleep 300')
	run --separate-stderr -1 env CLUSTER_NODES=3 bash "$ROOT/cluster/up.sh"
	scancel "$id"
	[[ $stderr == "cluster: error: the cluster of $CLUSTER_DIR is up with other settings (nodes=4 "*"), not these (nodes=3 "*"): left as it is; 'make cluster-down' first to start it with these" ]]
	[ "${#stderr_lines[@]}" = 1 ]
	[ "$(cat "$CLUSTER_DIR/run/slurmctld.pid")" = "$before" ]
	bash "$ROOT/cluster/status.sh" -q
}

@test "a cluster-up waits while another start of its tree, or of its port in another tree, holds the lock" {
	holder=1
	exec 9>>"$CLUSTER_DIR/lock"
	flock 9
	run -124 timeout 3 bash "$ROOT/cluster/up.sh"
	exec 9>&-
	exec 9>>"/run/lock/aller-$(sed -n 's/.* port=\([0-9]*\) .*/\1/p' "$CLUSTER_DIR/run/settings").lock"
	flock 9
	CLUSTER_DIR=$BATS_TEST_TMPDIR/other run -124 timeout 3 bash "$ROOT/cluster/up.sh"
	[ ! -e "$BATS_TEST_TMPDIR/other/run" ]
	exec 9>&-
	holder=""
	run -0 bash "$ROOT/cluster/up.sh"
	[[ $output == *"already up"* ]]
}

@test "cluster-up and cluster-status over a running cluster say the node an administrator drained, with its reason" {
	scontrol update nodename=n3 state=drain reason="admin: bad DIMM"
	run --separate-stderr -0 bash "$ROOT/cluster/up.sh"
	[[ $stderr == "cluster: already up ("*")"$'\n'"cluster: n3: drained (admin: bad DIMM): Slurm starts no job there" ]]
	run -0 bash "$ROOT/cluster/status.sh"
	[[ $output == *$'\n'"n3           drained (admin: bad DIMM): Slurm starts no job there"* ]]
}

@test "fabric.sh show on rails: a cut node's every NIC down, and a node's faults on each of its NICs" {
	run -0 bash "$FABRIC" link-down n3
	run -0 bash "$FABRIC" slow-nic n2 50mbit
	run -0 bash "$FABRIC" show
	grep -Eqx 'nic +n3:eth0 +leaf2 +1gbit +down +link-down n3' <<<"$output"
	grep -Eqx 'nic +n3:eth1 +leaf4 +1gbit +down +link-down n3' <<<"$output"
	grep -Eqx 'nic +n2:eth1 +leaf3 +50mbit +up +slow-nic n2 50mbit' <<<"$output"
	grep -Eqx 'nic +n1:eth1 +leaf3 +1gbit +up +' <<<"$output"
}
