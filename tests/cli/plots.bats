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
		latency-contiguous-n1 latency-contiguous-n2 latency-contiguous-n4
		latency-strided-n1 latency-strided-n2 latency-strided-n4
		concurrency-n1-32768B concurrency-n1-512B concurrency-n1-8B
		concurrency-n2-16384B concurrency-n2-512B concurrency-n2-8B
		concurrency-n4-8192B concurrency-n4-256B concurrency-n4-8B scaling"
	for p in $expected; do
		[[ $printed == *"$camp/plots/$p.png"* ]] || { echo "missing $p in: $printed"; return 1; }
		is_png "$camp/plots/$p.png"
	done
	[ "$(printf '%s\n' "$printed" | wc -l)" = 22 ]
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
	# a merge of an earlier collector (points-index.csv without key and base) is merged again
	touch -d '2000-01-01' "$camp"/raw/*
	sed -i '1s/,key,base$//' "$camp/merged/points-index.csv"
	bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" >/dev/null
	head -n 1 "$camp/merged/points-index.csv" | grep -q ',key,base$'
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

@test "aller-plots takes CAMPAIGN=name and RESULTS=dir as the other wrappers do" {
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" CAMPAIGN=smoke "RESULTS=$BATS_TEST_TMPDIR" --format svg
	[[ $output == *"$camp/plots/scaling.svg"* ]]
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
	run --separate-stderr -2 bash "$ROOT/plots/plot.sh" CAMPAIGN=
	[[ $stderr == "plots: error: invalid CAMPAIGN '': allowed are letters, digits, '.', '_' and '-', the first a letter or digit" ]]
	run --separate-stderr -2 make -s -C "$ROOT" plots
	[[ $stderr == *"plots: error: give CAMPAIGN=name or FILE=aller-output"* ]]
	# one output at a time: a second one is not silently the only one
	run --separate-stderr -2 bash "$ROOT/plots/plot.sh" --file a.out --file b.out
	[ "$stderr" = "plots: error: --file is given twice ('a.out' and 'b.out'): one output at a time (several campaigns: --campaign-dir DIR ...)" ]
	run --separate-stderr -2 bash "$ROOT/plots/plot.sh" --file a.out --campaign-dir "$camp"
	[ "$stderr" = "plots: error: --file and --campaign-dir together: give one output or campaigns, not both" ]
}

# tree_with SED [FILE]: a copy of the toolkit whose FILE (common/merged.c) is
# edited by SED, with its own collector; prints the copy's root.
tree_with() {
	local t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t"
	tar -C "$ROOT" --exclude=./build --exclude=./results --exclude=./.git -cf - . | tar -C "$t" -xf -
	sed -i "$1" "$t/${2:-common/merged.c}"
	make -s -C "$t" build/bin/collect >&2
	echo "$t"
}

# bats test_tags=build
@test "a column added to a view in one place (format.h's ALLER_COLUMN_VIEWS): the plots still draw the same" {
	# shellcheck disable=SC1003 # sed's backslashes, not an escaped quote
	t=$(tree_with '/^#define ALLER_COLUMN_VIEWS(X) \\$/a \	X(GIB, ALLER_VIEW_BANDWIDTH) \\' common/format.h)
	run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" --format svg
	cp -r "$camp" "$BATS_TEST_TMPDIR/wide"
	rm -rf "$BATS_TEST_TMPDIR/wide/merged" "$BATS_TEST_TMPDIR/wide/plots"
	run -0 bash "$t/plots/plot.sh" --campaign-dir "$BATS_TEST_TMPDIR/wide" --format svg
	# the view has it where format.h's column list puts it, in its place among the others
	grep -qx '# columns: bytes_per_peer GiB tmin_s tavg_s .*' \
		"$BATS_TEST_TMPDIR/wide/merged/bandwidth.dat"
	[ "$(head -n 1 "$BATS_TEST_TMPDIR/wide/merged/points.csv")" = "$(head -n 1 "$camp/merged/points.csv")" ]
	[ "$(find "$camp/plots" -name '*.svg' | wc -l)" = 22 ]
	for f in "$camp"/plots/*.svg; do
		cmp "$f" "$BATS_TEST_TMPDIR/wide/plots/${f##*/}"
	done
}

# bats test_tags=build
@test "a column the plots use, gone from the merged format, fails loudly: those plots are skipped" {
	# the collector's copy of the column list names it otherwise
	t=$(tree_with 's/X(BWAVG, bwavg_GiBs,/X(BWAVG, bwavg,/' common/format.h)
	run --separate-stderr -0 bash "$t/plots/plot.sh" --campaign-dir "$camp"
	# one line per plot that needs it, naming the column; the latency plots do not
	[[ $stderr == *"plots: skipped $camp/plots/bandwidth-contiguous-n1.png: '$camp/merged/bandwidth.dat' has no column 'bwavg_GiBs' (its columns: bytes_per_peer tmin_s "* ]]
	[ "$(grep -c "^plots: skipped .*has no column 'bwavg_GiBs'" <<<"$stderr")" = 16 ]
	[ "${stderr##*$'\n'}" = "plots: 6 drawn, 16 skipped" ]
	[ "$(grep -c '/latency-' <<<"$output")" = 6 ]
	[ ! -e "$camp/plots/bandwidth-contiguous-n1.png" ]
	# with no plot left to draw: exit 3
	rm -rf "$camp/merged"
	t=$(tree_with 's/X(BWAVG, bwavg_GiBs,/X(BWAVG, bwavg,/; s/X(TAVG, tavg_s,/X(TAVG, tavg,/' common/format.h)
	run --separate-stderr -3 bash "$t/plots/plot.sh" --campaign-dir "$camp"
	[ "${stderr##*$'\n'}" = "plots: error: no plot drawn (22 skipped)" ]
}

@test "a one-rank output with one count plots without a warning" {
	printf '%s\n' "# aller: 1.1.0" "# format: 2" "# mode: contiguous" "# world: 1" "# nodes: 1" \
		"# tasks_per_node: 1" "# buffers: host" "# level: 0 target 1 comms 1 commsize 1" \
		"1 1 1 1.490116e-08 8.0e-08 8.0e-08 8.0e-08 1.86e-01 1.86e-01 1.86e-01 1.86e-01 0 8.0e-08 8.0e-08 0" \
		"# Done" >"$BATS_TEST_TMPDIR/one.txt"
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --file "$BATS_TEST_TMPDIR/one.txt" \
		--out-dir "$BATS_TEST_TMPDIR/one"
	[ -z "$stderr" ]
	is_png "$BATS_TEST_TMPDIR/one/plots/bandwidth-contiguous-n1.png"
	is_png "$BATS_TEST_TMPDIR/one/plots/latency-contiguous-n1.png"
}

@test "a data set that cannot be drawn is skipped with one line; the others are drawn, exit 0" {
	# the 1-node strided point's bandwidth all zero: nothing on a log axis
	f=$camp/raw/smoke-n1-strided-19.out
	awk '/^[0-9]/ { $8 = $9 = $10 = 0 } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp"
	[[ $stderr == *"plots: skipped $camp/plots/bandwidth-strided-n1.png: "* ]]
	[ "${stderr##*$'\n'}" = "plots: 21 drawn, 1 skipped" ]
	[ "$(printf '%s\n' "$output" | wc -l)" = 21 ]
}

@test "several campaigns on the same axes: legends and titles name them, the scaling plot too" {
	mkdir -p "$BATS_TEST_TMPDIR/other"
	cp -r "$camp/raw" "$BATS_TEST_TMPDIR/other/"
	sed -i 's/^# campaign: smoke$/# campaign: other/' "$BATS_TEST_TMPDIR"/other/raw/*
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" \
		--campaign-dir "$BATS_TEST_TMPDIR/other" --format svg
	d=$BATS_TEST_TMPDIR/overlay-smoke-other/plots
	[[ $output == *"$d/bandwidth-contiguous-n2.svg"* ]]
	grep -q '<title>commsize 4, smoke</title>' "$d/bandwidth-contiguous-n2.svg"
	grep -q '<title>commsize 4, other</title>' "$d/bandwidth-contiguous-n2.svg"
	grep -q 'aller: other, smoke: bandwidth versus message size' "$d/bandwidth-contiguous-n2.svg"
	grep -q '<title>contiguous, commsize 2, 32 KiB per peer, smoke</title>' "$d/scaling.svg"
	grep -q '<title>contiguous, commsize 2, 32 KiB per peer, other</title>' "$d/scaling.svg"
}

@test "the index lists every data set of the merged files, by column name" {
	run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp"
	idx=$camp/merged/sets.tsv
	head -n 1 "$idx" | grep -q '^file	index	kind	campaign	mode	nodes	commsize	'
	for f in bandwidth concurrency scaling; do
		# as many index rows as data sets (each opens with a "# set: N" comment, N its row)
		[ "$(grep -c "^$f.dat	" "$idx")" = "$(grep -c '^# set: ' "$camp/merged/$f.dat")" ]
		[ "$(grep '^# set: ' "$camp/merged/$f.dat" | tail -n 1 | cut -d' ' -f3)" = \
			"$(($(grep -c "^$f.dat	" "$idx") - 1))" ]
	done
	# the rows column counts the data lines of its set
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "bandwidth.dat" { s += $c["rows"] } END { print s }' "$idx" >"$BATS_TEST_TMPDIR/n"
	[ "$(cat "$BATS_TEST_TMPDIR/n")" = "$(grep -c '^[0-9]' "$camp/merged/bandwidth.dat")" ]
	# sizes are labelled once, by the collector
	grep -q '	32768	32 KiB	' "$idx"
}

@test "an algorithm's colour is its place in format.h's list: NCCL's splits plot draws (no gnuplot colour list to extend)" {
	sed 's/^# algo: alltoallv$/# algo: nccl/; s/^# algos: alltoallv$/# algos: nccl/; s/^# transport: mpi$/# transport: nccl/' \
		"$ROOT/tests/data/collect/damaged/in/fmt4-n1-contiguous-70.out" >"$BATS_TEST_TMPDIR/nccl.out"
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --file "$BATS_TEST_TMPDIR/nccl.out" \
		--out-dir "$BATS_TEST_TMPDIR/n" --format svg
	[[ $stderr != *skipped* ]]
	# sets.tsv names each set's place in the list; nccl's is 6 (format.h: after the six MPI ones)
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n++; if ($c["algo"] != "nccl" || $c["algo_index"] != 6) bad++ } END { exit !(n > 0 && !bad) }' \
		"$BATS_TEST_TMPDIR/n/merged/sets.tsv"
	for c in 1 2 4; do
		f=$BATS_TEST_TMPDIR/n/plots/splits-contiguous-n1-c$c.svg
		[ -s "$f" ] && grep -q "rgb(140, 109,  49)\|#8c6d31\|8C6D31" "$f"
	done
}

@test "the concurrency plot draws commsize 1 (a local copy) apart: off the lines and the scale, named in the legend" {
	run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$camp" --format svg
	f=$camp/plots/concurrency-n4-8192B.svg
	grep -q 'commsize 1, local copy (off scale)' "$f"
	# the view carries commsize, the index which sets have the local row
	grep -qx '# columns: comms commsize bwavg_GiBs aggbw_GiBs interference' "$camp/merged/concurrency.dat"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["kind"] == "concurrency" && $c["local"] == "yes" { n++ } END { exit !(n > 0) }' \
		"$camp/merged/sets.tsv"
	# the y axis: the network levels' range (about 0.4 to 5 GiB/s here), not the copy's
	run ! grep -q '>50<\|>100<' "$f"
}

@test "the report's first screen: the verdict, then the findings the collector ranks first as sentences (its rank and shown), the rest a table one click away" {
	t=$BATS_TEST_TMPDIR/findings.tsv
	{
		printf 'severity\tkind\ttext\tpoints\teffect\trank\tshown\n'
		printf 'warning\tverdict\tAll 4 points complete; but slow links were found (below).\t\t0.000\t0\tverdict\n'
		printf 'info\tpeak\tpeak 1\t1\t0.000\t4\ttable\n'
		printf 'notice\tmodes\tmodes 1\t1,2\t0.300\t2\tsentence\n'
		printf 'info\tcrossover\tcrossover 1\t1\t0.000\t3\ttable\n'
		printf 'warning\tlocated\tThe slow link is the NIC of n3\t1,2\t0.000\t1\tsentence\n'
	} >"$t"
	run -0 bash -c '. "$1/sh/toolkit.sh" && . "$1/plots/page.sh" && findings "$2" "$3"' _ "$ROOT" "$t" $'<li>extra</li>\n'
	[[ ${lines[0]} == '<p class="verdict warning">All 4 points complete; but slow links were found (below).</p>' ]]
	sentences=$(printf '%s\n' "$output" | sed -n 's/^<li[^>]*>\(<span class="sev">[a-z]*<\/span> \)*//p' | sed 's/<\/li>$//')
	[ "$sentences" = "$(printf 'extra\nThe slow link is the NIC of n3\nmodes 1')" ]
	[[ $output == *'<details id="more-findings"><summary>2 more findings</summary>'* ]]
	# the table in rank order, without the effect
	[[ $output == *'<tr><td>info</td><td>crossover</td><td>crossover 1</td><td>1</td></tr>'*'<td>peak 1</td><td>1</td></tr>'* ]]
	# (the ranking itself is the collector's: tests/unit/test_findings.c)
}

@test "a gnuplot warning is said, and the plot kept: a warning is not a failure" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	# gnuplot that draws (its output written, exit 0) and warns on stderr
	printf '#!/bin/sh\necho drawn >"$4"\necho "warning: Skipping data file with no valid points" >&2\n' \
		>"$BATS_TEST_TMPDIR/bin/gnuplot"
	chmod +x "$BATS_TEST_TMPDIR/bin/gnuplot"
	out=$BATS_TEST_TMPDIR/p.png
	run --separate-stderr -0 env PATH="$BATS_TEST_TMPDIR/bin:$PATH" bash -c \
		'. "$1/sh/toolkit.sh"; . "$1/plots/lib.sh"; gnuplot_render "$1/plots/sizes.gp" "$2" "$3" png' \
		r "$ROOT" "$ROOT/tests/data/smoke/raw/smoke-n1-contiguous-19.out" "$out"
	[ "$output" = "$out" ]
	[ "$stderr" = "plots: $out: gnuplot warned: warning: Skipping data file with no valid points" ]
	[ "$(cat "$out")" = drawn ]
}
