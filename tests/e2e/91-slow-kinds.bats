#!/usr/bin/env bats
# One node's faults told apart by collect's findings on the local cluster
# (issue 79, item 3): a slow receiver (fabric.sh slow-rx), a slow sender
# (slow-tx) and a slow NIC both ways (slow-nic) by a --pairs campaign, said
# as the node's receiving side, its sending side, its NIC; and fabric.sh
# slow-node, a slow node for real (its CPU, not the network). Figures: see
# each test. Not here: collect naming a slow node itself from an ordinary
# campaign's rows within the node (tests/cli/directions.bats, simulated):
# here, beside other work (load 8 on 2 cores), the node held the slowest
# task in 6, 6, 4 and 5 of its 6 such rows (slow-node n3 50 and 99, 20-30
# calls a count), a slowed NIC's node in 1, 2 and 5 of 6: another node's
# 100-300 ms stall beats the cap's stop, so no rule of those rows is steady.
# shellcheck disable=SC2154,SC2016 # bats sets output; single quotes are meant

load ../lib/helpers
load ../lib/cluster

setup_file() {
	campaign_results test-results-slow-kinds
}

setup() {
	fabric_setup
}

teardown() {
	fabric_heal
}

# pairs_campaign NAME: 1 MiB links of the 4 nodes, a task each, merged into $RES/NAME/merged
pairs_campaign() {
	local final
	final=$(submit CAMPAIGN="$1" NODES=4 TASKS_PER_NODE=1 MODES=contiguous LONGS=0 ITERS=3 \
		ALLER_ARGS="--pairs=1M --slow-below=0.1") || return 1
	wait_job "$final" 300
	M=$RES/$1/merged
	cat "$M/suspects.tsv" >&2   # shown when the test fails
}

# The --pairs side (collect/judge/suspects.c): the way whose least slow link
# (a peer's not listed: 1) ran at under half the other's share of the median.
# At 20mbit on 1 Gbit/s NICs, measured 2026-12-07 beside other work (load 8 on
# 2 cores): slow-rx's links into the node at 0.020-0.022 of the median, out of
# it none, one at 0.045, or (a CI run beside a benchmark) all three at
# 0.019-0.057: its ACKs queue behind the shaped data
# (tests/data/pairs/slowrx-*); slow-tx's none into it; slow-nic's all six at
# 0.017-0.022. Each campaign takes about 15 s.

@test "a --pairs campaign says a slow receiver as the node's receiving side, not its NIC" {
	run -0 bash "$FABRIC" slow-rx n2 20mbit
	pairs_campaign rx
	grep -q '^warning	suspect	Suspect host n2: an end of slow links with 3 hosts .*: the links into it (its receiving side) are slow, those out of it far less: a slow receiver\.' "$M/findings.tsv"
	grep -q '^host	n2	an end of slow links with 3 hosts: .* (--pairs; rx: ' "$M/suspects.tsv"
}

@test "a --pairs campaign says a slow sender as the node's sending side" {
	run -0 bash "$FABRIC" slow-tx n3 20mbit
	pairs_campaign tx
	grep -q '^warning	suspect	Suspect host n3: .*: the links out of it (its sending side) are slow, those into it far less: a slow sender\.' "$M/findings.tsv"
	grep -q '^host	n3	an end of slow links with 3 hosts: .* (--pairs; tx: ' "$M/suspects.tsv"
}

@test "a --pairs campaign says a NIC slow both ways as its NIC, neither side alone" {
	run -0 bash "$FABRIC" slow-nic n4 20mbit
	pairs_campaign nic
	grep -q '^warning	suspect	Suspect host n4: .*: a slow NIC or port slows every link through it\.' "$M/findings.tsv"
	grep -q '^host	n4	an end of slow links with 3 hosts: .* (--pairs; both: ' "$M/suspects.tsv"
	run ! grep -q 'receiving side\|sending side' "$M/findings.tsv"
}

# loop NODE: a job step's fixed CPU work on NODE (1e5 empty loops of bash, about
# 0.15 s of CPU), "its cpu cgroup, its ms"
loop() {
	timeout 120 srun -N1 -w "$1" bash -c 'c=$(grep -m1 ":cpu[:,]" /proc/self/cgroup); s=$(date +%s%N)
		for ((i = 0; i < 100000; i++)); do :; done; echo "${c##*:} $(( ($(date +%s%N) - s) / 1000000 ))"'
}

# slow-node n3 50: 1 ms of CPU each 50 ms. Measured 2026-12-07 beside other
# work (load 8-12 on 2 cores): 1e5 loops on n3 6.6 s, on n1 0.19-0.32 s
# (20-35x) in 2 runs; at FACTOR 20, 2e5 loops 6.2-6.5 s against 0.48-0.65 s (10x).
@test "slow-node caps the node's job steps in a cpu group of the port's: its CPU work 3 times slower or more; show lists it, heal removes it, a bad factor is exit 2" {
	run --separate-stderr -2 bash "$FABRIC" slow-node n3 100
	[ "${stderr%%$'\n'*}" = "fabric: error: slow-node: '100' is not a factor 1..99 (its CPU at 1/FACTOR of one)" ]
	run -0 bash "$FABRIC" slow-node n3 50
	g=/sys/fs/cgroup/cpu/aller-$CLUSTER_PORT/n3
	[ "$(cat "$g/cpu.cfs_quota_us") $(cat "$g/cpu.cfs_period_us")" = "1000 50000" ]
	grep -qx "$(cat "$CLUSTER_DIR/run/slurmd-n3.pid")" "$g/cgroup.procs"
	run -0 bash "$FABRIC" show
	[[ $output == *"nic     n3     leaf2  1gbit     up    slow-node n3 50"* ]]
	read -r cg1 ms1 < <(loop n1)
	read -r cg3 ms3 < <(loop n3)
	echo "n1: $cg1 $ms1 ms; n3: $cg3 $ms3 ms"
	[ "$cg1" = / ] && [ "$cg3" = "/aller-$CLUSTER_PORT/n3" ]
	[ "$ms3" -ge $((3 * ms1)) ]
	run -0 bash "$FABRIC" heal
	[ ! -e "$g" ] && [ ! -e "${g%/*}" ]
	run -0 bash "$FABRIC" show
	[[ $output != *slow-node* ]]
	read -r cg3 ms3 < <(loop n3)
	[ "$cg3" = / ]
}
