#!/usr/bin/env bats
# make test-quick, the edit-compile-test loop (docs/development.md): what it
# runs and in which order, and make bench-test-quick, which times it quiet
# and beside stress-ng (tests/bench-quick.sh).
# shellcheck disable=SC2154,SC2016 # bats sets output; single quotes are meant

load ../lib/helpers

# the files make test-quick hands prove, one a line, in order
quick_files() {
	make -C "$ROOT" --no-print-directory -n test-quick 2>/dev/null |
		sed -n 's/.* -e tests\/tap-run //p' | tr ' ' '\n' | sed '/^$/d'
}

@test "make test-quick runs every command-line and MPI file but build.bats and packaging.bats once, the longest first, the unit tests last" {
	run -0 quick_files
	files=$output
	[ -z "$(sort <<<"$files" | uniq -d)" ]
	want=$(cd "$ROOT" && printf '%s\n' tests/cli/*.bats tests/mpi/*.bats | grep -vx 'tests/cli/build.bats\|tests/cli/packaging.bats' | sort)
	[ "$(grep '\.bats$' <<<"$files" | sort)" = "$want" ]
	# QUICK_FIRST's files open the lane, in its order, and each of them exists
	first=$(make -C "$ROOT" --no-print-directory -pn test-quick 2>/dev/null |
		sed -n 's/^QUICK_FIRST := //p' | tr ' ' '\n' | sed '/^$/d')
	[ "$(wc -l <<<"$first")" -ge 5 ]
	[ "$(head -n "$(wc -l <<<"$first")" <<<"$files")" = "$first" ]
	for f in $first; do [ -f "$ROOT/$f" ]; done
	# the unit tests, fast, close it: none before the last bats file
	last_bats=$(grep -n '\.bats$' <<<"$files" | tail -n 1 | cut -d: -f1)
	first_unit=$(grep -n '/tests/test_' <<<"$files" | head -n 1 | cut -d: -f1)
	[ "$first_unit" -gt "$last_bats" ]
	[ "$(grep -c '/tests/test_' <<<"$files")" -ge 20 ]
}

# bench BIN: tests/bench-quick.sh with only BIN's commands on PATH: a make
# whose test-quick prints prove's lines (FAKE_RC_2: the second run's exit)
# and says whether a load runs, and, where BIN has it, a stress-ng that
# notes its start and stop in $BATS_TEST_TMPDIR/load.
bench_bin() {
	local b=$BATS_TEST_TMPDIR/bin t
	mkdir -p "$b"
	for t in bash mktemp sed sort head awk dirname cat grep sleep; do ln -sf "$(command -v "$t")" "$b/$t"; done
	cat >"$b/make" <<-'EOF'
		#!/bin/bash
		n=$(($(cat "$BATS_TEST_TMPDIR/runs" 2>/dev/null || echo 0) + 1))
		echo "$n" >"$BATS_TEST_TMPDIR/runs"
		grep -q started "$BATS_TEST_TMPDIR/load" 2>/dev/null && ! grep -q stopped "$BATS_TEST_TMPDIR/load" &&
			echo "run $n: loaded" >>"$BATS_TEST_TMPDIR/seen" || echo "run $n: quiet" >>"$BATS_TEST_TMPDIR/seen"
		echo "[11:00:0$n] tests/cli/shellcheck.bats ...... ok    4${n}008 ms ( 0.01 usr  0.00 sys + 36.14 cusr 23.42 csys = 59.57 CPU)"
		echo "[11:00:0$n] tests/mpi/aller.bats ........... ok   11${n}635 ms ( 0.02 usr  0.00 sys + 11.06 cusr 23.38 csys = 34.46 CPU)"
		echo "[11:00:0$n] build/tests/test_options ....... ok       19 ms ( 0.00 usr  0.00 sys +  0.01 cusr  0.00 csys =  0.01 CPU)"
		echo "[11:00:0$n] tests/mpi/split.bats ........... "
		[ "$n" != 2 ] || exit "${FAKE_RC_2:-0}"
	EOF
	cat >"$b/stress-ng" <<-'EOF'
		#!/bin/bash
		trap 'echo stopped >>"$BATS_TEST_TMPDIR/load"; exit 0' TERM
		echo "started $*" >>"$BATS_TEST_TMPDIR/load"
		while :; do sleep 0.1; done
	EOF
	chmod +x "$b/make" "$b/stress-ng"
}

@test "make bench-test-quick runs the lane quiet, then beside stress-ng --cpu 2, stops it, and prints each run's wall time, exit and slowest files" {
	bench_bin
	TMPDIR=$BATS_TEST_TMPDIR PATH=$BATS_TEST_TMPDIR/bin run --separate-stderr -0 bash "$ROOT/tests/bench-quick.sh"
	[ "$(cat "$BATS_TEST_TMPDIR/seen")" = "run 1: quiet
run 2: loaded" ]
	[ "$(cat "$BATS_TEST_TMPDIR/load")" = "started --cpu 2 --timeout 0 --quiet
stopped" ]
	[[ ${lines[0]} =~ ^bench-test-quick:\ quiet:\ [0-9]+\ s,\ exit\ 0\ \(.*/quiet.log\)$ ]]
	[ "${lines[1]}" = "   111.6 s  tests/mpi/aller.bats" ]
	[ "${lines[2]}" = "    41.0 s  tests/cli/shellcheck.bats" ]
	[ "${lines[3]}" = "     0.0 s  build/tests/test_options" ]
	[[ ${lines[4]} =~ ^bench-test-quick:\ beside-stress-ng:\ [0-9]+\ s,\ exit\ 0\ \( ]]
	[ "${lines[5]}" = "   112.6 s  tests/mpi/aller.bats" ]
	[ "${#lines[@]}" = 8 ]
}

@test "make bench-test-quick exits 1 when a run failed, and 3 in one line without stress-ng" {
	bench_bin
	FAKE_RC_2=2 TMPDIR=$BATS_TEST_TMPDIR PATH=$BATS_TEST_TMPDIR/bin run --separate-stderr -1 bash "$ROOT/tests/bench-quick.sh"
	[[ $output == *"beside-stress-ng: "*" s, exit 2 ("* ]]
	[ "$(tail -n 1 "$BATS_TEST_TMPDIR/load")" = stopped ]
	rm "$BATS_TEST_TMPDIR/bin/stress-ng"
	TMPDIR=$BATS_TEST_TMPDIR PATH=$BATS_TEST_TMPDIR/bin run --separate-stderr -3 bash "$ROOT/tests/bench-quick.sh"
	[ "$stderr" = "bench-test-quick: error: stress-ng is missing: run 'make deps'" ]
	[ -z "$output" ]
}
