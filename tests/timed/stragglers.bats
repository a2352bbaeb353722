#!/usr/bin/env bats
# Who came late, under mpirun with a task delayed on purpose: --samples'
# stragglers (and the campaign's suspects) and --reveal=queues' late senders.
#
# make test runs the files of tests/timed/ in the ordered lane with the
# end-to-end files, never niced nor beside another file's load: a niced rank
# beside a busy one waits tens of milliseconds for its core.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "--samples: each node's file of every call; a late rank is a named straggler, a stall system-wide" {
	d=$BATS_TEST_TMPDIR/s
	ALLER_TEST_SLOW=2:200000:iter=3 run --separate-stderr -0 mpirun_n 4 "$ALLER" --samples="$d" \
		--commsizes=world --min-bytes=8K --max-bytes=8K c 8 65536
	grep -q "^# samples: $d/samples-<host>.txt" <(printf '%s\n' "$output")
	f=$(ls "$d"/samples-*.txt)
	grep -qx '# columns: level algo split count comm rank t_s...' "$f"
	[ "$(grep -c '^0 alltoall uniform 1024 0 [0-3] ' "$f")" = 4 ]
	run -0 "$COLLECT" --samples "$d"
	printf '%s\n' "$output"
	[[ $output == *"0 alltoall uniform 1024 4 8 "*"call 3 ("*"x): straggler, rank 2 on $(hostname) came late, its communicator waited"* ]]
	rm -r "$d"
	ALLER_TEST_STALL=5:30000 run --separate-stderr -0 mpirun_n 4 "$ALLER" --samples="$d" \
		--commsizes=world --min-bytes=8K --max-bytes=8K c 8 65536
	run -0 "$COLLECT" --samples "$d"
	[[ $output == *"0 alltoall uniform 1024 4 8 "*"call 5 ("*"x): system-wide, 4 of 4 tasks"* ]]
	# a directory that cannot be made: one line, exit 3
	touch "$BATS_TEST_TMPDIR/file"
	run --separate-stderr -3 mpirun_n 2 "$ALLER" --samples="$BATS_TEST_TMPDIR/file/sub" c 1 16
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: .*cannot create the samples directory')" = 1 ]
}

@test "--samples' stragglers: a host that came late in most straggling calls is a suspect of the campaign's merge" {
	c=$BATS_TEST_TMPDIR/camp
	mkdir -p "$c/raw" "$c/samples"
	ALLER_TEST_SLOW=2:200000:iter=3 mpirun_n 4 "$ALLER" --samples="$c/samples/p" \
		--commsizes=world --min-bytes=2K --max-bytes=8K c 8 65536 >"$c/raw/p.out"
	# one host here: every straggler is its, and it is no suspect
	run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$c"
	[ "$(tail -n +2 "$c/merged/suspects.tsv" | wc -l)" = 0 ]
	# as two hosts would have written them: ranks 0-1 on n1, 2-3 on n2
	f=$(ls "$c"/samples/p/samples-*.txt)
	awk -v d="$c/samples/p" 'NR <= 2 { head[NR] = $0; next } /^# end/ { next }
		{ h = $6 < 2 ? "n1" : "n2"; n[h]++; rows[h] = rows[h] $0 "\n" }
		END { for (h in n) { t = head[1]; sub(/host .*/, "host " h, t)
			printf "%s\n%s\n%s# end: %d lines\n", t, head[2], rows[h], n[h] >(d "/samples-" h ".txt") } }' "$f"
	rm "$f" "$c/merged/sets.tsv"
	run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$c"
	# (a call of noise may come late too: 3 of 4)
	grep -Eq "^host	n2	came late in [3-9] of the [3-6] straggling calls \(--samples\): its peers waited	20[0-9-]+T[0-9:]+Z	camp	$" "$c/merged/suspects.tsv"
	[ "$(grep -c '^host	n1	' "$c/merged/suspects.tsv")" = 0 ]
	# the report's item of the point: the straggling host, a notice
	run -0 "$COLLECT" --samples --finding "$c/samples/p/"
	grep -Eqx "notice	stragglers	Slow calls in p \(SAMPLES=1\): [0-9]+ among [0-9]+ counts, [3-9] of them stragglers; n2 came late in [3-9]\." <<<"$output"
	run -2 "$COLLECT" --samples --suspect "$c/merged"
	[[ $output == *"collect --samples [--finding | --suspect DIR CAMPAIGN] PATH..."* ]]
}

@test "a delayed rank is named late by the queues pass, and no other" {
	ALLER_TEST_DELAY=2 mpirun_n 4 "$ALLER" --reveal=queues --reveal-dir=rv c 1 16 >out
	grep -q '^# reveal_queues: ' out
	# the delay (50 ms) is ten times the window: every peer sees it, every round
	grep -q '^# late: level 0 comm 0 rank 2 host [^ ]*: late sender (24 of 24 observations by 3 peers)' out
	grep -q '^# late: level 1 comm 1 rank 2 host [^ ]*: late sender (8 of 8 observations by 1 peers) late receiver ([6-8] of 8 rounds)$' out
	[ "$(grep '^# late: ' out | grep -c ' rank [013] ')" = 0 ]
	grep -q '^# late: level 2 none ' out
}

@test "without a delay the queues pass names nobody, also in pairs" {
	# in a pair one rank always leaves the barrier second: microseconds, not late
	for _ in 1 2 3; do
		mpirun_n 4 "$ALLER" --reveal=queues --reveal-dir=rv c 1 16 >out
		[ "$(grep -c '^# late: level [0-2] none ' out)" = 3 ]
	done
}
