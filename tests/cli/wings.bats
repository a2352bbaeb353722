#!/usr/bin/env bats
# aller in wings (issue 35): a face of at most 16 files at aller/'s top, and
# no two wings (its subdirectories) that include each other.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

@test "aller's top holds the face only: at most 16 files, each wing a directory" {
	run -0 find "$ROOT/aller" -maxdepth 1 -type f
	[ "${#lines[@]}" -le 16 ]
	for w in algo buffers modes plan reveal sweep world; do [ -d "$ROOT/aller/$w" ]; done
}

@test "no two wings include each other; a pair that does is named, exit 1" {
	run -0 bash "$ROOT/tests/wings.sh"
	[[ $output == *"sweep -> "*"plan"* ]]
	# a copy where plan/ includes a header of sweep/, which includes plan/'s
	cp -r "$ROOT/aller" "$BATS_TEST_TMPDIR/aller"
	sed -i '0,/^#include "/s//#include "sweep\/timeout.h"\n#include "/' "$BATS_TEST_TMPDIR/aller/plan/stats.c"
	run --separate-stderr -1 bash "$ROOT/tests/wings.sh" "$BATS_TEST_TMPDIR/aller"
	[[ $stderr == "wings: plan and sweep include each other (plan/stats.c, sweep/"*")" ]]
}
