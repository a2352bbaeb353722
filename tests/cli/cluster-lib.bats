#!/usr/bin/env bats
# cluster/lib.sh's helpers without a cluster: stop_pid ends what a pid file
# of the cluster names and waits on the process itself.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

setup() {
	export CLUSTER_DIR=$BATS_TEST_TMPDIR/c
	mkdir -p "$CLUSTER_DIR/run" "$BATS_TEST_TMPDIR/bin"
	# a daemon as slurmctld stops: its pid file goes first, the process some time after
	cat >"$BATS_TEST_TMPDIR/bin/slurmctld" <<-'EOF'
		#!/bin/bash
		trap 'rm -f "$1"; sleep 2; exit 0' TERM
		echo $$ >"$1"
		while :; do sleep 0.1; done
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/slurmctld"
}

teardown() {
	[ -z "${pid:-}" ] || { kill -9 "$pid" && wait "$pid"; } 2>/dev/null || true
}

# start_fake NAME: the fake daemon as NAME, its pid in $pid once its file is written
start_fake() {
	pidfile=$CLUSTER_DIR/run/$1.pid
	"$BATS_TEST_TMPDIR/bin/$1" "$pidfile" </dev/null >/dev/null 2>&1 3>&- &
	pid=$!
	for _ in $(seq 50); do [ -s "$pidfile" ] && return 0; sleep 0.1; done
	return 1
}

@test "stop_pid waits for the process, not for its pid file, which a daemon removes as it begins to stop" {
	start_fake slurmctld
	run -0 bash -c '. "$1/cluster/lib.sh"; stop_pid "$2"' stop "$ROOT" "$pidfile"
	# ended (a zombie of this shell at most), and its file gone
	[ ! -e "$pidfile" ]
	[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null || echo gone)" != S ]
	run bash -c '. "$1/cluster/lib.sh"; gone "$2"' gone "$ROOT" "$pid"
	[ "$status" -eq 0 ]
}

@test "stop_pid leaves alone a process that is not the daemon its file names (a reused pid), and drops the stale file" {
	start_fake slurmctld
	cp "$pidfile" "$CLUSTER_DIR/run/munged.pid"   # munged.pid naming a slurmctld
	run -0 bash -c '. "$1/cluster/lib.sh"; stop_pid "$2"' stop "$ROOT" "$CLUSTER_DIR/run/munged.pid"
	[ ! -e "$CLUSTER_DIR/run/munged.pid" ]
	kill -0 "$pid"
}

@test "stop_pid fails, naming the pid, when the process outlives TERM and KILL" {
	start_fake slurmctld
	# a process KILL cannot end at once is one in uninterruptible sleep; here, one
	# stopped and traced would do, so the test takes the kill away instead
	run -1 bash -c '. "$1/cluster/lib.sh"; kill() { :; }; STOP_WAIT=1 stop_pid "$2"' stop "$ROOT" "$pidfile"
	[ "$output" = "cluster: error: slurmctld (pid $pid of $pidfile) still runs after TERM and KILL" ]
	[ -e "$pidfile" ]
}

@test "the fabric's plan (cluster/plan.c): a tree of 1 to 3 tiers, each uplink what is under it over its tier's factor; topology.conf of the same tree; a bad setting one line, exit 2" {
	plan=$ROOT/build/bin/cluster-plan
	# today's default: 4 nodes, two leaves under a spine, 2:1
	run -0 "$plan" 4 2 0 1 1000000 2
	[ "${lines[0]}" = "$(printf 'link\tfrom\tto\trate_kbit\tdev\tport\taddress')" ]
	[[ $output == *$'nic\tn3\tleaf2\t1000000\teth0\tn3\t10.0.0.3'* && $output == *$'uplink\tleaf2\tspine\t1000000'* ]]
	# two rails, one leaf each: every node's eth1 on leaf2, at 10.0.1.N, its switch port n1-eth1;
	# Slurm's topology puts each node under rail 0's leaf
	run -0 "$plan" 4 2 1 2 100000 1
	[ "$(grep -c $'^nic\t' <<<"$output")" = 8 ]
	[[ $output == *$'nic\tn1:eth0\tleaf1\t100000\teth0\tn1\t10.0.0.1'* && $output == *$'nic\tn4:eth1\tleaf2\t100000\teth1\tn4-eth1\t10.0.1.4'* ]]
	[[ $output == *$'uplink\tleaf1\tspine\t400000'* && $output == *$'uplink\tleaf2\tspine\t400000'* ]]
	run -0 "$plan" -t 4 2 1 2 100000 1
	[ "$(sed 1d <<<"$output")" = "$(printf 'SwitchName=leaf1 Nodes=n[1-4]\nSwitchName=spine Switches=leaf1')" ]
	run -2 "$plan" 4 3 0 2 100000 1
	[ "$output" = "CLUSTER_RAILS '2' must be a number from 1 to 4, and more than 1 only with CLUSTER_TIERS=2 (the rails' leaves under one spine)" ]
	run -2 "$plan" 4 2 0 5 100000 1
	[ "$output" = "CLUSTER_RAILS '5' must be a number from 1 to 4" ]
	# three tiers, 8 nodes: 4 leaves of 2 nodes, 2 aggregation switches of 2 leaves, a core;
	# 1:1 above the nodes (200 Mbit/s a leaf), 2:1 above the leaves (400 / 2)
	run -0 "$plan" 8 3 0 1 100000 1 2
	[ "$(grep -c $'^nic\t' <<<"$output")" = 8 ]
	[[ $output == *$'nic\tn5\tleaf3\t100000'* && $output == *$'uplink\tleaf3\tagg2\t200000'* ]]
	[[ $output == *$'uplink\tagg1\tcore\t200000'* && $output == *$'uplink\tagg2\tcore\t200000'* ]]
	run -0 "$plan" -t 8 3 0 1 100000 1 2
	[ "$(sed 1d <<<"$output")" = "$(printf 'SwitchName=leaf1 Nodes=n[1-2]\nSwitchName=leaf2 Nodes=n[3-4]\nSwitchName=leaf3 Nodes=n[5-6]\nSwitchName=leaf4 Nodes=n[7-8]\nSwitchName=agg1 Switches=leaf[1-2]\nSwitchName=agg2 Switches=leaf[3-4]\nSwitchName=core Switches=agg[1-2]')" ]
	# one node, one tier: one switch, no uplink
	run -0 "$plan" 1 2 0 1 1000000 2
	[ "$(grep -c $'^uplink' <<<"$output")" = 0 ]
	run -0 "$plan" 4 1 0 1 1000000 2
	[ "$(grep -c $'^uplink' <<<"$output")" = 0 ]
	run -2 "$plan" 4 4 0 1 1000000 2
	[ "$output" = "CLUSTER_TIERS '4' must be 1, 2 or 3" ]
	run -2 "$plan" 4 2 0 1 1000000 2 2
	[ "$output" = "CLUSTER_OVERSUB has 2 factors: a fabric of 2 tiers has 1 boundary" ]
	run -2 "$plan" 4 2 5 1 1000000 2
	[ "$output" = "CLUSTER_LEAVES '5' must be a number from 1 to CLUSTER_NODES (4): every leaf needs a node" ]
	run -2 "$plan" 8 3 0 1 1000000 1 0.5
	[ "$output" = "CLUSTER_OVERSUB '0.5' must be a number from 1 to 64 per tier boundary" ]
}
