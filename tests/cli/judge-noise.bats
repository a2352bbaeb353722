#!/usr/bin/env bats
# The judgement against the noise (issue 78, items 5-7; issue 77, H1-10): a
# row whose median held is not slower because one slow call moved its mean,
# in collect --compare and collect --trend; a missing value is neither
# slower nor faster. The campaigns are a real one's merge (tests/data/fabric)
# copied, one row's samples given one slow call.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant (awk)

load ../lib/helpers

setup() {
	T=$BATS_TEST_TMPDIR
	"$COLLECT" -q -o "$T/base" "$ROOT/tests/data/fabric/raw" || return
	cp -r "$T/base" "$T/new"
}

# edit DIR AWK: points.csv's data rows through AWK, its columns by name in c[NAME].
edit() {
	awk -F, -v OFS=, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; print; next } $2 { print }" \
		"$1/points.csv" >"$1/p" && mv "$1/p" "$1/points.csv"
}

# The row of 2 MiB per peer, commsize 4, of the 2-node contiguous point: one of
# its 20 calls (4 tasks x 5 iterations) took SPIKE s more, its median moved 2%.
SPIKE_ROW='$c["point"] == 0 && $c["commsize"] == 4 && $c["bytes_per_peer"] == 2097152'
spike() {
	edit "$1" "$SPIKE_ROW { \$c[\"tavg_s\"] += $2 / 20; \$c[\"tmax_s\"] = $2; \$c[\"tmed_s\"] *= 1.02;
		\$c[\"busbw_GBs\"] /= 1 + $2 / 20 / 8.670647e-02 }"
}

@test "collect --compare: one slow call in a row whose median held is a spike with the call's time, not slower" {
	spike "$T/new" 41.0
	run --separate-stderr -0 "$COLLECT" --compare -o "$T/c" "$T/base" "$T/new"
	row=$(grep ' 2 MiB ' <<<"$output" | grep '^contiguous  *default *2 *2 *1 *4 ')
	[[ $row == *" 1.020 "*"5% spike: a call of 41 s in NEW" ]]
	[[ ${lines[-1]} == "compare: "*" 0 slower, "*", 1 spike; 0 only in BASE, 0 only in NEW" ]]
	[ "$(cut -f 1-2 "$T/c/findings.tsv" | sed -n 2p)" = "notice	regression" ]
	[[ $(sed -n 2p "$T/c/findings.tsv") == *"none of 178 rows slower beyond the tolerance"*"; 1 whose median held but one slow call moved the average (a spike, not a regression): the slowest a call of 41 s in NEW, 524x its median, on 2 nodes (contiguous), commsize 4, 2 MiB per peer, alltoall."* ]]
	grep -q ',spike$' "$T/c/compare.csv"
}

@test "collect --compare: a row whose median moved beyond the tolerance, or whose median held while many calls slowed, is still slower" {
	cp -r "$T/new" "$T/tail"
	edit "$T/new" "$SPIKE_ROW { \$c[\"tavg_s\"] *= 2; \$c[\"tmin_s\"] *= 2; \$c[\"tmax_s\"] *= 2; \$c[\"tmed_s\"] *= 2 }"
	run --separate-stderr -1 "$COLLECT" --compare "$T/base" "$T/new"
	[[ ${lines[-1]} == "compare: 178 points matched: 0 faster, 1 slower, 177 same, 0 noise; 0 only in BASE, 0 only in NEW" ]]
	# a slow node's tasks, a quarter of the calls, at 5x: the median holds, no one call explains the mean
	edit "$T/tail" "$SPIKE_ROW { \$c[\"tavg_s\"] *= 2; \$c[\"tmax_s\"] *= 5; \$c[\"tmed_s\"] *= 1.01 }"
	run --separate-stderr -1 "$COLLECT" --compare "$T/base" "$T/tail"
	[[ ${lines[-1]} == "compare: 178 points matched: 0 faster, 1 slower, 177 same, 0 noise; 0 only in BASE, 0 only in NEW" ]]
}

@test "collect --compare: a row whose tavg is not a number is missing, neither slower nor faster" {
	edit "$T/new" "$SPIKE_ROW { \$c[\"tavg_s\"] = \"NaN\" } \$c[\"bytes_per_peer\"] == 1024 && \$c[\"point\"] == 0 { \$c[\"tavg_s\"] = \"\" }"
	run --separate-stderr -0 "$COLLECT" --compare -o "$T/c" "$T/base" "$T/new"
	[[ ${lines[-1]} == "compare: 178 points matched: 0 faster, 0 slower, 174 same, 0 noise, 4 missing; 0 only in BASE, 0 only in NEW" ]]
	[ "$(grep -c ",missing$" "$T/c/compare.csv")" = 4 ]
	[ "$(cut -f 1 "$T/c/findings.tsv" | sed -n 2p)" = info ]
}

@test "collect --trend: one slow call in the newest run's row whose median held is no change, said as a spike with the call's time" {
	for i in 1 2 3 4 5 6; do
		cp -r "$T/base" "$T/run$i"
		sed -i "s/	start	2026-12-05T/	start	2026-12-1${i}T/" "$T/run$i/facts.tsv"
	done
	spike "$T/run6" 41.0
	run --separate-stderr -0 "$COLLECT" --trend "$T/t" "$T"/run?
	[ "$(sed -n 2p "$T/t/findings.tsv" | cut -f 1-3)" = "info	verdict	No change beyond the noise over 6 runs (122 series of 5 runs or more tested); 1 row whose average one slow call doubled, counted as its median (a spike, not a change): the most a call of 41 s (its average 23.6x) at 2 MiB per peer on 2 nodes (contiguous, commsize 4), in the run of 2026-12-16 (bw)." ]
	# every call twice as slow is still a fall
	rm -r "$T/run6" && cp -r "$T/run5" "$T/run6" && sed -i "s/	start	2026-12-15T/	start	2026-12-16T/" "$T/run6/facts.tsv"
	edit "$T/run6" "$SPIKE_ROW { \$c[\"tavg_s\"] *= 2; \$c[\"tmax_s\"] *= 2; \$c[\"tmed_s\"] *= 2; \$c[\"busbw_GBs\"] /= 2 }"
	run --separate-stderr -0 "$COLLECT" --trend "$T/t" "$T"/run?
	[[ $(sed -n 3p "$T/t/findings.tsv") == "warning	change	busbw at 2 MiB per peer on 2 nodes (contiguous, 2 tasks per node, commsize 4, alltoall, uniform) fell 50% in the newest run"* ]]
}

# loaded TBEST TAVG: tests/data/pairs/loaded.out (a healthy fabric beside a CPU
# hog) with link n1 -> n2, inside leaf1, at 0.60 of the median in its best
# exchange, as aller names it slow.
loaded() {
	sed "s/^0 1 n1 n2 .*/0 1 n1 n2 0.0731 $1 $2/; s/^# slow_links: 2 below /# slow_link: 0 (n1) -> 1 (n2): 0.0731 GB\/s, 0.600 of the median 0.1218 GB\/s; slow for: n1 n2\n&/" \
		"$ROOT/tests/data/pairs/loaded.out"
}

@test "a --pairs link below the median by less than twice its and the median link's spread is within the noise: no warning, no suspect" {
	mkdir "$T/in" && loaded 5.738e-02 7.402e-02 >"$T/in/loaded.out"
	run --separate-stderr -0 "$COLLECT" -q -o "$T/m" "$T/in"
	[ "$(grep -c '^warning' "$T/m/findings.tsv")" = 0 ]
	[ "$(grep -c '^info	slow_link	Link .* (--pairs): below the median, but within the noise: ' "$T/m/findings.tsv")" = 3 ]
	grep -q "Link 0 (n1) -> 1 (n2): .*its exchanges' average took 29% more than its best, the links' 12% (the median), and the 67% more time it took than the median is not twice the two (a load's, not a fault)\." "$T/m/findings.tsv"
	[ "$(wc -l <"$T/m/suspects.tsv")" = 1 ]
	[[ $(sed -n 2p "$T/m/findings.tsv") == *"no slow link found."* ]]
	# the same link as slow in every exchange is slow
	loaded 5.738e-02 5.801e-02 >"$T/in/loaded.out"
	run --separate-stderr -0 "$COLLECT" -q -o "$T/m" "$T/in"
	grep -q '^warning	slow_link	Slow link 0 (n1) -> 1 (n2): 0.0731 GB/s' "$T/m/findings.tsv"
	[ "$(grep -c '^link	n1->n2	' "$T/m/suspects.tsv")" = 1 ]
}

@test "collect --trend: a slow node's quarter of the calls in the newest run is a change though its median held" {
	for i in 1 2 3 4 5 6; do
		cp -r "$T/base" "$T/run$i"
		sed -i "s/	start	2026-12-05T/	start	2026-12-1${i}T/" "$T/run$i/facts.tsv"
	done
	edit "$T/run6" "$SPIKE_ROW { \$c[\"tavg_s\"] *= 2; \$c[\"busbw_GBs\"] /= 2; \$c[\"tmax_s\"] *= 5; \$c[\"tmed_s\"] *= 1.01 }"
	run --separate-stderr -0 "$COLLECT" --trend "$T/t" "$T"/run?
	[[ $(sed -n 3p "$T/t/findings.tsv") == "warning	change	busbw at 2 MiB per peer on 2 nodes (contiguous, 2 tasks per node, commsize 4, alltoall, uniform) fell "*"% in the newest run"* ]]
}

@test "with n3's NIC located, the slowest task, the limit and the verdict's weakest row are said in its light: n1 waits on it, blamed by nothing of its own" {
	run -0 "$COLLECT" -q -o "$T/m" "$ROOT/tests/data/slownic/raw"
	grep -q '^warning	located	The slow link is the NIC of n3: ' "$T/m/findings.tsv"
	grep -q '^info	slowest_host	On 4 nodes (strided): n1 holds the slowest task in 5 of 7 rows (71%; 1 in 4 if it were chance), waiting on the NIC of n3, the slow link located: its slow rows. communicators run through it\.	' "$T/m/findings.tsv"
	[ "$(grep -c '^notice	slowest_host' "$T/m/findings.tsv")" = 0 ]
	grep -q '^notice	limit	On 4 nodes (contiguous): .*, bound by the NIC of n1 as declared, with the NIC of n3, the slow link located, in its path (22% ' "$T/m/findings.tsv"
	[[ $(sed -n 2p "$T/m/findings.tsv") == "warning	verdict	Fabric: "*"the weakest, 25%: on 4 nodes (contiguous) at 1 MiB per peer, bound by the uplink of leaf1 as declared, with the NIC of n3, the slow link located, in its path); "* ]]
	# the suspects: n3 and its NIC, no other node
	[ "$(cut -f 1-2 "$T/m/suspects.tsv" | tail -n +2 | sort | tr '\t\n' ' ')" = "host n3 link nic:n3 " ]
}

@test "a healthy fabric beside a CPU hog (a real --pairs run here) names no slow link: each within the noise, a verdict without warning" {
	run -0 "$COLLECT" -q -o "$T/m" "$ROOT/tests/data/pairs/loaded-here.out"
	# 4 within the noise; n3 -> n1 at 0.467 of the median the topology's share beside its step's flows
	[ "$(grep -c '^info	slow_link	Link .* (--pairs): below the median, but within the noise: ' "$T/m/findings.tsv")" = 4 ]
	[ "$(grep -c '^info	slow_link	Link 2 (n3) -> 0 (n1): .*the topology.s share, not a fault' "$T/m/findings.tsv")" = 1 ]
	grep -q "^info	slow_link	Link 2 (n3) -> 1 (n2): 0.06795 GB/s, 0.729 of the median .*its exchanges' average took 13% more than its best, the links' 20% (the median)" "$T/m/findings.tsv"
	[ "$(grep -c '^warning' "$T/m/findings.tsv")" = 0 ]
	[ "$(wc -l <"$T/m/suspects.tsv")" = 1 ]
}

@test "a link at a fiftieth of the median is slow whatever its exchanges' spread: all six of a slowed NIC's, its node a suspect of 3 hosts (a CI run beside stress-ng)" {
	run -0 "$COLLECT" -q -o "$T/m" "$ROOT/tests/data/pairs/slownic-loaded.out"
	[ "$(grep -c '^warning	slow_link	Slow link .*n4' "$T/m/findings.tsv")" = 6 ]
	grep -q '^host	n4	an end of slow links with 3 hosts: n1, n2, n3 ' "$T/m/suspects.tsv"
}
