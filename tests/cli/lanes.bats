#!/usr/bin/env bats
# make test's two end-to-end lanes run at once, each on a cluster of its own
# (tests/build.mk, tests/lib/cluster.bash): a file that looks at the
# default cluster's directory or at every namespace of the machine would
# see the other lane's.
# shellcheck disable=SC2154,SC2016 # bats sets output; make expands $(...), not the shell

load ../lib/helpers

@test "no end-to-end file names the default cluster's directory: each looks at its lane's \$CLUSTER_DIR" {
	cd "$ROOT"
	run grep -n 'build/cluster/' tests/e2e/*.bats tests/lib/cluster.bash
	# the README's own words, run as a newcomer types them (lane A's default cluster)
	out=$(printf '%s\n' "$output" | grep -v '^tests/e2e/95-docs-run.bats:' || true)
	[ -z "$out" ] || { echo "$out"; false; }
}

@test "the second lane's files are the end-to-end files numbered 30 and 50-94, on a port no end-to-end test uses for another cluster" {
	cd "$ROOT"
	run -0 make -s --no-print-directory -f tests/build.mk -f - print-lane <<<'print-lane: ; @echo $(E2E_LANE_B)'
	[[ " $output " == *" tests/e2e/50-compare.bats "* && " $output " == *" tests/e2e/30-identity.bats "* && " $output " != *"95-docs-run"* && " $output " != *" tests/e2e/10-"* ]]
	run grep -n 'CLUSTER_PORT=16' tests/e2e/*.bats
	[ "$status" -eq 1 ]
}
