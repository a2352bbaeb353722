#!/usr/bin/env bats
# aller's measurement modes under mpirun: --timing, --cold-cache,
# --samples (and collect --samples' verdicts); --time-per-size is in tests/timed/budget.bats.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

@test "--timing=loop and osu verify and pass the checker; the header says which; the collector keeps them apart" {
	for t in barrier loop osu; do
		mpirun_n 4 "$ALLER" --timing="$t" c 3 256 >"$BATS_TEST_TMPDIR/$t"
		perl "$ROOT/tests/lib/check-aller.pl" 4 256 3 contiguous "$BATS_TEST_TMPDIR/$t"
		grep -qx "# timing: $t" "$BATS_TEST_TMPDIR/$t"
		ALLER_TEST_CORRUPT=2 run --separate-stderr -1 mpirun_n 4 "$ALLER" --timing="$t" c 3 256
		[[ $stderr == *"verification failed at level 0"* ]]
	done
	grep -q '^# timer: .*around ITERS back-to-back calls after one MPI_Barrier' "$BATS_TEST_TMPDIR/loop"
	grep -q "^# timer: .*each call followed by an MPI_Barrier on MPI_COMM_WORLD once it is checked and the next call prepared, as OSU's" "$BATS_TEST_TMPDIR/osu"
	# three timings of one point: three groups, none supersedes another
	run -0 "$COLLECT" -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/barrier" "$BATS_TEST_TMPDIR/loop" "$BATS_TEST_TMPDIR/osu"
	[[ $stderr$output == *"3 points: 3 complete"* ]]
	run ! grep -q 're-run of the point' "$BATS_TEST_TMPDIR/m/summary.txt"
	run -2 "$ALLER" --check-args --timing=loop --fresh-data
}

@test "--cold-cache: each call its own slot of a ring, verified; the memory check counts the ring" {
	run --separate-stderr -0 mpirun_n 4 "$ALLER" --cold-cache=256K --algo=alltoall,pairwise,put c 3 1024
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/cold"
	grep -qx "# cache: cold: each call its own slot of a ring of LONGS + 32768 longs per buffer (262144 bytes beyond LONGS: --cold-cache's), slots of the count's blocks, in turn" "$BATS_TEST_TMPDIR/cold"
	run ! grep -q '^# failed' "$BATS_TEST_TMPDIR/cold"
	ALLER_TEST_CORRUPT=1 run --separate-stderr -1 mpirun_n 4 "$ALLER" --cold-cache=256K c 3 1024
	# 4 ranks x 2 x (1024 + 32768) x 8 bytes = 2.06 MiB: LONGS alone fits 1 MiB, with the ring not
	ALLER_TEST_MEMAVAIL=1048576 run --separate-stderr -3 mpirun_n 4 "$ALLER" --cold-cache=256K c 3 1024
	[[ $stderr == *"the buffers do not fit: 4 ranks on "*" (2 x 33792 longs each)"* ]]
	ALLER_TEST_MEMAVAIL=1048576 run -0 mpirun_n 4 "$ALLER" c 1 1024
	# hot and cold runs of one point: two groups, neither supersedes the other
	mpirun_n 4 "$ALLER" c 3 1024 >"$BATS_TEST_TMPDIR/hot"
	run -0 "$COLLECT" -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/hot" "$BATS_TEST_TMPDIR/cold"
	[[ $stderr$output == *"2 points: 2 complete"* ]]
	run ! grep -q 're-run of the point' "$BATS_TEST_TMPDIR/m/summary.txt"
}

# (a ring of this machine's last-level cache: 480 MiB here, 12 s to fill, 30 beside stress-ng)
# bats test_tags=slow
@test "--cold-cache without a size: a ring of the last-level cache's size, as sysfs says" {
	[ -r /sys/devices/system/cpu/cpu0/cache/index0/size ] || skip "no cache sizes in sysfs"
	run -0 "$ALLER" --cold-cache c 1 16
	[[ $output == *"# cache: cold: "*"the largest "*"cache of the tasks, sysfs"* ]]
}

@test "--congestion: victims measured with the aggressors idle and busy; columns, header, the collector keeps them apart" {
	out=$BATS_TEST_TMPDIR/congested
	mpirun_n 6 "$ALLER" --congestion=0.5:pairwise:16K c 3 4096 >"$out"
	# the victims are the measured world: 3 of 6 (ranks 1, 3, 5 are aggressors)
	perl "$ROOT/tests/lib/check-aller.pl" 3 4096 3 contiguous "$out"
	grep -q '^# congestion: 0.5 of the world.s tasks are aggressors (3, .*the 3 others are the measured world): they run pairwise of 16384 bytes per peer' "$out"
	# every row: congestion = tcongested_s / tavg_s, both measured
	awk '/^[0-9]/ { n++; r = $24 / $6; if (!($24 > 0 && $26 > 0 && ($25 - r) ^ 2 < 1e-10 * r * r)) bad++ }
		END { exit !(n > 0 && !bad) }' "$out"
	mpirun_n 3 "$ALLER" c 3 4096 >"$BATS_TEST_TMPDIR/plain"
	run -0 "$COLLECT" -o "$BATS_TEST_TMPDIR/m" "$out" "$BATS_TEST_TMPDIR/plain"
	[[ $stderr$output == *"2 points: 2 complete"* ]]
	run -2 "$ALLER" --check-args --congestion=0.5 --isolate
	[[ $output == *"'--congestion' runs aggressors beside the measured tasks: not with --isolate"* ]]
	run -2 "$ALLER" --check-args --congestion=1.5
	[[ $output == *"invalid --congestion '1.5'"* ]]
	run -2 "$ALLER" --check-args --congestion=0.5:put
	[[ $output == *"invalid --congestion algorithm 'put'"* ]]
	run -2 "$ALLER" --check-args --congestion=0.5:alltoall,pairwise
	[[ $output == *"invalid --congestion algorithm 'alltoall,pairwise'"* ]]
	run -2 "$ALLER" --check-args=1 --congestion=0.5
	[[ $output == *"makes no aggressor of a world of 1"* ]]
	run -0 "$ALLER" --check-args=8 --congestion=0.25 0 3 4096
}

@test "--ci: calls from ITERS, doubling, until the median's 95% interval is within REL; at most MAX" {
	out=$BATS_TEST_TMPDIR/out
	# a loose precision: counts stop at a checkpoint before MAX, the large ones even beside
	# stress-ng (the smallest, a few bytes, may run to MAX there: one level, at most 12 x 128
	# calls; MAX 4096 at both levels' 24 rows ran 10 minutes beside stress-ng)
	run --separate-stderr -0 mpirun_n 2 "$ALLER" --ci=1:128 --commsizes=world c 8 4096
	printf '%s\n' "$output" >"$out"
	grep -qx '# ci: timed calls per (level, count) from ITERS, doubling, until the 95% interval of tmed (tmed_lo_s..tmed_hi_s) is within 1 of tmed, at most 128, every task agreeing (column iters)' "$out"
	column_of iters "$out" | awk '$1 != 8 && $1 != 16 && $1 != 32 && $1 != 64 && $1 != 128 { exit 1 }'
	[ "$(column_of iters "$out" | awk '$1 < 128' | wc -l)" -ge 1 ]
	# where it stopped early the interval is within REL (and the histogram's 1.1%)
	paste <(column_of tmed_lo_s "$out") <(column_of tmed_s "$out") <(column_of tmed_hi_s "$out") <(column_of iters "$out") |
		awk '$1 > $2 || $2 > $3 || ($4 < 128 && ($3 - $1) / 2 > 1.03 * $2) { exit 1 }'
	# rank 1 late by 2 ms at every call: half the samples wait, half do not; the
	# interval spans both and never narrows: every count runs MAX calls
	ALLER_TEST_SLOW=1:2000 run --separate-stderr -0 mpirun_n 2 "$ALLER" --ci=0.01:16 \
		--commsizes=world c 4 64
	printf '%s\n' "$output" >"$out"
	[ "$(column_of iters "$out" | sort -u)" = 16 ]
	# the data line has every column, the interval's last
	grep -q ' tmed_lo_s tmed_hi_s offnode_B netbw_GBs eff tcounts_s tdispatch_s tcombine_s bound_s bottleneck$' "$out"
}

@test "--min-busbw: rows below the floor named in place and on stderr, exit 1 after the sweep; above it, 0" {
	out=$BATS_TEST_TMPDIR/out
	run --separate-stderr -1 mpirun_n 2 "$ALLER" --min-busbw=100000@1K+ c 1 1024
	printf '%s\n' "$output" >"$out"
	grep -qx '# floor: busbw >= 100000 GB/s at 1 KiB per peer and above: a row below it fails the run (exit 1; .# floor_failed:. after it)' "$out"
	# the level of 2 tasks has rows of 4, 2 and 1 KiB per peer; the level of 1 is not judged
	[ "$(grep -c '^# floor_failed: level 0 (commsize 2, alltoall), [421] KiB per peer: busbw .* GB/s, below the floor of 100000$' "$out")" = 3 ]
	[ "$(grep -c '^# floor_failed: ' "$out")" = 3 ]
	grep -qx '# Done' "$out"
	[[ $stderr == *"aller: floor failed: level 0 (commsize 2, alltoall), 1 KiB per peer: busbw "*" GB/s is below --min-busbw=100000"* ]]
	[[ $stderr == *"aller: error: 3 rows below a floor (--min-busbw, --min-eff; each named in its place by '# floor_failed:')"* ]]
	# the collector names the point failed and why
	printf '# exit: 1\n' >>"$out"
	run -0 "$COLLECT" --state "$out"
	[[ $output == "failed	3 rows below the floor: level 0 (commsize 2, alltoall), "* ]]
	# the merge keeps them as the point's facts, which the findings count (not the output again)
	run -1 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$out"   # merged, a failed point
	[ "$(grep -c '	floor_failed	level 0 (commsize 2, alltoall), ' "$BATS_TEST_TMPDIR/m/facts.tsv")" = 3 ]
	rm "$out"
	run -0 "$COLLECT" --findings "$BATS_TEST_TMPDIR/m"
	grep -q '"kind": "floor", "severity": "warning", "text": "On 1 node (contiguous): 3 rows below a floor' "$BATS_TEST_TMPDIR/m/findings.json"
	# a floor every row clears: 0 (1e-9 GB/s: a call of 1 long per peer would have to take 8 s; at
	# 1e-6, 8 ms, a CI run beside a CPU hog had one below it)
	run --separate-stderr -0 mpirun_n 2 "$ALLER" --min-busbw=0.000000001 c 1 1024
	run ! grep -q '^# floor_failed:' <<<"$output"
}

@test "--json: the run as JSON lines from the same writers, whole or not at all" {
	command -v python3 >/dev/null || skip "python3 is missing: run 'make deps'"
	j=$BATS_TEST_TMPDIR/run.json out=$BATS_TEST_TMPDIR/out
	run --separate-stderr -1 mpirun_n 2 "$ALLER" --json="$j" --min-busbw=100000@1K c 2 1024
	printf '%s\n' "$output" >"$out"
	[ -s "$j" ] && [ ! -e "$j.part" ]
	# every line is JSON; the records agree with the text, field by field
	run -0 python3 - "$j" "$out" <<'PY'
import json, sys
recs = [json.loads(line) for line in open(sys.argv[1])]
text = open(sys.argv[2]).read().splitlines()
kinds = [r["record"] for r in recs]
assert kinds[0] == "header" and kinds[-1] == "end" and recs[-1]["done"] is True, kinds
h = recs[0]
assert h["format"] == "9" and h["iters"] == "2" and h["mode"] == "contiguous", h
assert isinstance(h["env"], list) or "env" not in h
names = [l for l in text if l.startswith("# columns: ")][0].split()[2:]
rows = [l.split() for l in text if l[:1].isdigit()]
jrows = [r for r in recs if r["record"] == "row"]
assert len(rows) == len(jrows) == kinds.count("row"), (len(rows), len(jrows))
for t, r in zip(rows, jrows):
    for name, v in zip(names, t):
        want = None if v == "-" else v if name == "bottleneck" else float(v)
        assert r[name] == want or (want is not None and abs(r[name] - want) <= 1e-12 * abs(want)), (name, v, r[name])
assert kinds.count("set") == 2 and kinds.count("floor_failed") == 1, kinds
print(len(jrows), "rows")
PY
	[[ $output == *" rows" ]]
	# a file that cannot be written: one line, exit 3, nothing left
	run --separate-stderr -3 mpirun_n 2 "$ALLER" --json="$BATS_TEST_TMPDIR/no/such/dir/run.json" c 1 64
	[[ $stderr == *"aller: error: rank 0 on "*": cannot write --json file '$BATS_TEST_TMPDIR/no/such/dir/run.json.part': No such file or directory"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/no" ]
	run --separate-stderr -2 "$ALLER" --json= c 1 64
	[[ $stderr == *"option '--json' needs a file: --json=FILE"* ]]
	run --separate-stderr -2 "$ALLER" --pairs --json=x
	[[ $stderr == *"'--json' does nothing here: it acts only with a sweep, whose rows it writes (not --pairs)"* ]]
}

@test "# limit: the node's NIC rate from sysfs (the interfaces MPI uses), --line-rate's, or unknown" {
	s=$BATS_TEST_TMPDIR/sys
	mkdir -p "$s/class/net/eth0" "$s/class/net/eth1" "$s/class/net/lo"
	echo up >"$s/class/net/eth0/operstate"
	echo 25000 >"$s/class/net/eth0/speed"
	echo up >"$s/class/net/eth1/operstate"
	echo 100000 >"$s/class/net/eth1/speed"
	ALLER_TEST_SYSFS=$s OMPI_MCA_btl_tcp_if_include=eth0 run --separate-stderr -0 mpirun_n 2 "$ALLER" c 1 8
	[[ $output == *"# limit: nic "*": 3.125 GB/s each way: Ethernet eth0 25 Gb/s ($s/class/net)"* ]]
	ALLER_TEST_SYSFS=$s/none run --separate-stderr -0 mpirun_n 2 "$ALLER" --line-rate=0.125 c 1 8
	[[ $output == *"# limit: nic "*": 0.125 GB/s each way, declared by --line-rate (sysfs: unknown: no NIC with a rate in $s/none (no up NIC))"* ]]
	ALLER_TEST_SYSFS=$s/none run --separate-stderr -0 mpirun_n 2 "$ALLER" c 1 8
	[[ $output == *"# limit: nic "*": unknown: no NIC with a rate in $s/none (no up NIC); declare it with --line-rate"* ]]
	# the node's copy bandwidth, its two tasks copying at once
	[[ $output =~ "# limit: copy "[^:]*": "[0-9.e+]+" GB/s read + written, 2 tasks copying about 32 MiB each at once, best of 3" ]]
	# ALLER_LINE_RATE declares it where --line-rate does not; a bad value: one line, exit 2
	ALLER_LINE_RATE=0.5 ALLER_TEST_SYSFS=$s/none run --separate-stderr -0 mpirun_n 2 "$ALLER" c 1 8
	[[ $output == *"# limit: nic "*": 0.5 GB/s each way, declared by ALLER_LINE_RATE (sysfs: "*"(2 tasks share it: 0.25 GB/s each)"* ]]
	ALLER_LINE_RATE=fast run --separate-stderr -2 mpirun_n 2 "$ALLER" c 1 8
	[[ $stderr == *"aller: error: invalid ALLER_LINE_RATE 'fast': expected each node's NIC rate in decimal GB/s each way"* ]]
}

@test "# nic_counters: each node's network counters over the run, beside what aller's calls sent off the node; collect keeps them as facts" {
	p=$BATS_TEST_TMPDIR/proc
	mkdir -p "$p/net"
	printf 'Inter-|\n face |\n  eth0: 7 7 7 7 0 0 0 0 7 7 7 7 0 0 0 0\n' >"$p/net/dev"
	printf 'Tcp: RtoAlgorithm RetransSegs\nTcp: 1 3\n' >"$p/net/snmp"
	ALLER_TEST_PROC=$p mpirun_n 2 "$ALLER" c 3 65536 >"$BATS_TEST_TMPDIR/out"
	# one node: nothing off it; the fake counters did not move
	grep -qx "# nic_counters: $(hostname) aller offnode_tx_B=0; eth0 tx_bytes=0 rx_bytes=0 tx_packets=0 rx_packets=0 tx_dropped=0 rx_dropped=0 tx_errors=0 rx_errors=0; tcp retrans_segs=0" \
		"$BATS_TEST_TMPDIR/out"
	[ "$(tail -n 1 "$BATS_TEST_TMPDIR/out")" = "# Done" ]
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/out"
	grep -q "^0	nic_counters	$(hostname) aller offnode_tx_B=0; eth0 " "$BATS_TEST_TMPDIR/m/facts.tsv"
	# this machine's own: its TCP counters at least
	mpirun_n 2 "$ALLER" c 1 8 >"$BATS_TEST_TMPDIR/out"
	grep -q "^# nic_counters: $(hostname) aller offnode_tx_B=0; .*tcp retrans_segs=[0-9]*$" "$BATS_TEST_TMPDIR/out"
}

@test "each node's last-level cache in its '# limit: cache' line; collect never says 'rate' of a row that fits it, nor 'cache' of one that does not" {
	s=$BATS_TEST_TMPDIR/sys
	c=$s/devices/system/cpu/cpu0/cache
	mkdir -p "$c/index3" "$s/class/net"
	echo 3 >"$c/index3/level"
	echo Unified >"$c/index3/type"
	echo 65536K >"$c/index3/size"
	ALLER_TEST_SYSFS=$s mpirun_n 2 "$ALLER" c 3 65536 >"$BATS_TEST_TMPDIR/out"
	grep -qx "# limit: cache $(hostname): 67108864 bytes, its last-level cache (sysfs): a row inside the node whose tasks move less than this a call may run from it, above the copy rate (eff above 1)" \
		"$BATS_TEST_TMPDIR/out"
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/out"
	# every row (at most 2 x 2 x 512 KiB a node) fits 64 MiB: none beats its eff for the rate
	run ! grep -q ',rate$' "$BATS_TEST_TMPDIR/m/points.csv"
	# with 1 KiB of cache declared, none is in it
	echo 1K >"$c/index3/size"
	ALLER_TEST_SYSFS=$s mpirun_n 2 "$ALLER" c 3 65536 >"$BATS_TEST_TMPDIR/out"
	grep -q "^# limit: cache $(hostname): 1024 bytes," "$BATS_TEST_TMPDIR/out"
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/m" "$BATS_TEST_TMPDIR/out"
	# none of 1 KiB per peer or more is in it (a row of a few bytes may be,
	# when its copy beats the copy rate: eff above 1 by its own timing)
	run -0 awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bytes_per_peer") b = i; next }
		$NF == "cache" && $b >= 1024 { print }' "$BATS_TEST_TMPDIR/m/points.csv"
	[ -z "$output" ]
	grep -q '^point,' "$BATS_TEST_TMPDIR/m/points.csv"
}

@test "eff on one node: against its copy bandwidth, offnode_B 0; --min-eff fails the rows below it, exit 1" {
	out=$BATS_TEST_TMPDIR/out
	run --separate-stderr -1 mpirun_n 2 "$ALLER" --min-eff=0.9@8 c 1 64
	printf '%s\n' "$output" >"$out"
	grep -qx '# floor: eff >= 0.9 at 8 B per peer: a row below it fails the run (exit 1; .# floor_failed:. after it)' "$out"
	# nothing leaves the node: offnode_B and netbw 0, eff a number (the copy is known)
	column_of offnode_B "$out" | awk '$1 != 0 { exit 1 }'
	column_of netbw_GBs "$out" | awk '$1 != 0 { exit 1 }'
	column_of eff "$out" | awk '!($1 > 0) { exit 1 }'
	# 8 B per peer is far from the copy's rate: both levels' rows fail (one task too)
	[ "$(grep -c '^# floor_failed: level [01] (commsize [12], alltoall), 8 B per peer: eff .*, below the floor of 0.9$' "$out")" = 2 ]
	[[ $stderr == *"aller: floor failed: level 1 (commsize 1, alltoall), 8 B per peer: eff "*" is below --min-eff=0.9"* ]]
	run --separate-stderr -2 "$ALLER" --min-eff=2 c 1 64
	[[ $stderr == *"invalid --min-eff '2': expected a fraction of the limit above 0, at most 1"* ]]
}
