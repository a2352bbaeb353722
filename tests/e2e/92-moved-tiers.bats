#!/usr/bin/env bats
# A cable moved on three tiers, on the local cluster (issue 79 item 3,
# H2-5): 4 nodes, each alone on its leaf, 2 aggregation switches of 2 leaves,
# a core; 1:1 (CLUSTER_OVERSUB="1 1"), 100 Mbit/s NICs. 'fabric.sh move n3
# leaf1' wires n3 under leaf1 while topology.conf still says leaf3: the
# contiguous pairs (n1 n2, n3 n4) then share leaf1's uplink and read half
# their declared bound, all of it with n3 on leaf1 (tests/data/tiers/moved
# keeps such a campaign). The cluster is started again for this file.
# shellcheck disable=SC2154,SC2016 # bats sets output; single quotes are meant

load ../lib/helpers
load ../lib/cluster

setup_file() {
	export CLUSTER_NODES=4 CLUSTER_TIERS=3 CLUSTER_OVERSUB="1 1" CLUSTER_NIC_RATE=100mbit
	campaign_results test-results-moved-tiers
	[ -s "$CLUSTER_DIR/fabric/links" ] || skip "the cluster runs without the fabric (CLUSTER_FABRIC=lo)"
}

setup() {
	fabric_setup
}

teardown() {
	fabric_heal
}

# tiers_campaign NAME: tests/data/tiers' campaign (1 and 2 MiB per peer), merged into $RES/NAME/merged
tiers_campaign() {
	local final
	final=$(submit CAMPAIGN="$1" NODES=4 TASKS_PER_NODE=1 MODES="contiguous strided" LONGS=524288 ITERS=5 \
		ALLER_ARGS=--min-bytes=1M) || return 1
	wait_job "$final" 300
	grep -P '\ttopology\t' "$RES/$1/merged/findings.tsv" || head -n 1 "$RES/$1/merged/findings.tsv"   # shown when the test fails
}

@test "three tiers: n3's cable moved to leaf1 is named (n3 on leaf1, or the moves no point tells from it); healed, the topology verified and nothing named" {
	run -0 bash "$FABRIC" move n3 leaf1
	run -0 scontrol show topology
	[[ $output == *"SwitchName=leaf3 "*"Nodes=n3"* ]]
	tiers_campaign moved3
	grep -qP '^warning\ttopology\t(n3 measures as on leaf1, not on leaf3|The rows fit one node on another leaf, .*n3 on leaf1)' \
		"$RES/moved3/merged/findings.tsv"
	grep -q '"kind": "verdict", "severity": "warning", .*the topology NOT as declared: ' "$RES/moved3/merged/findings.json"
	run -0 bash "$FABRIC" heal
	tiers_campaign healthy3
	grep -q '"kind": "verdict", .*the topology verified (' "$RES/healthy3/merged/findings.json"
	run ! grep -qP '\ttopology\t' "$RES/healthy3/merged/findings.tsv"
}
