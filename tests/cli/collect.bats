#!/usr/bin/env bats
# collect: golden merges of real and damaged aller outputs, and its errors.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

DATA=$ROOT/tests/data

# golden CASE: merges CASE/in (as a relative path) and compares every file.
golden() {
	local dir=$DATA/collect/$1
	cd "$dir" || return
	run -1 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" in
	for f in bandwidth.dat concurrency.dat scaling.dat points.csv points-index.csv summary.txt; do
		diff -u "expected/$f" "$BATS_TEST_TMPDIR/out/$f"
	done
}

@test "collect merges damaged outputs exactly as the golden files say" {
	golden damaged
}

@test "collect reports each problem once as file:line: what" {
	cd "$DATA/collect/damaged"
	run --separate-stderr -1 "$COLLECT" -o "$BATS_TEST_TMPDIR/out" in
	[[ $stderr == *"in/smoke-n4-contiguous-21.out:43: corrupt tmin_s 'nan': row dropped"* ]]
	[[ $stderr == *"in/smoke-n2-contiguous-20.out:60: partial last line: row dropped"* ]]
	[[ $stderr == *"in/garbage.bin:1: no aller header"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c "corrupt tmin_s 'nan'")" = 1 ]
	[[ $stderr == *"collect: 9 points: 7 complete, 1 incomplete, 1 failed; 1 superseded by a re-run"* ]]
}

@test "the newest complete job wins a re-run" {
	cd "$DATA/collect/damaged"
	run -1 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" in
	grep -q ',complete,31,in/smoke-n1-contiguous-31.out,' "$BATS_TEST_TMPDIR/out/points-index.csv"
	run ! grep -q 'smoke-n1-contiguous-19.out' "$BATS_TEST_TMPDIR/out/points-index.csv"
}

@test "a failed point leaves a gap in the scaling data, not a line across it" {
	cd "$DATA/collect/damaged"
	run -1 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" in
	run -0 awk '/"strided, commsize 1, 8 B per peer"/ { on = 1; next } on && NF == 0 { gap++ } on && /^4 / { print gap; exit }' "$BATS_TEST_TMPDIR/out/scaling.dat"
	[ "$output" = 1 ]
}

@test "a clean campaign merges with exit 0 and every row" {
	run --separate-stderr -0 "$COLLECT" -o "$BATS_TEST_TMPDIR/out" "$DATA/smoke/raw"
	rows=$(cat "$DATA"/smoke/raw/*.out | grep -c '^[0-9]')
	[ "$(($(wc -l <"$BATS_TEST_TMPDIR/out/points.csv") - 1))" = "$rows" ]
	[[ $stderr == *"collect: $rows rows merged"* ]]
	[[ $stderr == *"6 points: 6 complete, 0 incomplete, 0 failed"* ]]
}

@test "the merged numbers are aller's own, unchanged" {
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" "$DATA/smoke/raw"
	f=$DATA/smoke/raw/smoke-n4-strided-21.out
	row=$(grep -m1 '^2 4 ' "$f")
	read -r -a c <<<"$row"
	# every column in the CSV, joined with the point's facts by its number
	grep -qF ",alltoall,uniform,2,4,${c[2]},$((c[2] * 8)),$(IFS=, && echo "${c[*]:3}")" \
		"$BATS_TEST_TMPDIR/out/points.csv"
	p=$(grep -F ",$((c[2] * 8)),$(IFS=, && echo "${c[*]:3}")" "$BATS_TEST_TMPDIR/out/points.csv" | cut -d, -f1)
	grep -q "^$p,smoke,strided,4,2,8,host,no,complete,21,$f,Open MPI v4.1.4,," "$BATS_TEST_TMPDIR/out/points-index.csv"
	# the bandwidth view: bytes per peer, then the columns its plots read (format.h)
	grep -qx "$((c[2] * 8)) ${c[4]} ${c[5]} ${c[6]} ${c[7]} ${c[8]} ${c[9]} NaN NaN NaN NaN NaN NaN NaN NaN" "$BATS_TEST_TMPDIR/out/bandwidth.dat"
}

@test "points.csv and the data sets carry tmed, tp99 and busbw, empty or NaN for format 1" {
	cd "$DATA/collect/damaged"
	run -1 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" in
	csv=$BATS_TEST_TMPDIR/out/points.csv
	head -n 1 "$csv" | grep -q ',aggbw_GiBs,slowest_rank,tmed_s,tp99_s,busbw_GBs,talone_s,interference,interference_avg,interference_max,imbalance,busbw_v_GBs,hottest_rank,iters,tcongested_s,congestion,congestion_p99,tmed_lo_s,tmed_hi_s,offnode_B,netbw_GBs,eff,tcounts_s,tdispatch_s,tcombine_s,bound_s,bottleneck,eff_bound,above_bound$'
	# format 2: the three columns as aller printed them, no isolation columns
	row=$(grep -m1 '^1 2 1 ' in/fmt2-n1-contiguous-50.out)
	read -r -a f <<<"$row"
	grep -q '^0,fmt2,contiguous,1,2,2,host,no,complete,50,' "$BATS_TEST_TMPDIR/out/points-index.csv"
	grep -q "^0,0,alltoall,uniform,1,2,1,8,.*,${f[11]},${f[12]},${f[13]},${f[14]},,,,,,,,,,,,,,,,,,,,,,,\$" "$csv"
	# format 1: empty fields (and NaN in the views: gnuplot skips them)
	grep -q '^3,0,alltoall,uniform,1,2,1,8,.*,1,,,,,,,,,,,,,,,,,,,,,,,,,,$' "$csv"
	grep -q '^3,smoke,contiguous,1,2,2,host,no,complete,31,' "$BATS_TEST_TMPDIR/out/points-index.csv"
	grep -q '^8 .* NaN$' "$BATS_TEST_TMPDIR/out/bandwidth.dat"
}

@test "collect names every input it skips and why, and exits 1" {
	d=$BATS_TEST_TMPDIR/in
	mkdir -p "$d/sub" "$BATS_TEST_TMPDIR/empty"
	cp "$DATA"/smoke/raw/*.out "$d/"
	ln -s /nonexistent "$d/dangling.out"
	ln -s loop-b "$d/loop-a"
	ln -s loop-a "$d/loop-b"
	mkfifo "$d/fifo"
	run --separate-stderr -1 "$COLLECT" -o "$BATS_TEST_TMPDIR/out" "$d"
	[[ $stderr == *"$d/dangling.out: skipped: a dangling symbolic link"* ]]
	[[ $stderr == *"$d/loop-a: skipped: a loop of symbolic links"* ]]
	[[ $stderr == *"$d/fifo: skipped: not a regular file"* ]]
	[[ $stderr == *"$d/sub: skipped: a directory (collect does not descend into directories)"* ]]
	[[ $stderr == *"collect: 6 files read, 5 skipped"* ]]
	grep -q "dangling.out: skipped" "$BATS_TEST_TMPDIR/out/summary.txt"
	# the good files are all merged
	[[ $stderr == *"6 points: 6 complete"* ]]
	run --separate-stderr -2 "$COLLECT" -o "$BATS_TEST_TMPDIR/out2" "$BATS_TEST_TMPDIR/empty"
	[ "$stderr" = "collect: error: no job outputs in '$BATS_TEST_TMPDIR/empty'" ]
	[ ! -e "$BATS_TEST_TMPDIR/out2" ]
}

@test "collect's header pass reads at most 1 MiB: a longer header is named and skipped, many re-runs keep one" {
	src=$DATA/smoke/raw/smoke-n4-strided-21.out
	cd "$BATS_TEST_TMPDIR"
	mkdir -p in
	# 40,000 host lines (1.3 MiB) before the mode: not a header aller writes (hostmap.h)
	{ sed -n '1,/^# tasks_per_node:/p' "$src"
	  awk 'BEGIN { for (i = 0; i < 40000; i++) printf "# host: node%06d %d-%d\n", i, 4 * i, 4 * i + 3 }'
	  sed '1,/^# tasks_per_node:/d' "$src"; } >in/long.out
	# 2,000 host lines (62 KiB): read whole
	{ sed -n '1,/^# tasks_per_node:/p' "$src"
	  awk 'BEGIN { for (i = 0; i < 2000; i++) printf "# host: node%06d %d-%d\n", i, 4 * i, 4 * i + 3 }'
	  sed '1,/^# tasks_per_node:/d' "$src"; } >in/ok.out
	run --separate-stderr -1 "$COLLECT" -o out in
	[[ $stderr == *"in/long.out:1: no node count or mode in the header's first 1 MiB (aller's header is shorter): skipped"* ]]
	[[ $stderr == *"1 points: 1 complete"* ]]
	# 300 re-runs of one point: one kept, its rows once; the others superseded
	rm in/long.out
	for i in $(seq 1 300); do cp "$src" "in/rerun-$i.out"; done
	run --separate-stderr -1 "$COLLECT" -o out in
	[[ $stderr == *"1 points: 1 complete, 0 incomplete, 0 failed; 300 superseded by a re-run"* ]]
	[ "$(($(wc -l <out/points.csv) - 1))" = "$(grep -c '^[0-9]' "$src")" ]
}

@test "collect --state gives each point file's state and reason" {
	cd "$DATA/collect/damaged"
	run -0 "$COLLECT" --state in/smoke-n1-contiguous-31.out in/smoke-n2-contiguous-20.out \
		in/smoke-n2-strided-20.out in/nothing.out
	[ "${lines[0]}" = "complete	-	in/smoke-n1-contiguous-31.out" ]
	[ "${lines[1]}" = "incomplete	no '# Done'	in/smoke-n2-contiguous-20.out" ]
	[ "${lines[2]}" = "failed	exit 3	in/smoke-n2-strided-20.out" ]
	[ "${lines[3]}" = "missing	no such file	in/nothing.out" ]
	run -2 "$COLLECT" --state
}

@test "collect with no path, an unknown option or a missing path exits 2" {
	run --separate-stderr -2 "$COLLECT"
	[ "$stderr" = "collect: error: no PATH given (see 'collect --help')" ]
	run --separate-stderr -2 "$COLLECT" --bogus x
	[ "$stderr" = "collect: error: unknown option '--bogus' (see 'collect --help')" ]
	run --separate-stderr -2 "$COLLECT" -o "$BATS_TEST_TMPDIR/o" "$BATS_TEST_TMPDIR/nothing-here"
	[[ $stderr == "collect: error: cannot read '$BATS_TEST_TMPDIR/nothing-here': No such file or directory" ]]
	[ ! -e "$BATS_TEST_TMPDIR/o" ]
	run -0 "$COLLECT" --help
	[[ $output == usage:* ]]
}

@test "a merge that cannot be written exits 3 and leaves the old merge whole" {
	mnt=$BATS_TEST_TMPDIR/small
	mkdir -p "$mnt"
	mount -t tmpfs -o size=64k,mode=755 tmpfs "$mnt" 2>/dev/null || skip "cannot mount a small tmpfs here"
	echo "old merge" >"$mnt/points.csv"
	run --separate-stderr "$COLLECT" -q -o "$mnt" "$DATA/smoke/raw"
	ls -a "$mnt" >"$BATS_TEST_TMPDIR/left"
	old=$(cat "$mnt/points.csv")
	umount "$mnt"
	[ "$old" = "old merge" ]
	[ "$status" -eq 3 ]
	[[ $stderr == *"collect: error: cannot write"* ]]
	# only the old file: no temporary file and no half-written output left
	[ "$(grep -v '^\.\.\?$' "$BATS_TEST_TMPDIR/left")" = points.csv ]
}

@test "an output directory that cannot be made exits 3" {
	touch "$BATS_TEST_TMPDIR/file"
	run --separate-stderr -3 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/file/sub" "$DATA/smoke/raw"
	[[ $stderr == "collect: error: cannot create the output directory"* ]]
}

@test "format 3: algorithms stay apart (data sets, CSV, index), isolation columns as measured" {
	cd "$DATA/collect/damaged"
	run -1 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" in
	out=$BATS_TEST_TMPDIR/out
	# one bandwidth set per (level, algorithm): 3 levels x 2 algorithms
	[ "$(grep -c '^# set: [0-9]* point: 1 algo: alltoall split: uniform commsize' "$out/bandwidth.dat")" = 3 ]
	[ "$(grep -c '^# set: [0-9]* point: 1 algo: pairwise split: uniform commsize' "$out/bandwidth.dat")" = 3 ]
	grep -q '^1,fmt3,' "$out/points-index.csv"
	grep -qx '"contiguous, 1 nodes, commsize 2, pairwise"' "$out/bandwidth.dat"
	# the index names each set's algorithm, by column name
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["campaign"] == "fmt3" { n[$c["file"] " " $c["algo"]]++ }
		END { exit !(n["bandwidth.dat alltoall"] == 3 && n["bandwidth.dat pairwise"] == 3 &&
			     n["concurrency.dat pairwise"] == 4) }' "$out/sets.tsv"
	# a row with measured isolation: copied as printed; "-" is an empty CSV field
	row=$(grep -m1 '^2 2 8 ' in/fmt3-n1-contiguous-60.out)
	read -r -a f <<<"$row"
	grep -q "^1,1,alltoall,uniform,2,2,8,64,.*,${f[15]},${f[16]},${f[17]},${f[18]},,,,,,,,,,,,,,,,,,,\$" "$out/points.csv"
	grep -q "^1,0,pairwise,uniform,1,4,8,64,.*,,,,,,,,,,,,,,,,\$" "$out/points.csv"
	# the concurrency view carries the interference its plot reads
	grep -qx "2 2 ${f[8]} ${f[10]} ${f[16]}" "$out/concurrency.dat"
}

@test "format 4: splits stay apart (data sets, CSV, index); uniform's columns say 1 and '-'" {
	cd "$DATA/collect/damaged"
	run -1 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" in
	out=$BATS_TEST_TMPDIR/out
	# one bandwidth set per (level, split): 3 levels x 3 splits, each named
	for s in uniform zipf:1.2:1 hot:1:0.5; do
		[ "$(grep -c "^# set: [0-9]* point: 2 algo: alltoallv split: $s commsize" "$out/bandwidth.dat")" = 3 ]
	done
	grep -qx '"contiguous, 1 nodes, commsize 4, alltoallv, split zipf:1.2:1"' "$out/bandwidth.dat"
	grep -qx '"contiguous, 1 nodes, commsize 4, alltoallv"' "$out/bandwidth.dat"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["campaign"] == "fmt4" && $c["file"] == "bandwidth.dat" { n[$c["split"]]++ }
		END { exit !(n["uniform"] == 3 && n["zipf:1.2:1"] == 3 && n["hot:1:0.5"] == 3) }' "$out/sets.tsv"
	# the CSV by column name: uniform rows have imbalance 1 and no hottest rank; hot:1:0.5
	# makes rank 0 of each communicator of 4 the hottest, imbalance above 1
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["point"] != 2 { next }
		$c["split"] == "uniform" && ($c["imbalance"] != 1 || $c["hottest_rank"] != "") { bad++ }
		$c["split"] == "hot:1:0.5" && $c["commsize"] == 4 && ($c["imbalance"] <= 1 ||
			$c["hottest_rank"] != 0) { bad++ }
		$c["split"] != "" { seen++ }
		END { exit !(bad == 0 && seen == 36) }' "$out/points.csv"
}

@test "collect --compare: table and CSV as the golden files say; exit 1 when something is slower" {
	cd "$ROOT"
	d=tests/data/compare
	run --separate-stderr -1 "$COLLECT" --compare -o "$BATS_TEST_TMPDIR/c" $d/base $d/new
	diff -u $d/expected.txt <(printf '%s\n' "$output")
	diff -u $d/expected.txt "$BATS_TEST_TMPDIR/c/compare.txt"
	diff -u $d/expected.csv "$BATS_TEST_TMPDIR/c/compare.csv"
	# the ratios as data sets, with their index
	grep -qx '# columns: bytes_per_peer ratio tmed_ratio band_low band_high tavg_base tavg_new' \
		"$BATS_TEST_TMPDIR/c/compare.dat"
	[ "$(grep -c '^compare.dat	' "$BATS_TEST_TMPDIR/c/sets.tsv")" = 1 ]
	# the comparison as a finding, for the report
	[ "$(sed -n 2p "$BATS_TEST_TMPDIR/c/findings.tsv")" = "warning	regression	Against $d/base: 2 of 6 rows slower beyond the tolerance; the worst takes 2.00x the time, on 1 node (contiguous), commsize 2, 256 B per peer, alltoall.		0.693	1	sentence" ]
	run --separate-stderr -0 "$COLLECT" --compare -o "$BATS_TEST_TMPDIR/s" $d/new $d/new
	[ "$(sed -n 2p "$BATS_TEST_TMPDIR/s/findings.tsv")" = "info	regression	Against $d/new: none of 7 rows slower beyond the tolerance (0 faster, 7 the same, 0 within the noise).		0.000	1	sentence" ]
}

@test "collect --compare of two merged directories is the comparison of their outputs; the outputs' merge leaves nothing behind" {
	cd "$ROOT"
	d=tests/data/compare
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	mkdir -p "$TMPDIR"
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/mb" $d/base
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/mn" $d/new
	run --separate-stderr -1 "$COLLECT" --compare "$BATS_TEST_TMPDIR/mb" "$BATS_TEST_TMPDIR/mn"
	diff -u <(tail -n +2 $d/expected.txt) <(printf '%s\n' "${lines[@]:1}")
	# a merged side and a side of outputs, alike; no scratch merge left in TMPDIR
	run --separate-stderr -1 "$COLLECT" --compare "$BATS_TEST_TMPDIR/mb" $d/new
	diff -u <(tail -n +2 $d/expected.txt) <(printf '%s\n' "${lines[@]:1}")
	[ -z "$(ls -A "$TMPDIR")" ]
	# the settings it compares are the merge's facts, one line a setting
	grep -qx '0	setting	iters=3' "$BATS_TEST_TMPDIR/mb/facts.tsv"
	# damaged outputs are the merge's to report: a side's merge says nothing (a retried
	# point's warning on stderr failed a CI's disjoint-campaigns test)
	cd "$DATA/collect/damaged"
	run --separate-stderr -0 "$COLLECT" --compare in in
	[ -z "$stderr" ]
}

@test "collect --compare with size bands: the 16 B point is within 20% there" {
	cd "$ROOT"
	d=tests/data/compare
	run --separate-stderr -1 "$COLLECT" --compare --tol="8:20% 64:5%" $d/base $d/new
	diff -u $d/expected-bands.txt <(printf '%s\n' "$output")
	# a side against itself: every point the same, exit 0
	run --separate-stderr -0 "$COLLECT" --compare $d/new $d/new
	[[ ${lines[-1]} == "compare: 7 points matched: 0 faster, 0 slower, 7 same, 0 noise; 0 only in BASE, 0 only in NEW" ]]
}

@test "collect --compare: bad input is one line and exit 2 (3 where no scratch directory can be made)" {
	cd "$ROOT"
	d=tests/data/compare
	run --separate-stderr -2 "$COLLECT" --compare $d/base "$BATS_TEST_TMPDIR/none"
	[ "$stderr" = "collect: error: NEW cannot read '$BATS_TEST_TMPDIR/none': No such file or directory" ]
	s=tests/data/smoke/raw/smoke-n4-strided-21.out
	run --separate-stderr -2 "$COLLECT" --compare $d/base $s
	[ "$stderr" = "collect: error: no common points: BASE '$d/base' has 7, NEW '$s' 50, none of the same identity" ]
	run --separate-stderr -2 "$COLLECT" --compare --tol=5 $d/base
	[ "$stderr" = "collect: error: --compare needs BASE and NEW (see 'collect --compare --help')" ]
	run --separate-stderr -2 "$COLLECT" --compare --tol="64K:5% 8:20%" $d/base $d/new
	[[ $stderr == "collect: error: invalid tolerance '64K:5% 8:20%': expected a percentage"* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
	# outputs are merged in a scratch directory of TMPDIR: none to be made is one line, exit 3
	TMPDIR=/proc/none run --separate-stderr -3 "$COLLECT" --compare $d/base $d/new
	[[ $stderr == "collect: error: cannot make a scratch directory '/proc/none/collect-compare."* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
}

@test "the merge's bound names a loaded link without a rate (partial), takes Slurm's LinkSpeed only where nothing else rates an uplink, and follows a tree's tiers" {
	# strided on 4 nodes: bound by an uplink at 1 Gbit/s each way
	bottleneck() {
		"$COLLECT" -q -o "$BATS_TEST_TMPDIR/$1" "$BATS_TEST_TMPDIR/raw" &&
			awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				$(c["point"]) == 3 && $(c["bytes_per_peer"]) == 1048576 && $(c["commsize"]) == 4 { print $(c["bound_s"]), $(c["bottleneck"]) }' \
				"$BATS_TEST_TMPDIR/$1/points.csv"
	}
	cp -r "$DATA/fabric/raw" "$BATS_TEST_TMPDIR/raw"
	run -0 bottleneck whole
	[ "$output" = "6.710886e-02 up:leaf1" ]
	whole=$output
	# leaf2's uplink unrated: the bound is leaf1's, at least, and says which link it could not weigh
	sed -i '/^# fabric: uplink_rate leaf2 /d' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck partial
	[ "$output" = "6.710886e-02 up:leaf1(partial:up:leaf2)" ]
	# Slurm's LinkSpeed (LINKSPEED_UNIT) rates what nothing else does, never over a declared rate
	sed -i 's/^# fabric: uplink_rate leaf1 .*/&\n# fabric: uplink_linkspeed leaf1 100gbit\n# fabric: uplink_linkspeed leaf2 8gbit/' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck linkspeed
	[ "$output" = "$whole" ]
	# Slurm's nested switches (jobs/job-lib.sh's '# fabric: parent'): an aggregation switch above
	# each leaf, its uplink at a tenth of a leaf's, carries the leaf's 8 MiB a call: the bound is its
	sed -i 's/^# fabric: uplink_rate leaf1 .*/&\n# fabric: parent leaf1 agg1\n# fabric: parent leaf2 agg2\n# fabric: parent agg1 core\n# fabric: parent agg2 core\n# fabric: uplink_linkspeed agg1 100mbit\n# fabric: uplink_linkspeed agg2 100mbit/' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck tree
	[ "$output" = "6.710886e-01 up:agg1" ]
	# a line that would close a cycle (agg1 under leaf1, under agg1) is left out, never looped on
	sed -i 's/^# fabric: parent agg1 core$/&\n# fabric: parent agg1 leaf1/' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck cycle
	[ "$output" = "6.710886e-01 up:agg1" ]
	# a dragonfly (aller --fabric's '# fabric: group' and 'global' lines): each leaf a group, one global
	# link of 100 Mbit/s between them carries both communicators' 2 x 2 x 1 MiB: 8 MiB, 0.671 s
	rm -r "$BATS_TEST_TMPDIR/raw" && cp -r "$DATA/fabric/raw" "$BATS_TEST_TMPDIR/raw"
	sed -i 's/^# fabric: uplink_rate leaf1 .*/&\n# fabric: group leaf1 g1\n# fabric: group leaf2 g2\n# fabric: global 1 100mbit minimal/' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck dragonfly
	[ "$output" = "6.710886e-01 global:g1:g2" ]
	# adaptive: with two groups no third carries a byte; the group's links, named as all of them
	sed -i 's/^# fabric: global 1 100mbit minimal$/# fabric: global 1 100mbit adaptive/' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck adaptive
	[ "$output" = "6.710886e-01 global:g1" ]
	# two rails (aller --fabric's NODE:IF lines): a node's two tasks each on its own NIC, eth0 on
	# rail0's leaf, eth1 on rail1's; the strided 4s (ranks 0 2 4 6: each node's first task) stay on
	# rail0: each NIC carries 3 MiB at 1 Gbit/s, 0.0252 s, and no uplink a byte
	rm -r "$BATS_TEST_TMPDIR/raw" && cp -r "$DATA/fabric/raw" "$BATS_TEST_TMPDIR/raw"
	sed -i -e '/^# fabric: \(switch\|nic_rate\) /d' -e 's/^# fabric: uplink_rate leaf1 .*/# fabric: uplink_rate rail0 4gbit\n# fabric: uplink_rate rail1 4gbit/' \
		-e 's/^# fabric: uplink_rate leaf2 .*//' "$BATS_TEST_TMPDIR"/raw/*.out
	for n in 1 2 3 4; do
		sed -i "s/^# fabric: nic n$n .*/&\n# fabric: switch n$n:eth0 rail0\n# fabric: switch n$n:eth1 rail1\n# fabric: nic_rate n$n:eth0 1gbit\n# fabric: nic_rate n$n:eth1 1gbit/" \
			"$BATS_TEST_TMPDIR"/raw/*.out
	done
	run -0 bottleneck rails
	[ "$output" = "2.516582e-02 nic:n1:eth0" ]
	# the MPI stack told to use one of them (aller's '# fabric: task_nics', its environment's): every
	# task on eth1, each NIC carries both tasks' 3 MiB; told both: each message striped over both
	# (the TCP BTL), each NIC half of both tasks', as spread evenly; an interface of no rail: as before
	sed -i 's/^# fabric: nic n1 .*/&\n# fabric: task_nics eth1 OMPI_MCA_btl_tcp_if_include/' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck one-rail
	[ "$output" = "5.033165e-02 nic:n1:eth1" ]
	sed -i 's/^# fabric: task_nics eth1 /# fabric: task_nics eth1,eth0 /' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck striped
	[ "$output" = "2.516582e-02 nic:n1:eth0" ]
	sed -i 's/^# fabric: task_nics eth1,eth0 /# fabric: task_nics ib0 /' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck no-rail
	[ "$output" = "2.516582e-02 nic:n1:eth0" ]
	# GPUs (aller's '# device:' lines) whose nearest NIC is eth1: their tasks on it, where the
	# stack names no rail; where it names one, the stack's
	for n in 1 2 3 4; do
		sed -i "s/^# buffers: .*/&\n# device: n$n 0 $((2 * n - 2)) name=H100 nic=eth1(PXB) link=nvlink:18\n# device: n$n 1 $((2 * n - 1)) name=H100 nic=eth1(PXB) link=nvlink:18/" \
			"$BATS_TEST_TMPDIR"/raw/*.out
	done
	run -0 bottleneck nearest
	[ "$output" = "5.033165e-02 nic:n1:eth1" ]
	sed -i 's/^# fabric: task_nics ib0 /# fabric: task_nics eth0 /' "$BATS_TEST_TMPDIR"/raw/*.out
	run -0 bottleneck stack-first
	[ "$output" = "5.033165e-02 nic:n1:eth0" ]
	# a GPU's NVLinks (the device line's link_GBs, NVML's) bound a node's own pair, before a declared
	# gpu_rate: 1 MiB through a port of 0.5 GB/s, 2.097 ms
	rm -r "$BATS_TEST_TMPDIR/raw" && cp -r "$DATA/fabric/raw" "$BATS_TEST_TMPDIR/raw"
	for n in 1 2 3 4; do
		sed -i "s/^# buffers: .*/&\n# device: n$n 0 $((2 * n - 2))-$((2 * n - 1)) (shared) name=H100 link=nvlink:18 link_GBs=0.5\n# fabric: gpu_rate n$n 100GB\/s/" \
			"$BATS_TEST_TMPDIR"/raw/*.out
	done
	"$COLLECT" -q -o "$BATS_TEST_TMPDIR/gpu" "$BATS_TEST_TMPDIR/raw"
	run -0 awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["point"]) == 1 && $(c["bytes_per_peer"]) == 1048576 && $(c["commsize"]) == 2 { print $(c["bound_s"]), $(c["bottleneck"]) }' \
		"$BATS_TEST_TMPDIR/gpu/points.csv"
	[ "$output" = "2.097152e-03 gpu:n1" ]
}

@test "each row against what its fabric allows (points.csv's bound_s, bottleneck, eff_bound); the bandwidth and latency plots draw it dashed" {
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$DATA/fabric/raw"
	# point, mode, nodes, commsize, bytes, bound, link, eff: by column name
	rows() {
		awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
			FILENAME ~ /index/ { mode[$1] = $(c[FILENAME, "mode"]); nodes[$1] = $(c[FILENAME, "nodes"]); next }
			{ f = FILENAME; print $1, mode[$1], nodes[$1], $(c[f, "commsize"]), $(c[f, "bytes_per_peer"]),
			  ($(c[f, "bound_s"]) == "" ? "-" : $(c[f, "bound_s"])), ($(c[f, "bottleneck"]) == "" ? "-" : $(c[f, "bottleneck"])),
			  ($(c[f, "eff_bound"]) == "" ? "-" : $(c[f, "eff_bound"])) }' \
			"$BATS_TEST_TMPDIR/m/points-index.csv" "$BATS_TEST_TMPDIR/m/points.csv"
	}
	run -0 rows
	printf '%s\n' "$output" | awk '$5 >= 1048576' >"$BATS_TEST_TMPDIR/big"
	# strided on 4 nodes: every pair crosses the 2:1 uplinks, which bound it, at 0.7..1.05 of them
	[ "$(awk '$2 == "strided" && $3 == 4 && $4 > 1' "$BATS_TEST_TMPDIR/big" | wc -l)" = 6 ]
	awk '$2 == "strided" && $3 == 4 && $4 > 1 && !($7 == "up:leaf1" && $8 >= 0.7 && $8 <= 1.05) { bad = 1; print } END { exit bad }' "$BATS_TEST_TMPDIR/big"
	# contiguous 4s stay under their leaf: a NIC bounds them (2 tasks x 2 peers off the node x 1 MiB
	# each way at 0.125 GB/s: 0.0336 s)
	grep -qx '1 contiguous 4 4 1048576 3.355443e-02 nic:n1 [0-9.e+-]*' "$BATS_TEST_TMPDIR/big"
	# each task alone, or a pair on its node: no link, no bound
	[ "$(awk '$4 == 1 && $6 != "-"' "$BATS_TEST_TMPDIR/big" | wc -l)" = 0 ]
	grep -q '^0 contiguous 2 2 1048576 - - -$' "$BATS_TEST_TMPDIR/big"
	# the bandwidth plots: the bound dashed under the curves where a row has one
	mkdir -p "$BATS_TEST_TMPDIR/c"
	cp -r "$DATA/fabric/raw" "$BATS_TEST_TMPDIR/c/"
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$BATS_TEST_TMPDIR/c" --format svg
	[ -z "$stderr" ]
	grep -q 'what the fabric allows it' "$BATS_TEST_TMPDIR/c/plots/bandwidth-strided-n4.svg"
	# and the time per call, the same script (plots/sizes.gp): the least time it allows
	grep -q 'what the fabric allows it' "$BATS_TEST_TMPDIR/c/plots/latency-strided-n4.svg"
}

# above BURST [LLC]: "bytes_per_peer eff_bound above_bound" of every row that
# beat its bound beyond its interval ("-" for eff_bound: a row without one, whose
# own eff beat 1), merged with the shapers' burst declared as BURST bytes
# ('# fabric:' nic_burst and uplink_burst, as cluster/fabric.sh says them) and
# each node's last-level cache as LLC bytes ('# limit: cache', as aller says it)
above() {
	rm -rf "$BATS_TEST_TMPDIR/a"
	mkdir -p "$BATS_TEST_TMPDIR/a"
	for f in "$DATA"/fabric/raw/*.out; do
		awk -v b="$1" -v llc="${2:-}" '{ print }
			b && /^# fabric: switch / { print "# fabric: nic_burst " $4 " " b; print "# fabric: uplink_burst " $5 " " b }
			llc && /^# limit: copy / { print "# limit: cache " $4 " " llc " bytes, its last-level cache (sysfs)" }' \
			"$f" >"$BATS_TEST_TMPDIR/a/${f##*/}"
	done
	"$COLLECT" -q -o "$BATS_TEST_TMPDIR/am" "$BATS_TEST_TMPDIR/a"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["above_bound"]) != "" { e = $(c["eff_bound"])
			print $(c["bytes_per_peer"]), (e == "" ? "-" : e), $(c["above_bound"]) }' \
		"$BATS_TEST_TMPDIR/am/points.csv"
}

@test "a row that beat its bound beyond its interval says why (above_bound): a shaper's burst, else the rate; one without a bound above its eff: the cache" {
	# no burst declared: every such row blames the declared rate, and beat it (eff_bound > 1), or
	# its slowest task took the bound (spread: the call as a whole did not beat it)
	run -0 above 0
	[ "$(printf '%s\n' "$output" | grep -vc ' - ')" -ge 10 ]
	printf '%s\n' "$output" | awk '$2 != "-" && $3 != "spread" && ($3 != "rate" || !($2 > 1)) { bad = 1; print } END { exit bad }'
	[ "$(printf '%s\n' "$output" | grep -c ' rate$')" -ge 1 ]
	# the pairs inside a node have no bound, and beat aller's eff (the copy rate, measured
	# past the caches): with no last-level cache recorded, the rate; with 480 MiB, the cache
	[ "$(printf '%s\n' "$output" | grep -c ' - rate$')" -ge 10 ]
	run -0 above 0 503316480
	[ "$(printf '%s\n' "$output" | grep -c ' - cache$')" -ge 10 ]
	run ! grep -q ' - rate$' <<<"$output"
	# the local cluster's shapers pass 64 KiB at once: the small rows are their bursts
	run -0 above 65536
	printf '%s\n' "$output" | awk '$2 != "-" && $1 <= 8192 && $3 != "burst" && $3 != "spread" { bad = 1; print } END { exit bad }'
	[ "$(printf '%s\n' "$output" | grep -c ' burst$')" -ge 5 ]
	# an uplink declared at a quarter of its rate: the 4-node strided rows beat it, and the
	# finding of its best row says why, where it said "far from" or nothing
	sed -i 's/^# fabric: uplink_rate \(leaf[0-9]\) 1000000kbit$/# fabric: uplink_rate \1 250000kbit/' \
		"$BATS_TEST_TMPDIR"/a/*n4-strided*.out
	"$COLLECT" -q -o "$BATS_TEST_TMPDIR/am" "$BATS_TEST_TMPDIR/a"
	grep -q '^info	limit	On 4 nodes (strided): at its largest size the best row reaches [0-9]*% of what the fabric allows, bound by the uplink of leaf1 .*: above its bound beyond its interval: the rate declared for the link is below what it carried' \
		"$BATS_TEST_TMPDIR/am/findings.tsv"
	# the rows within their interval of the bound, or below it, say nothing
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$DATA/fabric/raw"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["bound_s"]) != "" && $(c["bound_s"]) <= $(c["tmed_hi_s"]) && $(c["above_bound"]) != "" { bad = 1 }
		END { exit bad }' "$BATS_TEST_TMPDIR/m/points.csv"
}

@test "collect --suspect: the one writer of suspects.tsv (a row once, kinds host and link, whole or not at all); no script writes it" {
	d=$BATS_TEST_TMPDIR/s
	mkdir "$d"
	run -0 "$COLLECT" --suspect "$d"
	[ "$(cat "$d/suspects.tsv")" = "$(printf 'kind\tname\tevidence\tsince\tcampaign\tpoints')" ]
	for _ in 1 2; do run -0 "$COLLECT" --suspect "$d" host n3 "came late (a tab	in it)" 2026-12-05T00:00:00Z camp; done
	run -0 "$COLLECT" --suspect "$d" link up:leaf1 "a located link"
	[ "$(tail -n +2 "$d/suspects.tsv")" = "$(printf 'host\tn3\tcame late (a tab in it)\t2026-12-05T00:00:00Z\tcamp\t\nlink\tup:leaf1\ta located link\t\t\t')" ]
	cp "$d/suspects.tsv" "$d/before"
	run --separate-stderr -2 "$COLLECT" --suspect "$d" nic n3 x
	[ "$stderr" = "collect: error: invalid suspect kind 'nic': allowed are host and link" ]
	run --separate-stderr -2 "$COLLECT" --suspect "$d" host 'n3;rm' x
	[[ $stderr == "collect: error: invalid suspect name 'n3;rm': a node's name"* ]]
	run --separate-stderr -2 "$COLLECT" --suspect "$d" host
	[[ $stderr == "collect: error: --suspect takes DIR [KIND NAME EVIDENCE [SINCE [CAMPAIGN]]], not 2 arguments" ]]
	cmp "$d/suspects.tsv" "$d/before"
	printf 'not a table\n' >"$d/suspects.tsv"
	run --separate-stderr -2 "$COLLECT" --suspect "$d" host n4 x
	[[ $stderr == *"is not a suspects table"* ]] && [ "$(cat "$d/suspects.tsv")" = "not a table" ]
	run --separate-stderr -3 "$COLLECT" --suspect "$d/no/such" host n4 x
	[[ $stderr == "collect: error: cannot write '$d/no/such/suspects.tsv.part': "* ]]
	# the scripts (stragglers, aller-isolate) ask collect: none redirects into the table
	run ! grep -rnE '>>?\s*"[^"]*suspects\.tsv' "$ROOT/plots" "$ROOT/campaigns" "$ROOT/jobs" "$ROOT/sh" "$ROOT/cluster"
}

# bats test_tags=build
@test "a table collect writes is its declaration: a column added to models.csv is one line there and the line that computes it" {
	t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t"
	tar -C "$ROOT" --exclude=./build --exclude=./results --exclude=./.git -cf - . | tar -C "$t" -xf -
	sed -i 's/^\(\tX(hi_bw_GBs, REAL, hi_bw)\)$/\1 \\\n\tX(r2_twice, REAL, r2_twice)/' "$t/collect/judge/models.h"
	sed -i 's/\.worst = m\.all\.worst,/& .r2_twice = 2 * m.all.r2,/' "$t/collect/judge/findings.c"
	# one line each (the declaration's new one and its continued last; the computing one)
	[ "$(diff "$ROOT/collect/judge/models.h" "$t/collect/judge/models.h" | grep -c '^>')" = 2 ]
	[ "$(diff "$ROOT/collect/judge/findings.c" "$t/collect/judge/findings.c" | grep -c '^>')" = 1 ]
	make -s -C "$t" -j2 build/bin/collect >&2
	cp -r "$ROOT/tests/data/findings/merged" "$BATS_TEST_TMPDIR/m"
	run -0 "$t/build/bin/collect" --findings "$BATS_TEST_TMPDIR/m"
	m=$BATS_TEST_TMPDIR/m/models.csv
	head -n 1 "$m" | grep -q ',hi_latency_s,hi_bw_GBs,r2_twice$'
	# every row has it, twice its r2, by name
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n++; if (NF != c["r2_twice"] || $(c["r2_twice"]) < 1.99 * $(c["r2"]) || $(c["r2_twice"]) > 2.01 * $(c["r2"])) exit 1 }
		END { exit n == 0 }' "$m"
	# and nothing else moved
	diff <(cut -d, -f1-16 "$m") "$ROOT/tests/data/findings/expected/models.csv"
}

@test "collect --plots: the plot list of a merge, a row a plot with its script, data and data sets; an earlier list gone; bad input one line" {
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$DATA/fabric/raw"
	mkdir -p "$BATS_TEST_TMPDIR/m/plotsets" && echo old >"$BATS_TEST_TMPDIR/m/plotsets/gone.tsv"
	run -0 "$COLLECT" --plots "$BATS_TEST_TMPDIR/m"
	t=$BATS_TEST_TMPDIR/m/plots.tsv
	# shellcheck source=sh/toolkit.sh
	. "$ROOT/sh/toolkit.sh"
	[ "$(head -n 1 "$t")" = "$(printf 'script\tdata\tout\ttitle\tsubtitle\targ6\targ7\targ8\targ9\tlead')" ]
	# the plots the findings cite lead: bandwidth, scaling, the largest size's concurrency (the modes differ)
	[ "$(table_select "$t" out lead | awk -F'\t' '$2 == 1 { print $1 }' | paste -sd' ')" = "bandwidth-contiguous-n2 bandwidth-contiguous-n4 bandwidth-strided-n2 bandwidth-strided-n4 concurrency-n2-2097152B concurrency-n4-1048576B scaling" ]
	# bandwidth and time per call per mode and node count, concurrency at three sizes each, scaling
	[ "$(table_select "$t" out | paste -sd' ')" = "bandwidth-contiguous-n2 latency-contiguous-n2 bandwidth-contiguous-n4 latency-contiguous-n4 bandwidth-strided-n2 latency-strided-n2 bandwidth-strided-n4 latency-strided-n4 concurrency-n2-2097152B concurrency-n2-65536B concurrency-n2-1024B concurrency-n4-1048576B concurrency-n4-32768B concurrency-n4-1024B scaling" ]
	[ "$(table_select "$t" script data title arg6 arg7 arg9 | sed -n 1p)" = "$(printf 'sizes.gp\tbandwidth.dat\taller: bw: bandwidth versus message size, contiguous, 2 nodes\tcontiguous\tplotsets/sizes-contiguous-n2.tsv\tbandwidth')" ]
	[ "$(table_select "$t" subtitle | sort -u)" = "Open MPI v4.1.4; 2 tasks per node; host buffers" ]
	# a plot's data sets: the columns its script reads, then sets.tsv's rows (its index, in file order)
	[ "$(cat "$BATS_TEST_TMPDIR/m/plotsets/sizes-strided-n4.tsv")" = "$(printf 'index\tcommsize\tlabel\n10\t8\t-\n11\t4\t-\n12\t2\t-')" ]
	[ ! -e "$BATS_TEST_TMPDIR/m/plotsets/gone.tsv" ]   # an earlier run's lists go
	# bad input: one line, exit 2 (usage) or 3 (not a merge)
	run --separate-stderr -2 "$COLLECT" --plots
	[ "$stderr" = "collect: error: --plots takes one merged directory: collect --plots DIR" ]
	run --separate-stderr -3 "$COLLECT" --plots "$BATS_TEST_TMPDIR/none"
	[ "$stderr" = "collect: error: --plots: cannot read '$BATS_TEST_TMPDIR/none/sets.tsv' (not a merged directory?)" ]
}

@test "nothing downstream of the merge reads an aller output: the scripts and collect's judging, comparing and export read the merged tables and facts" {
	# an output is known by its '# key:' lines (and '# Done'); the merged views' '# columns:' is the merge's
	found=$(grep -nE "\^# [a-z_]+:|== \"[a-z_]+:\"|'# [a-z_]+: |\"# [a-z_]+:|# Done" \
		"$ROOT"/plots/*.sh "$ROOT"/plots/*.gp "$ROOT"/campaigns/*.sh "$ROOT"/sh/*.sh | grep -v '# columns:' || true)
	[ -z "$found" ] || { echo "$found"; false; }
	# collect's judging, comparing and export open only the merged tables (table_open) and
	# facts.tsv; a comparison's side given as outputs is merged first (merge_side)
	run ! grep -nE '#include "read/(parse|input|state|point)\.h"|input_(open|read|lines|add)\(|parser_|groups_(read|each)\(|fopen\([^)]*\.out' \
		"$ROOT"/collect/judge/*.c "$ROOT"/collect/export/*.c "$ROOT"/collect/compare/*.[ch]
	grep -q 'merge_side(' "$ROOT/collect/compare/compare_side.c"
	# the --pairs heatmap draws the merge's pairs.dat, not the output
	grep -q '"pairs.gp", MERGED_PAIRS_DAT' "$ROOT/collect/export/plots_kinds.c"
}

@test "a library's messages before aller's header (UCX on stdout) are skipped alike by --state and the merge" {
	cd "$BATS_TEST_TMPDIR"
	{ echo "[1733471234.123] [n1:1234 :0] ucp_context.c:1234 UCX  WARN  transport 'tcp' is not available"
		sed -n '/^# aller: /,$p' "$DATA/smoke/raw/smoke-n1-contiguous-19.out"; } >ucx.out
	run -0 "$COLLECT" --state ucx.out
	[ "$output" = "complete	-	ucx.out" ]
	run --separate-stderr -1 "$COLLECT" -o m ucx.out
	[[ $stderr == *"ucx.out:1: text before aller's header (a library's messages on its standard output): skipped"* ]]
	[[ $stderr == *"1 points: 1 complete"* ]]
	# two runs in one file (a launcher whose worlds were singletons): failed, never merged as one
	cat ucx.out ucx.out >two.out
	run -0 "$COLLECT" --state two.out
	[[ $output == "failed	2 aller runs in one file: "* ]]
}
