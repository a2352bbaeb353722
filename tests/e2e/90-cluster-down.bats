#!/usr/bin/env bats
# The local cluster's restart after a crash, and its shutdown. Runs last.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers
load ../lib/cluster

setup_file() {
	cluster_up
}

@test "cluster-up after a crashed slurmctld cleans the stale state and starts again" {
	run_dir=$ROOT/build/cluster/run
	kill -9 "$(cat "$run_dir/slurmctld.pid")"
	sleep 0.5
	run -1 bash "$ROOT/cluster/status.sh" -q
	run -0 bash "$ROOT/cluster/up.sh"
	[[ $output == *"cluster: up: 4 nodes"* ]]
	run -0 bash "$ROOT/cluster/status.sh"
	[[ $output == *"slurmctld    running"* ]]
}

@test "cluster-down stops every process it started and leaves no namespace behind" {
	run_dir=$ROOT/build/cluster/run
	pids=$(cat "$run_dir"/*.pid)
	namespaces=$(cat "$run_dir"/*.mntns)
	[ -n "$pids" ]
	[ -n "$namespaces" ]
	run -0 make -C "$ROOT" --no-print-directory cluster-down
	for p in $pids; do
		# a zombie (ended, not yet reaped by init) does not run
		if kill -0 "$p" 2>/dev/null && [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" != Z ]; then
			echo "process $p still runs"
			return 1
		fi
	done
	for p in /proc/[0-9]*; do
		ns=$(readlink "$p/ns/mnt" 2>/dev/null) || continue
		for n in $namespaces; do
			if [ "$ns" = "$n" ]; then
				echo "process ${p#/proc/} still in namespace $n"
				return 1
			fi
		done
	done
	run -1 bash "$ROOT/cluster/status.sh" -q
}
