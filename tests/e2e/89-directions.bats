#!/usr/bin/env bats
# One direction of a NIC slowed in the network (fabric.sh slow-rx, slow-tx:
# issue 79, item 3b), seen by aller --pairs on the local cluster's 4 nodes of
# 1 Gbit/s: slow-rx shapes the switch port's egress toward the node, so the
# links into it read at the rate; slow-tx the node's own NIC, so the links out
# of it do. The other direction of the node slows too, its ACKs queued behind
# the shaped data, but its fastest link stays at least 1.5 times the slowed
# links' fastest (measured 2.6-50 times in 14 runs, mostly 15-50; the slowed
# links at 1.01-1.12 times the rate), where slow-nic's would read at the rate.
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers
load ../lib/cluster

setup_file() {
	cluster_up
	[ -s "$CLUSTER_DIR/fabric/links" ] || skip "the cluster runs without the fabric (CLUSTER_FABRIC=lo)"
}

setup() {
	fabric_setup
	FAULTS=$CLUSTER_DIR/fabric/faults
}

teardown() {
	fabric_heal
}

# pairs: a --pairs run of 1 MiB links on the 4 nodes, its output in $out
pairs() {
	out=$BATS_TEST_TMPDIR/pairs.out
	srun_aller -N4 -n4 --mpi=pmix "$ALLER" --pairs=1M --slow-below=0.1 0 3 >"$out"
	grep -v '^#  ' "$out"   # shown when the test fails
}

# slower_way NODE IN|OUT KBIT: each of the 3 links into (or out of) NODE at 0.5-1.25
# times KBIT, and the fastest link the other way at least 1.5 times the fastest of
# them (as slow-nic's would not be)
slower_way() {
	awk -v n="$1" -v way="$2" -v cap="$3" '!/^#/ && NF == 7 && $5 != "NaN" && ($3 == n || $4 == n) {
		if (($4 == n) == (way == "IN")) { k++; top = $5 > top ? $5 : top; low = low == "" || $5 < low ? $5 : low }
		else other = $5 > other ? $5 : other }
		END { c = cap * 1000 / 8 / 1e9; print k " links at " low "-" top " GB/s, the rate " c ", the fastest other way " other
			exit !(k == 3 && low >= 0.5 * c && top <= 1.25 * c && other >= 1.5 * top) }' "$out"
}

@test "slow-rx: the links into the node read at the rate, the fastest out of it at least 1.5 times as fast; show lists it, heal removes it" {
	run -0 bash "$FABRIC" slow-rx n2 20mbit
	grep -qx 'slow-rx n2 20mbit' "$FAULTS"
	run -0 bash "$FABRIC" show
	[[ $output == *"nic     n2     leaf1  1gbit     up    slow-rx n2 20mbit"* ]]
	pairs
	slower_way n2 IN 20000
	grep -q '^# slow_link: 0 (n1) -> 1 (n2): ' "$out"
	run -0 bash "$FABRIC" heal
	[ ! -s "$FAULTS" ]
	run -0 bash "$FABRIC" show
	[[ $output != *slow-rx* ]]
}

@test "slow-tx: the links out of the node read at the rate, the fastest into it at least 1.5 times as fast" {
	run -0 bash "$FABRIC" slow-tx n3 20mbit
	run -0 bash "$FABRIC" show
	[[ $output == *"nic     n3     leaf2  1gbit     up    slow-tx n3 20mbit"* ]]
	pairs
	slower_way n3 OUT 20000
	[ "$(grep -c '^# slow_link: 2 (n3) -> ' "$out")" = 3 ]
}

@test "slow-rx and slow-tx: a bad rate, or one above the NIC's, is one line, exit 2; a bad node or NIC exit 2; no fault kept" {
	for cmd in "slow-rx n1 fast" "slow-tx n1 0mbit" "slow-rx n1 2gbit"; do
		# shellcheck disable=SC2086 # the command's words
		run --separate-stderr -2 bash "$FABRIC" $cmd
		[[ $stderr != *$'\n'* && $stderr == "fabric: error: ${cmd%% *}: rate '${cmd##* }' is not allowed: "* ]] ||
			{ echo "$cmd: $stderr"; return 1; }
	done
	[[ $stderr == *"to 1000000kbit (the NIC's built rate)" ]]
	run --separate-stderr -2 bash "$FABRIC" slow-rx n9 1mbit
	[ "${stderr%%$'\n'*}" = "fabric: error: slow-rx: node 'n9' is not one of n1..n4" ]
	run --separate-stderr -2 bash "$FABRIC" slow-tx n1:wlan0 1mbit
	[ "${stderr%%$'\n'*}" = "fabric: error: slow-tx: 'n1:wlan0' is not a node's name or a NIC's (n1:eth1)" ]
	[ ! -s "$FAULTS" ]
}
