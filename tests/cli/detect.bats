#!/usr/bin/env bats
# Detection power (issue 79, item 4): the three big fabrics of docs/fabrics/
# give their published figures, a healthy simulated campaign reads healthy,
# and collect locates a fault of each kind the simulator knows on small
# fabrics (bench/bench-detect.sh measures it at 1,000 nodes and more).
# shellcheck disable=SC2154,SC2030,SC2031 # bats sets output, status and stderr

load ../lib/helpers

FAB=$ROOT/docs/fabrics

# per_node WORLD TPN FILE NODES [PER]: the world row's bytes off a node (TPN tasks) over its
# bound, GB/s each way, and its bottleneck; over PER (a node's GPUs) where given.
per_node() {
	run -0 "$ALLER" --check-args="$1" --fabric="$FAB/$3" --nodes="$4" c 2 "$1"
	awk -v w="$1" -v t="$2" -v p="${5:-1}" '$1 == w && $2 == 1 { printf "%.1f %s\n", t * (w - t) * $3 / $4 / 1e9 / p, $5 }' <<<"$output"
}

@test "the three big fabrics give their published figures: Frontier 57.8 GB/s a node, Aurora 129.7, an H100 rail fabric 50 a GPU" {
	# 74 groups of 128 nodes, 4 global links of 25 GB/s a pair: 4 x 25 x 74 / 128
	[ "$(per_node 37888 4 frontier.fabric 'n[1-9472]')" = "57.8 global:g1" ]
	# 166 groups of 64 nodes, 2 links a pair: 2 x 25 x 166 / 64
	[ "$(per_node 84992 8 aurora.fabric 'n[1-10624]')" = "129.7 global:g1" ]
	# a task a GPU, 8 a node on its 8 NICs of 400 Gbit/s: 400 GB/s a node, 50 a GPU
	[ "$(per_node 8192 8 h100-rail.fabric 'n[1-1024]' 8)" = "50.0 nic:n1:ib0" ]
	# the files are bench/gen-fabrics.sh's
	mkdir "$BATS_TEST_TMPDIR/gen"
	"$ROOT/bench/gen-fabrics.sh" "$BATS_TEST_TMPDIR/gen"
	diff -r "$BATS_TEST_TMPDIR/gen" "$FAB"
}

# verdict DIR: the campaign's verdict, "severity<TAB>text".
verdict() { awk -F'\t' '$2 == "verdict" { print $1 "\t" $3 }' "$1/merged/findings.tsv"; }

@test "a healthy simulated 1,024-node fat tree reads healthy: its outputs carry the model's copy rate, the memory binds no network-bound row" {
	run -0 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=t0 FABRIC="$ROOT/bench/fattree-4096.fabric" HOSTS='n[1-1024]' \
		TASKS_PER_NODE=4 MODES="contiguous strided" LONGS=16777216 RESULTS="$BATS_TEST_TMPDIR/res"
	out=("$BATS_TEST_TMPDIR"/res/t0/raw/*.out)
	grep -q '^# limit: copy n1: 400 GB/s read + written, simulated' "${out[0]}"
	[[ $(verdict "$BATS_TEST_TMPDIR/res/t0") == "info	"*"the network-bound rows reach 8"[0-9]"%-8"[0-9]"% of what the topology allows"* ]]
	[ -z "$(awk -F'\t' '$1 == "warning"' "$BATS_TEST_TMPDIR/res/t0/merged/findings.tsv")" ]
	# a site's node copies at its own rate: 5 GB/s binds the fabric's 25 GB/s NICs, and the verdict says it
	run -0 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=slowmem FABRIC="$ROOT/bench/fattree-4096.fabric" HOSTS='n[1-64]' \
		TASKS_PER_NODE=4 LONGS=16777216 COPY_RATE=5GB/s RESULTS="$BATS_TEST_TMPDIR/res"
	grep -q '^# limit: copy n1: 5 GB/s read + written' "$BATS_TEST_TMPDIR"/res/slowmem/raw/*.out
	[[ $(verdict "$BATS_TEST_TMPDIR/res/slowmem") == "warning	"* ]]
	run --separate-stderr -2 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=bad FABRIC="$ROOT/bench/fattree-4096.fabric" \
		HOSTS='n[1-4]' COPY_RATE=fast RESULTS="$BATS_TEST_TMPDIR/res"
	[ "$stderr" = "simulate: error: invalid copy rate 'fast': allowed is a rate, a number and kbit, mbit, gbit, gbps or GB/s (400GB/s)" ]
}

# sim NAME FABRIC HOSTS TPN [simulate's options...]: a simulated campaign of both modes, 1 MiB a
# task, merged and judged; its suspects ("kind name") in $output, collect's stderr in $stderr.
sim() {
	local name=$1 fabric=$2 hosts=$3 tpn=$4
	shift 4
	"$BUILD/bin/simulate" --results="$BATS_TEST_TMPDIR/$name" --campaign="$name" --fabric="$fabric" --hosts="$hosts" \
		--tasks-per-node="$tpn" --modes="contiguous strided" --longs="${LONGS:-1048576}" \
		--start=2026-01-01T00:00:00Z "$@"
	run --separate-stderr "$COLLECT" -q -o "$BATS_TEST_TMPDIR/$name/merged" "$BATS_TEST_TMPDIR/$name/raw"
	[ "$status" -le 1 ]
	output=$(tail -n +2 "$BATS_TEST_TMPDIR/$name/merged/suspects.tsv" | cut -f1,2 | tr '\t' ' ' | paste -sd, -)
}

# located NAME: the located finding's severity and words.
located() { awk -F'\t' '$2 == "located" { print $1 ": " $3 }' "$BATS_TEST_TMPDIR/$1/merged/findings.tsv"; }

setup() {
	T=$BATS_TEST_TMPDIR/nb.fabric   # a non-blocking two-tier tree: 4 leaves of 8 nodes
	printf 'switch spine - leaf[1-4]\n' >"$T"
	for l in 1 2 3 4; do printf 'switch leaf%d 8gbit n[%d-%d]\n' "$l" $((l * 8 - 7)) $((l * 8)) >>"$T"; done
	printf 'nic n[1-32] 1gbit\n' >>"$T"
	R=$BATS_TEST_TMPDIR/rails.fabric   # 16 nodes of two rails, each rail's leaf non-blocking
	printf 'switch spine - rail0 rail1\nswitch rail0 16gbit n[1-16]:eth0\nswitch rail1 16gbit n[1-16]:eth1\n' >"$R"
	printf 'nic n[1-16]:eth0 1gbit\nnic n[1-16]:eth1 1gbit\n' >>"$R"
}

@test "a NIC at a quarter of its rate, either way or both, is located and its host named; healthy, nothing is" {
	for f in 'slow-nic n5 250mbit' 'slow-tx n12 250mbit' 'slow-rx n20 250mbit'; do
		read -r kind node _ <<<"$f"
		sim "$kind" "$T" 'n[1-32]' 2 --faults="$f"
		[ "$output" = "link nic:$node,host $node" ]
		[[ $(located "$kind") == "warning: The slow link is the NIC of $node: "* ]]
	done
	sim healthy "$T" 'n[1-32]' 2
	[ "$output" = "" ]
	[ -z "$(awk -F'\t' '$1 == "warning"' "$BATS_TEST_TMPDIR/healthy/merged/findings.tsv")" ]
}

@test "a leaf's uplink at a quarter of its rate, on 256 and on 1,024 nodes (the issue's leaf3), are located on the fat tree" {
	LONGS=16777216 sim half "$ROOT/bench/fattree-4096.fabric" 'n[1-256]' 4 --faults='slow-uplink leaf3 800gbit'
	[ "$output" = "link up:leaf3" ]
	[[ $(located half) == "warning: The slow link is the uplink of leaf3: "* ]]
	LONGS=16777216 sim quarter "$ROOT/bench/fattree-4096.fabric" 'n[1-1024]' 4 --faults='slow-uplink leaf3 800gbit'
	[ "$output" = "link up:leaf3" ]
}

@test "one rail's NIC at a quarter of its rate is located as NODE:IF and its node named a suspect, with no word against the name; all of a node's NICs as its node" {
	sim rail "$R" 'n[1-16]' 2 --faults='slow-nic n3:eth1 250mbit'
	[ "$output" = "link nic:n3:eth1,host n3" ]
	[ "$stderr" = "" ]
	[[ $(located rail) == "warning: The slow link is the NIC of n3:eth1: "* ]]
	# both of a node's NICs: its node's, all of them (its NICs alone were each in half the slow rows)
	sim node "$R" 'n[1-16]' 2 --faults='slow-nic n5 250mbit'
	[ "$output" = "link nic:n5,host n5" ]
	sim healthy "$R" 'n[1-16]' 2
	[ "$output" = "" ]
}

@test "a slow node whose rows run at a quarter of their bound is named: the node itself, not its NIC" {
	sim node "$T" 'n[1-32]' 2 --faults='slow-node n7 16' --copy=1GB/s
	[ "$output" = "host n7" ]
}

@test "a slowed pair of a dragonfly's groups is located by its name, never blamed on a group's switch, whose uplink is no link; a healthy run on 8 of 74 groups reads healthy against all their global links" {
	# at half their rate: only the strided pairs of g3 and g7 through them, 33-166x slower than the median
	LONGS=16777216 sim global "$FAB/frontier.fabric" 'n[1-1024]' 4 --copy=2000GB/s --seed=3 --faults='slow-global g7 g3 100gbit'
	[ "$output" = "link global:g3:g7" ]
	[[ $(located global) == "warning: The slow link is the global links from g3 to g7: "* ]]
	LONGS=16777216 sim global "$FAB/frontier.fabric" 'n[1-1024]' 4 --copy=2000GB/s --seed=3 --faults='slow-global g7 g8 50gbit'
	[[ $output != *"up:s"* ]]
	LONGS=16777216 sim healthy "$FAB/frontier.fabric" 'n[1-1024]' 4 --copy=2000GB/s
	[ "$output" = "" ]
	# 8 of its 74 groups: adaptive routing goes through any of them, as the simulator's bound and aller's
	# say (collect counted the run's 8 alone, a tenth of the links, and read rows at 875% of its bound)
	[[ $(verdict "$BATS_TEST_TMPDIR/healthy") == "info	"*"the network-bound rows reach "[78][0-9]"%-"[89][0-9]"% of what the topology allows"* ]]
}

@test "a link at half its rate is located where the campaign's rows are tight (their median tasks within 1.3x): a NIC either way, an uplink; a loaded real campaign is not" {
	for f in 'slow-nic n5 500mbit' 'slow-tx n12 500mbit' 'slow-rx n20 500mbit'; do
		read -r kind node _ <<<"$f"
		sim "$kind" "$T" 'n[1-32]' 2 --faults="$f"
		[ "$output" = "link nic:$node,host $node" ]
		[[ $(located "$kind") == "warning: The slow link is the NIC of $node: "*" rows ran at "[34][0-9]"%-"[34][0-9]"% of what"* ]]
	done
	LONGS=16777216 sim up "$ROOT/bench/fattree-4096.fabric" 'n[1-256]' 4 --faults='slow-uplink leaf3 1600gbit'
	[ "$output" = "link up:leaf3" ]
	# a real healthy campaign, loaded, its median tasks at 0.60-0.97 of their bound: not tight, not judged at
	# half (its four rows at 0.39-0.46 through n3 and n4 would name their NICs): tests/data/loaded-healthy
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/loaded" "$ROOT"/tests/data/loaded-healthy/*.out
	[ "$(cut -f 1,2 "$BATS_TEST_TMPDIR/loaded/suspects.tsv" | tail -n +2 | tr '\t\n' ' ')" = "host n1 " ]
	run ! grep -q '	located	' "$BATS_TEST_TMPDIR/loaded/findings.tsv"
}

@test "real campaigns with one uplink slowed name the uplink, never NICs: a loaded machine's rows at 0.3-0.5 of their bound neither slow by a spread of 1.5-2 nor clearing only links at half their rate" {
	for d in slowup-leaves slowup-leaves2 slowup-fabric; do
		run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/$d" "$ROOT"/tests/data/"$d"/*.out
	done
	for d in slowup-leaves slowup-leaves2; do
		[[ $(awk -F'\t' '$2 == "located" { print $1 ": " $3 }' "$BATS_TEST_TMPDIR/$d/findings.tsv") == "warning: The slow link is the uplink of leaf1: "* ]]
	done
	[[ $(awk -F'\t' '$2 == "located" { print $1 ": " $3 }' "$BATS_TEST_TMPDIR/slowup-fabric/findings.tsv") == "notice: A slow link is the uplink of leaf1 or the uplink of leaf2: "* ]]
	run ! grep -q 'nic:' "$BATS_TEST_TMPDIR"/slowup-*/suspects.tsv
}

@test "a centre's point keeps its whole fabric: 9,472 Frontier-like nodes' 75,926 fabric lines (2.8 MB of facts) all in facts.tsv; past 64 MiB a point's facts are cut with a warning, once" {
	"$BUILD/bin/simulate" --results="$BATS_TEST_TMPDIR/big" --campaign=big --fabric="$FAB/frontier.fabric" \
		--hosts='n[1-9472]' --tasks-per-node=4 --modes=contiguous --longs=65536 --start=2026-01-01T00:00:00Z
	run --separate-stderr -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/big/m" "$BATS_TEST_TMPDIR/big/raw"
	want=$(grep -c '^# fabric: ' "$BATS_TEST_TMPDIR"/big/raw/*.out)
	[ "$want" -gt 70000 ]
	# (it kept 1 MiB: 33,246 of them, and judged the rows on a fabric cut short)
	[ "$(awk -F'\t' '$2 == "fabric"' "$BATS_TEST_TMPDIR/big/m/facts.tsv" | wc -l)" = "$want" ]
	# a doctored header of 70 MB: cut at 64 MiB, said once, the rows still read
	f=$BATS_TEST_TMPDIR/doctored.out
	head -n 12 "$BATS_TEST_TMPDIR"/big/raw/*.out >"$f"
	awk 'BEGIN { for (i = 0; i < 1100000; i++) printf "# fabric: node n%d leaf-with-a-long-name-%064d\n", i, i }' >>"$f"
	grep -v '^# fabric: ' "$BATS_TEST_TMPDIR"/big/raw/*.out | tail -n +12 >>"$f"
	run --separate-stderr -1 "$COLLECT" -o "$BATS_TEST_TMPDIR/doc" "$f"
	[ "$(grep -c 'facts' <<<"$stderr")" = 1 ]
	[[ $stderr == *"doctored.out:"*": the header's facts (fabric, hosts) past 64 MiB dropped, this line's and those after it: the point's fabric and hosts are cut there"* ]]
	[ "$(tail -n +2 "$BATS_TEST_TMPDIR/doc/points.csv" | wc -l)" -gt 0 ]
}
