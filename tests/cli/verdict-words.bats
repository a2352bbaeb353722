#!/usr/bin/env bats
# The verdict's words a person reads first (issue 78, item 10): a share of
# the bound past 100% is said with its reasons, never a bare "151%".
# shellcheck disable=SC2154,SC2016 # bats sets output; single quotes are meant (awk)

load ../lib/helpers

@test "the verdict says why rows reach past 100% of what the topology allows; below it, no such words" {
	T=$BATS_TEST_TMPDIR
	"$COLLECT" -q -o "$T/m" "$ROOT/tests/data/fabric/raw"
	grep -q '^[a-z]*	verdict	Fabric: the network-bound rows reach 75%-95% of what the topology allows (' "$T/m/findings.tsv"
	run ! grep -q 'past 100%' "$T/m/findings.tsv"
	# every row's share of its bound 1.6 times as high: 120%-153%
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["eff_bound"] != "" { $c["eff_bound"] *= 1.6 } { print }' "$T/m/points.csv" >"$T/p"
	mv "$T/p" "$T/m/points.csv"
	run -0 "$COLLECT" --findings "$T/m"
	grep -q '^[a-z]*	verdict	Fabric: the network-bound rows reach 120%-153% of what the topology allows (.*); past 100% where a row.s median task beat its slowest, a shaper passed a burst or a rate is declared too low, as each row.s limit finding says; ' "$T/m/findings.tsv"
}
