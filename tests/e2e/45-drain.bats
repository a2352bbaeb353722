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
	wait_idle 4
}

# no reservation of a re-check is left behind
no_recheck_left() { ! scontrol -o show reservation 2>/dev/null | grep -q aller-recheck; }

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
	# drained only once a second measurement (a re-check of n4 and two others) confirmed it
	grep -q '^drain: n4: drained (aller: confirmed by a re-check: its link .*; the finding: an end of slow links with 3 hosts' \
		"$RES"/slow/logs/aller-slow-finish-*.out
	[ "$(sinfo -h -N -t drain -o %N | sort -u)" = n4 ]
	[[ $(sinfo -h -N -n n4 -o %E) == "aller: confirmed by a re-check: its link "* ]]
	no_recheck_left
	# still slow: drained again, exit 1
	run -1 bash "$ROOT/campaigns/undrain.sh"
	[[ $output == "undrain: n4: drained again: still slow after a re-check: its link "*" (a re-check against "*")" ]]
	[[ $(sinfo -h -N -n n4 -o %E) == "aller: still slow after a re-check: "* ]]
	# healed: resumed
	run -0 bash "$FABRIC" heal
	run -0 bash "$ROOT/campaigns/undrain.sh" HOSTS=n4
	[[ $output == "undrain: n4: clean against "*": resumed" ]]
	[ -z "$(sinfo -h -N -t drain -o %N)" ]
}

@test "a finding a re-check does not confirm drains nothing (a noisy campaign); undrain refuses what aller did not drain" {
	# a merge whose suspect is a healthy node (as a noisy --pairs campaign names one)
	d=$RES/noisy
	mkdir -p "$d/merged"
	printf 'kind\tname\tevidence\tsince\tcampaign\tpoints\nhost\tn3\tan end of slow links with 2 hosts: n1, n2 (--pairs)\t\tnoisy\t\n' \
		>"$d/merged/suspects.tsv"
	run -0 bash "$ROOT/campaigns/drain.sh" "$d" 1
	[[ $output == "drain: n3: left in service: no link of it under 0.5 x the links that avoid it (a re-check against "*"), against the finding: an end of slow links with 2 hosts: n1, n2 (--pairs)" ]]
	[ -z "$(sinfo -h -N -t drain -o %N)" ]
	no_recheck_left
	# a node an administrator drained for another reason is not aller's to resume
	scontrol update nodename=n2 state=drain reason="admin: bad DIMM"
	run --separate-stderr -2 bash "$ROOT/campaigns/undrain.sh" HOSTS=n2
	[ "$stderr" = "undrain: error: node 'n2' in HOSTS was not drained by aller (drained, reason 'admin: bad DIMM'): not aller's to resume" ]
	[[ $(sinfo -h -N -n n2 -o %E) == "admin: bad DIMM" ]]
	# nor one that is not drained, nor one Slurm does not know; no reservation is left by either
	run --separate-stderr -2 bash "$ROOT/campaigns/undrain.sh" HOSTS=n1
	[[ $stderr == "undrain: error: node 'n1' in HOSTS was not drained by aller (idle, reason 'none'): not aller's to resume" ]]
	run --separate-stderr -2 bash "$ROOT/campaigns/undrain.sh" HOSTS=n9
	[ "$stderr" = "undrain: error: node 'n9' in HOSTS: Slurm does not know it" ]
	no_recheck_left
}
