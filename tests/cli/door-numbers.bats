#!/usr/bin/env bats
# The number door (issue 77, item 3; docs/security.md, "Numbers, rates and
# ranges"): every integer, decimal, size, rate and node range read from text
# goes through common/bytes.c (parse_long, parse_double, parse_bytes), the
# rate reader common/bound.c's bound_rate and the range walker
# common/fabricfile.c's fabricfile_names, in aller, collect and the cluster's
# shell (cluster-plan rate). Each test fails if its defect comes back.
# shellcheck disable=SC2154 # bats sets output and stderr
load ../lib/helpers

# The calls that read a number from text outside the door, per file, each
# with why it may: data aller or collect wrote themselves (a merged table, an
# output's own lines), the kernel's files, or a test hook. A new call (a new
# option parsed with strtol, atoi or sscanf) fails the test below: put it
# through the door, or add it here with its reason.
ALLOWED='
aller/buffers/memcheck.c 1    /proc/meminfo, the kernel'"'"'s
aller/json.c 2                aller'"'"'s own summary line, re-read for the JSON
aller/main.c 1                --check-args'"'"' worlds, each checked by the door when set
aller/options.c 1             LONGS, checked by the door (parse_count) the line above
aller/run.c 1                 a test hook (ALLER_TEST_DIE)
aller/world/counters.c 3      /sys and /proc counters, the kernel'"'"'s
aller/world/faults.c 3        test hooks (ALLER_TEST_*)
aller/world/hostmap.c 2       the digits of two host names compared, not a value
collect/export/plots.c 1      a merged table'"'"'s point id, collect'"'"'s own
collect/export/plots_kinds.c 3  merged tables'"'"' point ids, collect'"'"'s own
collect/judge/findings.c 3    merged tables (pairs.tsv), collect'"'"'s own
collect/judge/findings_across.c 2  a finding'"'"'s link words and its share of the median, collect'"'"'s own
collect/judge/nics.c 1        a merged fact'"'"'s NIC rate, collect'"'"'s own
collect/judge/suspects.c 1    suspects.tsv'"'"'s link words, collect'"'"'s own
collect/judge/topology.c 1    a fact'"'"'s node and leaf words (%s), no number
collect/merge/row.c 1         a row aller wrote, checked by the reader before
collect/model/campaign.c 3    merged tables, exactly as collect wrote them
collect/read/fabric.c 3       '"'"'# fabric:'"'"' and '"'"'# limit:'"'"' lines, aller'"'"'s own
collect/read/peer.c 3         the tools'"'"' header lines (#processes, Rank, a title)
collect/read/point.c 4        an output'"'"'s header lines, aller'"'"'s own
collect/read/samples.c 3      the samples file aller wrote
collect/read/status.c 3       Slurm'"'"'s and the status file'"'"'s words
common/bytes.c 2              the door itself
'

# number_bypasses ROOT: each file of ROOT's aller, collect and common with more
# calls of strtol, strtod, atoi, atof, sscanf ... than ALLOWED gives it.
number_bypasses() {
	local tree=$1 f n allowed
	while IFS= read -r f; do
		n=$(grep -oE '\b(strto(l|ll|ul|ull|d|f|ld|imax|umax)|ato(i|l|ll|f))\(|sscanf\(' "$tree/$f" | wc -l)
		allowed=$(awk -v f="$f" '$1 == f { print $2 }' <<<"$ALLOWED")
		[ "$n" -le "${allowed:-0}" ] || echo "$f: $n calls that read a number outside the door, ${allowed:-0} allowed"
	done < <(cd "$tree" && grep -rlE '\b(strto(l|ll|ul|ull|d|f|ld|imax|umax)|ato(i|l|ll|f))\(|sscanf\(' \
		aller collect common --include='*.c' --include='*.h' --include='*.cu' | sort)
}

@test "no number is read outside the door: every strtol, strtod, atoi or sscanf is the door's or allowed with a reason" {
	run number_bypasses "$ROOT"
	[ -z "$output" ] || { echo "$output"; return 1; }
}

@test "the door's test fails on a bypass: a new option parsed with atoi, or one more strtol in an allowed file" {
	cp -r "$ROOT/aller" "$ROOT/collect" "$ROOT/common" "$BATS_TEST_TMPDIR/"
	echo 'static int bypass(const char *s) { return atoi(s); }' >>"$BATS_TEST_TMPDIR/aller/options_table.c"
	echo 'static long more(const char *s) { return strtol(s, NULL, 10); }' >>"$BATS_TEST_TMPDIR/aller/world/faults.c"
	echo 'static int scanned(const char *s, int *v) { return sscanf(s, "%d", v); }' >>"$BATS_TEST_TMPDIR/common/grow.c"
	run number_bypasses "$BATS_TEST_TMPDIR"
	[ "${lines[0]}" = "aller/options_table.c: 1 calls that read a number outside the door, 0 allowed" ]
	[ "${lines[1]}" = "aller/world/faults.c: 4 calls that read a number outside the door, 3 allowed" ]
	[ "${lines[2]}" = "common/grow.c: 1 calls that read a number outside the door, 0 allowed" ]
}

@test "a node range that ends at LONG_MAX ends, in a fabric file, aller --nodes and collect --judge --nodes (H1-1)" {
	cd "$BATS_TEST_TMPDIR"
	printf 'nic n[9223372036854775807] 1gbit\n' >l.fabric
	# (nodes the file does not name: refused at once, by the file's door, not walked)
	run --separate-stderr -2 timeout 10 "$ALLER" --check-args=8 --nodes='n[1-4]' --fabric=l.fabric
	[ "$stderr" = "aller: error: --nodes: no node of them is in the fabric file 'l.fabric' (no switch, nic or gpu line names 'n1')" ]
	run -0 timeout 10 "$ALLER" --check-args=2 --nodes='n[9223372036854775806-9223372036854775807]' --fabric=l.fabric
	[[ $output == *"on 2 nodes (n9223372036854775806 ... n9223372036854775807)"* ]]
	run -0 timeout 10 "$COLLECT" --judge --fabric=l.fabric --nodes='n[9223372036854775806-9223372036854775807]' \
		"$ROOT/tests/data/peers/osu_alltoall.txt"
	[[ $output == *"# placement: 2 tasks on 2 nodes"* ]]
	# past LONG_MAX, or more than 1000000 names: refused, at once
	run --separate-stderr -2 timeout 10 "$ALLER" --check-args=2 --nodes='n[9223372036854775807-9223372036854775808]' \
		--fabric=l.fabric
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "a rate is decimal, finite and from 1kbit to 1000000GB/s: inf, nan, 1e309, 1e-320gbit and 0x10gbit refused (H1-11)" {
	cd "$BATS_TEST_TMPDIR"
	for r in inf infgbit nangbit 1e309gbit 1e-320gbit 0x10gbit -1gbit 0.5kbit 1000001GB/s; do
		printf 'switch leaf1 4gbit n[1-2]\nnic n[1-2] %s\n' "$r" >r.fabric
		run --separate-stderr -2 "$ALLER" --check-args=2 --nodes='n[1-2]' --fabric=r.fabric
		[ "$stderr" = "aller: error: r.fabric:2: rate is not a decimal number and kbit, mbit, gbit, gbps or GB/s, 1kbit to 1000000GB/s: '$r'" ] ||
			{ echo "$r: $stderr"; return 1; }
		run --separate-stderr -2 "$COLLECT" --judge --fabric="$ROOT/tests/data/peers/local.fabric" --line-rate="$r" \
			"$ROOT/tests/data/peers/osu_alltoall.txt"
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$r: $stderr"; return 1; }
	done
	for r in inf nan 1e309 1e-320 0x10; do
		run --separate-stderr -2 "$ALLER" --line-rate="$r" --check-args=2
		[[ $stderr == "aller: error: invalid --line-rate '$r': expected"* ]] || { echo "$r: $stderr"; return 1; }
	done
	printf 'switch leaf1 4gbit n[1-2]\nnic n[1-2] 10mbit\ngpu n[1-2] 450GB/s\n' >ok.fabric
	run -0 "$ALLER" --check-args=2 --nodes='n[1-2]' --fabric=ok.fabric
}

@test "collect --judge holds sizes to 2^50 bytes per peer and times above 0: FILE:LINE, exit 2 (H1-16)" {
	cd "$BATS_TEST_TMPDIR"
	sed 's/^1048576   /1e300     /' "$ROOT/tests/data/peers/osu_alltoall.txt" >big.txt
	run --separate-stderr -2 "$COLLECT" --judge --fabric="$ROOT/tests/data/peers/local.fabric" --nodes='n[1-4]' big.txt
	[ "$stderr" = "collect: error: --judge: big.txt:9: a size that is not a whole number of bytes from 0 to 2^50 per peer: '1e300'" ]
	[ -z "$output" ]
	sed 's/431\.09/0.00/' "$ROOT/tests/data/peers/osu_alltoall.txt" >zero.txt
	run --separate-stderr -2 "$COLLECT" --judge --fabric="$ROOT/tests/data/peers/local.fabric" --nodes='n[1-4]' zero.txt
	[ "$stderr" = "collect: error: --judge: zero.txt:6: a time that is not a number of us above 0: '0.00'" ]
}

@test "cluster-plan rate reads the shell's rates: kbit/s, or one line and exit 2 (H2-9)" {
	plan=$BUILD/bin/cluster-plan
	run -0 "$plan" rate 10mbit
	[ "$output" = 10000 ]
	run -0 "$plan" rate 1.5gbit
	[ "$output" = 1500000 ]
	run -0 "$plan" rate 100gbit
	[ "$output" = 100000000 ]
	for r in 9999999999999999999999gbit inf 0x10gbit 1e-320gbit 7kbit 1gbps 10; do
		run --separate-stderr -2 "$plan" rate "$r"
		[ "$stderr" = "rate '$r' is not allowed: a decimal number and kbit, mbit or gbit, from 8kbit to 1000000000kbit" ] ||
			{ echo "$r: $stderr"; return 1; }
	done
	run --separate-stderr -2 "$plan" rate 2gbit 1000000
	[ "$stderr" = "rate '2gbit' is not allowed: a decimal number and kbit, mbit or gbit, from 8kbit to 1000000kbit (the NIC's built rate)" ]
}

@test "fabric.sh refuses a rate tc cannot take before it looks for the fabric: one line, exit 2, nothing recorded (H2-9)" {
	export CLUSTER_DIR=$BATS_TEST_TMPDIR/cluster CLUSTER_PORT=17400
	for cmd in "slow-nic n2" "slow-link n1 n2" "slow-uplink leaf1"; do
		# shellcheck disable=SC2086 # the command's words
		run --separate-stderr -2 bash "$ROOT/cluster/fabric.sh" $cmd 9999999999999999999999gbit
		[ "$stderr" = "fabric: error: ${cmd%% *}: rate '9999999999999999999999gbit' is not allowed: a decimal number and kbit, mbit or gbit, from 8kbit to 1000000000kbit" ] ||
			{ echo "$cmd: $stderr"; return 1; }
	done
	[ ! -e "$CLUSTER_DIR/fabric/faults" ]
}

@test "a chain of 10^5 switches, 3x10^4 gpu lines and a 65,536-node judge take seconds, not minutes (H1-8)" {
	cd "$BATS_TEST_TMPDIR"
	awk 'BEGIN { print "switch s0 1gbit n1"; for (i = 1; i < 100000; i++) print "switch s" i " 1gbit s" i - 1
		print "nic n1 1gbit" }' >chain.fabric
	run -0 timeout 10 "$ALLER" --check-args=2 --nodes=n1 --fabric=chain.fabric
	awk 'BEGIN { print "switch leaf1 1gbit n[1-30000]"; for (i = 1; i <= 30000; i++) print "gpu n" i " 450GB/s" }' >gpu.fabric
	run -0 timeout 10 "$ALLER" --check-args=2 --nodes='n[1-2]' --fabric=gpu.fabric
	run -0 timeout 10 "$COLLECT" --judge --fabric=gpu.fabric "$ROOT/tests/data/peers/osu_alltoall.txt"
	awk 'BEGIN { for (l = 0; l < 256; l++) print "switch leaf" l " 100gbit n[" l * 256 + 1 "-" l * 256 + 256 "]"
		print "nic n[1-65536] 1gbit" }' >big.fabric
	run -0 timeout 10 "$COLLECT" --judge --fabric=big.fabric "$ROOT/tests/data/peers/osu_alltoall.txt"
	[[ $output == *"# placement: 65536 tasks on 65536 nodes"* ]]
	# two chains of 5x10^4 switches under a top: the slow uplink at the top of one is tier 50001
	# (collect reads the parent lines once per tier, and bound_tier walks them once, not once per tier)
	awk 'BEGIN { print "switch s0 100gbit n[1-2]"; for (i = 1; i < 50000; i++) print "switch s" i " 100gbit s" i - 1
		print "switch s50000 1gbit s49999"; print "switch t0 100gbit n[3-4]"
		for (i = 1; i <= 50000; i++) print "switch t" i " 100gbit t" i - 1
		print "switch top - s50000 t50000"; print "nic n[1-4] 100gbit" }' >deep.fabric
	run -0 timeout 10 "$COLLECT" --judge --fabric=deep.fabric --nodes='n[1-4]' "$ROOT/tests/data/peers/osu_alltoall.txt"
	[[ ${lines[-1]} == *"bound by the uplink of s50000, tier 50001 "* ]]
}

@test "an empty --fabric=, a bad --tasks-per-node and --safe-dir FILE: one clear line, exit 2 (H1-19)" {
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr -2 "$COLLECT" --judge --fabric= "$ROOT/tests/data/peers/osu_alltoall.txt"
	[ "$stderr" = "collect: error: --judge: option '--fabric=' needs a value: --fabric=VALUE" ]
	run --separate-stderr -2 "$COLLECT" --judge --fabric="$ROOT/tests/data/peers/local.fabric" --tasks-per-node=0x10 \
		"$ROOT/tests/data/peers/osu_alltoall.txt"
	[ "$stderr" = "collect: error: --judge: invalid --tasks-per-node '0x10': expected a whole number, 1..65536" ]
	run --separate-stderr -2 "$ALLER" --tasks-per-node=0x10 --check-args=2
	[ "$stderr" = "aller: error: invalid tasks per node '0x10': expected an integer, 1..65536" ]
	touch afile
	run --separate-stderr -2 "$COLLECT" --safe-dir afile
	[ "$stderr" = "collect: error: --safe-dir 'afile' is not a directory: give the directory to write into" ]
	run -0 "$COLLECT" --safe-dir "$BATS_TEST_TMPDIR"
}
