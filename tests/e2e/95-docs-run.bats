#!/usr/bin/env bats
# The commands README.md, docs/*.md and the manual pages mark "runs on the
# local cluster" (docs/development.md, "The documented commands"), run as a
# newcomer copies them: from the tree's root, in a clean environment after
# . build/cluster/env.sh, one shell per block, at small sizes (the mark's
# "with LONGS=... ITERS=..."). The cluster comes up once for the file; the
# docs' own make cluster-down runs last and leaves it down, as
# 90-cluster-down.bats does.
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers
load ../lib/cluster
load ../lib/docs

setup_file() {
	campaign_results docs-run
	# make demo's campaign anew: collect(1)'s examples merge it, and a
	# demo run again leaves points run again (collect exits 1 on them)
	rm -rf "$ROOT/results/demo"
}

# run_block FILE:LINE: the block runs, every command exiting 0
run_block() {
	run -0 run_doc_block "$1" "$RES"
	printf '%s\n' "$output"
}

@test "README: after . build/cluster/env.sh a clean shell finds the tree's aller and collect" {
	run -0 env -i HOME="$HOME" PATH=/usr/bin:/bin bash -c ". '$ROOT/build/cluster/env.sh' && command -v aller collect"
	[ "$output" = "$ROOT/build/bin/aller
$ROOT/build/bin/collect" ]
}

@test "every block the docs mark 'runs on the local cluster' runs as written, cluster-down last" {
	mapfile -t blocks < <(doc_blocks 'runs on the local cluster')
	[ "${#blocks[@]}" -ge 6 ]
	down=
	for b in "${blocks[@]}"; do
		if (cd "$ROOT" && tools/doc-commands) | awk -F'\t' -v b="$b" '$1 == b' | grep -q 'make cluster-down'; then
			down=$b
			continue
		fi
		run_block "$b"
	done
	# what the text says they leave: README's campaign its plots and report,
	# docs/aller.md's links campaign the node pairs, make demo its plots
	# (collect(1)'s examples read them: they run after it)
	[ -s "$RES/fabric/plots/bandwidth-contiguous-n4.png" ]
	[ -s "$RES/fabric/report.html" ]
	[ "$(awk '/^[0-9]/ && $1 != $2' "$RES/links/merged/pairs.dat" | wc -l)" -eq 12 ]
	ls "$ROOT"/results/demo/plots/bandwidth-strided-n4.png
	[ -n "$down" ]
	run_block "$down"
	run -1 bash "$ROOT/cluster/status.sh" -q
}
