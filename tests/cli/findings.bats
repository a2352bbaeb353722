#!/usr/bin/env bats
# collect's findings (issue 38): models.csv, a Hockney fit per curve, and
# findings.json, what a campaign found, from a golden campaign's merged
# tables (tests/data/findings: two algorithms that cross over, contiguous
# against strided, two node counts, interference beyond the noise and
# congestion within it, an eff, a point below a floor, an incomplete one,
# slow links of --pairs, three through one host: a suspect (all of it from
# the merged tables and facts.tsv: no raw output is left to re-read); one host
# holding the slowest task in 17 of 22 rows: another; a cyclic placement
# beside the launcher's order).
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

setup() {
	cp -r "$ROOT/tests/data/findings" "$BATS_TEST_TMPDIR/g"
	cd "$BATS_TEST_TMPDIR/g" || return
}

@test "the golden campaign's findings and models, exactly" {
	run -0 "$COLLECT" --findings merged
	diff -u expected/findings.json merged/findings.json
	diff -u expected/models.csv merged/models.csv
	diff -u expected/suspects.tsv merged/suspects.tsv
	[ ! -e merged/findings.json.part ] && [ ! -e merged/models.csv.part ]
}

@test "every finding is JSON with kind, severity and a sentence; each kind where the campaign has it" {
	command -v python3 >/dev/null || skip "python3 is missing: run 'make deps'"
	run -0 "$COLLECT" --findings merged
	run -0 python3 - merged/findings.json <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
assert f[0]["kind"] == "verdict" and f[0]["severity"] == "warning", f[0]
for x in f:
    assert x["severity"] in ("info", "notice", "warning"), x
    assert x["text"].endswith(".") or x["text"].endswith(")"), x["text"]
    assert isinstance(x["numbers"], dict) and isinstance(x["points"], list), x
by = {}
for x in f:
    by.setdefault(x["kind"], []).append(x)
want = {"verdict": 1, "peak": 4, "limit": 2, "interference": 1, "congestion": 1, "crossover": 1,
        "modes": 1, "scaling": 1, "floor": 1, "state": 1, "slow_link": 3, "suspect": 1,
        "slowest_host": 1, "placement": 1}
assert {k: len(v) for k, v in by.items()} == want, {k: len(v) for k, v in by.items()}
assert by["interference"][0]["severity"] == "notice" and "beyond the noise" in by["interference"][0]["text"]
assert by["congestion"][0]["severity"] == "info" and "within the noise" in by["congestion"][0]["text"]
assert by["modes"][0]["numbers"]["ratio"] == 2
assert by["placement"][0]["numbers"]["ratio"] == 2 and by["placement"][0]["points"] == [0, 5]
assert by["floor"][0]["numbers"]["rows_below_floor"] == 2 and by["floor"][0]["points"] == [3]
assert "3 (n4) -> 0 (n1)" in by["slow_link"][0]["text"]
assert by["suspect"][0]["text"].startswith("Suspect host n4: an end of slow links with 3 hosts (n1, n2, n3)")
assert by["slowest_host"][0]["text"] == "On 4 nodes (contiguous): n3 holds the slowest task in 17 of 22 rows (77%; 1 in 4 if it were chance)."
c = by["crossover"][0]["text"]
assert "pairwise is fastest at 8 B..256 B; no difference at 512 B; alltoall is fastest at 1 KiB..8 KiB" in c, c
print(len(f), "findings")
PY
	[[ $output == "20 findings" ]]
}

@test "a placement faster than block is a notice without the slower one's reason" {
	# the golden cyclic point (5) at a quarter of its time: half of block's
	awk -F, -v OFS=, '$1 == 5 { $7 = $7 / 4 } 1' merged/points.csv >p.csv && mv p.csv merged/points.csv
	run -0 "$COLLECT" --findings merged
	run -0 grep -o '"kind": "placement", "severity": "notice", "text": "[^"]*"' merged/findings.json
	[[ $output == *'"On 2 nodes (contiguous), cyclic communicators of 2 take 0.50x the time of ones in the launcher'"'"'s order at 8 KiB per peer (0.00355 against 0.0071 ms)."' ]]
	[[ $output != *"leave the node"* ]]
}

@test "a merge writes both; a clean one's verdict says so; an unwritable directory: exit 3, nothing half-written" {
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$ROOT/tests/data/smoke/raw/smoke-n1-contiguous-19.out" \
		"$ROOT/tests/data/smoke/raw/smoke-n2-contiguous-20.out"
	head -n 2 "$BATS_TEST_TMPDIR/m/findings.json" | grep -q '"kind": "verdict", "severity": "info", "text": "Fabric: no row is bound by a network link at 64 KiB per peer or more (no fabric known, or every row inside a node), so no share of the bound is judged; no point needed a retry. All 2 points complete'
	[ "$(head -n 1 "$BATS_TEST_TMPDIR/m/models.csv")" = "point,level,algo,split,commsize,n,latency_s,bw_GBs,n_half_B,r2,worst_rel,break_B,lo_latency_s,lo_bw_GBs,hi_latency_s,hi_bw_GBs" ]
	chmod a-w merged
	if [ "$(id -u)" = 0 ]; then rm -rf merged/findings.json; mkdir merged/findings.json.part; fi
	run --separate-stderr -3 "$COLLECT" --findings merged
	[[ $stderr == "collect: error: findings: cannot write '"*"merged/findings.json"* ]]
	chmod u+w merged
	run --separate-stderr -2 "$COLLECT" --findings
	[ "$stderr" = "collect: error: --findings takes one merged directory: collect --findings DIR" ]
}

# bound ARGS: points.csv with the merge's bound columns, point 0's rows given
# bound_s = EFF_BOUND x tmed_s, bottleneck LINK, eff_bound EFF_BOUND and
# above_bound ABOVE; the other points' empty (no bound known)
bound() {
	awk -F, -v OFS=, -v e="$1" -v link="$2" -v above="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print $0, "bound_s", "bottleneck", "eff_bound", "above_bound"; next }
		$1 == 0 && e != "" { printf "%s,%.6e,%s,%.6e,%s\n", $0, e * $(c["tmed_s"]), link, e, above; next }
		{ print $0, "", "", "", "" }' "$BATS_TEST_TMPDIR/points.csv" >merged/points.csv
}

@test "a row is judged against the bound the merge wrote (points.csv's bound columns): the link named in words, a partial bound said, never worked out again" {
	cp merged/points.csv "$BATS_TEST_TMPDIR/points.csv"
	# point 0 (n1 and n2, 2 tasks each, NICs at 1 GB/s: its eff 0.77) bound by leaf1's uplink at 85%
	bound 0.85 up:leaf1 ""
	run -0 "$COLLECT" --findings merged
	run -0 grep -o '"kind": "limit", "severity": "[a-z]*", "text": "On 2 nodes (contiguous)[^"]*"' merged/findings.json
	[ "$output" = '"kind": "limit", "severity": "info", "text": "On 2 nodes (contiguous): at its largest size the best row reaches 85% of what the fabric allows, bound by the uplink of leaf1 (77% of the NICs'"'"' line rate), at 8 KiB per peer (commsize 4, alltoall)."' ]
	grep -q '"eff_bound": 0.85, "bound_s": 3.63528e-05, "eff": 0.7662' merged/findings.json
	# a partial bound: the link without a rate, named by the merge, said in words
	bound 0.85 'up:leaf1(partial:up:leaf-of-n2)' ""
	run -0 "$COLLECT" --findings merged
	grep -q 'bound by the uplink of leaf1 (a partial bound: no rate for the uplink of n2'"'"'s leaf) (77%' merged/findings.json
	# above its bound through a shaper's burst: said why
	bound 1.3 nic:n1 burst
	run -0 "$COLLECT" --findings merged
	grep -q 'reaches 130% of what the fabric allows, bound by the NIC of n1 (77% of the NICs'"'"' line rate), at 8 KiB per peer (commsize 4, alltoall): above its bound beyond its interval: the link'"'"'s shaper passes a burst' merged/findings.json
	# the facts of a fabric alone bound nothing: the judge reads the merge's columns, it does not redo them
	bound "" "" ""
	printf '0\t%s\n' 'node_switch	n1 leaf1' 'node_switch	n2 leaf2' 'fabric	uplink_rate leaf1 7200mbit' \
		'fabric	uplink_rate leaf2 8000000kbit' 'limit	nic n1: 1 GB/s each way, declared' >>merged/facts.tsv
	run -0 "$COLLECT" --findings merged
	grep -q 'reaches 77% of the line rate its output records' merged/findings.json
}

@test "scaling compares networks: a one-node world (memory copies) is not its start" {
	# point 0 on one node: contiguous has 1 and 4 nodes, one network count only
	awk -F, -v OFS=, '$1 == 0 { $4 = 1 } 1' merged/points-index.csv >i.csv && mv i.csv merged/points-index.csv
	run -0 "$COLLECT" --findings merged
	[ "$(grep -c '"kind": "scaling"' merged/findings.json)" = 0 ]
	# back at 2 nodes: from 2 to 4
	awk -F, -v OFS=, '$1 == 0 { $4 = 2 } 1' merged/points-index.csv >i.csv && mv i.csv merged/points-index.csv
	run -0 "$COLLECT" --findings merged
	grep -q '"kind": "scaling", "severity": "info", "text": "From 2 to 4 nodes (contiguous, in the launcher'"'"'s order)' merged/findings.json
}

@test "a finding that compares points names what else the points vary in: the placement, the variant" {
	# the golden campaign has a cyclic point beside the launcher's order: the modes finding names it
	run -0 "$COLLECT" --findings merged
	grep -q '"kind": "modes", "severity": "notice", "text": "On 2 nodes (in the launcher'"'"'s order), strided communicators of 2 take 2.00x' merged/findings.json
	# the two-node points in a variant of their own: it is named too
	awk -F, -v OFS=, '$1 == 0 || $1 == 1 { $8 = "bruck" } 1' merged/points-index.csv >i.csv && mv i.csv merged/points-index.csv
	run -0 "$COLLECT" --findings merged
	grep -q '"text": "On 2 nodes (in the launcher'"'"'s order, variant bruck), strided communicators of 2 take' merged/findings.json
	# without the cyclic point, one placement and one variant: nothing in brackets
	awk -F, -v OFS=, '$1 != 5 { $8 = "default"; print }' merged/points-index.csv >i.csv && mv i.csv merged/points-index.csv
	run -0 "$COLLECT" --findings merged
	grep -q '"text": "On 2 nodes, strided communicators of 2 take' merged/findings.json
}

@test "the verdict leads with the fabric's health: the share of its bound the network-bound rows reach, the weakest named; findings.json's numbers; a slow one a warning" {
	run -0 "$COLLECT" -q -o m "$ROOT/tests/data/fabric/raw"
	run -0 awk -F'\t' 'NR == 2 { print $1 "|" $2 "|" $3 }' m/findings.tsv
	[ "$output" = "info|verdict|Fabric: the network-bound rows reach 75%-95% of what the topology allows (8 rows, each curve's largest size; the weakest, 75%: on 4 nodes (strided) at 4 MiB per peer, bound by the uplink of leaf1); the topology verified (16 rows of 1 MiB per peer or more at 75%-100% of their bound; no node moved to another leaf fits them better); no point needed a retry. All 4 points complete (none below a floor); no slow link found." ]
	grep -q '"bound_rows": 8, "bound_lo": 0.75[0-9]*, "bound_hi": 0.95[0-9]*, "topology_verified": 1' m/findings.json
	# the same line as Prometheus gauges, and each row's share of its bound
	"$COLLECT" --openmetrics m >m.prom
	grep -qx 'aller_fabric_bound_ratio{campaign="bw",of="weakest"} 0.751071' m.prom
	grep -qx 'aller_fabric_bound_ratio{campaign="bw",of="strongest"} 0.953148' m.prom
	grep -qx 'aller_points_retried{campaign="bw"} 0' m.prom
	grep -q '^aller_eff_bound_ratio{campaign="bw",point="n4-strided-t2-L1048576-default-s1",.*bytes="4194304"} 0.75' m.prom
	! command -v promtool >/dev/null || promtool check metrics <m.prom
	# the same rows three times slower: below half of the bound, a warning that names the weakest
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "eff_bound") c = i } NR > 1 && $c != "" { $c = $c / 3 } 1' \
		m/points.csv >p.csv && mv p.csv m/points.csv
	run -0 "$COLLECT" --findings m
	run -0 awk -F'\t' 'NR == 2 { print $1 "|" $3 }' m/findings.tsv
	[[ $output == "warning|Fabric: the network-bound rows reach 25%-32% of what the topology allows (8 rows, each curve's largest size; the weakest, 25%: on 4 nodes (strided) at 4 MiB per peer, bound by the uplink of leaf1);"* ]]
}

@test "the topology checked against the rows: n3 declared under leaf1 (Slurm's node_switch, the fabric's switch line) measures as on leaf2, named first; its cable as it is: verified" {
	cp -r "$ROOT/tests/data/fabric/raw" raw
	sed -i 's/^# node_switch: n3 leaf2$/# node_switch: n3 leaf1/; s/^# fabric: switch n3 leaf2$/# fabric: switch n3 leaf1/' raw/*.out
	run -0 "$COLLECT" -q -o m raw
	run -0 awk -F'\t' '$2 == "topology" { print $1 "|" $3 }' m/findings.tsv
	[ "$output" = "warning|n3 measures as on leaf2, not on leaf1 as the topology says (Slurm's topology.conf or the fabric file): with n3 there, 3 more of the 16 rows of 1 MiB per peer or more fit their bound (75%-100% of those it changes) and none stops fitting; as declared they read 38%-100%. Check its cable: every bound through it is wrong until the topology says where it is." ]
	run -0 awk -F'\t' 'NR == 2 { print $1 "|" $2 }' m/findings.tsv
	[ "$output" = "warning|verdict" ]
	grep -q '; the topology NOT as declared: n3 measures as on leaf2 (below); ' m/findings.tsv
	grep -q '"topology_verified": -1' m/findings.json
	# the report's first findings: the verdict (rank 0), then the topology (a warning to act on)
	[ "$(awk -F'\t' '$6 == 1 { print $2 }' m/findings.tsv)" = topology ]
	# a fabric without the rows to check it by: taken as declared
	run -0 "$COLLECT" -q -o m2 "$ROOT/tests/data/smoke/raw"
	run ! grep -q 'topology' m2/findings.tsv
}

@test "the topology checked against a --pairs run: on a 2:1 fabric the links that share an uplink are the topology's, not slow; a cable moved is named; a slow link still is" {
	d=$ROOT/tests/data/pairs
	run -0 "$COLLECT" -q -o m "$d/healthy.out"
	grep -q '"kind": "verdict", "severity": "info", "text": "[^"]*the topology verified (12 --pairs links of 1 MiB or more at 9[0-9]%-1[01][0-9]% of their bound; ' m/findings.json
	grep -q '"kind": "verdict", .*no slow link found' m/findings.json
	# aller named the four links of step 2 slow (half the median): each at its share of the uplink
	[ "$(grep -c '^info	slow_link	Link .* (--pairs): below the median, but its step.s other flows share its busiest link, and it got [0-9]*% of what the fabric allows it beside them: the topology.s share, not a fault\.	' m/findings.tsv)" = 4 ]
	[ "$(grep -c '^link' m/suspects.tsv)" = 0 ]
	# under load: two links of a shared uplink, each at its best exchange, together past the uplink
	# (1.56 of it) while the slower kept to its share: as declared, not a moved cable
	run -0 "$COLLECT" -q -o ml "$d/loaded.out"
	grep -q '"kind": "verdict", .*the topology verified (12 --pairs links of 1 MiB or more at ' ml/findings.json
	run ! grep -q '	topology	' ml/findings.tsv
	# n3's cable on leaf1 (topology.conf unchanged): every node alone on a leaf fits alike here
	run -0 "$COLLECT" -q -o m2 "$d/moved.out"
	grep -qP '^warning\ttopology\tThe --pairs links fit one node on another leaf, not the topology as declared \(.*\): n1 on leaf2, n2 on leaf2, n3 on leaf1 or n4 on leaf1, and no point of this campaign tells them apart: with any of them, 4 more of the 12 --pairs links of 1 MiB or more fit their bound' m2/findings.tsv
	grep -q '"topology_verified": -1' m2/findings.json
	# beside a CPU hog one link of the moved fabric (n3 -> n1, on one leaf once moved) read half its
	# rate: it fits the declared topology (beside n4 -> n2, which then fits it too) and no move; the two
	# links the move still fits outvote it
	sed 's/^2 0 n3 n1 0.126159 .*/2 0 n3 n1 0.062 6.765000e-02 6.801000e-02/; s/^# slow_links: 0 below /# slow_link: 2 (n3) -> 0 (n1): 0.062 GB\/s, 0.493 of the median 0.1257 GB\/s; slow for: n3 n1\n&/' \
		"$d/moved.out" >hog.out
	run -0 "$COLLECT" -q -o m4 hog.out
	grep -qP '^warning\ttopology\tThe --pairs links fit one node on another leaf, .*: n1 on leaf2, n2 on leaf2, n3 on leaf1 or n4 on leaf1, .* 2 more of the 12 --pairs links of 1 MiB or more fit their bound \(50%-101% of those it changes\) and 1 it changes does not fit it \(1 of them fitted as declared\), outvoted 2 to 1; ' m4/findings.tsv
	# the declared shares no longer excuse it: a slow link, as the move says
	grep -q '^warning	slow_link	Slow link 2 (n3) -> 0 (n1): 0.062 GB/s' m4/findings.tsv
	# n4 -> n2 at a fifth of the healthy run's: slow, a suspect; it moves no node
	sed 's/^3 1 n4 n2 0.0625381 6.706799e-02 /3 1 n4 n2 0.0125 3.355443e-01 /; s/^# slow_link: 3 (n4) -> 1 (n2): 0.06254 GB\/s, 0.501 /# slow_link: 3 (n4) -> 1 (n2): 0.0125 GB\/s, 0.100 /' \
		"$d/healthy.out" >slow.out
	run -0 "$COLLECT" -q -o m3 slow.out
	grep -q '^warning	slow_link	Slow link 3 (n4) -> 1 (n2): 0.0125 GB/s, 0.100 of the median' m3/findings.tsv
	[ "$(grep -c '^info	slow_link	' m3/findings.tsv)" = 3 ]
	[ "$(grep -c '^link' m3/suspects.tsv)" = 1 ]
	grep -qP '^link\tn4->n2\t' m3/suspects.tsv
	run ! grep -q '	topology	' m3/findings.tsv
}

@test "a three-tier tree: each row bound along the tree (Slurm's nested switches), the bottleneck named with its tier" {
	run -0 "$COLLECT" -q -o m "$ROOT/tests/data/tiers/strided.out"
	run -0 awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["commsize"] > 1 { print $c["bottleneck"] }' m/points.csv
	[ "$(sort -u <<<"$output")" = "up:agg1" ]
	grep -q "^info	limit	On 8 nodes (strided): at its largest size the best row reaches [0-9]*% of what the fabric allows, bound by the uplink of agg1, tier 2 ([0-9]*% of the NICs' line rate), at 2 MiB per peer " m/findings.tsv
	# without the tree (no parent lines: the leaves under one spine) the leaves' uplinks bound
	# the rows; a leaf's uplink is said without a tier, as ever
	grep -v '^# fabric: parent ' "$ROOT/tests/data/tiers/strided.out" >two.out
	run -0 "$COLLECT" -q -o m2 two.out
	grep -q '^notice	limit	On 8 nodes (strided): at its largest size the best row reaches [0-9]*% of what the fabric allows, bound by the uplink of leaf1 (' m2/findings.tsv
	run ! grep -q 'tier [0-9]' m2/findings.tsv
}

@test "each node's network counters (aller's '# nic_counters:'): a node that retransmits or whose queues drop far more than the others, or whose NICs sent far more than aller did, is named; a suspect host cites them" {
	cp -r "$ROOT/tests/data/fabric/raw" raw
	f=$(echo raw/*n4-strided*)
	sed -i 's/^# Done$/# nic_counters: n1 aller offnode_tx_B=100000000; eth0 tx_bytes=104000000 tx_dropped=0; tcp retrans_segs=40\n# nic_counters: n2 aller offnode_tx_B=100000000; eth0 tx_bytes=310000000; tcp retrans_segs=35\n# nic_counters: n3 aller offnode_tx_B=100000000; eth0 tx_bytes=110000000 rx_dropped=7; tcp retrans_segs=1234\n# nic_counters: n4 aller offnode_tx_B=100000000; eth0 tx_bytes=104000000; tcp retrans_segs=38\n&/' "$f"
	run -0 "$COLLECT" -q -o m raw
	grep -qx '3	nic_counters	n3 aller offnode_tx_B=100000000; eth0 tx_bytes=110000000 rx_dropped=7; tcp retrans_segs=1234' m/facts.tsv
	run -0 awk -F'\t' '$2 == "nics" { print $1 "|" $3 }' m/findings.tsv
	[ "${#lines[@]}" = 2 ]
	grep -qx "warning|On 4 nodes (strided): n3's counters during the point: 1,234 TCP segments retransmitted, 7 packets dropped, 0 errors (the other nodes: 40 retransmitted at most): a lossy NIC, cable or port." <<<"$output"
	grep -qx "notice|On 4 nodes (strided): n2's NICs sent 3.10x the bytes aller's calls sent off the node (310.0 MB against 100.0 MB): other traffic shared them, or they sent it again." <<<"$output"
	grep -q '"kind": "nics", "severity": "warning", .*"numbers": {"retrans": 1234, "dropped": 7, "errors": 0, "link_downed": 0, "others_retrans": 40, "queue_dropped": 0, "others_queue_dropped": 0}' m/findings.json
	# a NIC's own queue dropping what the others' did not (tc's qdisc counters: a lossy port on the local fabric)
	sed -i 's/^\(# nic_counters: n4 .*\) tx_bytes=104000000;/\1 tx_bytes=104000000 qdisc_drops=1500 qdisc_overlimits=9;/' "$f"
	run -0 "$COLLECT" -q -o m2 raw
	grep -q "^warning	nics	On 4 nodes (strided): n4's counters during the point: 38 TCP segments retransmitted, 0 packets dropped, 0 errors, 1,500 packets dropped by its NICs' queues (qdisc) (the other nodes: 1234 retransmitted, 0 dropped by their queues at most): a lossy NIC, cable or port.	" m2/findings.tsv
	# the golden campaign's suspect host (n4, an end of three slow links) cites its counters
	printf '0\tnic_counters\tn4 aller offnode_tx_B=0; eth0 tx_bytes=5 rx_dropped=3; tcp retrans_segs=99\n' >>merged/facts.tsv
	run -0 "$COLLECT" --findings merged
	grep -q "Suspect host n4: .* a slow NIC or port slows every link through it. n4's counters over the campaign: 99 TCP segments retransmitted, 3 packets dropped, 0 errors.\"" merged/findings.json
}

@test "a point whose job needed a retry says how each attempt ended: a fact, a finding, the verdict's count" {
	mkdir raw
	src=$ROOT/tests/data/smoke/raw/smoke-n4-strided-21.out
	# attempt 1: a task killed as MPI started (no aller header, srun's 128 + SIGSEGV); attempt 2 complete
	printf '# campaign: smoke\n# point_nodes: 4\n# point_mode: strided\n# job: 21\n# restart: 0\n# attempt: 1\n# exit: 139\n' \
		>raw/s-a01.out
	sed 's/^# restart: 0$/# restart: 0\n# attempt: 2/' "$src" >raw/s-a02.out
	cp "$ROOT/tests/data/smoke/raw/smoke-n4-contiguous-21.out" raw/
	# exit 1: merged with warnings (the failed attempt, superseded)
	run -1 "$COLLECT" -q -o out raw
	grep -qx "1	retried	attempt 1: failed: exit 139 (signal 11, SIGSEGV) before aller's header (the launcher or MPI_Init)" \
		out/facts.tsv
	run -0 awk -F'\t' '$2 == "retried" { print $1 "|" $3 }' out/findings.tsv
	[ "$output" = "warning|On 4 nodes (strided): its job needed 2 attempts (the point is complete); attempt 1: failed: exit 139 (signal 11, SIGSEGV) before aller's header (the launcher or MPI_Init)." ]
	run -0 awk -F'\t' '$2 == "verdict" { print $1 "|" $3 }' out/findings.tsv
	[[ $output == "warning|Fabric: "*"; 1 point needed a retry (below). All 2 points complete (none below a floor); no slow link found." ]]
	grep -q '"retried": 1' out/findings.json
	# a campaign without retries: the verdict as it was, and nothing of them
	rm raw/s-a01.out
	run -0 "$COLLECT" -q -o out2 raw
	run ! grep -q retried out2/findings.tsv
	grep -q 'no point needed a retry\. All 2 points complete (none below a floor); no slow link found\.	' out2/findings.tsv
}

@test "a point run with aller's test hooks set is a test: named so, no suspect from it, not exported" {
	# the slow host's point (2) as a test
	printf '2\ttest_hooks\tALLER_TEST_SLOW=1:5000\n' >>merged/facts.tsv
	run -0 "$COLLECT" --findings merged
	grep -q '^warning	test_hooks	On 4 nodes (contiguous): aller ran with its test hooks set (ALLER_TEST_SLOW=1:5000): a test, not a measurement' merged/findings.tsv
	# the host it named slowest is no suspect: nothing for DRAIN=1 to act on
	run ! grep -q '^host	n3	the slowest task' merged/suspects.tsv
	grep -q '^host	n4	' merged/suspects.tsv   # the others' evidence stands
	"$COLLECT" --openmetrics merged >metrics.prom
	run ! grep -q 'point="n4-contiguous-t2"' metrics.prom
	grep -q 'point="n2-contiguous-t2"' metrics.prom   # the others are
}
