#!/usr/bin/env bats
# Detection power (issue 79, item 4): the three big fabrics of docs/fabrics/
# give their published figures, a healthy simulated campaign reads healthy,
# and collect locates a fault of each kind the simulator knows on small
# fabrics (bench/bench-detect.sh measures it at 1,000 nodes and more).
# shellcheck disable=SC2154 # bats sets output and stderr

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
