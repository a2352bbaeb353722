#!/usr/bin/env bats
# A hostile pass on expected against measured (docs/simulate.md): make
# compare BASE=simulated NEW=measured and make report EXPECTED=simulated,
# given the wrong campaigns, a RESULTS others can write, a link planted
# where the comparison goes. Each is one line and exit 2 (3 where the
# collector refuses to write) with nothing written, or a correct result. On
# kept data (tests/data/slownic: the local cluster's campaign, n3's NIC
# slowed) and campaigns made by make simulate; no cluster.
# shellcheck disable=SC2154 # bats sets output, stderr and status

load ../lib/helpers

setup() {
	res=$BATS_TEST_TMPDIR/res
	for c in slownic measured; do
		mkdir -p "$res/$c"
		cp -r "$ROOT/tests/data/slownic/raw" "$res/$c/"
		printf 'manifest 2\n' >"$res/$c/manifest"
	done
	# the local cluster's fabric as a site declares it (tests/e2e/15-fabric.bats)
	printf 'switch leaf1 1000000kbit n[1-2]\nswitch leaf2 1000000kbit n[3-4]\nnic n[1-4] 1000000kbit\n' \
		>"$BATS_TEST_TMPDIR/local.fabric"
	simulated expected
}

# simulated NAME: make simulate of the kept campaign's settings (its README) as RESULTS/NAME
simulated() {
	bash "$ROOT/campaigns/simulate.sh" CAMPAIGN="$1" "RESULTS=$res" FABRIC="$BATS_TEST_TMPDIR/local.fabric" HOSTS='n[1-4]' \
		NODES=4 TASKS_PER_NODE=1 MODES="contiguous strided" LONGS=524288 ALLER_ARGS=--min-bytes=256K >/dev/null
}

# report ARGS...: plots/report.sh (make report) on RESULTS
report() {
	bash "$ROOT/plots/report.sh" "RESULTS=$res" "$@"
}

# nothing_written: no report page and no comparison directory in RESULTS
nothing_written() {
	[ ! -e "$res/slownic/report.html" ]
	[ ! -e "$res/expected/report.html" ]
	[ -z "$(find "$res" -maxdepth 1 -name 'compare-*')" ]
}

@test "a comparison the collector refuses (a simulated NEW, a measured BASE) leaves no comparison directory behind, exit 2" {
	run --separate-stderr -2 bash "$ROOT/plots/compare.sh" BASE=slownic NEW=expected "RESULTS=$res"
	[ "$stderr" = "collect: error: NEW '$res/expected' is simulated and BASE '$res/slownic' measured: the expected (simulated) campaign is BASE, the measured NEW" ]
	nothing_written
}

@test "make compare into a RESULTS everyone can write is refused before anything is written, exit 2" {
	chmod 777 "$res"
	run --separate-stderr -2 bash "$ROOT/plots/compare.sh" BASE=expected NEW=slownic "RESULTS=$res"
	[[ $stderr == "compare: error: not writing into '$res': '$res' is writable by everyone (mode 0777): "* ]]
	[ "${#lines[@]}" = 0 ]
	nothing_written
}

@test "another user's link planted at the comparison's name is never followed: what it points at stays empty, exit 3" {
	mkdir "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$res/compare-expected-vs-slownic"
	chown -h nobody "$res/compare-expected-vs-slownic" 2>/dev/null || skip "cannot give a link to another user here"
	run --separate-stderr -3 bash "$ROOT/plots/compare.sh" BASE=expected NEW=slownic "RESULTS=$res"
	[ "$stderr" = "collect: error: not writing into '$res/compare-expected-vs-slownic': '$res/compare-expected-vs-slownic' belongs to another user (uid $(id -u nobody)): it could swap what is behind it" ]
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/elsewhere")" ]
}

@test "two simulated campaigns compare as any two campaigns (a fault's effect, say): a plain comparison, never 'expected'" {
	cp -r "$res/expected" "$res/expected2"
	run --separate-stderr -0 bash "$ROOT/plots/compare.sh" BASE=expected NEW=expected2 "RESULTS=$res"
	[[ ${lines[0]} == "# aller compare: BASE 'expected' "* ]]
	[[ ${lines[-1]} == "compare: 24 points matched: 0 faster, 0 slower, 24 same, "* ]]
}

@test "make report EXPECTED= a measured campaign is refused: one line naming it, exit 2, no page, no comparison" {
	run --separate-stderr -2 report CAMPAIGN=slownic EXPECTED=measured
	[ "$stderr" = "report: error: invalid EXPECTED 'measured' with CAMPAIGN 'slownic': allowed is a simulated campaign (make simulate, its manifest says so) beside a measured CAMPAIGN, and no BASE with it" ]
	nothing_written
}

@test "make report EXPECTED= the report's own campaign is refused, exit 2" {
	run --separate-stderr -2 report CAMPAIGN=slownic EXPECTED=slownic
	[[ $stderr == "report: error: invalid EXPECTED 'slownic' with CAMPAIGN 'slownic': allowed is a simulated campaign "* ]]
	nothing_written
}

@test "make report of a simulated CAMPAIGN with EXPECTED= another simulated one is refused: its page would call a simulation measured, exit 2" {
	simulated other
	run --separate-stderr -2 report CAMPAIGN=other EXPECTED=expected
	[[ $stderr == "report: error: invalid EXPECTED 'expected' with CAMPAIGN 'other': "* ]]
	[ ! -e "$res/other/report.html" ]
	nothing_written
}

@test "make report with both BASE and EXPECTED is refused, never one of them dropped unsaid, exit 2" {
	run --separate-stderr -2 report CAMPAIGN=slownic EXPECTED=expected BASE=measured
	[ "$stderr" = "report: error: invalid EXPECTED 'expected' with CAMPAIGN 'slownic' and BASE 'measured': allowed is a simulated campaign (make simulate, its manifest says so) beside a measured CAMPAIGN, and no BASE with it" ]
	nothing_written
}

@test "make report EXPECTED= a campaign that does not exist, or a name with a quote, '..' or a newline: one line, exit 2" {
	run --separate-stderr -2 report CAMPAIGN=slownic EXPECTED=nope
	[ "$stderr" = "report: error: no campaign 'nope' in $res (no $res/nope/raw)" ]
	for bad in "a'b" .. 'a b' $'a\nb' ../expected; do
		run --separate-stderr -2 report CAMPAIGN=slownic EXPECTED="$bad"
		[ "${#stderr}" -gt 0 ]
		[[ $stderr != *$'\n'* ]]
		[[ $stderr == "report: error: invalid EXPECTED '"* ]]
	done
	nothing_written
}

@test "make report EXPECTED= a simulated campaign beside the measured one still writes the page, exit 0" {
	run --separate-stderr -0 report CAMPAIGN=slownic EXPECTED=expected
	[ "$output" = "$res/slownic/report.html" ]
	grep -q '<h2 id="comparison">Expected (simulated): expected</h2>' "$res/slownic/report.html"
}

# variant NAME VARIANT...: the kept campaign measured again under each VARIANT's name (its outputs' headers), as RESULTS/NAME
variant() {
	local d=$res/$1 f b v
	mkdir -p "$d/raw"
	printf 'manifest 2\n' >"$d/manifest"
	for v in "${@:2}"; do
		for f in "$ROOT"/tests/data/slownic/raw/*.out; do
			b=$(basename "$f")
			sed "/^# \(variant\|point\)/s/default/$v/" "$f" >"$d/raw/${b/default/$v}"
		done
	done
}

@test "a measured campaign of one variant (VARIANTS=ucx:...) against the simulation: its rows matched whatever the variant's name, exit 1 where short" {
	variant ucx ucx
	run --separate-stderr -1 bash "$ROOT/plots/compare.sh" BASE=expected NEW=ucx "RESULTS=$res"
	[[ ${lines[-1]} == "compare: 24 points matched against the expected (simulated): "*"; 0 only in BASE, 0 only in NEW" ]]
}

@test "a measured campaign of two variants against the simulation: one line, exit 2, never one variant's row picked at random; NEW@VARIANT compares each" {
	variant two ucx default
	run --separate-stderr -2 "$COLLECT" --compare "$res/expected" "$res/two"
	[ "$stderr" = "collect: error: NEW '$res/two' has 24 rows of one identity twice (several variants, campaigns or series): compare one variant at a time with the expected (simulated) BASE: NEW@VARIANT" ]
	[ -z "$output" ]
	for v in ucx default; do
		run --separate-stderr -1 "$COLLECT" --compare "$res/expected" "$res/two@$v"
		[[ ${lines[-1]} == "compare: 24 points matched against the expected (simulated): "*"; 0 only in BASE, 0 only in NEW" ]]
	done
}

@test "make report stopped by SIGTERM while it draws: exit 143, the old page kept, no temporary left in TMPDIR" {
	# a gnuplot that waits for the gate: the report is inside plot.sh when the signal comes
	mkdir -p "$BATS_TEST_TMPDIR/bin" "$BATS_TEST_TMPDIR/tmp"
	printf '#!/bin/sh\ntouch "%s/drawing"; while [ ! -e "%s/gate" ]; do sleep 0.1; done; exec %s "$@"\n' \
		"$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR" "$(command -v gnuplot)" >"$BATS_TEST_TMPDIR/bin/gnuplot"
	chmod +x "$BATS_TEST_TMPDIR/bin/gnuplot"
	echo 'the old page' >"$res/slownic/report.html"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH TMPDIR=$BATS_TEST_TMPDIR/tmp bash "$ROOT/plots/report.sh" "RESULTS=$res" \
		CAMPAIGN=slownic EXPECTED=expected >/dev/null 2>&1 &
	pid=$!
	wait_for "the report's gnuplot" 60 test -e "$BATS_TEST_TMPDIR/drawing"
	kill -TERM "$pid"
	touch "$BATS_TEST_TMPDIR/gate"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 143 ]
	[ "$(cat "$res/slownic/report.html")" = 'the old page' ]
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ]
}

@test "a side's path with a newline, quotes and \$(...) forges no line in the comparison's table (compare.txt, stdout): escaped as a header is" {
	w=$BATS_TEST_TMPDIR/$'we ird\'"$(touch PWNED)`x`\n# setting that differs: forged'
	mkdir -p "$w"
	cp -r "$res/expected" "$res/slownic" "$w/"
	run --separate-stderr -1 "$COLLECT" --compare -o "$BATS_TEST_TMPDIR/c" "$w/expected" "$w/slownic"
	[ "${lines[0]}" = "# aller compare: expected (simulated) BASE 'expected' (${w//$'\n'/\\n}/expected) vs measured NEW 'slownic' (${w//$'\n'/\\n}/slownic)" ]
	[ "$(head -n 1 "$BATS_TEST_TMPDIR/c/compare.txt")" = "${lines[0]}" ]
	run -1 grep -q '^# setting that differs: forged' "$BATS_TEST_TMPDIR/c/compare.txt"
	[ ! -e PWNED ]
	[ ! -e "$w/PWNED" ]
}

@test "a TOL against the simulation, which judges by the simulated calls' spread, is refused rather than left unused unsaid: one line, exit 2, nothing written" {
	run --separate-stderr -2 bash "$ROOT/plots/compare.sh" BASE=expected NEW=slownic TOL=50% "RESULTS=$res"
	[ "$stderr" = "collect: error: tolerance '50%' with a simulated BASE: the band is the simulated calls' spread; leave TOL out" ]
	nothing_written
	# two measured campaigns: the tolerance as before
	run --separate-stderr -0 bash "$ROOT/plots/compare.sh" BASE=measured NEW=slownic TOL=50% "RESULTS=$res"
	[ "${lines[1]}" = "# tolerance: 50%" ]
}
