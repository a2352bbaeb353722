#!/usr/bin/env bats
# The local cluster's restart after a crash, and its shutdown. Runs last.
# shellcheck disable=SC2154,SC2016,SC2030,SC2031 # bats sets output and stderr; single quotes are meant; each test exports its own cluster settings

load ../lib/helpers
load ../lib/cluster

setup_file() {
	cluster_up
}

@test "cluster-up after a crashed slurmctld cleans the stale state and starts again" {
	run_dir=$CLUSTER_DIR/run
	kill -9 "$(cat "$run_dir/slurmctld.pid")"
	sleep 0.5
	run -1 bash "$ROOT/cluster/status.sh" -q
	run -0 bash "$ROOT/cluster/up.sh"
	[[ $output == *"cluster: up: 4 nodes"* ]]
	run -0 bash "$ROOT/cluster/status.sh"
	[[ $output == *"slurmctld    running"* ]]
}

@test "another clone's cluster-down or fabric.sh on this cluster's port touches none of it: only what it made" {
	[ -s "$CLUSTER_DIR/fabric/links" ] || skip "the cluster runs without the fabric (CLUSTER_FABRIC=lo)"
	port=$(sed -n 's/.* port=\([0-9]*\) .*/\1/p' "$CLUSTER_DIR/run/settings")
	# the namespaces of these two ports (the other lane's cluster comes and goes)
	ns_of() { ip netns list | awk -v a="aller$port-" '$1 ~ /^aller17900-/ || index($1, a) == 1 { print $1 }' | sort; }
	before=$(ns_of)
	# a clone whose cluster ran on another port and stopped badly: its state, its list of namespaces
	b=$BATS_TEST_TMPDIR/b
	mkdir -p "$b/run" "$b/fabric"
	echo "nodes=4 cpus=2 gpus=2 port=17900 accounting=0 fabric=veth leaves=2" >"$b/run/settings"
	printf 'aller17900-sw\naller17900-n1\n' >"$b/fabric/namespaces"
	printf 'link\tfrom\tto\trate_kbit\nnic\tn1\tleaf1\t1000000\n' >"$b/fabric/links"
	run -0 env CLUSTER_DIR="$b" CLUSTER_PORT="$port" bash "$ROOT/cluster/down.sh"
	[ "$(ns_of)" = "$before" ]
	run -0 bash "$ROOT/cluster/status.sh" -q
	# a clone with a fabric's files but none of this port's namespaces: refused, nothing shaped
	mkdir -p "$b/fabric"
	printf 'link\tfrom\tto\trate_kbit\nnic\tn1\tleaf1\t1000000\n' >"$b/fabric/links"
	echo "nodes=4 cpus=2 gpus=2 port=$port accounting=0 fabric=veth leaves=2" >"$b/run/settings"
	run --separate-stderr -1 env CLUSTER_DIR="$b" bash "$ROOT/cluster/fabric.sh" slow-nic n1 1mbit
	[ "$stderr" = "fabric: error: the namespaces of port $port are not this cluster's ($b made none of them): not touched" ]
	run -0 nsenter --net="/run/netns/aller$port-sw" tc class show dev n1
	[[ $output != *"1Mbit"* ]]
}

@test "cluster-down stops every process it started and leaves no namespace behind" {
	run_dir=$CLUSTER_DIR/run
	# each by its pid and start time (stat's 22nd field): a pid the kernel gave since to
	# another process is not one cluster-down left running
	pids=$(cat "$run_dir"/*.pid | while read -r p; do echo "$p:$(awk '{ print $22 }' "/proc/$p/stat" 2>/dev/null)"; done)
	namespaces=$(cat "$run_dir"/*.mntns)
	[ -n "$pids" ]
	[ -n "$namespaces" ]
	run -0 make -C "$ROOT" --no-print-directory cluster-down
	for ps in $pids; do
		p=${ps%%:*}
		# a zombie (ended, not yet reaped by init) does not run
		if kill -0 "$p" 2>/dev/null && [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" != Z ] &&
			[ "$(awk '{ print $22 }' "/proc/$p/stat" 2>/dev/null)" = "${ps#*:}" ]; then
			echo "process $p ($(cat "/proc/$p/comm" 2>/dev/null)) still runs"
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

# (after cluster-down: no fabric is up)
@test "fabric.sh: a bad command or value is exit 2 with no fabric up too, and touches nothing" {
	for a in "bogus" "slow-nic n1" "slow-nic nx 1gbit" "loss n1 200" "heal x" "slow-link n1 n1 1gbit" "info a b"; do
		# shellcheck disable=SC2086 # the arguments, split
		run --separate-stderr -2 bash "$ROOT/cluster/fabric.sh" $a
		[[ $stderr == "fabric: error: "* ]] || { echo "$a: $stderr"; return 1; }
	done
	run --separate-stderr -1 bash "$ROOT/cluster/fabric.sh" slow-nic n1 1gbit
	[[ $stderr == *"no fabric is up"* ]]
}

# The namespaces of the cluster under test (CLUSTER_PORT's: made and removed
# by these tests; the other lane's cluster comes and goes) and the links of
# this machine's own namespace.
net_now() { { ip netns list | awk -v a="aller$CLUSTER_PORT-" 'index($1, a) == 1'; ip -o link; } | awk '{ print $1, $2 }' | sort; }

@test "cluster-down leaves no namespace, link, bridge or qdisc of the fabric; nor does a start that failed half-way" {
	export CLUSTER_DIR=$BATS_TEST_TMPDIR/c2 CLUSTER_PORT=17300 CLUSTER_NODES=2 CLUSTER_ACCOUNTING=0
	before=$(net_now)
	run -0 bash "$ROOT/cluster/up.sh"
	[[ $(ip netns list) == *"aller17300-n2"* ]]
	run -0 nsenter --net=/run/netns/aller17300-sw tc qdisc show dev n1
	[[ $output == *"htb"* ]]
	run -0 bash "$ROOT/cluster/down.sh"
	[ "$(net_now)" = "$before" ]
	# slurmctld that fails to start: up.sh stops, after the fabric was built
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "fake slurmctld: no" >&2\nexit 1\n' >"$BATS_TEST_TMPDIR/bin/slurmctld"
	chmod +x "$BATS_TEST_TMPDIR/bin/slurmctld"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run -1 bash "$ROOT/cluster/up.sh"
	[[ $output == *"cluster: error: slurmctld did not start"* ]]
	[ "$(net_now)" = "$before" ]
	[ ! -e "$CLUSTER_DIR/bin" ]
}

@test "cluster-up refuses in one line where the fabric cannot be built, naming CLUSTER_FABRIC=lo" {
	export CLUSTER_DIR=$BATS_TEST_TMPDIR/c3 CLUSTER_PORT=17400
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "RTNETLINK answers: Operation not supported" >&2\nexit 2\n' >"$BATS_TEST_TMPDIR/bin/tc"
	chmod +x "$BATS_TEST_TMPDIR/bin/tc"
	before=$(net_now)
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run -1 bash "$ROOT/cluster/up.sh"
	[ "$output" = "cluster: error: cannot build the fabric: tc cannot shape here (htb); CLUSTER_FABRIC=lo runs the cluster on loopback" ]
	[ "$(net_now)" = "$before" ]
	run -1 env CLUSTER_FABRIC=wires bash "$ROOT/cluster/up.sh"
	[ "$output" = "cluster: error: CLUSTER_FABRIC 'wires' must be veth or lo" ]
	run -1 env CLUSTER_NIC_RATE=fast bash "$ROOT/cluster/up.sh"
	[[ $output == "cluster: error: CLUSTER_NIC_RATE 'fast' is not a rate: "* ]]
	run -1 env CLUSTER_LEAVES=5 bash "$ROOT/cluster/up.sh"
	[ "$output" = "cluster: error: CLUSTER_LEAVES '5' must be a number from 1 to CLUSTER_NODES (4): every leaf needs a node" ]
	# more CPUs than the machine has: Slurm would drain every node (Low CPUs), and up would mean nothing
	run -1 env CLUSTER_CPUS=$(($(nproc) + 1)) bash "$ROOT/cluster/up.sh"
	[ "$output" = "cluster: error: CLUSTER_CPUS '$(($(nproc) + 1))' is over this machine's $(nproc) cores: Slurm would drain every node (Low CPUs)" ]
}
