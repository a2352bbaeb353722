#!/usr/bin/env bats
# One node's faults told apart (issue 79, item 3), on small simulated
# campaigns (make simulate, docs/simulate.md): a slow receiver, a slow sender
# and a slow NIC both ways by a --pairs run's links (into the node, out of it,
# both); a slow node (compute or memory) from its NIC by ordinary sweep rows
# (its rows within the node slow too). Each campaign takes well under a
# second.
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers

setup() {
	F=$BATS_TEST_TMPDIR/site.fabric
	cat >"$F" <<-'EOF'
		switch top - leaf1 leaf2
		switch leaf1 400gbit n[1-4]
		switch leaf2 400gbit n[5-8]
		nic n[1-8] 100gbit
	EOF
}

# campaign NAME FAULT [ALLER_ARGS]: 8 nodes of 2 tasks, both modes, 1 MiB; M its merged/.
campaign() {
	run -0 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN="$1" FABRIC="$F" HOSTS='n[1-8]' TASKS_PER_NODE=2 \
		MODES='contiguous strided' LONGS=1048576 FAULTS="$2" ALLER_ARGS="${3:-}" RESULTS="$BATS_TEST_TMPDIR/res"
	M=$BATS_TEST_TMPDIR/res/$1/merged
}

@test "a slow receiver's --pairs links are said as its receiving side, not its NIC both ways" {
	campaign rx 'slow-rx n3 10gbit' --pairs=1M
	grep -q '^warning	suspect	Suspect host n3: an end of slow links with 7 hosts .*: the links into it (its receiving side) are slow, those out of it far less: a slow receiver\.' "$M/findings.tsv"
	grep -q '^host	n3	an end of slow links with 7 hosts: .* (--pairs; rx: the links into it' "$M/suspects.tsv"
	[ "$(grep -c '^link	n3->' "$M/suspects.tsv")" = 0 ]
	run ! grep -q 'slows every link through it' "$M/findings.tsv"
}

@test "a slow sender's --pairs links are said as its sending side" {
	campaign tx 'slow-tx n3 10gbit' --pairs=1M
	grep -q '^warning	suspect	Suspect host n3: .*: the links out of it (its sending side) are slow, those into it far less: a slow sender\.' "$M/findings.tsv"
	grep -q '^host	n3	an end of slow links with 7 hosts: .* (--pairs; tx: the links out of it' "$M/suspects.tsv"
	[ "$(grep -c '^link	[^	]*->n3	' "$M/suspects.tsv")" = 0 ]
}

@test "a NIC slow both ways is said as its NIC, both ways, by --pairs" {
	campaign nic 'slow-nic n3 10gbit' --pairs=1M
	grep -q '^warning	suspect	Suspect host n3: .*: a slow NIC or port slows every link through it\.' "$M/findings.tsv"
	grep -q '^host	n3	.* (--pairs; both: a slow NIC' "$M/suspects.tsv"
	grep -q '^link	n3->' "$M/suspects.tsv"
	grep -q '^link	[^	]*->n3	' "$M/suspects.tsv"
}

@test "a slow node is named itself by its rows within the node, not its NIC" {
	# its copies at 400 / 80 = 5 GB/s, under half its NIC's 12.5: a straggler its rows show
	campaign node 'slow-node n3 80'
	grep -q '^warning	located	The slow node is n3 itself (its on-node rows slow too: compute or memory, not its NIC): .*; it holds the slowest task in [0-9]* of [0-9]* rows within a node\.' "$M/findings.tsv"
	grep -q '^host	n3	.*the node itself (compute or memory), not its NIC' "$M/suspects.tsv"
	run ! grep -q 'nic:n3' "$M/suspects.tsv"
	run ! grep -q 'NIC of n3' "$M/findings.tsv"
}

@test "a slow NIC in sweep rows is its NIC, not the node, and which way the rows do not guess" {
	for f in 'slow-nic n3 10gbit' 'slow-rx n3 10gbit' 'slow-tx n3 10gbit'; do
		campaign "sweep-${f%% *}" "$f"
		grep -q '^warning	located	The slow link is the NIC of n3: .*cleared it (which way, its all-to-all rows cannot tell: they load a NIC alike both ways; a --pairs run can)\.' "$M/findings.tsv"
		grep -q '^link	nic:n3	' "$M/suspects.tsv"
		run ! grep -q 'itself\|receiving\|sending' "$M/findings.tsv"
	done
}

@test "a healthy campaign names no node, neither by --pairs nor by its rows" {
	campaign ok ''
	campaign okp '' --pairs=1M
	for m in ok okp; do
		[ "$(wc -l <"$BATS_TEST_TMPDIR/res/$m/merged/suspects.tsv")" = 1 ]
		run ! grep -q 'suspect	\|located	' "$BATS_TEST_TMPDIR/res/$m/merged/findings.tsv"
	done
}

@test "a real slow receiver whose ACKs slowed links out of it too is still its receiving side, by its least slow link each way; a slow NIC both" {
	# tests/data/pairs/slowrx-acks.out: into n2 at 0.021-0.022 of the median, n2 -> n3 at 0.045;
	# slowrx-loaded.out (a CI run beside other work): into n2 at 0.020, out of it 0.019 (step 2's
	# exchange with n4, both ways at once), 0.049 and 0.057; slownic-loaded.out: n4's six at 0.017-0.022
	for f in slowrx-acks slowrx-loaded; do
		run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/$f" "$ROOT/tests/data/pairs/$f.out"
		grep -q '^host	n2	an end of slow links with 3 hosts: .* (--pairs; rx: ' "$BATS_TEST_TMPDIR/$f/suspects.tsv"
		grep -q '^warning	suspect	Suspect host n2: .*(its receiving side)' "$BATS_TEST_TMPDIR/$f/findings.tsv"
	done
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/nic" "$ROOT/tests/data/pairs/slownic-loaded.out"
	grep -q '^host	n4	an end of slow links with 3 hosts: .* (--pairs; both: ' "$BATS_TEST_TMPDIR/nic/suspects.tsv"
}

@test "real campaigns of the local cluster: a slowed CPU's node is named itself, a slowed NIC's its NIC" {
	# tests/data/slownode: slow-node n3 50, n3 the slowest task in all 6 rows within a node
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/node" "$ROOT/tests/data/slownode/raw"
	grep -q '^warning	located	The slow node is n3 itself (its on-node rows slow too: compute or memory, not its NIC): .*; it holds the slowest task in 6 of 6 rows within a node\.' "$BATS_TEST_TMPDIR/node/findings.tsv"
	[ "$(cut -f 1-2 "$BATS_TEST_TMPDIR/node/suspects.tsv" | tail -n +2 | tr '\t\n' ' ')" = "host n3 " ]
	# tests/data/slownic2: slow-nic n3 200mbit, n3 the slowest task in 1 of those 6
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/nic" "$ROOT/tests/data/slownic2/raw"
	grep -q '^warning	located	The slow link is the NIC of n3: ' "$BATS_TEST_TMPDIR/nic/findings.tsv"
	[ "$(cut -f 1-2 "$BATS_TEST_TMPDIR/nic/suspects.tsv" | tail -n +2 | tr '\t\n' ' ')" = "link nic:n3 host n3 " ]
}
