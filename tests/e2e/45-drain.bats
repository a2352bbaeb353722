#!/usr/bin/env bats
# DRAIN=1 and make undrain (issue 39) on the local cluster's fabric: a NIC
# slowed in the network makes its host the suspect of a --pairs campaign,
# the final job drains it alone with aller's reason, make undrain keeps it
# drained while it is slow and resumes it once the fabric is healed; a
# clean campaign drains nothing.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers
load ../lib/cluster

setup_file() {
	campaign_results test-results-drain
}

setup() {
	fabric_setup
}

teardown() {
	fabric_heal
	scontrol update nodename='n[1-4]' state=resume 2>/dev/null || true
	for _ in $(seq 60); do
		[ "$(sinfo -h -N -t idle -o %N | sort -u | wc -l)" = 4 ] && return 0
		sleep 0.5
	done
}

# (--slow-below=0.2: pairs across the spine share an uplink and carry half a NIC's rate)
pairs_campaign() {
	submit CAMPAIGN="$1" NODES=4 TASKS_PER_NODE=1 MODES=contiguous LONGS=0 ITERS=3 \
		ALLER_ARGS="--pairs=1M --slow-below=0.2" DRAIN=1
}

@test "a clean campaign drains nothing" {
	final=$(pairs_campaign clean)
	wait_job "$final" 300
	[ "$(tail -n +2 "$RES/clean/merged/suspects.tsv" | wc -l)" = 0 ]
	[ -z "$(sinfo -h -N -t drain -o %N)" ]
}

@test "a slowed NIC: its host drained alone with aller's reason; undrain keeps it while slow, resumes it healed" {
	run -0 bash "$FABRIC" slow-nic n4 20mbit
	final=$(pairs_campaign slow)
	wait_job "$final" 300
	cat "$RES"/slow/logs/aller-slow-finish-*.out >&2
	grep -q '^host	n4	an end of slow links with 3 hosts: ' "$RES/slow/merged/suspects.tsv"
	grep -q '^drain: n4: drained (aller: an end of slow links with 3 hosts' "$RES"/slow/logs/aller-slow-finish-*.out
	[ "$(sinfo -h -N -t drain -o %N | sort -u)" = n4 ]
	[[ $(sinfo -h -N -n n4 -o %E) == "aller: an end of slow links with 3 hosts"* ]]
	# still slow: drained again, exit 1
	run -1 bash "$ROOT/campaigns/undrain.sh"
	[[ $output == "undrain: n4: still slow (its link "*"): drained again" ]]
	[[ $(sinfo -h -N -n n4 -o %E) == "aller: still slow after a re-check: "* ]]
	# healed: resumed
	run -0 bash "$FABRIC" heal
	run -0 bash "$ROOT/campaigns/undrain.sh" HOSTS=n4
	[[ $output == "undrain: n4: clean against "*": resumed" ]]
	[ -z "$(sinfo -h -N -t drain -o %N)" ]
}
