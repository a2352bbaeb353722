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
	[[ $output == *"# verify: none"* ]]
}

@test "aller's header says how the data is verified and reused, and what is selected" {
	run -0 "$ALLER" c 1 8
	[[ $output == *$'\n# verify: all\n# data: reused\n'* ]]
	[[ $output == *$'\n# warmup: 1\n'* ]]
	[[ $output == *$'\n# selection: commsizes all; bytes per peer 8 B..max\n'* ]]
	run -0 "$ALLER" --verify=warmup --fresh-data --warmup=2 --max-bytes=32 c 1 8
	[[ $output == *$'\n# verify: warmup\n# data: fresh\n'* ]]
	[[ $output == *$'\n# warmup: 2\n'* ]]
	[[ $output == *$'\n# selection: commsizes all; bytes per peer 8 B..32 B\n'* ]]
}

@test "aller rejects a bad size or selection with one line and exit 2" {
	run --separate-stderr -2 "$ALLER" --max-bytes=12Q c 1 8
	[ "$stderr" = "aller: error: invalid size '12Q' for --max-bytes: expected bytes per peer, with an optional K, M, G, T or P (powers of 1024), e.g. 8, 64K, 4M" ]
	[ -z "$output" ]
	run --separate-stderr -2 "$ALLER" --min-bytes=1K c 1 8
	[[ $stderr == "aller: error: no count to measure: no size per peer of the selected levels lies in 1 KiB..any (they are 8 B..64 B with LONGS 8)" ]]
	run --separate-stderr -2 "$ALLER" --commsizes=2 c 1 8
	[ "$stderr" = "aller: error: commsize 2 is not a level of a world of 1 ranks: allowed are world, 1" ]
	run --separate-stderr -2 "$ALLER" --min-bytes=64 --max-bytes=8 c 1 8
	[ "$stderr" = "aller: error: --min-bytes=64 is above --max-bytes=8" ]
}

@test "aller non-positive ITERS and LONGS mean the defaults" {
	run -0 "$ALLER" --no-verify x -1 0
	[[ $output == *"# iters: 3"* ]]
	[[ $output == *"# longs: 134217728"* ]]
	[[ $output == *"# mode: contiguous"* ]]
	[[ $output == *$'\n1 1 134217728 2.000000e+00 '* ]]
}
