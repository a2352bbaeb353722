#!/usr/bin/env bats
# Hostile inputs (issue 34), without MPI: data that must stay data, names and
# paths that must not escape, outputs that must be whole or not written, and
# contracts that must agree. Each test fails if its defect comes back.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant
load ../lib/helpers

@test "file names with quotes, \$(), backquotes, spaces, a newline or a dash are data to the plots: nothing runs" {
	cd "$BATS_TEST_TMPDIR"
	src=$ROOT/tests/data/smoke/raw/smoke-n1-contiguous-19.out
	names=("o';touch pwned;'.out" 'o$(touch pwned).out' 'o`touch pwned`.out' 'o with spaces.out' \
		'-o-dash.out' $'o\nnewline.out')
	for n in "${names[@]}"; do
		cp "$src" "./$n"
		run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --file "$n" --out-dir "out-$RANDOM" --format svg
		[ ! -e pwned ] || { echo "ran code for '$n'"; return 1; }
		[[ $output == *"/plots/bandwidth-"*".svg"* ]] || { echo "no plot for '$n': $stderr"; return 1; }
	done
	# through make too (its FILE reaches the script byte for byte)
	cp "$src" "$BATS_TEST_TMPDIR/m'\$(touch pwned)\`touch pwned\`.out"
	run -0 make -s -C "$ROOT" plots "FILE=$BATS_TEST_TMPDIR/m'\$(touch pwned)\`touch pwned\`.out" FORMAT=svg
	rm -rf "$ROOT/results/file-m'"*
	[ ! -e pwned ] && [ ! -e "$ROOT/pwned" ]
}

@test "a campaign's name starts with a letter or digit: '..', '.', '.x' and '-x' are refused" {
	for n in .. . .x -x; do
		run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" DRYRUN=1 "CAMPAIGN=$n" \
			"RESULTS=$ROOT/build/hostile-results"
		[[ $stderr == *"invalid CAMPAIGN '$n': allowed are letters, digits, '.', '_' and '-', the first a letter or digit"* ]]
	done
	run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" DRYRUN=1 CAMPAIGN=ok PARTITION=.x \
		"RESULTS=$ROOT/build/hostile-results"
	[[ $stderr == *"invalid PARTITION '.x'"* ]]
	[ ! -e "$ROOT/build/hostile-results" ]
}

@test "RESULTS is judged with '..' and links resolved, in a dry run too; make plots honours RESULTS" {
	cd "$ROOT/build"
	up=$(printf '../%.0s' {1..24})   # above / from any clone: '..' of / is /
	for r in "$PWD/${up}dev/shm/x" "$ROOT/${up}tmp/x" /var/tmp/x; do
		run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" DRYRUN=1 CAMPAIGN=x "RESULTS=$r"
		[[ $stderr == *"is node-local on most clusters"* ]] || { echo "$r: $stderr"; return 1; }
	done
	ln -sfn /dev/shm "$BATS_TEST_TMPDIR/shm"
	run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" DRYRUN=1 CAMPAIGN=x \
		"RESULTS=$BATS_TEST_TMPDIR/shm/x"
	[[ $stderr == *"($(realpath /dev/shm)/x) is node-local"* ]]
	# make plots CAMPAIGN=... RESULTS=...: the campaign under RESULTS, not ./results
	mkdir -p "$BATS_TEST_TMPDIR/res/mine"
	cp -r "$ROOT/tests/data/smoke/raw" "$BATS_TEST_TMPDIR/res/mine/"
	run --separate-stderr -0 make -s -C "$ROOT" plots CAMPAIGN=mine "RESULTS=$BATS_TEST_TMPDIR/res" FORMAT=svg
	[ -s "$BATS_TEST_TMPDIR/res/mine/plots/scaling.svg" ]
}

@test "word lists are one identity whatever their spacing; every job gets a --timeout" {
	cd "$ROOT"
	run --separate-stderr -0 bash campaigns/submit.sh DRYRUN=1 CAMPAIGN=sp "RESULTS=$ROOT/build/sp" \
		"LAUNCHER=srun  --mpi=pmix " "ALLER_ARGS= --verify=warmup  "
	[[ $output == *"#   LAUNCHER=srun --mpi=pmix"$'\n'* ]]
	[[ $output == *"#   ALLER_ARGS=--verify=warmup"$'\n'* ]]
	# smoke.conf's TIME=00:10:00 is aller's default; a shorter TIME is the bound
	[[ $output == *"ALLER_ARGS=--verify=warmup --timeout=600"$'\n'* ]]
	run -0 bash campaigns/submit.sh DRYRUN=1 CAMPAIGN=sp "RESULTS=$ROOT/build/sp" TIME=2
	[[ $output == *"ALLER_ARGS=--timeout=120"$'\n'* ]]
	run -0 bash campaigns/submit.sh DRYRUN=1 CAMPAIGN=sp "RESULTS=$ROOT/build/sp" TIME=
	[[ $output == *"ALLER_ARGS=--timeout=600"$'\n'* ]]
	# the user's own --timeout is kept
	run -0 bash campaigns/submit.sh DRYRUN=1 CAMPAIGN=sp "RESULTS=$ROOT/build/sp" ALLER_ARGS=--timeout=7
	[[ $output == *"ALLER_ARGS=--timeout=7"$'\n'* ]]
	# a job option twice would pass the preflight and fail every point: refused at once
	run --separate-stderr -2 bash campaigns/submit.sh DRYRUN=1 CAMPAIGN=sp "RESULTS=$ROOT/build/sp" \
		SAMPLES=1 ALLER_ARGS=--samples=x
	[[ $stderr == *"ALLER_ARGS has --samples, and SAMPLES=1 gives each point its own"* ]]
	[ ! -e "$ROOT/build/sp" ]
}

@test "of one job's attempts the later says how a point ended (a launcher's 143, then a usage error's 2: failed)" {
	CAMPAIGN=c DIR=$BATS_TEST_TMPDIR/c   # and COLLECT, helpers.bash's
	# shellcheck source=campaigns/lib.sh
	. "$ROOT/campaigns/lib.sh"
	# shellcheck source=campaigns/manifest.sh
	. "$ROOT/campaigns/manifest.sh"
	mkdir -p "$DIR/raw"
	key=n1-contiguous-t1-L0-default-s1 pre=$DIR/raw/c-n1-contiguous-t1-L0-default-s1-20261203T000000Z-1
	printf '# campaign: c\n# point: %s\n# job: 45\n# restart: 0\n# attempt: 1\n# exit: 143\n' "$key" >"$pre-j45-a01.out"
	printf '# campaign: c\n# point: %s\n# job: 45\n# restart: 0\n# attempt: 2\n# exit: 2\n' "$key" >"$pre-j45-a02.out"
	points_states
	# ... and the earlier attempt's end is kept, not hidden by the retry
	[[ ${P_STATE[$key]} == "failed	exit 2	$pre-j45-a02.out	2	attempt 1: incomplete: ended by SIGTERM" ]]
	# a later job that was cut short still beats a failed one
	printf '# campaign: c\n# point: %s\n# job: 46\n# restart: 0\n# attempt: 1\n# exit: 143\n' "$key" >"$pre-j46-a01.out"
	points_states
	[[ ${P_STATE[$key]} == "incomplete	ended by SIGTERM	$pre-j46-a01.out	3	-" ]]
	run -0 "$COLLECT" --state "$pre-j45-a01.out"
	[[ $output == "incomplete	ended by SIGTERM	"* ]]
}

@test "collect: an unknown '# format:' is named and skipped, never merged" {
	cd "$BATS_TEST_TMPDIR"
	mkdir in
	src=$ROOT/tests/data/smoke/raw/smoke-n1-contiguous-19.out
	for v in 99 abc 0; do
		sed "s/^# aller: \(.*\)$/# aller: \1\n# format: $v/" "$src" >"in/f$v.out"
	done
	cp "$src" in/good.out
	run --separate-stderr -1 "$COLLECT" -q -o out in
	for v in 99 abc 0; do
		[[ $stderr == *"in/f$v.out:1: format '$v' is not one this collect reads (1..9): skipped"* ]]
	done
	grep -q '^collect: 4 files read, 3 skipped$' out/summary.txt
	run -0 "$COLLECT" --state in/f99.out
	[[ $output == "failed	format '99' is not one this collect reads (1..9)	in/f99.out" ]]
}

@test "collect over a directory of non-outputs merges nothing and replaces nothing" {
	cd "$BATS_TEST_TMPDIR"
	run -0 "$COLLECT" -q -o out "$ROOT/tests/data/smoke/raw"
	cp -r out before
	mkdir junk
	echo hello >junk/a.txt
	printf '# foo: bar\n' >junk/b.out
	run --separate-stderr -2 "$COLLECT" -q -o out junk
	[[ $stderr == *"collect: error: none of the 2 files read is an aller output: nothing merged, 'out' left as it was"* ]]
	diff -r before out
}

@test "collect --samples: no files, no samples, a file cut short, one never finished, a repeated line: each said" {
	cd "$BATS_TEST_TMPDIR"
	mkdir empty d
	run --separate-stderr -2 "$COLLECT" --samples empty
	[[ $stderr == "collect: error: no samples files in 'empty'" ]]
	: >d/samples-n1.txt
	run --separate-stderr -1 "$COLLECT" --samples d/samples-n1.txt
	[[ $stderr == *"collect: error: no samples in the 1 file given"* ]]
	h='# aller samples: every task'"'"'s time of every timed call (concurrent pass), seconds, host n1'
	printf '%s\n# columns: level algo split count comm rank t_s...\n0 alltoall uniform 8 0 0 1e-05 1e-05\n0 alltoall uniform 8 0 1 1e-05 1e-05\n# end: 2 lines\n' "$h" >d/samples-n1.txt
	run --separate-stderr -0 "$COLLECT" --samples d
	[ -z "$stderr" ]
	[[ $output == *$'\n0 alltoall uniform 8 2 2 '* ]]
	# cut short: no '# end:'; a line repeated; a run that never finished (.part)
	head -n 4 d/samples-n1.txt >d/samples-n2.txt
	sed -n 3p d/samples-n1.txt >>d/samples-n2.txt
	cp d/samples-n1.txt d/.samples-n3.txt.part
	run --separate-stderr -1 "$COLLECT" --samples d
	[[ $stderr == *"collect: d/samples-n2.txt: no '# end:' line: cut short"* ]]
	[[ $stderr == *"rank 0's samples of '0 alltoall uniform 8' again"* ]]
	[[ $stderr == *"collect: d/.samples-n3.txt.part: the samples of a run that did not finish (never renamed): skipped"* ]]
	# the repeated lines are not extra tasks: still two
	[[ $output == *$'\n0 alltoall uniform 8 2 2 '* ]]
}

@test "collect --samples lists the counts of a data set in their numbers' order, 2 before 16 before 1048576" {
	cd "$BATS_TEST_TMPDIR"
	mkdir d
	{
		echo '# aller samples: every task'"'"'s time of every timed call (concurrent pass), seconds, host n1'
		echo '# columns: level algo split count comm rank t_s...'
		for c in 1048576 2 16 8; do echo "0 alltoall uniform $c 0 0 1e-05 1e-05"; done
		echo '# end: 4 lines'
	} >d/samples-n1.txt
	run -0 "$COLLECT" --samples d
	[ "$(printf '%s\n' "$output" | awk '!/^#/ { printf "%s ", $4 }')" = "2 8 16 1048576 " ]
}

@test "aller and collect: what cannot reach standard output is exit 3, one line" {
	run --separate-stderr -3 bash -c '"$0" 0 1 64 >/dev/full' "$ALLER"
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: .*cannot write the output (standard output)')" = 1 ]
	run --separate-stderr -3 bash -c '"$0" --help >/dev/full' "$ALLER"
	[[ $stderr == "aller: error: cannot write the output (standard output): "* ]]
	run --separate-stderr -3 bash -c '"$0" --state "$1" >/dev/full' "$COLLECT" "$ROOT/tests/data/smoke/raw"/*-19.out
	[[ $stderr == "collect: error: cannot write the standard output: No space left on device" ]]
}

@test "--check-args agrees with the run: --congestion of the whole world, --buffers=cuda in a host build" {
	# 2 tasks, half aggressors: one measured task, which the run accepts too (tests/mpi/hostile.bats)
	run -0 "$ALLER" --check-args=2 --congestion=0.5 c 1 64
	run --separate-stderr -2 "$ALLER" --check-args=4 --congestion=0.5 c 1 1
	[[ $stderr == *"longs 1 is smaller than the world size 2"* ]]
	# (make test builds without CUDA)
	run --separate-stderr -2 "$ALLER" --check-args=4 --buffers=cuda
	[[ $stderr == "aller: error: '--buffers=cuda' needs a build with 'make CUDA=1'; this aller has host buffers only" ]]
}

@test "matrix files: a FIFO, a device, a directory, a long line, weights past DBL_MAX: one line, exit 2, at once" {
	cd "$BATS_TEST_TMPDIR"
	mkfifo fifo
	mkdir dir
	head -c 5000000 /dev/zero | tr '\0' 1 >long
	printf '1e308 1e308\n1e308 1e308\n' >big
	printf '1e-320 1\n1 1\n' >tiny
	for f in fifo:'a FIFO' /dev/zero:'a device' dir:'a directory'; do
		run --separate-stderr -2 timeout 10 "$ALLER" --check-args=2 "--split=matrix:${f%%:*}" c 1 64
		[[ $stderr == "aller: error: matrix file '${f%%:*}' is ${f#*:}, not a regular file" ]]
	done
	run --separate-stderr -2 timeout 10 "$ALLER" --check-args=2 --split=matrix:long c 1 64
	[[ $stderr == "aller: error: matrix file 'long': '1111111111111111111111111111111111111111' on line 1 is not a number" ]]
	run --separate-stderr -2 "$ALLER" --check-args=2 --split=matrix:big c 1 64
	[[ $stderr == "aller: error: matrix file 'big': the weights add up past the largest number (1.79769e+308) on line 1: scale them down" ]]
	# a number too small for a double is a number near 0, not "not a number"
	run -0 "$ALLER" --check-args=2 --split=matrix:tiny c 1 64
}

@test "options that would be silently overridden or ignored are refused, one line each" {
	for a in "--algo=alltoall --algo=pairwise" "--timing=loop --timing=osu" "--samples=a --samples=b" \
		"--split=zipf:1.2 --split=zipf:1.2:1" "--slow-below=0.5" "--min-iters=2"; do
		# shellcheck disable=SC2086 # the options, split
		run --separate-stderr -2 "$ALLER" --check-args=4 $a c 1 64
		[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ] || { echo "$a: $stderr"; return 1; }
	done
	run --separate-stderr -2 "$ALLER" --check-args=4 --congestion=0.5:bogus
	[[ $stderr == "aller: error: invalid --congestion algorithm 'bogus': allowed are alltoall, ialltoall, alltoallv and pairwise" ]]
}

# --- issue 47: the second hostile pass, a test per class ---

@test "gnuplot never sees a path it could run: '<cmd' data, '|cmd' outputs and campaign dirs are made absolute" {
	cd "$BATS_TEST_TMPDIR"
	src=$ROOT/tests/data/smoke/raw/smoke-n1-contiguous-19.out
	cp "$src" "./<touch P1;echo x.out"
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --file "<touch P1;echo x.out" --out-dir o1 --format svg
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --file "<touch P1;echo x.out" \
		--out-dir "|touch P5;cat >/dev/null;x" --format svg
	[[ $output == *"/plots/bandwidth-"*".svg"* ]]
	mkdir -p "<touch P2;c" && cp -r "$ROOT/tests/data/smoke/raw" "<touch P2;c/"
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir "<touch P2;c" --format svg
	[ -s "<touch P2;c/plots/scaling.svg" ]
	run --separate-stderr -2 bash "$ROOT/plots/compare.sh" BASE=.. NEW=x "RESULTS=<touch P3;r"
	[[ $stderr == *"invalid BASE '..'"* ]]
	for p in P1 P2 P3 P5; do [ ! -e "$p" ] || { echo "ran $p"; return 1; }; done
}

@test "a doctored mode with a '/' never names a file outside the plots: the plot list's names keep it in" {
	cd "$BATS_TEST_TMPDIR"
	mkdir -p c/raw
	sed 's|^# mode: .*|# mode: ../../../evil|' "$ROOT/tests/data/smoke/raw/smoke-n4-strided-21.out" >c/raw/x.out
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --campaign-dir c --format svg
	[[ $output == *"/c/plots/bandwidth-.._.._.._evil-n4.svg"* ]]
	[ -s "c/merged/plotsets/sizes-.._.._.._evil-n4.tsv" ]
	[ -z "$(find . -name '*evil*' -not -path './c/plots/*' -not -path './c/merged/plotsets/*')" ]
}

@test "report pieces: a plot's file name is escaped where HTML is written" {
	cd "$BATS_TEST_TMPDIR"
	# shellcheck source=plots/page.sh
	. "$ROOT/plots/page.sh"
	n='y"onload="document.body.setAttribute(1);x<b>.png'
	printf 'PNG' >"$n"
	html=$(figure "$PWD/$n")
	[[ $html != *'"onload='* && $html != *'<b>'* ]]
	[[ $html == *'alt="y&quot;onload=&quot;document.body.setAttribute(1);x&lt;b&gt;.png"'* ]]
}

@test "a host list is never a suspect nor drained: collect and drain.sh want one node's name" {
	cd "$BATS_TEST_TMPDIR"
	mkdir -p c/merged bin
	printf 'kind\tname\tevidence\tsince\tcampaign\tpoint\n' >c/merged/suspects.tsv
	for h in 'n[1-4]' 'n7,n8' "n'1" '-n1' 'n 1'; do
		printf 'host\t%s\tslow\t\tc\t1\n' "$h" >>c/merged/suspects.tsv
	done
	for t in sinfo scontrol; do
		printf '#!/bin/sh\necho "$0 $*" >>%s/called\necho n1\n' "$PWD" >"bin/$t"
		chmod +x "bin/$t"
	done
	PATH=$PWD/bin:$PATH run --separate-stderr -0 bash "$ROOT/campaigns/drain.sh" c 5
	[ "$(grep -c "not one node's name" <<<"$output")" -eq 5 ]
	if grep -q 'update' called 2>/dev/null; then echo 'scontrol update ran'; return 1; fi
	run --separate-stderr -2 bash "$ROOT/campaigns/undrain.sh" 'HOSTS=n[1-4]'
	[[ $stderr == *"invalid host 'n[1-4]' in HOSTS"* ]]
}

@test "collect replaces only regular files: a FIFO, a link's target and stdout's own file" {
	cd "$BATS_TEST_TMPDIR"
	raw=$ROOT/tests/data/smoke/raw
	mkdir o && mkfifo o/points.csv
	run --separate-stderr -3 timeout 20 "$COLLECT" -q -o o "$raw"
	[[ $stderr == *"'o/points.csv' is a FIFO: allowed is a regular file or a new name"* ]]
	[ -p o/points.csv ]
	[ ! -e o/sets.tsv ]
	# a link: the file it names is replaced, the link kept
	mkdir l && echo mine >elsewhere.csv && ln -s ../elsewhere.csv l/points.csv
	run --separate-stderr -0 "$COLLECT" -q -o l "$raw"
	[ -L l/points.csv ]
	run ! grep -q mine elsewhere.csv
	[ "$(wc -l <elsewhere.csv)" -gt 10 ]
	# the file standard output goes to is never replaced under it
	mkdir s && echo kept >s/summary.txt
	run --separate-stderr -3 sh -c 'exec "$0" -o s "$1" >>s/summary.txt' "$COLLECT" "$raw"
	[[ $stderr == *"'s/summary.txt' is the file standard output goes to"* ]]
	grep -q kept s/summary.txt
}

@test "collect never reads a FIFO or a device as an output: one line, exit 2, no hang" {
	cd "$BATS_TEST_TMPDIR"
	mkfifo f
	for a in "-q -o o f" "-q -o o /dev/zero" "--samples /dev/zero" "--samples f" "--compare -o o f /dev/zero"; do
		# shellcheck disable=SC2086 # the arguments, split
		run --separate-stderr -2 timeout 10 "$COLLECT" $a
		[[ $stderr == *"is not a regular file or a directory"* ]] || { echo "$a: $stderr"; return 1; }
	done
}

@test "collect --samples: tasks with differing calls or a rank out of range are errors (exit 1)" {
	cd "$BATS_TEST_TMPDIR"
	mkdir s
	printf '# aller samples: x, host h1\n1 alltoall uniform 8 0 0 1e-6 2e-6\n1 alltoall uniform 8 0 1 1e-6\n# end: 2 lines\n' >s/samples-h1.txt
	run --separate-stderr -1 "$COLLECT" --samples s
	[[ $stderr == *"rank 1 has 1 calls"* || $stderr == *"has 2 calls, rank 1 1"* ]]
	printf '# aller samples: x, host h1\n1 alltoall uniform 8 0 0 1e-6\n1 alltoall uniform 8 0 5 1e-6\n# end: 2 lines\n' >s/samples-h1.txt
	run --separate-stderr -1 "$COLLECT" --samples s
	[[ $stderr == *"rank 5, but the samples have 2 tasks"* ]]
}

@test "CSV fields are quoted: a split or variant with a comma keeps its row whole (models.csv, compare.csv)" {
	cd "$BATS_TEST_TMPDIR"
	mkdir in
	sed 's/^# split: .*//' "$ROOT/tests/data/smoke/raw/smoke-n2-contiguous-20.out" |
		sed '/^# level:/a # split: matrix:a,b"c.txt' >in/x.out
	run --separate-stderr "$COLLECT" -q -o out in
	python3 - out <<-'EOF'
		import csv, sys
		for name in ("points.csv", "models.csv"):
		    rows = list(csv.reader(open(sys.argv[1] + "/" + name)))
		    assert len(set(len(r) for r in rows)) == 1, (name, set(len(r) for r in rows))
		    assert any('matrix:a,b"c.txt' in r for r in rows[1:]), name
	EOF
}

@test "collect --openmetrics of one point twice is refused; --trend makes OUTDIR and counts each run once" {
	cd "$BATS_TEST_TMPDIR"
	"$COLLECT" -q -o m1 "$ROOT/tests/data/smoke/raw"
	run --separate-stderr -2 "$COLLECT" --openmetrics m1 m1
	[[ $stderr == *"both hold point"*"exported twice"* ]]
	run --separate-stderr -2 "$COLLECT" --trend t m1 ./m1
	[[ $stderr == *"'m1' and './m1' are one merge"* ]]
	cp -r m1 m2
	run --separate-stderr "$COLLECT" --trend new/dir m1 m2
	[ -s new/dir/trend.csv ]
	run --separate-stderr -2 bash "$ROOT/plots/trend.sh" "CAMPAIGNS=a a a" "RESULTS=$PWD"
	[[ $stderr == *"campaign 'a' is named twice"* ]]
}

@test "a flat trend still has its plot; a backslash in a label reaches the plot's data sets as it is" {
	cd "$BATS_TEST_TMPDIR"
	# shellcheck source=sh/toolkit.sh
	. "$ROOT/sh/toolkit.sh"
	# shellcheck source=plots/lib.sh
	. "$ROOT/plots/lib.sh"
	printf '# columns: run busbw_GBs date\n"a" x x\n1 0.5 2026-01-01\n2 0.5 2026-01-02\n' >flat.dat
	run -0 gnuplot_render "$ROOT/plots/trend.gp" flat.dat flat.png png t s 1
	[ -s flat.png ]
	mkdir m
	{
		printf 'file\tindex\tkind\tcampaign\tmode\tnodes\tcommsize\tcomms\tbytes_per_peer\tsize\ttasks_per_node\tbuffers\tmpi\tseries\tvariant\talgo\tsplit\tlabel\trows\tpoint\talgo_index\tbytes_max\tisolated\tlocal\n'
		printf 'bandwidth.dat\t3\tbandwidth\tc\tstrided\t2\t4\t1\t-\t-\t2\thost\t-\t-\t-\talltoall\tuniform\tm\\x\t5\t0\t0\t64\tno\tno\n'
	} >m/sets.tsv
	run -0 "$COLLECT" --plots m
	[ "$(cat m/plotsets/sizes-strided-n2.tsv)" = "$(printf 'index\tcommsize\tlabel\n3\t4\tm\\x')" ]
}

@test "campaign values: PLACEMENTS seeds without zeros and once, VARIANTS by their words, RESULTS not in /proc, /sys or /dev" {
	cd "$ROOT"
	for p in random:007 "random random:1" "random:1 random"; do
		run --separate-stderr -2 bash campaigns/submit.sh DRYRUN=1 CAMPAIGN=h "RESULTS=$ROOT/build/h" "PLACEMENTS=$p"
		[[ $stderr == *"PLACEMENTS"* ]] || { echo "$p: $stderr"; return 1; }
	done
	run --separate-stderr -0 bash campaigns/submit.sh DRYRUN=1 CAMPAIGN=h "RESULTS=$ROOT/build/h" \
		"VARIANTS= default   b:OMPI_MCA_x=1 "
	[[ $output == *"#   VARIANTS=default b:OMPI_MCA_x=1"$'\n'* ]]
	for r in /proc/x /sys/x /dev/x; do
		run --separate-stderr -2 bash campaigns/submit.sh DRYRUN=1 CAMPAIGN=h "RESULTS=$r"
		[[ $stderr == *"is in a kernel file system"* ]]
	done
	run --separate-stderr -2 bash campaigns/isolate.sh CAMPAIGN=../x
	[[ $stderr == *"invalid CAMPAIGN '../x'"* ]]
	[ ! -e "$ROOT/build/h" ]
}

@test "make schedule's command lines are POSIX sh: a tab or a Latin-1 byte in a path stays itself" {
	# shellcheck source=sh/toolkit.sh
	. "$ROOT/sh/toolkit.sh"
	words=(a "b c" "it's" $'t\tab' $'caf\xe9' '$(touch x)')
	line=$(sh_quote "${words[@]}")
	run -0 sh -c "printf '[%s]' $line"
	[ "$output" = "$(printf '[%s]' "${words[@]}")" ]
}

@test "param2trace: sizes exact, no infinity, no empty call, no FIFO or device, deep JSON and a full disk each one line" {
	cd "$BATS_TEST_TMPDIR"
	p=$ROOT/tools/param2trace
	printf '[{"in_split":[1234567,1.5]}]' >a.json
	printf '[{"in_split":[2,0]}]' >b.json
	run --separate-stderr -0 "$p" a.json b.json
	[[ $output == *$'\n1234567 1.5\n2 0' ]]
	printf '[{"in_split":[Infinity,1]}]' >i.json
	printf '[{"in_split":[1e400,1]}]' >e.json
	printf '[{"in_split":[0,0]}]' >z.json
	python3 -c "print('[' * 100000 + ']' * 100000)" >deep.json
	mkfifo ff
	for f in i.json e.json z.json deep.json ff /dev/zero; do
		run --separate-stderr -2 timeout 10 "$p" "$f" "$f"
		[[ $stderr == "param2trace: error: "* && $stderr != *Traceback* ]] || { echo "$f: $stderr"; return 1; }
	done
	run --separate-stderr -3 sh -c '"$0" a.json b.json >/dev/full' "$p"
	[[ $stderr == *"cannot write the trace"* && $stderr != *Traceback* ]]
	run --separate-stderr -3 sh -c '"$0" --help >/dev/full' "$p"
}

@test "aller: a floor at a size never measured, a split twice by two spellings, messages that say what they mean" {
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr -2 "$ALLER" --check-args=2 --min-busbw=1000@3 c 1 64
	[[ $stderr == *"--min-busbw holds at 3 B per peer, a size this sweep"*"never measures"* ]]
	printf '0 1\n1 0\n' >m.txt
	run --separate-stderr -2 "$ALLER" --check-args=2 --split=matrix:m.txt --split=matrix:./m.txt c 1 64
	[[ $stderr == *"given twice (as '--split=matrix:m.txt' too: the same split)"* ]]
	run --separate-stderr -2 "$ALLER" --cold-cache=3x c 1 64
	[[ $stderr == *"expected bytes (the ring's size in all)"* ]]
	run --separate-stderr -2 "$ALLER" --moe --split=trace:m.txt c 1 64
	[[ $stderr == *"(rotate:, trace:)"* && $stderr != *"moving --split (rotate)"* ]]
	printf '\xef\xbb\xbf0 1\n1 0\n' >bom.txt
	run --separate-stderr -0 "$ALLER" --check-args=2 --split=matrix:bom.txt c 1 64
}

@test "an unbuilt tree never takes its grandparent's bin/ for the installed layout: only make install's marker says installed" {
	t=$BATS_TEST_TMPDIR/team
	mkdir -p "$t/bin" "$t/src/tree/sh"
	printf '#!/bin/sh\ntouch "%s/ran"\n' "$t" >"$t/bin/collect"
	chmod +x "$t/bin/collect"
	cp "$ROOT/sh/toolkit.sh" "$ROOT/sh/write.sh" "$t/src/tree/sh/"
	run --separate-stderr -3 env PATH=/usr/bin:/bin bash -c '. "$1/sh/toolkit.sh"; find_tool collect' find "$t/src/tree"
	[[ $stderr == *"cannot find 'collect': run 'make' first"* ]]
	[ ! -e "$t/ran" ]
	# installed: share/aller with the VERSION file make install writes, PREFIX/bin beside it
	echo '1.0.0 (x, installed)' >"$t/src/tree/VERSION"
	run -0 env PATH=/usr/bin:/bin bash -c '. "$1/sh/toolkit.sh"; find_tool collect' find "$t/src/tree"
	[ "$output" = "$t/bin/collect" ]
}

@test "RESULTS another user can write into is refused before anything is written: a planted link redirects nothing" {
	shared=$BATS_TEST_TMPDIR/shared victim=$BATS_TEST_TMPDIR/victim
	mkdir -m 1777 "$shared"
	echo mine >"$victim"
	# another user's links where a submission writes first: the lock and its holder
	ln -s "$victim" "$shared/.c.lock"
	ln -s "$victim" "$shared/.c.lock.holder"
	chown -h nobody "$shared/.c.lock" "$shared/.c.lock.holder"
	for tool in "campaigns/submit.sh CAMPAIGN=c NODES=1" "campaigns/schedule.sh CAMPAIGN_PREFIX=c AT=02:00" \
		"plots/report.sh CAMPAIGN=c"; do
		# shellcheck disable=SC2086 # the tool and its arguments, split
		run --separate-stderr -2 bash "$ROOT"/$tool "RESULTS=$shared"
		[[ $stderr == *"error: not writing into '$shared': '$shared' is writable by everyone (mode 1777): another user could plant a link in it"* ]] ||
			{ echo "$tool: $stderr"; return 1; }
	done
	[ "$(cat "$victim")" = mine ]
	# the same with the group: a team's directory (where the nodes see it, not /tmp)
	team=$ROOT/build/hostile-team-$$
	mkdir -m 2775 "$team"
	run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=c "RESULTS=$team" DRYRUN=1
	[[ $stderr == *"'$team' is writable by its group (mode 2775)"* ]]
	# ... and so is a directory of one's own in it, which the group could move away
	mkdir -m 755 "$team/mine"
	run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=c "RESULTS=$team/mine" DRYRUN=1
	[[ $stderr == *"'$team' is writable by its group and not sticky (mode 2775): another user could move the directories in it"* ]]
	# under a sticky one (as /tmp), a directory of one's own is safe
	chmod +t "$team"
	run -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=c "RESULTS=$team/mine" DRYRUN=1
	rm -rf "$team"
	# collect's output directory is held to the same; a directory of its own under a sticky one is fine
	run --separate-stderr -3 "$COLLECT" -q -o "$shared" "$ROOT/tests/data/smoke/raw"
	[[ $stderr == "collect: error: not writing into '$shared': '$shared' is writable by everyone (mode 1777)"* ]]
	run -0 "$COLLECT" -q -o "$shared/m" "$ROOT/tests/data/smoke/raw"
	# ... unless another user made it first
	mkdir -m 755 "$shared/theirs" && chown nobody "$shared/theirs"
	run --separate-stderr -3 "$COLLECT" -q -o "$shared/theirs" "$ROOT/tests/data/smoke/raw"
	[[ $stderr == *"'$shared/theirs' belongs to another user (uid 65534)"* ]]
}

@test "collect writes no temporary through a link planted under its name, nor a result through another user's link" {
	cd "$BATS_TEST_TMPDIR"
	echo mine >victim
	mkdir m
	ln -s ../victim m/findings.json.part
	run --separate-stderr -3 "$COLLECT" -q -o m "$ROOT/tests/data/smoke/raw"
	[[ $stderr == *"cannot write '"*"m/findings.json.part': it is a symbolic link, in the way: not written through; remove it"* ]]
	[ "$(cat victim)" = mine ]
	mkdir m2
	ln -s ../victim m2/bandwidth.dat
	chown -h nobody m2/bandwidth.dat
	run --separate-stderr -3 "$COLLECT" -q -o m2 "$ROOT/tests/data/smoke/raw"
	[[ $stderr == *"'m2/bandwidth.dat' is a symbolic link of another user (uid 65534): not followed"* ]]
	[ "$(cat victim)" = mine ]
}

@test "SBATCH_* variables that would reshape aller's jobs (an array, a requeue, a wait) are not passed to them: one line" {
	bin=$BATS_TEST_TMPDIR/bin res=$ROOT/build/hostile-sbatch-$$   # RESULTS where nodes see it, not /tmp
	mkdir -p "$bin"
	# sbatch as a recorder: what each submission saw of SBATCH_*
	printf '#!/bin/sh\ncase " $* " in *" --test-only "*) exit 0 ;; esac\nenv | grep ^SBATCH_ | sort >>"%s/seen"; echo "---" >>"%s/seen"; echo 4242\n' \
		"$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR" >"$bin/sbatch"
	for t in squeue sacct scontrol; do printf '#!/bin/sh\nexit 1\n' >"$bin/$t"; done
	chmod +x "$bin"/*
	run --separate-stderr -0 env PATH="$bin:$PATH" SBATCH_ARRAY_INX=0-2 SBATCH_REQUEUE=1 SBATCH_ACCOUNT=team \
		bash "$ROOT/campaigns/submit.sh" CAMPAIGN=arr "RESULTS=$res" NODES=1 MODES=contiguous LONGS=64
	[[ $stderr == *"campaign: not passed to aller's jobs (each would change what a job is): SBATCH_ARRAY_INX=0-2 SBATCH_REQUEUE=1"* ]]
	# the point's job and the final job: no array, the account kept
	[ "$(grep -c '^---$' "$BATS_TEST_TMPDIR/seen")" = 2 ]
	run ! grep -q 'SBATCH_ARRAY_INX\|SBATCH_REQUEUE' "$BATS_TEST_TMPDIR/seen"
	[ "$(grep -c '^SBATCH_ACCOUNT=team$' "$BATS_TEST_TMPDIR/seen")" = 2 ]
	grep -q '^sbatch_env .* SBATCH_ACCOUNT=team$' "$res/arr/manifest"
	rm -rf "$res"
}

@test "a campaign submitted into a full RESULTS: exit 3 and one line, not bash's write error and the lock's 1" {
	mnt=$BATS_TEST_TMPDIR/full
	mkdir -p "$mnt"
	mount -t tmpfs -o size=64k,mode=755 tmpfs "$mnt" 2>/dev/null || skip "cannot mount a small tmpfs here"
	dd if=/dev/zero of="$mnt/fill" bs=1k count=64 2>/dev/null || true
	run --separate-stderr -3 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=c "RESULTS=$mnt" NODES=1
	umount "$mnt"
	[ "$stderr" = "campaign: error: cannot write '$mnt/.c.lock.holder': No space left on device" ]
}

@test "a campaign of the MPICH build under srun --mpi=pmix is refused: each task would run alone" {
	run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=m MPI=mpich DRYRUN=1
	[ "$stderr" = "campaign: error: MPI=mpich with LAUNCHER 'srun --mpi=pmix': Debian's MPICH speaks no PMIx (each task would run alone); allowed is a PMI it speaks, e.g. LAUNCHER=\"srun --mpi=pmi2\"" ]
	# (the MPICH build: make test's; make test-quick builds no other)
	[ -x "$ROOT/build/mpich/bin/aller" ] || skip "no MPICH build: make MPI=mpich"
	run -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=m MPI=mpich "LAUNCHER=srun --mpi=pmi2" DRYRUN=1
}
