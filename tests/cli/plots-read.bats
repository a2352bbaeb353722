#!/usr/bin/env bats
# What a person reads: the plots' keys, the heatmap's cells, the report page's
# text at 100% in a browser, and a report rebuilt without drawing again what
# did not change. Campaigns of tests/data/ (a manifest and their raw outputs),
# no cluster.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

# campaign NAME FILE...: a campaign of those raw outputs in $res (RESULTS).
campaign() {
	local name=$1
	shift
	mkdir -p "$res/$name/raw"
	printf 'manifest 2\n' >"$res/$name/manifest"
	cp "$@" "$res/$name/raw/"
}

setup() {
	res=$BATS_TEST_TMPDIR/res
	mkdir -p "$res"
}

# curves SVG: the key's entries of a sizes.gp plot, one per curve (the local copy's apart).
curves() {
	grep -o '<text>commsize [0-9]*[^<]*</text>' "$1" | grep -v 'local copy' | sed 's/<[^>]*>//g'
}

@test "every curve with a bound gives its share of it in the key, the first curve of a plot too" {
	campaign tiers "$ROOT/tests/data/tiers/strided.out"
	campaign bw "$ROOT"/tests/data/fabric/raw/*.out
	for c in tiers bw; do run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$res/$c" --format svg; done
	# every curve of the three-tier campaign has a bound, the first (commsize 8) too
	for p in bandwidth latency; do
		run -0 curves "$res/tiers/plots/$p-strided-n8.svg"
		[ "${#lines[@]}" = 3 ]
		for l in "${lines[@]}"; do [[ $l == *"% of its bound (the uplink of agg1)" ]] || { echo "$p: $l"; return 1; }; done
	done
	# the first curve of the file's first data set (index 0: commsize 4 on 2 nodes)
	run -0 curves "$res/bw/plots/bandwidth-contiguous-n2.svg"
	[[ ${lines[0]} == "commsize 4: "[0-9]*"% of its bound (the NIC of n1)" ]]
	# a curve is drawn with its bound (dashed) exactly where its key gives its share
	for f in "$res"/bw/plots/{bandwidth,latency}-*.svg; do
		run -0 curves "$f"
		for l in "${lines[@]}"; do [[ $l == *"% of its bound ("*")" || $l == "commsize 2" ]] || { echo "$f: $l"; return 1; }; done
	done
}

@test "an on-node curve's key names its bound as its node's memory" {
	campaign onnode "$ROOT/tests/data/onnode/vm-n1-contiguous.out"
	run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$res/onnode" --format svg
	run -0 curves "$res/onnode/plots/bandwidth-contiguous-n1.svg"
	[ "${#lines[@]}" = 2 ]
	for l in "${lines[@]}"; do [[ $l == *"% of its bound (the memory of vm)" ]] || { echo "$l"; return 1; }; done
}
