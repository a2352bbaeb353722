#!/usr/bin/env bats
# The MPI stacks through the job templates on the local cluster (issue 64):
# one campaign over Open MPI's ob1 over TCP, UCX and cm + OFI, each a
# VARIANTS row naming its stack (ALLER_STACK; common/stacks.h), and MPICH's
# UCX as a second series of it (MPI=mpich, srun --mpi=pmi2), 4 nodes x 2
# tasks, contiguous and strided, over the fabric's own NICs: every point
# complete and verified, each node's eth0 carrying what aller sent off it
# (but MPICH's UCX: the emulated nodes share one kernel, and UCX moves their
# bytes through shared memory, which the counters show), each row against
# its bound, and two stacks compared point by point.
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers
load ../lib/cluster

setup_file() {
	campaign_results test-results-stacks
	[ -s "$CLUSTER_DIR/fabric/links" ] || skip "the cluster runs without the fabric (CLUSTER_FABRIC=lo)"
	final=$(submit CAMPAIGN=stacks NODES=4 TASKS_PER_NODE=2 MODES="contiguous strided" LONGS=524288 ITERS=5 \
		ALLER_ARGS=--min-bytes=256K VARIANTS="ob1-tcp:ALLER_STACK=ob1-tcp ucx:ALLER_STACK=ucx ofi:ALLER_STACK=ofi")
	wait_job "$final" 300
	final=$(submit CAMPAIGN=stacks NODES=4 TASKS_PER_NODE=2 MODES="contiguous strided" LONGS=524288 ITERS=5 \
		ALLER_ARGS=--min-bytes=256K VARIANTS="mpich-ucx:ALLER_STACK=mpich-ucx" MPI=mpich "LAUNCHER=srun --mpi=pmi2" FORCE=1)
	wait_job "$final" 300
}

setup() {
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
	M=$RES/stacks/merged
}

@test "every stack's points complete and verified through the templates, each output naming its stack and what it set" {
	run -0 bash "$ROOT/campaigns/status.sh" "RESULTS=$RES" CAMPAIGN=stacks
	[ "$(grep -c ' complete$' <<<"$output")" = 8 ]
	for s in ob1-tcp ucx ofi mpich-ucx; do
		for mode in contiguous strided; do
			f=$(latest "$RES"/stacks/raw/stacks-n4-$mode-t2-L524288-$s-s[12]-*.out)
			grep -q "^# stack: $s: .*(ALLER_STACK set: [A-Z]" "$f"
			grep -qx '# Done' "$f"
		done
	done
	grep -q '^# mpi: MPICH Version: 4' "$(latest "$RES"/stacks/raw/stacks-n4-strided-t2-L524288-mpich-ucx-s2-*.out)"
	grep -q '^# stack: ucx: .* UCX_NET_DEVICES=eth0)$' "$(latest "$RES"/stacks/raw/stacks-n4-strided-t2-L524288-ucx-s1-*.out)"
	grep -q '^# stack: ofi: .* FI_TCP_IFACE=eth0)$' "$(latest "$RES"/stacks/raw/stacks-n4-strided-t2-L524288-ofi-s1-*.out)"
}

@test "each Open MPI stack's traffic crosses the fabric's NICs (every node's eth0 sent 0.99-1.2 of what aller sent off it); MPICH's UCX takes the emulated nodes for one machine, and the counters say so; every world has its bound" {
	# point -> variant, then each node's eth0 against aller's bytes
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $1, $(c["variant"]) }' "$M/points-index.csv" >"$BATS_TEST_TMPDIR/variants"
	awk -F'\t' 'FILENAME ~ /variants/ { split($0, v, " "); variant[v[1]] = v[2]; next }
		$2 == "nic_counters" { for (i = 1; i <= split($3, w, " "); i++) { if (w[i] ~ /^offnode_tx_B=/) { split(w[i], a, "=") }
		if (w[i] ~ /^tx_bytes=/) { split(w[i], t, "="); r = t[2] / a[2]; k = variant[$1] == "mpich-ucx" ? "mpich" : "openmpi"
			n[k]++; if (k == "openmpi" && (r < 0.99 || r > 1.2)) { bad = 1; print } if (k == "mpich" && r > 0.01) { bad = 1; print } } } }
		END { exit bad || n["openmpi"] != 24 || n["mpich"] != 8 }' "$BATS_TEST_TMPDIR/variants" "$M/facts.tsv"
	# ... and the findings name each node of MPICH's points, none of Open MPI's
	[ "$(grep -cP '^notice\tnics\tOn 4 nodes \((contiguous|strided), mpich-ucx\): n[1-4]'"'"'s NICs sent 0.00x the bytes aller'"'"'s calls sent off the node .*shared memory across what Slurm calls nodes' "$M/findings.tsv")" = 8 ]
	[ "$(grep -cP '\tnics\t' "$M/findings.tsv")" = 8 ]
	# the 4-node world of each stack and mode: bound by leaf1's uplink (8 MiB a call at 1 Gbit/s at 1 MiB)
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["commsize"]) == 8 && $(c["bytes_per_peer"]) == 524288 && $(c["bottleneck"]) == "up:leaf1" { n++ } END { print n }' "$M/points.csv")" = 8 ]
}

@test "two stacks of one campaign compared point by point (collect --compare DIR@VARIANT): a verdict per size, the stack the setting that differs" {
	run "$COLLECT" --compare "$RES/stacks@ob1-tcp" "$RES/stacks@ucx"
	[ "$status" -le 1 ]   # 1: something slower
	[[ $output == *"# setting that differs: stack: BASE 'ob1-tcp: "*"| NEW 'ucx: "* ]]
	[ "$(grep -cE ' (same|noise|faster|slower)$' <<<"$output")" -ge 20 ]
	run --separate-stderr -2 "$COLLECT" --compare "$RES/stacks@ob1-tcp" "$RES/stacks@b;d"
	[[ $stderr == "collect: error: invalid variant 'b;d' in "* ]]
}
