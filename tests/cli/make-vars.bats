#!/usr/bin/env bats
# A typo on make's command line is never a campaign (campaigns/make-vars.sh).
# shellcheck disable=SC2154 # bats sets output and stderr
load ../lib/helpers

@test "make campaign with three typos: one line each with the nearest name, exit 2, nothing planned" {
	res=$BATS_TEST_TMPDIR/results
	run --separate-stderr -2 make -C "$ROOT" --no-print-directory campaign CAMPAIGN=x NODE=4 ITER=5 \
		ALGO=put DRYRUN=1 "RESULTS=$res"
	[ "$(grep -c '^campaign: error: unknown variable' <<<"$stderr")" = 3 ]
	[[ $stderr == *"campaign: error: unknown variable 'NODE' on make's command line (did you mean NODES?); allowed are CONF CAMPAIGN"* ]]
	[[ $stderr == *"unknown variable 'ITER' on make's command line (did you mean ITERS?)"* ]]
	[[ $stderr == *"unknown variable 'ALGO' on make's command line (did you mean ALGOS?)"* ]]
	[ -z "$output" ]   # no plan printed
	[ ! -e "$res" ]
}

@test "status, plots, compare and report refuse an unknown variable the same way; known ones pass" {
	for t in status plots compare report; do
		run --separate-stderr -2 make -C "$ROOT" --no-print-directory "$t" CAMPAING=x
		[[ $stderr == "$t: error: unknown variable 'CAMPAING' on make's command line (did you mean CAMPAIGN?)"* ]]
	done
	# a far-off name gets no suggestion; lower-case names are make's business
	run --separate-stderr -2 make -C "$ROOT" --no-print-directory status ZZZ=1 lower=1
	[[ $stderr == "status: error: unknown variable 'ZZZ' on make's command line; allowed are "* ]]
	[ "$(grep -c 'error: unknown variable' <<<"$stderr")" = 1 ]
	# the Makefile's and the campaign's own variables pass the check
	run --separate-stderr make -C "$ROOT" --no-print-directory status CAMPAIGN=none-such \
		"RESULTS=$BATS_TEST_TMPDIR/r" V=1 MPI=openmpi
	[[ $stderr != *"unknown variable"* ]]
}

@test "campaigns/submit.sh suggests the nearest name too" {
	run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" NODE=4
	[[ $stderr == "campaign: error: unknown variable 'NODE' (did you mean NODES?): allowed are CONF CAMPAIGN"* ]]
}
