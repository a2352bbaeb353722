#!/usr/bin/env bats
# The local fabric on three leaves (CLUSTER_LEAVES=3, CLUSTER_OVERSUB=1): on
# two, every byte between leaves crosses both uplinks and no all-to-all can
# tell them apart; on three, the pair of nodes under leaf2 and leaf3 crosses
# their uplinks and not leaf1's, so an ordinary campaign names a slow one.
# The cluster is started again for this file (and again with the defaults by
# the next file that needs them).
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers
load ../lib/cluster

setup_file() {
	export CLUSTER_LEAVES=3 CLUSTER_OVERSUB=1
	campaign_results test-results-leaves
	[ -s "$CLUSTER_DIR/fabric/links" ] || skip "the cluster runs without the fabric (CLUSTER_FABRIC=lo)"
}

setup() {
	fabric_setup
}

teardown() {
	fabric_heal
}

@test "CLUSTER_LEAVES=3: the nodes in blocks under three leaves, Slurm's switches the built ones, each uplink its nodes' rate" {
	run -0 scontrol show topology
	[[ $output == *"SwitchName=leaf1 "*"Nodes=n[1-2]"* ]]
	[[ $output == *"SwitchName=leaf2 "*"Nodes=n3"* ]]
	[[ $output == *"SwitchName=leaf3 "*"Nodes=n4"* ]]
	[[ $output == *"SwitchName=spine "*"Switches=leaf[1-3]"* ]]
	run -0 bash "$FABRIC" show
	[[ $output == *"nic     n4     leaf3  1gbit "* ]]
	[[ $output == *"uplink  leaf1  spine  2gbit "* ]]
	[[ $output == *"uplink  leaf3  spine  1gbit "* ]]
	run -0 bash "$FABRIC" info n4
	[[ $output == *"switch n4 leaf3"* ]]
	run -2 bash "$FABRIC" slow-uplink leaf4 10mbit
	[ "${lines[0]}" = "fabric: error: slow-uplink: 'leaf4' is not one of leaf1 leaf2 leaf3" ]
}

@test "an uplink slowed on three leaves: the smoke campaign names it alone, a link to look at and no host; healed, nothing located" {
	run -0 bash "$FABRIC" slow-uplink leaf1 250mbit
	smoke_campaign slowup 10
	m=$RES/slowup/merged
	grep '"kind": "located"' "$m/findings.json" || cat "$m/findings.tsv"   # shown when the test fails
	grep -q '"kind": "located", "severity": "warning", "text": "The slow link is the uplink of leaf1: [0-9]* rows ran at ' \
		"$m/findings.json"
	grep -q '"kind": "verdict", "severity": "warning", .*slow links were found' "$m/findings.json"
	[ "$(grep -cP '^link\t' "$m/suspects.tsv")" = 1 ]
	[ "$(grep -cP '^link\tup:leaf1\t' "$m/suspects.tsv")" = 1 ]
	[ "$(grep -cP '^host\t.*their bound' "$m/suspects.tsv")" = 0 ]
	run -0 bash "$FABRIC" heal
	smoke_campaign healed 10
	[ "$(grep -c '"kind": "located"' "$RES/healed/merged/findings.json")" = 0 ]
	[ "$(grep -c '^link' "$RES/healed/merged/suspects.tsv")" = 0 ]
}
