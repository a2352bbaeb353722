#!/usr/bin/env bats
# aller --check-args=WORLD --fabric=FILE --nodes=LIST: each row's bound before
# anything runs (no MPI), on the local cluster's fabric as built and on a
# three-tier tree (tests/data/peers), each figure worked by hand.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

P=$ROOT/tests/data/peers

# The row of commsize $1 and count $2.
row() { awk -v c="$1" -v n="$2" '$1 == c && $2 == n' <<<"$output"; }

@test "the local fabric, 8 tasks on 4 nodes: the world bound by leaf1's uplink, the 4s by a NIC, the pairs by none" {
	cd "$P"
	run --separate-stderr -0 "$ALLER" --check-args=8 --fabric=local.fabric --nodes='n[1-4]' c 2 4194304
	[ "${lines[0]}" = "# bound: a world of 8 tasks on 4 nodes (n1 ... n4), 2 per node at most, placement the launcher's (block), contiguous; fabric local.fabric" ]
	[ "${lines[2]}" = "# columns: commsize count bytes_per_peer bound_s bottleneck" ]
	# leaf1's 4 tasks to leaf2's 4, 1 MiB each: 16 MiB up at 1gbit = 0.134218 s (as collect --judge)
	[ "$(row 8 131072)" = "8 131072 1048576 1.342177e-01 up:leaf1" ]
	# contiguous 4s stay under a leaf: n1's 2 tasks to 2 off the node, 4 MiB at 1gbit
	[ "$(row 4 131072)" = "4 131072 1048576 3.355443e-02 nic:n1" ]
	[ "$(row 2 131072)" = "2 131072 1048576 0.000000e+00 -" ]   # a node's pair: no link
	# cyclic placement (n1 n2 n3 n4 n1 ...) puts a pair on two nodes of one leaf: n1's NIC
	# carries both of its pairs' (ranks 0-1 and 4-5) 1 MiB each way, 2 MiB at 1gbit
	run -0 "$ALLER" --check-args=8 --fabric=local.fabric --nodes='n[1-4]' --placement=cyclic c 2 4194304
	[ "$(row 2 131072)" = "2 131072 1048576 1.677722e-02 nic:n1" ]
	[ "$stderr" = "" ]
}

@test "a three-tier tree: the strided world bound by an aggregation switch's uplink; a node the file lacks makes it partial" {
	cd "$P"
	run -0 "$ALLER" --check-args=8 --fabric=tree3.fabric --nodes='n[1-8]' strided 2 4194304
	[ "$(row 8 131072)" = "8 131072 1048576 6.710886e-02 up:agg1" ]
	run -0 "$ALLER" --check-args=4 --fabric=tree3.fabric --nodes='n1,x9' c 2 4194304
	[ "$(row 4 262144 | cut -d' ' -f5)" = "nic:n1(partial:nic:x9)" ]
}

@test "a dragonfly: the world bound by a pair of groups' global link; adaptive routing a range, minimal's beside it; collect --judge reads the same file" {
	cd "$P"
	# 4 groups of 4 nodes, one 1gbit global link a pair: g1's 4 tasks to g2's 4, 1 MiB each, 16 MiB
	# at 1gbit = 0.134218 s (a NIC: 15 MiB, 0.125829 s)
	run -0 "$ALLER" --check-args=16 --fabric=dragonfly.fabric --nodes='n[1-16]' c 2 2097152
	[ "$(row 16 131072)" = "16 131072 1048576 1.342177e-01 global:g1:g2" ]
	# the 4s stay in a group: a NIC's 3 MiB
	[ "$(row 4 131072)" = "4 131072 1048576 2.516582e-02 nic:n1" ]
	# adaptive, two groups alone: 16 MiB over g1's 3 global links (0.044739 s), below a NIC's 7 MiB
	# (0.058720 s); minimal routing: the one link, 0.134218 s
	sed 's/ minimal$/ adaptive/' dragonfly.fabric >"$BATS_TEST_TMPDIR/ad.fabric"
	run -0 "$ALLER" --check-args=8 --fabric="$BATS_TEST_TMPDIR/ad.fabric" --nodes='n[1-8]' c 2 1048576
	[[ $output == *"# routing: adaptive: bound_s is the least time any path allows"* ]]
	[ "$(row 8 131072)" = "8 131072 1048576 5.872026e-02 nic:n1 1.342177e-01" ]
	run -0 "$COLLECT" --judge --fabric=dragonfly.fabric --nodes='n[1-16]' --tasks-per-node=1 osu_alltoall.txt
	[ "${lines[-1]}" = "# verdict: 16 tasks: at the largest size, 4 MiB per peer, 96% of what the fabric allows, bound by the global links from g1 to g2 (rows of 64 KiB per peer and more: 77-96%)." ]
	# a bad one: refused with its line, nothing run
	printf 'switch s1 - n1\nswitch s2 - n2\ngroup g1 s1 s2\n' >"$BATS_TEST_TMPDIR/bad.fabric"
	run --separate-stderr -2 "$ALLER" --check-args=2 --fabric="$BATS_TEST_TMPDIR/bad.fabric" --nodes='n[1-2]'
	[[ $stderr == *"$BATS_TEST_TMPDIR/bad.fabric:3: a group without global links: add 'global LINKS RATE [minimal|adaptive]' for 'g1'" ]]
}

@test "two rails: a node's tasks spread over its NICs or on those the MPI stack is told of (said), bound half of one rail's; a slowed rail's NIC named" {
	cd "$P"
	# each task on its own NIC: 6 MiB to the 6 tasks off its node at 1gbit, 0.050332 s (its rail's
	# leaf: 4 x 4 - 4 of a node's own = 12 MiB at 4gbit, 0.025166 s)
	run -0 "$ALLER" --check-args=8 --fabric=rails.fabric --nodes='n[1-4]' c 2 1048576
	[ "${lines[2]}" = "# rails: eth0 eth1: 2 NICs a node, each on its rail; a node's i-th task on its NIC i mod 2 (spread evenly: the MPI stack is told of no rail's NIC)" ]
	[ "$(row 8 131072)" = "8 131072 1048576 5.033165e-02 nic:n1:eth0" ]
	# the MPI stack told to use eth1 (the TCP BTL's list): both of a node's tasks on it, 12 MiB;
	# told both: each message striped over them, each NIC half of both tasks', 6 MiB, as spread
	run -0 env OMPI_MCA_btl_tcp_if_include=eth1 "$ALLER" --check-args=8 --fabric=rails.fabric --nodes='n[1-4]' c 2 1048576
	[ "${lines[2]}" = "# rails: eth0 eth1: 2 NICs a node, each on its rail; every task on its node's eth1 (OMPI_MCA_btl_tcp_if_include=eth1)" ]
	[ "$(row 8 131072)" = "8 131072 1048576 1.006633e-01 nic:n1:eth1" ]
	run -0 env OMPI_MCA_btl_tcp_if_include=eth0,eth1 "$ALLER" --check-args=8 --fabric=rails.fabric --nodes='n[1-4]' c 2 1048576
	[ "${lines[2]}" = "# rails: eth0 eth1: 2 NICs a node, each on its rail; each message striped over 2 of them, a node's NIC k to the other's (OMPI_MCA_btl_tcp_if_include=eth0,eth1)" ]
	[ "$(row 8 131072)" = "8 131072 1048576 5.033165e-02 nic:n1:eth0" ]
	run -0 "$COLLECT" --judge --fabric=rails.fabric --nodes='n[1-4]' --tasks-per-node=2 osu_alltoall.txt
	[[ ${lines[-1]} == "# verdict: 8 tasks: at the largest size, 4 MiB per peer, 36% of what the fabric allows, bound by the NIC of n1:eth0 "* ]]
	# one rail: both of a node's tasks on eth0, 12 MiB, twice the time
	grep -v eth1 rails.fabric >"$BATS_TEST_TMPDIR/one.fabric"
	run -0 "$ALLER" --check-args=8 --fabric="$BATS_TEST_TMPDIR/one.fabric" --nodes='n[1-4]' c 2 1048576
	[ "$(row 8 131072)" = "8 131072 1048576 1.006633e-01 nic:n1:eth0" ]
	# n1's eth1 at a quarter: its 6 MiB at 250mbit, 0.201327 s
	sed 's/^nic n\[1-4\]:eth1 1gbit$/nic n1:eth1 250mbit\nnic n[2-4]:eth1 1gbit/' rails.fabric >"$BATS_TEST_TMPDIR/slow.fabric"
	run -0 "$ALLER" --check-args=8 --fabric="$BATS_TEST_TMPDIR/slow.fabric" --nodes='n[1-4]' c 2 1048576
	[ "$(row 8 131072)" = "8 131072 1048576 2.013266e-01 nic:n1:eth1" ]
	# rails that differ across nodes: refused with the line
	printf 'switch r0 1gbit n[1-2]:eth0\nswitch r1 1gbit n1:eth1\n' >"$BATS_TEST_TMPDIR/bad.fabric"
	run --separate-stderr -2 "$ALLER" --check-args=2 --fabric="$BATS_TEST_TMPDIR/bad.fabric" --nodes='n[1-2]'
	[[ $stderr == *"bad.fabric:1: the rails differ across nodes (each node the same interfaces, one a rail, as its first in name order has): this node's are not: 'n2:eth0'" ]]
}

@test "a GPU node's own links: the on-node rows bound by each GPU's port to the NVSwitch, the world by the NICs; collect --judge the same" {
	cd "$P"
	run -0 "$ALLER" --check-args=16 --fabric=gpu.fabric --nodes='n[1-2]' c 2 1048576
	# 8 GPUs of a node together: each port carries its 7 peers' 64 KiB, 7 x 65536 / 450 GB/s
	[ "$(row 8 8192)" = "8 8192 65536 1.019449e-06 gpu:n1" ]
	[ "$(row 16 8192)" = "16 8192 65536 3.355443e-02 nic:n1" ]
	[ "$(row 1 8192)" = "1 8192 65536 0.000000e+00 -" ]
	# 16 tasks of one node: 15 x 4 MiB / 450 GB/s
	run -0 "$COLLECT" --judge --fabric=gpu.fabric --nodes=n1 --tasks-per-node=16 osu_alltoall.txt
	grep -q '^4194304	16	5.569004e-01	1.398101e-04	0.0003	gpu:n1$' <<<"$output"
	[[ ${lines[-1]} == *"bound by the GPU links of n1 "* ]]
	# a node's GPU links declared twice: its line, exit 2
	printf 'gpu n[1-2] 450GB/s\ngpu n2 900GB/s\n' >"$BATS_TEST_TMPDIR/bad.fabric"
	run --separate-stderr -2 "$ALLER" --check-args=2 --fabric="$BATS_TEST_TMPDIR/bad.fabric" --nodes='n[1-2]'
	[[ $stderr == *"bad.fabric:2: the node's GPU links are declared already: 'n2'" ]]
}

@test "--nodes and --tasks-per-node refused where they do nothing, or where the world does not fit" {
	cd "$P"
	run --separate-stderr -2 "$ALLER" --check-args=8 --nodes='n[1-8]'
	[ "$stderr" = "aller: error: '--nodes' does nothing here: it acts only with --check-args=WORLD and --fabric=FILE, whose world's bound it prints" ]
	run --separate-stderr -2 "$ALLER" --check-args=8 --fabric=tree3.fabric --tasks-per-node=2
	[ "$stderr" = "aller: error: '--tasks-per-node' does nothing here: it acts only with --nodes, whose tasks it counts" ]
	run --separate-stderr -2 "$ALLER" --check-args=8 --fabric=tree3.fabric --nodes='n[1-3]'
	[ "$stderr" = "aller: error: a world of 8 tasks on 3 nodes is not the same tasks on each: give --tasks-per-node=N with N x nodes at least the world" ]
	run -0 "$ALLER" --check-args=8 --fabric=tree3.fabric --nodes='n[1-3]' --tasks-per-node=3
	run --separate-stderr -2 "$ALLER" --check-args=8,16 --fabric=tree3.fabric --nodes='n[1-8]'
	[ "$stderr" = "aller: error: --nodes prints the bound of one world: --check-args=WORLD, not '8,16'" ]
	run --separate-stderr -2 "$ALLER" --check-args=8 --fabric=tree3.fabric --nodes='n1,n1'
	[ "$stderr" = "aller: error: --nodes 'n1,n1': a node named twice ('n1')" ]
	run --separate-stderr -2 "$ALLER" --check-args=8 --fabric=tree3.fabric --nodes='n[1-8'
	[ "$stderr" = "aller: error: --nodes 'n[1-8': 'n[1-8' is not a name or a range as Slurm writes them (n[1-4,7])" ]
	run --separate-stderr -2 "$ALLER" --check-args=8 --fabric=tree3.fabric --nodes='n[1-8]' --tasks-per-node=0
	[[ $stderr == "aller: error: "*"tasks per node"* ]]
}
