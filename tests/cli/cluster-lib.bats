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
