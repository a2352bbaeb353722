#!/usr/bin/env bats
# aller's command line, as one process (MPI singleton).
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

@test "aller --help prints the usage on stdout and exits 0" {
	run --separate-stderr -0 "$ALLER" --help
	[[ $output == usage:\ aller* ]]
	[[ $output == *"--timeout=SECONDS"* ]]
	[[ $output == *"--reveal[=TIER]"* ]]
	[ -z "$stderr" ]
}

@test "aller --version prints the version" {
	run -0 "$ALLER" --version
	[[ $output =~ ^aller\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "aller rejects a non-numeric iteration count with exit 2" {
	run --separate-stderr -2 "$ALLER" c 12x
	[ "$stderr" = "aller: error: cannot parse iterations '12x': expected an integer (<= 0 for the default 3, at most 1000000)" ]
	[ -z "$output" ]
}

@test "aller rejects a float buffer size with exit 2" {
	run --separate-stderr -2 "$ALLER" c 3 1e3
	[[ $stderr == "aller: error: cannot parse longs '1e3'"* ]]
}

@test "aller rejects an overflowing count with exit 2" {
	run --separate-stderr -2 "$ALLER" s 99999999999999999999999
	[[ $stderr == "aller: error: iterations '99999999999999999999999' is out of range"* ]]
}

@test "aller rejects '-' and unknown options with exit 2" {
	run --separate-stderr -2 "$ALLER" -
	[ "$stderr" = "aller: error: unknown option '-' (see 'aller --help')" ]
	run --separate-stderr -2 "$ALLER" --frobnicate
	[ "$stderr" = "aller: error: unknown option '--frobnicate' (see 'aller --help')" ]
}

@test "aller rejects an unknown reveal tier with exit 2" {
	run --separate-stderr -2 "$ALLER" --reveal=everything c 1 8
	[ "$stderr" = "aller: error: invalid reveal tier 'everything': allowed are 'auto', 'coll', 'pml', 'generic' and 'queues'" ]
	[ -z "$output" ]
}

@test "aller rejects a fourth positional argument" {
	run --separate-stderr -2 "$ALLER" s 3 64 extra
	[[ $stderr == *"unexpected argument 'extra'"* ]]
}

@test "aller without CUDA refuses --buffers=cuda with exit 2" {
	run --separate-stderr -2 "$ALLER" --buffers=cuda c 1 8
	[[ $stderr == *"'--buffers=cuda' needs a build with 'make CUDA=1'"* ]]
}

@test "aller on one task runs the whole sweep and ends with '# Done'" {
	run --separate-stderr -0 "$ALLER" c 2 16
	[ "${lines[-1]}" = "# Done" ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	perl "$ROOT/tests/lib/check-aller.pl" 1 16 2 contiguous "$BATS_TEST_TMPDIR/out"
}

@test "aller --no-verify says so in the header" {
	run -0 "$ALLER" --no-verify c 1 8
	[[ $output == *"# verify: off"* ]]
}

@test "aller non-positive ITERS and LONGS mean the defaults" {
	run -0 "$ALLER" --no-verify x -1 0
	[[ $output == *"# iters: 3"* ]]
	[[ $output == *"# longs: 134217728"* ]]
	[[ $output == *"# mode: contiguous"* ]]
	[[ $output == *$'\n1 1 134217728 2.000000e+00 '* ]]
}
