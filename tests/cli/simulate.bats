#!/usr/bin/env bats
# make simulate, aller-simulate and build/bin/simulate: a campaign drawn from the fabric model,
# merged and judged by collect, never taken for a measurement.
# shellcheck disable=SC2154,SC2016,SC2030,SC2031 # bats sets output and stderr; single quotes are meant; a test's ARGS is its own

load ../lib/helpers

SIM=$BUILD/bin/simulate

setup() {
	F=$BATS_TEST_TMPDIR/site.fabric
	cat >"$F" <<-'EOF'
		switch leaf1 1gbit n[1-2]
		switch leaf2 1gbit n[3-4]
		nic n[1-4] 1gbit
	EOF
	D=$BATS_TEST_TMPDIR/dragonfly.fabric
	cat >"$D" <<-'EOF'
		switch t1 - n[1-2]
		switch t2 - n[3-4]
		switch t3 - n[5-6]
		nic n[1-6] 10gbit
		group g1 t1
		group g2 t2
		group g3 t3
		global 1 1gbit
	EOF
	ARGS=(--fabric="$F" --hosts='n[1-4]' --tasks-per-node=2 --longs=1048576 --start=2026-01-01T00:00:00Z)
}

# sim OUT ARGS...: aller-simulate's output of the 4 nodes of site.fabric into OUT.
sim() {
	local out=$1
	shift
	"$SIM" "${ARGS[@]}" "$@" >"$out"
}

# rows COMMSIZE FILE: "count tmax_s" of each row of that communicator size (the
# slowest communicator's calls: a fault may slow one of several).
rows() {
	awk -v g="$1" '/^[0-9]/ && $2 == g { print $3, $7 }' "$2"
}

@test "make simulate writes a campaign as a campaign would, merged and judged by collect" {
	run make -s -C "$ROOT" simulate CAMPAIGN=sim1 FABRIC="$F" HOSTS='n[1-4]' NODES='2 4' TASKS_PER_NODE=2 \
		LONGS=1048576 'MODES=contiguous strided' RESULTS="$BATS_TEST_TMPDIR/res"
	[ "$status" = 0 ]
	dir=$BATS_TEST_TMPDIR/res/sim1
	[ "$(find "$dir/raw" -name '*.out' | wc -l)" = 4 ]
	grep -q '^manifest 2$' "$dir/manifest"
	grep -q '^plan .* n4-strided-t2-L1048576-default-s1$' "$dir/manifest"
	[ "$(tail -n +2 "$dir/merged/points-index.csv" | grep -c ',complete,')" = 4 ]
	grep -q 'verdict	Simulated (aller-simulate' "$dir/merged/findings.tsv"
	# the keys and the names are manifest.sh's
	. "$ROOT/campaigns/manifest.sh"
	for f in "$dir"/raw/*.out; do
		[[ ${f##*/} =~ ^sim1-($POINT_KEY_RE)-[0-9]{8}T[0-9]{6}Z-[0-9]+-j1-a01\.out$ ]]
		point_parse "${BASH_REMATCH[1]}"
		grep -qx "# point_series: $P_IDENT" "$f"
	done
}

@test "NODES defaults to all of HOSTS" {
	run bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim2 FABRIC="$F" HOSTS='n[1-2] n3,n4' TASKS_PER_NODE=1 \
		LONGS=65536 RESULTS="$BATS_TEST_TMPDIR/res"
	[ "$status" = 0 ]
	raw=("$BATS_TEST_TMPDIR"/res/sim2/raw/*.out)
	[ "${#raw[@]}" = 1 ]
	[[ ${raw[0]##*/} == sim2-n4-contiguous-t1-L65536-default-s1-* ]]
	grep -qx 'setting NODES=4' "$BATS_TEST_TMPDIR/res/sim2/manifest"
}

@test "each simulated output says so in its header, with the model and the seed" {
	sim "$BATS_TEST_TMPDIR/a.out" --seed=42 --faults='slow-nic n3 100mbit'
	grep -q '^# simulated: model=bound .* seed=42 faults=slow-nic n3 100mbit$' "$BATS_TEST_TMPDIR/a.out"
	grep -q '^# mpi: none (simulated)$' "$BATS_TEST_TMPDIR/a.out"
	[ "$(tail -n 2 "$BATS_TEST_TMPDIR/a.out" | head -n 1)" = '# Done' ]
}

@test "the same seed gives the same output, another seed another" {
	sim "$BATS_TEST_TMPDIR/a.out" --seed=7
	sim "$BATS_TEST_TMPDIR/b.out" --seed=7
	sim "$BATS_TEST_TMPDIR/c.out" --seed=8
	cmp "$BATS_TEST_TMPDIR/a.out" "$BATS_TEST_TMPDIR/b.out"
	run ! cmp -s <(grep -v '^#' "$BATS_TEST_TMPDIR/a.out") <(grep -v '^#' "$BATS_TEST_TMPDIR/c.out")
}

@test "a world of 10^5 tasks and LONGS of 2^30 allocate no buffers" {
	big=$BATS_TEST_TMPDIR/big.fabric
	{ echo 'switch l1 100gbit n[1-1000]'; echo 'nic n[1-1000] 100gbit'; } >"$big"
	run "$SIM" --fabric="$big" --hosts='n[1-1000]' --tasks-per-node=100 --longs=1073741824 \
		--aller-args='--min-bytes=1G'
	[ "$status" = 0 ]
	[[ $output == *'# world: 100000'* ]]
	[[ $output == *'# Done'* ]]
}

@test "a slow uplink slows the rows that cross it and no other" {
	sim "$BATS_TEST_TMPDIR/a.out"
	sim "$BATS_TEST_TMPDIR/b.out" --faults='slow-uplink leaf1 100mbit'
	# communicators of 4 (contiguous) stay under one leaf; of 8 they cross both uplinks
	[ "$(rows 4 "$BATS_TEST_TMPDIR/a.out")" = "$(rows 4 "$BATS_TEST_TMPDIR/b.out")" ]
	paste <(rows 8 "$BATS_TEST_TMPDIR/a.out") <(rows 8 "$BATS_TEST_TMPDIR/b.out") |
		awk '$4 < 5 * $2 { bad = 1 } END { exit bad }'
}

@test "a slow NIC, one way or both, slows its node's rows off the node" {
	sim "$BATS_TEST_TMPDIR/a.out"
	for f in 'slow-nic n3 100mbit' 'slow-tx n3 100mbit' 'slow-rx n3 100mbit'; do
		sim "$BATS_TEST_TMPDIR/b.out" --faults="$f"
		[ "$(rows 2 "$BATS_TEST_TMPDIR/a.out")" = "$(rows 2 "$BATS_TEST_TMPDIR/b.out")" ]
		paste <(rows 4 "$BATS_TEST_TMPDIR/a.out") <(rows 4 "$BATS_TEST_TMPDIR/b.out") |
			awk '$4 < 3 * $2 { bad = 1 } END { exit bad }'
	done
}

@test "with rails, a slow NIC by its interface slows its rail's rows" {
	r=$BATS_TEST_TMPDIR/rails.fabric
	printf 'switch rail0 1gbit n[1-4]:eth0\nswitch rail1 1gbit n[1-4]:eth1\nnic n[1-4]:eth0 1gbit\nnic n[1-4]:eth1 1gbit\n' >"$r"
	ARGS=(--fabric="$r" --hosts='n[1-4]' --tasks-per-node=2 --longs=1048576)
	sim "$BATS_TEST_TMPDIR/a.out"
	sim "$BATS_TEST_TMPDIR/b.out" --faults='slow-nic n3:eth1 100mbit'
	grep -q '^# fabric: switch n3:eth1 rail1$' "$BATS_TEST_TMPDIR/a.out"
	paste <(rows 8 "$BATS_TEST_TMPDIR/a.out") <(rows 8 "$BATS_TEST_TMPDIR/b.out") |
		awk '$4 < 3 * $2 { bad = 1 } END { exit bad }'
	run --separate-stderr -2 "$SIM" "${ARGS[@]}" --faults='slow-nic n3:eth7 100mbit'
	[[ $stderr == "simulate: error: invalid fault 'slow-nic n3:eth7 100mbit'"* ]]
}

@test "a node moved under another switch loads that switch's uplink" {
	sed -i 's/1gbit n/500mbit n/' "$F"   # uplinks of half a NIC's rate: crossing one costs twice
	sim "$BATS_TEST_TMPDIR/a.out"
	sim "$BATS_TEST_TMPDIR/b.out" --faults='move n2 leaf2'
	# communicator {n1,n2} now crosses both uplinks
	paste <(rows 4 "$BATS_TEST_TMPDIR/a.out") <(rows 4 "$BATS_TEST_TMPDIR/b.out") |
		awk '$4 < 1.5 * $2 { bad = 1 } END { exit bad }'
}

@test "a slow node slows the rows inside it, not the network's" {
	sim "$BATS_TEST_TMPDIR/a.out"
	sim "$BATS_TEST_TMPDIR/b.out" --faults='slow-node n1 10'
	paste <(rows 2 "$BATS_TEST_TMPDIR/a.out") <(rows 2 "$BATS_TEST_TMPDIR/b.out") |
		awk '$4 < 5 * $2 { bad = 1 } END { exit bad }'
	# at 1 MiB per peer across 8 tasks the network binds: the straggler's copy hides behind it
	paste <(rows 8 "$BATS_TEST_TMPDIR/a.out") <(rows 8 "$BATS_TEST_TMPDIR/b.out") | head -n 1 |
		awk '$4 > 1.1 * $2 { bad = 1 } END { exit bad }'
}

@test "a slow pair of dragonfly groups slows the rows that span both" {
	local dfly=(--fabric="$D" --hosts='n[1-6]' --tasks-per-node=1 --longs=1048576)
	"$SIM" "${dfly[@]}" >"$BATS_TEST_TMPDIR/a.out"
	"$SIM" "${dfly[@]}" --faults='slow-global g1 g2 100mbit' >"$BATS_TEST_TMPDIR/b.out"
	paste <(rows 6 "$BATS_TEST_TMPDIR/a.out") <(rows 6 "$BATS_TEST_TMPDIR/b.out") |
		awk '$4 < 3 * $2 { bad = 1 } END { exit bad }'
	[ "$(rows 1 "$BATS_TEST_TMPDIR/a.out")" = "$(rows 1 "$BATS_TEST_TMPDIR/b.out")" ]
}

@test "a bad fault is one line naming it, exit 2, before anything is written" {
	for f in 'slow-nic n9 1gbit' 'slow-nic n1 fast' 'slow-uplink spine 1gbit' 'move n1 nowhere' \
		'slow-node n1 0.5' 'slow-global g1 g2 1gbit' 'slow-nic n1:eth1 1gbit' 'melt n1' 'slow-nic n1'; do
		run --separate-stderr -2 "$SIM" "${ARGS[@]}" --faults="slow-nic n2 1gbit; $f"
		[ -z "$output" ]
		[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
		[[ $stderr == "simulate: error: invalid fault '$f'"* ]]
	done
	run --separate-stderr -2 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=bad FABRIC="$F" HOSTS='n[1-4]' \
		FAULTS='melt n1' RESULTS="$BATS_TEST_TMPDIR/res"
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
	[ ! -e "$BATS_TEST_TMPDIR/res/bad" ]
}

@test "no fabric file or no hosts is one line, exit 2" {
	run --separate-stderr -2 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=none HOSTS='n[1-4]' RESULTS="$BATS_TEST_TMPDIR/res"
	[ "$stderr" = "simulate: error: give the fabric file and the hosts: FABRIC=FILE HOSTS=LIST (--fabric, --hosts)" ]
	run --separate-stderr -2 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=none FABRIC="$F" RESULTS="$BATS_TEST_TMPDIR/res"
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
}

@test "a host the fabric file does not place is one line, exit 2" {
	run --separate-stderr -2 "$SIM" --fabric="$F" --hosts='n[1-5]'
	[[ $stderr == "simulate: error: host 'n5' is under no switch of the fabric file"* ]]
}

@test "collect refuses to merge simulated and measured outputs" {
	mkdir "$BATS_TEST_TMPDIR/in"
	cp "$ROOT"/tests/data/fabric/raw/bw-n4-contiguous-*.out "$BATS_TEST_TMPDIR/in/"
	sim "$BATS_TEST_TMPDIR/in/sim.out" --campaign=bw --point=n4-contiguous-t2-L1048576-default-s1
	run --separate-stderr -2 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in"
	[[ $stderr == "collect: error: 1 of the 2 outputs are simulated ('# simulated:'), the others measured"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/out/points.csv" ]
	rm "$BATS_TEST_TMPDIR/in/sim.out"
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in"
}

@test "make export refuses a simulated campaign" {
	bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim3 FABRIC="$F" HOSTS='n[1-4]' TASKS_PER_NODE=2 \
		LONGS=65536 RESULTS="$BATS_TEST_TMPDIR/res"
	mkdir "$BATS_TEST_TMPDIR/prom"
	run --separate-stderr -2 bash "$ROOT/plots/export.sh" CAMPAIGN=sim3 RESULTS="$BATS_TEST_TMPDIR/res" \
		TEXTFILE_DIR="$BATS_TEST_TMPDIR/prom"
	[[ $stderr == *"campaign 'sim3' is simulated"* ]]
	[ -z "$(ls "$BATS_TEST_TMPDIR/prom")" ]
	run -0 "$COLLECT" --openmetrics "$BATS_TEST_TMPDIR/res/sim3/merged"
	[[ $output != *'point="'* ]]
}

@test "make simulate does not overwrite a measured campaign" {
	mkdir -p "$BATS_TEST_TMPDIR/res/real"
	printf 'manifest 2\ncampaign real\n' >"$BATS_TEST_TMPDIR/res/real/manifest"
	run --separate-stderr -2 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=real FABRIC="$F" HOSTS='n[1-4]' \
		RESULTS="$BATS_TEST_TMPDIR/res"
	[[ $stderr == "simulate: error: campaign 'real' in '$BATS_TEST_TMPDIR/res/real' is measured"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/res/real/manifest")" = "$(printf 'manifest 2\ncampaign real')" ]
}

@test "aller-simulate, installed, writes a simulated campaign from any directory" {
	p=$BATS_TEST_TMPDIR/stage/opt/aller
	make -s -C "$ROOT" install PREFIX=/opt/aller DESTDIR="$BATS_TEST_TMPDIR/stage" >/dev/null
	cd "$BATS_TEST_TMPDIR"
	run -0 "$p/bin/aller-simulate" CAMPAIGN=inst FABRIC="$F" HOSTS='n[1-4]' LONGS=65536 RESULTS="$BATS_TEST_TMPDIR/res"
	[ "$output" = "$BATS_TEST_TMPDIR/res/inst" ]
	grep -q '^simulated FABRIC=' "$BATS_TEST_TMPDIR/res/inst/manifest"
	[ -s "$BATS_TEST_TMPDIR/res/inst/merged/findings.tsv" ]
}

@test "ALLER_ARGS=--pairs=1M simulates aller's pair matrix, and collect names a slow NIC's host" {
	run -0 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=links FABRIC="$F" HOSTS='n[1-4]' ALLER_ARGS=--pairs=1M \
		FAULTS='slow-nic n3 100mbit' RESULTS="$BATS_TEST_TMPDIR/res"
	out=("$BATS_TEST_TMPDIR"/res/links/raw/*.out)
	grep -q '^# pairs: 1048576 bytes per message; 4 tasks;' "${out[0]}"
	[ "$(grep -c '^[0-9]* [0-9]* n[1-4] n[1-4] ' "${out[0]}")" = 16 ]
	[ "$(grep -c '^# slow_link: .*slow for: n3$' "${out[0]}")" = 6 ]
	grep -q '^warning	suspect	Suspect host n3:' "$BATS_TEST_TMPDIR/res/links/merged/findings.tsv"
	run --separate-stderr -2 "$SIM" --fabric="$D" --hosts='n[1-6]' --aller-args=--pairs
	[[ $stderr == "simulate: error: --pairs is simulated on a tree only"* ]]
	[ -z "$output" ]
	run --separate-stderr -2 "$SIM" "${ARGS[@]}" --aller-args=--isolate
	[[ $stderr == "simulate: error: ALLER_ARGS '--isolate' is not simulated"* ]]
}

@test "a link planted at the manifest's temporary name is never written through" {
	mkdir -p "$BATS_TEST_TMPDIR/res/lnk"
	printf 'manifest 2\ncampaign lnk\nsimulated FABRIC=x\n' >"$BATS_TEST_TMPDIR/res/lnk/manifest"
	echo precious >"$BATS_TEST_TMPDIR/target"
	ln -s "$BATS_TEST_TMPDIR/target" "$BATS_TEST_TMPDIR/res/lnk/manifest.part"   # the write door's temporary name
	run -0 "$SIM" "${ARGS[@]}" --results="$BATS_TEST_TMPDIR/res/lnk" --campaign=lnk
	[ "$(cat "$BATS_TEST_TMPDIR/target")" = precious ]
	grep -q '^simulated FABRIC=' "$BATS_TEST_TMPDIR/res/lnk/manifest"
	[ ! -L "$BATS_TEST_TMPDIR/res/lnk/manifest" ]
}
