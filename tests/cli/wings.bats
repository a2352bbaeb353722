#!/usr/bin/env bats
# aller and collect in wings (issues 35, 48): a face at each program's top
# (at most 16 files for aller, 8 for collect), no two wings (its
# subdirectories) that include each other, and no include circle in the tree.
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

@test "collect's top holds the face only (main and its build), its wings read merge model judge compare export; none includes another that includes it" {
	run -0 find "$ROOT/collect" -maxdepth 1 -type f
	[ "${#lines[@]}" -le 8 ]
	for w in read merge model judge compare export; do [ -d "$ROOT/collect/$w" ]; done
	run -0 bash "$ROOT/tests/wings.sh" "$ROOT/collect"
	# the judge and the export read a merge through the model alone, which reads nothing else
	[[ $output == *"judge -> model read"* && $output == *"export -> model"* ]]
	[[ $output != *"merge -> "*"judge"* && $output != *"read -> "* ]]
	run ! grep -E '^(judge|export) -> .*merge|^model -> ' <<<"$output"
}

@test "no include circle anywhere in aller/, collect/ and common/; one made in a copy is named, exit 1" {
	run -0 bash "$ROOT/tests/circles.sh"
	[ -z "$output" ]
	mkdir "$BATS_TEST_TMPDIR/t"
	cp -r "$ROOT/aller" "$ROOT/collect" "$ROOT/common" "$BATS_TEST_TMPDIR/t/"
	sed -i '0,/^#include "/s//#include "judge\/findings.h"\n#include "/' "$BATS_TEST_TMPDIR/t/collect/judge/suspects.c"
	run -1 bash "$ROOT/tests/circles.sh" "$BATS_TEST_TMPDIR/t"
	[ "$output" = "circle: collect/judge/findings collect/judge/suspects (collect/judge/findings.c includes collect/judge/suspects.h; collect/judge/suspects.c includes collect/judge/findings.h)" ]
}
