#!/usr/bin/env bats
# collect --judge: an osu_alltoall, an IMB-MPI1 and a nccl-tests output held
# against the local cluster's fabric as built (tests/data/peers/local.fabric:
# 4 nodes of 1gbit NICs, 2 leaves, uplinks of 1gbit), each bound worked out
# by hand; a malformed file refused with FILE:LINE.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

P=$ROOT/tests/data/peers

# The row of bytes_per_peer $1 and tasks $2 from the output.
row() { awk -v b="$1" -v t="$2" '$1 == b && $2 == t' <<<"$output"; }

@test "osu_alltoall on 8 tasks, 2 per node: the uplink of leaf1 bounds, 16 blocks up per call" {
	cd "$P"
	run --separate-stderr -0 "$COLLECT" --judge --fabric=local.fabric --tasks-per-node=2 osu_alltoall.txt
	[ "${lines[0]}" = "# judge: osu_alltoall.txt: OSU MPI All-to-All Personalized Exchange Latency Test v7.4 (osu), the time per call its Max Latency(us)" ]
	[ "${lines[1]}" = "# placement: 8 tasks on 4 nodes, 2 per node, block" ]
	[ "${lines[4]}" = "# columns: bytes_per_peer tasks t_s bound_s eff_bound bottleneck" ]
	# leaf1's 4 tasks each send 1 MiB to each of leaf2's 4: 16 MiB up at 1gbit = 0.134218 s
	[ "$(row 1048576 8)" = "$(printf '1048576\t8\t1.451873e-01\t1.342177e-01\t0.9244\tup:leaf1')" ]
	[ "${lines[-1]}" = "# verdict: 8 tasks: at the largest size, 4 MiB per peer, 96% of what the fabric allows, bound by the uplink of leaf1 (rows of 64 KiB per peer and more: 77-96%)." ]
	[ "$stderr" = "" ]
}

@test "IMB-MPI1: each Alltoall table on its first #processes ranks; the barrier's table left out" {
	cd "$P"
	run -0 "$COLLECT" --judge --fabric=local.fabric --tasks-per-node=2 imb_alltoall.txt
	# 4 processes, block: n1 and n2, one leaf; n1's 2 tasks send 2 blocks each off the node
	[ "$(row 4194304 4)" = "$(printf '4194304\t4\t1.398001e-01\t1.342177e-01\t0.9601\tnic:n1')" ]
	[ "$(row 4194304 8)" = "$(printf '4194304\t8\t5.697309e-01\t5.368709e-01\t0.9423\tup:leaf1')" ]
	[ "$(grep -c '^# verdict: ' <<<"$output")" = 2 ]
	[[ $output == *"# verdict: 4 tasks: at the largest size, 4 MiB per peer, 96% of what the fabric allows, bound by the NIC of n1"* ]]
	[ -z "$(row 0 4)" ]   # 0 bytes: nothing to bound
	# cyclic: the 4 processes on all 4 nodes, across the spine
	run -0 "$COLLECT" --judge --fabric=local.fabric --tasks-per-node=2 --placement=cyclic imb_alltoall.txt
	[ "$(row 4194304 4)" = "$(printf '4194304\t4\t1.398001e-01\t1.342177e-01\t0.9601\tup:leaf1')" ]
	# more processes than the nodes and tasks given
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric imb_alltoall.txt
	[ "$stderr" = "collect: error: --judge: imb_alltoall.txt:39: a table of 8 processes, more than the 4 nodes x 1 task per node given (--nodes, --tasks-per-node)" ]
}

@test "alltoall_perf: the ranks' hosts from its lines, its size each rank's buffer over its peers" {
	cd "$P"
	run -0 "$COLLECT" --judge --fabric=local.fabric alltoall_perf.txt
	[ "${lines[1]}" = "# placement: 8 tasks on 4 nodes, as its rank lines say" ]
	[ "$(row 4194304 8)" = "$(printf '4194304\t8\t5.608420e-01\t5.368709e-01\t0.9573\tup:leaf1')" ]
	[[ ${lines[-1]} == "# verdict: 8 tasks: at the largest size, 4 MiB per peer, 96% of what the fabric allows"* ]]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric --nodes=n1 alltoall_perf.txt
	[ "$stderr" = "collect: error: --judge: alltoall_perf.txt: alltoall_perf's output names each rank's host: --nodes, --tasks-per-node and --placement are not taken with it" ]
}

@test "--nodes: names and ranges in rank order; a node the fabric does not know makes the bound partial" {
	cd "$P"
	run -0 "$COLLECT" --judge --fabric=local.fabric --nodes='n[3-4],n1,n2' --tasks-per-node=2 osu_alltoall.txt
	[ "$(row 1048576 8 | cut -f 6)" = "up:leaf2" ]   # leaf2 holds ranks 0-3 now: the first loaded uplink
	run -0 "$COLLECT" --judge --fabric=local.fabric --nodes='n[1-2],x9' osu_alltoall.txt
	[ "${lines[1]}" = "# placement: 3 tasks on 3 nodes, 1 per node, block" ]
	[ "$(row 1048576 3 | cut -f 6)" = "nic:n1(partial:nic:x9)" ]
	[[ ${lines[-1]} == *"bound by the NIC of n1 (a partial bound: no rate for the NIC of x9)"* ]]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric --nodes='n1,n1' osu_alltoall.txt
	[ "$stderr" = "collect: error: --judge: --nodes 'n1,n1': a node named twice (in 'n1')" ]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric --nodes='n[1-' osu_alltoall.txt
	[ "$stderr" = "collect: error: --judge: --nodes 'n[1-': 'n[1-' is not a name or a range as Slurm writes them (n[1-4,7])" ]
}

@test "a malformed output, a bad option or fabric: one line, exit 2; stdout unwritable: exit 3" {
	cd "$P"
	sed '6s/.*/[n2:1234] mca_btl_tcp: warning/' osu_alltoall.txt >"$BATS_TEST_TMPDIR/bad.txt"
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric "$BATS_TEST_TMPDIR/bad.txt"
	[ "$stderr" = "collect: error: --judge: $BATS_TEST_TMPDIR/bad.txt:6: not a row of the table above (a number a column):" ]
	[ "$output" = "" ]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric --format=imb osu_alltoall.txt
	[ "$stderr" = "collect: error: --judge: osu_alltoall.txt:2: a title line of another tool's output (a file holds one run of one tool): '# OSU MPI All-to-All Personalized Exchange Latency Test v7.4'" ]
	run --separate-stderr -2 "$COLLECT" --judge osu_alltoall.txt
	[ "$stderr" = "collect: error: --judge: --fabric=FILE is needed: collect --judge --fabric=FILE [--nodes=LIST] ... OUTPUT" ]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric --placement=round osu_alltoall.txt
	[[ $stderr == "collect: error: --judge: --placement 'round': block (ranks fill a node, then the next) or cyclic"* ]]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric --tasks-per-node=0 osu_alltoall.txt
	[ "$stderr" = "collect: error: --judge: invalid --tasks-per-node '0': expected a whole number, 1..65536" ]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric --format=hpl osu_alltoall.txt
	[ "$stderr" = "collect: error: --judge: --format 'hpl': osu, imb or nccl-tests is allowed" ]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=osu_alltoall.txt osu_alltoall.txt
	[[ $stderr == "collect: error: --judge: osu_alltoall.txt:5: expected 'switch NAME RATE [CHILD...]', 'nic NODE RATE', 'gpu NODE RATE', 'group NAME SWITCH...' or 'global LINKS RATE [minimal|adaptive]', not '1'" ]]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric no-such.txt
	[ "$stderr" = "collect: error: --judge: output 'no-such.txt' cannot be opened: No such file or directory" ]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric osu_alltoall.txt imb_alltoall.txt
	[ "$stderr" = "collect: error: --judge: one OUTPUT is judged at a time, not 'osu_alltoall.txt' and 'imb_alltoall.txt'" ]
	run --separate-stderr -3 bash -c '"$0" --judge --fabric=local.fabric osu_alltoall.txt >/dev/full' "$COLLECT"
	[ "$stderr" = "collect: error: cannot write the standard output: No space left on device" ]
}

@test "a three-tier tree: the world of 8 is bound by an aggregation switch's uplink, tier 2" {
	cd "$P"
	# one task a node: agg1's 4 tasks to agg2's 4, 16 MiB up at 2gbit (0.0671 s), above
	# a NIC's 7 MiB at 1gbit (0.0587 s) and a leaf's 2 x 6 MiB at 2gbit (0.0503 s)
	run -0 "$COLLECT" --judge --fabric=tree3.fabric osu_alltoall.txt
	[ "${lines[1]}" = "# placement: 8 tasks on 8 nodes, 1 per node, block" ]
	[ "$(row 1048576 8)" = "$(printf '1048576\t8\t1.451873e-01\t6.710886e-02\t0.4622\tup:agg1')" ]
	[[ ${lines[-1]} == *"bound by the uplink of agg1, tier 2 (rows of 64 KiB per peer and more: 39-48%): far from its bound." ]]
	# the 8 tasks on 4 nodes of agg1 never cross the core: the NICs bound them
	run -0 "$COLLECT" --judge --fabric=tree3.fabric --nodes='n[1-4]' --tasks-per-node=2 osu_alltoall.txt
	[ "$(row 1048576 8 | cut -f 6)" = "nic:n1" ]
}
