#!/usr/bin/env bats
# The local cluster's rates through the number door (cluster-plan rate,
# docs/security.md "Numbers, rates and ranges"): a "slow" NIC is never made
# faster than it is built, and a refused rate records no fault (H2-9).
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers
load ../lib/cluster

setup_file() {
	cluster_up
}

setup() {
	fabric_setup
	FAULTS=$CLUSTER_DIR/fabric/faults
}

teardown() {
	fabric_heal
}

@test "slow-nic above the NIC's built rate is refused before anything is recorded: one line, exit 2" {
	built=$(awk -F'\t' '$1 == "nic" && $2 == "n2" { print $4 }' "$CLUSTER_DIR/fabric/links")
	[ -n "$built" ]
	run --separate-stderr -2 bash "$FABRIC" slow-nic n2 "$((built * 2))kbit"
	[ "$stderr" = "fabric: error: slow-nic: rate '$((built * 2))kbit' is not allowed: a decimal number and kbit, mbit or gbit, from 8kbit to ${built}kbit (the NIC's built rate)" ]
	[ ! -s "$FAULTS" ]
	run --separate-stderr -2 bash "$FABRIC" slow-nic n2 9999999999999999999999gbit
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ ! -s "$FAULTS" ]
	# at its built rate, or below, it is a fault like any other
	run -0 bash "$FABRIC" slow-nic n2 "$((built / 2))kbit"
	grep -qx "slow-nic n2 $((built / 2))kbit" "$FAULTS"
}
