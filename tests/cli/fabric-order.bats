#!/usr/bin/env bats
# A fabric file in any order, as Slurm's topology.conf allows (issue 79,
# item 7): a switch may name switches declared on lines below it; a name is
# a switch where any line declares it so. tests/data/peers/tree3.fabric
# written top-down, the core first, reads as the same tree. And a cable
# moved on a three-tier tree (item 3a, H2-5), named from a real campaign's
# rows (tests/data/tiers/README).
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

P=$ROOT/tests/data/peers

# tree3.fabric top-down: the core, the aggregation switches, the leaves, the NICs.
top_down() {
	printf '# three tiers, the core first\nswitch core - agg[1-2]\n'
	printf 'switch agg1 2gbit leaf[1-2]\nswitch agg2 2gbit leaf[3-4]\n'
	grep '^switch leaf' "$P/tree3.fabric"
	printf 'nic n[1-8] 1gbit\n'
}

@test "aller --check-args reads a fabric file written top-down as the same tree written bottom-up" {
	cd "$BATS_TEST_TMPDIR"
	top_down >td.fabric
	cp "$P/tree3.fabric" bu.fabric
	run --separate-stderr -0 "$ALLER" --check-args=8 --fabric=td.fabric --nodes='n[1-8]' strided 2 4194304
	[ "$stderr" = "" ]
	want=$("$ALLER" --check-args=8 --fabric=bu.fabric --nodes='n[1-8]' strided 2 4194304)
	[ "${output//td.fabric/bu.fabric}" = "$want" ]
	[[ $output == *" up:agg1"* ]]   # the aggregation switch's uplink, tier 2, bounds the strided world
}

@test "collect --judge reads a fabric file written top-down: the uplink of agg1, tier 2, as bottom-up" {
	cd "$BATS_TEST_TMPDIR"
	top_down >td.fabric
	cp "$P/tree3.fabric" bu.fabric
	run --separate-stderr -0 "$COLLECT" --judge --fabric=td.fabric "$P/osu_alltoall.txt"
	[ "$stderr" = "" ]
	want=$("$COLLECT" --judge --fabric=bu.fabric "$P/osu_alltoall.txt")
	[ "${output//td.fabric/bu.fabric}" = "$want" ]
	[[ ${lines[-1]} == *"bound by the uplink of agg1, tier 2"* ]]
}

@test "in any order, switches under each other in a loop, or a switch declared a node too, are one line, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	printf 'switch a 1gbit b\nswitch b 1gbit c\nswitch c 1gbit a\n' >loop.fabric
	run --separate-stderr -2 "$COLLECT" --judge --fabric=loop.fabric "$P/osu_alltoall.txt"
	[ "$stderr" = "collect: error: --judge: loop.fabric:1: the switches sit under each other in a loop, this one under itself: 'a'" ]
	printf 'nic leaf1 1gbit\nswitch leaf1 1gbit n[1-2]\n' >twice.fabric
	run --separate-stderr -2 "$ALLER" --check-args=2 --fabric=twice.fabric --nodes='n[1-2]'
	[ "$stderr" = "aller: error: twice.fabric:1: a switch ('switch NAME ...' on any line) is not a node: 'leaf1'" ]
}

@test "a cable moved on three tiers is named: the contiguous pairs at half their bound share an uplink the topology does not know (H2-5); as built, verified" {
	cd "$BATS_TEST_TMPDIR"
	run -0 "$COLLECT" -q -o m "$ROOT/tests/data/tiers/moved"
	run -0 awk -F'\t' '$2 == "topology" { print $1 "|" $3 }' m/findings.tsv
	[[ $output == "warning|The rows fit one node on another leaf, not the topology as declared "*": n1 on leaf3, n2 on leaf4, n3 on leaf1 or n4 on leaf2, and no point of this campaign tells them apart: with any of them, 2 more of the 6 rows of 1 MiB per peer or more fit their bound"*"as declared they read 49%-102%."* ]]
	grep -q '"topology_verified": -1' m/findings.json
	run -0 "$COLLECT" -q -o u "$ROOT/tests/data/tiers/unmoved"
	grep -q '"kind": "verdict", .*the topology verified (6 rows of 1 MiB per peer or more at 67%-98% of their bound; ' u/findings.json
	run ! grep -q '	topology	' u/findings.tsv
}

@test "fabric.sh slow-rx and slow-tx refuse a rate tc cannot take through the number door (cluster-plan rate), before they look for the fabric: one line, exit 2" {
	export CLUSTER_DIR=$BATS_TEST_TMPDIR/cluster CLUSTER_PORT=18600
	for cmd in "slow-rx n2 9999999999999999999999gbit" "slow-tx n2 inf" "slow-rx n1:eth1 7kbit" "slow-tx n3 0x10gbit"; do
		# shellcheck disable=SC2086 # the command's words
		run --separate-stderr -2 bash "$ROOT/cluster/fabric.sh" $cmd
		[ "$stderr" = "fabric: error: ${cmd%% *}: rate '${cmd##* }' is not allowed: a decimal number and kbit, mbit or gbit, from 8kbit to 1000000000kbit" ] ||
			{ echo "$cmd: $stderr"; return 1; }
	done
	run --separate-stderr -2 bash "$ROOT/cluster/fabric.sh" slow-rx n1:wlan0 1mbit
	[ "${stderr%%$'\n'*}" = "fabric: error: slow-rx: 'n1:wlan0' is not a node's name or a NIC's (n1:eth1)" ]
	[ ! -e "$CLUSTER_DIR/fabric/faults" ]
}
