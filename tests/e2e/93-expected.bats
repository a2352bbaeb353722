#!/usr/bin/env bats
# Expected against measured on the local cluster (issue 79, item 6): a small
# real campaign (4 nodes, tests/lib/cluster.bash's smoke_campaign), make
# simulate of the same settings from the cluster's own fabric (its built
# rates, declared as a site's fabric file), then make compare and make report
# EXPECTED=. Healthy, a row may fall short of the model's band (its calls at
# 0.70..0.98 of the bound) beside other work, by up to 4x at 256 KiB (TCP's
# latency, which the model leaves out), but no level's largest size by twice
# the simulated slowest call; with n3's NIC slowed, every row through it is
# named short, the whole world's largest size by more than twice.
# shellcheck disable=SC2154 # bats sets output, stderr and lines

load ../lib/helpers
load ../lib/cluster

setup_file() {
	campaign_results test-results-expected
}

setup() {
	fabric_setup
}

teardown() {
	fabric_heal
	wait_idle 4
}

# expected: make simulate of smoke_campaign's settings on the cluster's fabric, as $RES/expected
expected() {
	local links=$CLUSTER_DIR/fabric/links up nic
	up=$(awk '$1 == "uplink" { print $4 "kbit"; exit }' "$links")
	nic=$(awk '$1 == "nic" { print $4 "kbit"; exit }' "$links")
	printf 'switch leaf1 %s n[1-2]\nswitch leaf2 %s n[3-4]\nnic n[1-4] %s\n' "$up" "$up" "$nic" >"$RES/site.fabric"
	bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=expected "RESULTS=$RES" FABRIC="$RES/site.fabric" HOSTS='n[1-4]' NODES=4 \
		TASKS_PER_NODE=1 MODES="contiguous strided" LONGS=524288 ALLER_ARGS=--min-bytes=256K >/dev/null
}

# far CSV [COMMSIZE]: of each network level's largest size (where the network binds, as collect's
# verdict takes them; commsize 1 is a node's memory, the model's against this machine's; of
# COMMSIZE alone where given), the rows of a comparison (compare.csv) whose median call took
# over twice the simulated slowest
far() {
	awk -F, -v cs="${2:-}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["commsize"] == 1 || (cs != "" && $c["commsize"] != cs) { next }
		{ k = $c["mode"] " " $c["commsize"] } $c["bytes_per_peer"] + 0 >= big[k] + 0 && $c["tmax_base"] > 0 {
			big[k] = $c["bytes_per_peer"]; far[k] = $c["tmed_new"] > 2 * $c["tmax_base"] }
		END { for (k in far) n += far[k]; print n + 0 }' "$1"
}

@test "a healthy campaign against its simulation: compared row by row, no level's largest size short by twice the expected (simulated)" {
	smoke_campaign healthy 5
	expected
	run --separate-stderr bash "$ROOT/plots/compare.sh" BASE=expected NEW=healthy "RESULTS=$RES"
	[ "$status" -le 1 ]
	[ "${lines[0]}" = "# aller compare: expected (simulated) BASE 'expected' ($RES/expected) vs measured NEW 'healthy' ($RES/healthy)" ]
	[[ ${lines[-1]} == "compare: 24 points matched against the expected (simulated): "* ]]
	grep ' short$' <<<"$output" || true   # what the noise made short, shown
	[ "$(far "$RES/compare-expected-vs-healthy/compare.csv")" = 0 ]
}

@test "n3's NIC slowed (fabric.sh slow-nic n3 200mbit): every row of the whole world, through it, named short of the expected (simulated), in the report too" {
	run -0 bash "$FABRIC" slow-nic n3 200mbit
	smoke_campaign slownic 5
	expected
	run --separate-stderr -1 bash "$ROOT/plots/compare.sh" BASE=expected NEW=slownic "RESULTS=$RES"
	[ "$(grep -cE '^(contiguous|strided) .* 4 alltoall .* short$' <<<"$output")" = 6 ]
	# the whole world's largest size, each mode, by more than twice (five runs: 2.7-3.5x; healthy,
	# 1.1x at most); the pairs' (commsize 2) by 0.9-2.6x: a TCP flow through a shaped NIC of 200 Mbit/s
	[ "$(far "$RES/compare-expected-vs-slownic/compare.csv" 4)" = 2 ]
	grep -q 'rows fall short of what the fabric should give' "$RES/compare-expected-vs-slownic/findings.tsv"
	run --separate-stderr -0 bash "$ROOT/plots/report.sh" CAMPAIGN=slownic EXPECTED=expected "RESULTS=$RES"
	grep -q '<h2 id="comparison">Expected (simulated): expected</h2>' "$RES/slownic/report.html"
	grep -q 'alt="expected-contiguous-n4.svg"' "$RES/slownic/report.html"
}
