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
