#!/usr/bin/env bats
# A fabric file in any order, as Slurm's topology.conf allows (issue 79,
# item 7): a switch may name switches declared on lines below it; a name is
# a switch where any line declares it so. tests/data/peers/tree3.fabric
# written top-down, the core first, reads as the same tree. (A cable moved
# on three tiers, H2-5, named from tests/data/tiers/moved: tests/cli/moved.bats.)
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
