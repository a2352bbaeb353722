#!/usr/bin/env bats
# plots: rendering a real small campaign's data (tests/data/smoke) with gnuplot.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

setup() {
	camp=$BATS_TEST_TMPDIR/smoke
	mkdir -p "$camp"
	cp -r "$ROOT/tests/data/smoke/raw" "$camp/"
}

# is_png FILE: a PNG of the size common.gp sets.
is_png() {
	run -0 file -b "$1"
	[[ $output == "PNG image data, 1100 x 680, "* ]]
}

@test "a campaign renders every plot with no gnuplot warning, and prints their paths" {
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp"
	[ -z "$stderr" ]
	printed=$output
	expected="bandwidth-contiguous-n1 bandwidth-contiguous-n2 bandwidth-contiguous-n4
		bandwidth-strided-n1 bandwidth-strided-n2 bandwidth-strided-n4
		concurrency-n1-32768B concurrency-n1-512B concurrency-n1-8B
		concurrency-n2-16384B concurrency-n2-512B concurrency-n2-8B
		concurrency-n4-8192B concurrency-n4-256B concurrency-n4-8B scaling"
	for p in $expected; do
		[[ $printed == *"$camp/plots/$p.png"* ]] || { echo "missing $p in: $printed"; return 1; }
		is_png "$camp/plots/$p.png"
	done
	[ "$(printf '%s\n' "$printed" | wc -l)" = 16 ]
	[ -s "$camp/merged/points.csv" ]
}

@test "the collector runs again only when raw files are newer than its output" {
	bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" >/dev/null
	touch -d '2000-01-01' "$camp"/raw/*
	before=$(stat -c %Y "$camp/merged/bandwidth.dat")
	sleep 1
	bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" >/dev/null
	[ "$(stat -c %Y "$camp/merged/bandwidth.dat")" = "$before" ]
	touch "$camp"/raw/smoke-n1-strided-19.out
	bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" >/dev/null
	[ "$(stat -c %Y "$camp/merged/bandwidth.dat")" != "$before" ]
}

@test "a campaign with a failed and a truncated point still renders" {
	rm -rf "$camp/raw"
	mkdir -p "$camp/raw"
	cp "$ROOT"/tests/data/collect/damaged/in/smoke-* "$camp/raw/"
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp"
	[ "$stderr" = "plots: the collector reported problems: see $camp/merged/summary.txt" ]
	is_png "$camp/plots/scaling.png"
	is_png "$camp/plots/bandwidth-contiguous-n2.png"
}

@test "svg and pdf formats render too" {
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" --format svg
	[[ $output == *"$camp/plots/scaling.svg"* ]]
	grep -q '<svg' "$camp/plots/scaling.svg"
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" --format pdf
	[ "$(head -c 4 "$camp/plots/scaling.pdf")" = "%PDF" ]
}

@test "make plots FILE= plots a single aller output into results/file-NAME" {
	cp "$ROOT/tests/data/smoke/raw/smoke-n4-strided-21.out" "$BATS_TEST_TMPDIR/bats-single.txt"
	rm -rf "$ROOT/results/file-bats-single"
	run --separate-stderr -0 make -s -C "$ROOT" plots FILE="$BATS_TEST_TMPDIR/bats-single.txt"
	[[ $output == *"results/file-bats-single/plots/bandwidth-strided-n4.png"* ]]
	[[ $output != *scaling* ]] # one node count: nothing to scale
	is_png "$ROOT/results/file-bats-single/plots/bandwidth-strided-n4.png"
	[ -s "$ROOT/results/file-bats-single/merged/points.csv" ]
	rm -rf "$ROOT/results/file-bats-single"
}

@test "plots refuses a bad format and a missing campaign with exit 2" {
	run --separate-stderr -2 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" --format gif
	[ "$stderr" = "plots: error: invalid format 'gif': allowed are png, svg and pdf" ]
	run --separate-stderr -2 bash "$ROOT/plots/plot.sh" --campaign-dir "$BATS_TEST_TMPDIR/none"
	[[ $stderr == "plots: error: no raw outputs in"* ]]
	run --separate-stderr -2 make -s -C "$ROOT" plots
	[[ $stderr == *"plots: error: give CAMPAIGN=name or FILE=aller-output"* ]]
}
