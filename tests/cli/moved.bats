#!/usr/bin/env bats
# A cable moved on any tree depth (issue 79 item 3, H2-5), named from the
# rows: a real three-tier campaign kept in tests/data/tiers (its contiguous
# pairs at half their declared bound, all of it with n3 on leaf1), the same
# moved in simulation, and at scale by the campaign's points of at most 64
# nodes (collect/judge/topology.h).
# shellcheck disable=SC2154,SC2016 # bats sets output; single quotes are meant

load ../lib/helpers

T=$ROOT/tests/data/tiers

# tiers3 N: the local cluster's three tiers (CLUSTER_TIERS=3 CLUSTER_OVERSUB="1 1"
# CLUSTER_NIC_RATE=100mbit) at N nodes: each alone on its leaf, aggregation switches of 2 leaves, a core
tiers3() {
	awk -v n="$1" 'BEGIN {
		for (i = 1; i <= n; i++) printf "switch leaf%d 100mbit n%d\n", i, i
		for (a = 1; a <= n / 2; a++) printf "switch agg%d 200mbit leaf[%d-%d]\n", a, 2 * a - 1, 2 * a
		printf "switch core - agg[1-%d]\nnic n[1-%d] 100mbit\n", n / 2, n }'
}

# simulated NAME FABRIC HOSTS NODES LONGS [FAULTS]: a simulated campaign of both modes at 1 MiB per peer
# or more, merged into $BATS_TEST_TMPDIR/res/NAME/merged
simulated() {
	bash "$ROOT/campaigns/simulate.sh" CAMPAIGN="$1" FABRIC="$2" HOSTS="$3" NODES="$4" LONGS="$5" FAULTS="${6:-}" \
		MODES="contiguous strided" ALLER_ARGS=--min-bytes=1M RESULTS="$BATS_TEST_TMPDIR/res" >/dev/null
}

# topology NAME: the campaign's topology finding ("severity|text"), and its verdict's words on the topology
topology() {
	local m=$BATS_TEST_TMPDIR/res/$1/merged
	awk -F'\t' '$2 == "topology" { print $1 "|" $3 }' "$m/findings.tsv"
	grep -o 'the topology [^;]*' "$m/findings.tsv" | sed -n 2p
}

@test "a cable moved on three tiers is named from the real campaign's rows: its contiguous pairs read half their bound as declared, all of it with n3 on leaf1; the healed rerun verified" {
	cd "$BATS_TEST_TMPDIR"
	run -0 "$COLLECT" -q -o m "$T/moved"
	run -0 awk -F'\t' '$2 == "topology" { print $1 "|" $3 }' m/findings.tsv
	[[ $output == "warning|The rows fit one node on another leaf, not the topology as declared "*": n1 on leaf3, n2 on leaf4, n3 on leaf1 or n4 on leaf2, and no point of this campaign tells them apart: with any of them, 2 more of the 6 rows of 1 MiB per peer or more fit their bound (90%-100% of those it changes) and none stops fitting; as declared they read 49%-102%."* ]]
	grep -q '"kind": "verdict", "severity": "warning", .*the topology NOT as declared: one node measures as on another leaf, n1 on leaf3 or 3 more (below)' m/findings.json
	grep -q '"topology_verified": -1' m/findings.json
	run -0 "$COLLECT" -q -o u "$T/unmoved"
	grep -q '"kind": "verdict", .*the topology verified (6 rows of 1 MiB per peer or more at 67%-98% of their bound; ' u/findings.json
	run ! grep -q '	topology	' u/findings.tsv
}

@test "a loaded machine moves no cable: the healed rerun with every time 1.5x (its rows at 45%-65% of their bound) fits no node moved better" {
	cd "$BATS_TEST_TMPDIR"
	mkdir loaded
	# every time column times 1.5, every bandwidth over it
	for f in "$T"/unmoved/*.out; do
		awk '/^# columns: / { for (i = 3; i <= NF; i++) { t[i - 2] = $i ~ /^t[a-z0-9]*_s$/; b[i - 2] = $i ~ /_Gi?Bs$/ } }
			/^[0-9]/ { for (i = 1; i <= NF; i++) if ($i != "-" && t[i]) $i = sprintf("%e", $i * 1.5);
				else if ($i != "-" && b[i]) $i = sprintf("%e", $i / 1.5) }
			{ print }' "$f" >"loaded/${f##*/}"
	done
	run -0 "$COLLECT" -q -o m loaded
	grep -q '"kind": "verdict", .*the topology verified (6 rows of 1 MiB per peer or more at 45%-65% of their bound; ' m/findings.json
	run ! grep -q '	topology	' m/findings.tsv
}

@test "simulated on the cluster's three tiers (make simulate FAULTS=\"move n3 leaf1\"), the move is named; without it, verified" {
	tiers3 4 >"$BATS_TEST_TMPDIR/t3.fabric"
	simulated moved "$BATS_TEST_TMPDIR/t3.fabric" 'n[1-4]' 4 524288 "move n3 leaf1"
	run -0 topology moved
	[[ ${lines[0]} == "warning|The rows fit one node on another leaf, "*": n1 on leaf3, n2 on leaf4, n3 on leaf1 or n4 on leaf2, and no point of this campaign tells them apart: "* ]]
	[[ ${lines[1]} == "the topology NOT as declared: "* ]]
	simulated healthy "$BATS_TEST_TMPDIR/t3.fabric" 'n[1-4]' 4 524288
	run -0 topology healthy
	[[ $output == "the topology verified (6 rows of 1 MiB per peer or more at "* ]]
}

@test "at 1,024 nodes the move is named by the campaign's points of at most 64 nodes (the larger not checked: their nodes x leaves alternatives), and the verdict says so" {
	tiers3 1024 >"$BATS_TEST_TMPDIR/t1024.fabric"
	simulated moved "$BATS_TEST_TMPDIR/t1024.fabric" 'n[1-1024]' '4 1024' 4194304 "move n3 leaf1"
	run -0 topology moved
	[[ ${lines[0]} == "warning|The rows fit one node on another leaf, "*": n1 on leaf3, n2 on leaf4, n3 on leaf1 or n4 on leaf2, "*" of the 18 rows of 1 MiB per peer or more of its points of at most 64 nodes fit their bound "* ]]
	simulated healthy "$BATS_TEST_TMPDIR/t1024.fabric" 'n[1-1024]' '4 1024' 4194304
	run -0 topology healthy
	[[ $output == "the topology verified (18 rows of 1 MiB per peer or more of its points of at most 64 nodes at "* ]]
	# no point of 64 nodes or fewer: said, as before
	simulated big "$BATS_TEST_TMPDIR/t1024.fabric" 'n[1-1024]' 1024 4194304 "move n3 leaf1"
	grep -q '	verdict	.*; the topology taken as declared (checked on the points of at most 64 nodes, 64 in all; this campaign has no such point); ' \
		"$BATS_TEST_TMPDIR/res/big/merged/findings.tsv"
}

@test "the limit: on bench's 2:1 fat tree (leaves of 32 nodes) n37 moved to leaf9 changes no row of a 64 and 1,024-node campaign, so nothing can name it" {
	F=$ROOT/bench/fattree-4096.fabric
	simulated moved "$F" 'n[1-1024]' '64 1024' 16777216 "move n37 leaf9"
	simulated healthy "$F" 'n[1-1024]' '64 1024' 16777216
	for c in moved healthy; do
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["point"], $c["commsize"], $c["bytes_per_peer"], $c["tmed_s"], $c["tmax_s"] }' \
			"$BATS_TEST_TMPDIR/res/$c/merged/points.csv" >"$BATS_TEST_TMPDIR/$c.rows"
	done
	[ "$(wc -l <"$BATS_TEST_TMPDIR/moved.rows")" -gt 100 ]
	cmp "$BATS_TEST_TMPDIR/moved.rows" "$BATS_TEST_TMPDIR/healthy.rows"
	run -0 topology moved
	[[ $output == "the topology verified ("*" of its points of at most 64 nodes at "* ]]
}
