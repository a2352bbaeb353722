#!/usr/bin/env bats
# The slow link on the local cluster: its two leaf switches (topology.conf),
# aller --pairs across the nodes, a --pairs campaign with SWITCHES, the
# topology in the jobs' provenance, the heatmap and the report's slow links.
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers
load ../lib/cluster

setup_file() {
	campaign_results test-results-links
}

setup() {
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
}

@test "the local cluster has two leaf switches under a spine" {
	run -0 scontrol show topology
	[[ $output == *"SwitchName=leaf1 "*"Nodes=n[1-2]"* ]]
	[[ $output == *"SwitchName=leaf2 "*"Nodes=n[3-4]"* ]]
	[[ $output == *"SwitchName=spine "*"Switches=leaf[1-2]"* ]]
}

@test "--pairs across four nodes: the link made slow is the one slow link, named with its hosts" {
	out=$BATS_TEST_TMPDIR/pairs.out
	ALLER_TEST_SLOW_PAIR=3:0:300000 srun_aller -N4 -n4 --mpi=pmix "$ALLER" --pairs=1M \
		--slow-below=0.1 0 5 >"$out"
	printf '%s\n' "$(grep '^# slow_link' "$out")"   # shown when the test fails
	[ "$(grep -c '^# slow_link: ' "$out")" = 1 ]
	grep -q '^# slow_link: 3 (n4) -> 0 (n1): ' "$out"
	grep -q '^0 1 n1 n2 [0-9.e+-]* ' "$out"
	grep -qx '# Done' "$out"
}

@test "a --pairs campaign with SWITCHES: the topology in each output, the heatmap, the report's slow links by switch" {
	final=$(ALLER_TEST_SLOW_PAIR=3:0:300000 submit CAMPAIGN=links NODES=4 TASKS_PER_NODE=1 \
		MODES=contiguous LONGS=0 ITERS=5 SWITCHES=2 LINKSPEED_UNIT=gbit ALLER_ARGS="--pairs=1M --slow-below=0.1")
	wait_job "$final" 300
	run -0 status CAMPAIGN=links
	f=$(latest "$RES"/links/raw/*.out)
	grep -q '^# topology: SwitchName=leaf1 ' "$f"
	grep -qx '# node_switch: n1 leaf1' "$f"
	grep -qx '# node_switch: n4 leaf2' "$f"
	grep -qx '# fabric: uplink_linkspeed leaf2 1gbit' "$f"   # topology.conf's LinkSpeed=1, in the unit given
	grep -qx '# fabric: parent leaf1 spine' "$f"   # the switch above each leaf: the tree the bound follows
	grep -q '^# slow_link: 3 (n4) -> 0 (n1): ' "$f"
	ls "$RES"/links/plots/pairs-*.png
	run -0 make -s -C "$ROOT" report CAMPAIGN=links RESULTS="$RES"
	grep -q 'Slow links (aller --pairs)' "$RES/links/report.html"
	# the page leads with the finding that names the slow link, before any plot (as a browser builds it)
	if command -v chromium >/dev/null; then
		chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chromium" \
			--dump-dom "file://$RES/links/report.html" >"$BATS_TEST_TMPDIR/dom.html" 2>/dev/null
		dom=$BATS_TEST_TMPDIR/dom.html
		v=$(grep -bo '<p class="verdict warning">[^<]*slow links were found' "$dom" | cut -d: -f1)
		s=$(grep -bo '<li class="warning"><span class="sev">warning</span> Slow link 3 (n4) -&gt; 0 (n1)' "$dom" | cut -d: -f1)
		fig=$(grep -bo '<figure>' "$dom" | head -n 1 | cut -d: -f1)
		[ -n "$v" ] && [ -n "$s" ] && [ -n "$fig" ] && [ "$v" -lt "$s" ] && [ "$s" -lt "$fig" ]
	fi
	grep -q 'slow_link: 3 (n4) -&gt; 0 (n1)' "$RES/links/report.html"
	grep -q 'leaf1: n1 n2; leaf2: n3 n4' "$RES/links/report.html"
	# sbatch is asked for the switches; a bad value is one line
	run -0 submit CAMPAIGN=links-dry NODES=2 SWITCHES=1@5:00 DRYRUN=1
	[[ $output == *" --switches=1@5:00 "* ]]
	run -2 submit CAMPAIGN=links-bad SWITCHES=two
	[[ $output == *"invalid SWITCHES 'two'"* ]]
	# whole nodes are another measurement: EXCLUSIVE is identity
	run -0 submit CAMPAIGN=links-whole NODES=2 EXCLUSIVE=1 DRYRUN=1
	[[ $output == *" --exclusive "* ]]
	run -2 submit CAMPAIGN=links EXCLUSIVE=1
	[[ $output == *"was made with EXCLUSIVE=, not 1"* ]]
}
