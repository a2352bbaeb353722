#!/usr/bin/env bats
# A hostile pass on make simulate, aller-simulate and build/bin/simulate
# (docs/simulate.md): every bad input one line and exit 2 before anything is
# written, a campaign put in place whole or not at all (a bad point, a
# signal, a full disk leave the earlier one as it was), never a link
# followed nor another directory emptied, and collect merging only outputs
# of one simulation.
# shellcheck disable=SC2154,SC2016 # bats sets output, stderr and status; single quotes are meant

load ../lib/helpers

SIM=$BUILD/bin/simulate

setup() {
	F=$BATS_TEST_TMPDIR/site.fabric
	printf '%s\n' 'switch leaf1 1gbit n[1-2]' 'switch leaf2 1gbit n[3-4]' 'nic n[1-4] 1gbit' >"$F"
	R=$BATS_TEST_TMPDIR/res
	ARGS=(--fabric="$F" --hosts='n[1-4]' --longs=65536 --start=2026-01-01T00:00:00Z)
	BIG=(--fabric="$ROOT/bench/fattree-4096.fabric" --hosts='n[1-4096]')
}

teardown() {
	[ -z "${MOUNTED:-}" ] || { umount "$MOUNTED"; rmdir "$MOUNTED"; }
}

# old_campaign: a simulated campaign sim in $R (one output), its listing in $BATS_TEST_TMPDIR/before.
old_campaign() {
	bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim FABRIC="$F" HOSTS='n[1-4]' LONGS=65536 RESULTS="$R" >/dev/null
	(cd "$R" && find sim -type f | sort && cat sim/manifest) >"$BATS_TEST_TMPDIR/before"
}

# as_before: the campaign sim as old_campaign left it, and nothing of a half-made one beside it.
as_before() {
	(cd "$R" && find sim -type f | sort && cat sim/manifest) | diff "$BATS_TEST_TMPDIR/before" -
	[ -z "$(find "$R" -maxdepth 1 -name '.sim.*' ! -name '.sim.lock*')" ]
}

# begun: a point's output is being written (into the campaign's own directory, or beside it).
begun() {
	compgen -G "$R/sim/raw/*.out.part" >/dev/null || compgen -G "$R/.sim.sim-*/raw/*.out.part" >/dev/null
}

@test "a NODES past the hosts, after good ones, leaves the earlier simulated campaign as it was" {
	old_campaign
	run --separate-stderr -2 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim FABRIC="$F" HOSTS='n[1-4]' \
		NODES='2 9' LONGS=65536 RESULTS="$R"
	[ "$stderr" = "simulate: error: invalid nodes '9': allowed are 1..4 (the hosts)" ]
	as_before
}

@test "a signal in the middle of a simulation leaves the earlier campaign as it was, nothing half-written" {
	old_campaign
	"$SIM" --results="$R/sim" --campaign=sim "${BIG[@]}" --tasks-per-node=16 --nodes='1024 2048 4096' \
		--longs=65536 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	wait_for "a point's output begun" 30 begun
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" = 143 ]
	grep -qx "simulate: error: stopped by signal 15: '$R/sim' left as it was" "$BATS_TEST_TMPDIR/err"
	as_before
}

@test "a full disk leaves the earlier simulated campaign as it was, exit 3" {
	mkdir -p "$R"
	mount -t tmpfs -o size=256k,mode=755 tmpfs "$R" 2>/dev/null || skip "cannot mount a small tmpfs here"
	MOUNTED=$R
	old_campaign
	longs=$(seq -s ' ' 65536 65536 $((65536 * 60)))
	run --separate-stderr -3 "$SIM" --results="$R/sim" --campaign=sim "${ARGS[@]}" --longs="$longs"
	[[ $stderr == "simulate: error: cannot write "* ]]
	as_before
}

@test "a link at RESULTS/CAMPAIGN is refused, exit 2, and where it points is left alone" {
	mkdir -p "$R" "$BATS_TEST_TMPDIR/elsewhere/raw"
	touch "$BATS_TEST_TMPDIR/elsewhere/raw/keep.out"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$R/sim"
	run --separate-stderr -2 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim FABRIC="$F" HOSTS='n[1-4]' \
		LONGS=65536 RESULTS="$R"
	[ "$stderr" = "simulate: error: '$R/sim' is a symbolic link: allowed is a simulated campaign's directory or none" ]
	[ "$(ls "$BATS_TEST_TMPDIR/elsewhere/raw")" = keep.out ]
	[ -L "$R/sim" ]
}

@test "a directory at RESULTS/CAMPAIGN with no manifest is refused, exit 2, never emptied" {
	mkdir -p "$R/sim/raw"
	touch "$R/sim/raw/keep.out"
	run --separate-stderr -2 "$SIM" --results="$R/sim" --campaign=sim "${ARGS[@]}"
	[ "$stderr" = "simulate: error: '$R/sim' holds no campaign's manifest: allowed is a simulated campaign's directory or none" ]
	[ "$(ls "$R/sim/raw")" = keep.out ]
	# an empty one is no campaign's: simulated into
	rm -r "$R/sim/raw"
	run -0 "$SIM" --results="$R/sim" --campaign=sim "${ARGS[@]}"
	grep -q '^simulated ' "$R/sim/manifest"
}

@test "the old campaign's manifest is read through the door: a FIFO refused at once (it blocked on open), a link to a simulated one no campaign's; exit 2, nothing touched" {
	mkdir -p "$R/sim/raw"
	touch "$R/sim/raw/keep.out"
	mkfifo "$R/sim/manifest"
	run --separate-stderr -2 timeout 10 "$SIM" --results="$R/sim" --campaign=sim "${ARGS[@]}"
	[ "$stderr" = "simulate: error: manifest '$R/sim/manifest' is a FIFO, not a regular file" ]
	rm -r "$R/sim"
	old_campaign
	mkdir -p "$BATS_TEST_TMPDIR/meas/raw"
	ln -s "$R/sim/manifest" "$BATS_TEST_TMPDIR/meas/manifest"
	touch "$BATS_TEST_TMPDIR/meas/raw/measured.out"
	run --separate-stderr -2 "$SIM" --results="$BATS_TEST_TMPDIR/meas" --campaign=meas "${ARGS[@]}"
	[ "$stderr" = "simulate: error: '$BATS_TEST_TMPDIR/meas' holds no campaign's manifest: allowed is a simulated campaign's directory or none" ]
	[ "$(ls "$BATS_TEST_TMPDIR/meas/raw")" = measured.out ]
}

@test "two make simulate of one campaign take turns: the second waits, then says who holds it, exit 1" {
	mkdir -p "$R"
	exec 8>>"$R/.sim.lock"
	flock 8
	echo "pid 1 on here" >"$R/.sim.lock.holder"
	run --separate-stderr -1 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim FABRIC="$F" HOSTS='n[1-4]' \
		LONGS=65536 RESULTS="$R"
	exec 8>&-
	[[ $stderr == *"campaign 'sim' is being submitted by another process (pid 1 on here)"* ]]
	[ ! -e "$R/sim" ]
}

@test "a host named twice in HOSTS is one line, exit 2" {
	for hosts in 'n1,n1' 'n[1-4],n2' 'n[1-2] n[2-3]'; do
		run --separate-stderr -2 "$SIM" --fabric="$F" --hosts="$hosts"
		[[ $stderr == "simulate: error: host 'n"[12]"' is named twice in HOSTS: allowed is each node once" ]]
	done
}

@test "a world whose rows memory cannot hold is refused before anything is allocated or written, exit 2" {
	run --separate-stderr -2 bash -c 'ulimit -v 4000000; "$0" "$@"' "$SIM" "${BIG[@]}" --tasks-per-node=100000
	[ "$stderr" = "simulate: error: invalid world '409600000' (4096 nodes x 100000 tasks) of 5 iters: allowed are at most 12201611 tasks (a row's samples in 1 GiB)" ]
	[ -z "$output" ]
	run --separate-stderr -2 "$SIM" "${BIG[@]}" --tasks-per-node=4 --aller-args=--iters=1000000
	[[ $stderr == "simulate: error: invalid world '16384' (4096 nodes x 4 tasks) of 1000000 iters: allowed are at most 134 tasks"* ]]
}

@test "--pairs on more tasks than its n x n matrices may take is refused before anything is written, exit 2" {
	run --separate-stderr -2 bash -c 'ulimit -v 4000000; "$0" "$@"' "$SIM" "${BIG[@]}" --tasks-per-node=25 \
		--aller-args=--pairs
	[ "$stderr" = "simulate: error: invalid --pairs world '102400' (4096 nodes x 25 tasks): allowed are at most 4096 tasks (its n x n matrices)" ]
	[ -z "$output" ]
	run --separate-stderr -2 "$SIM" "${BIG[@]}" --nodes=2048 --tasks-per-node=4 --aller-args=--pairs
	[[ $stderr == "simulate: error: invalid --pairs world '8192' "* ]]
}

@test "a mode is contiguous or strided, never a prefix of one" {
	for m in s c contig 'contiguous st'; do
		run --separate-stderr -2 "$SIM" "${ARGS[@]}" --modes="$m"
		[[ $stderr == "simulate: error: invalid mode '"*"': allowed are contiguous and strided" ]]
	done
}

@test "collect refuses simulated outputs of two fabrics or two seeds, and merges one simulation's" {
	mkdir "$BATS_TEST_TMPDIR/in"
	sed 's/1gbit/100gbit/' "$F" >"$BATS_TEST_TMPDIR/other.fabric"
	p=(--campaign=c --series=s1)
	"$SIM" "${ARGS[@]}" "${p[@]}" --nodes=2 --point=n2-contiguous-t1-L65536-default-s1 >"$BATS_TEST_TMPDIR/in/a.out"
	"$SIM" "${ARGS[@]}" "${p[@]}" --point=n4-contiguous-t1-L65536-default-s1 --fabric="$BATS_TEST_TMPDIR/other.fabric" \
		>"$BATS_TEST_TMPDIR/in/b.out"
	run --separate-stderr -2 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in"
	[ "$stderr" = "collect: error: 1 of the 2 outputs are simulated otherwise than the first (its '# simulated:' fabric, seed or faults): nothing merged; merge them apart" ]
	[ ! -e "$BATS_TEST_TMPDIR/out/points.csv" ]
	"$SIM" "${ARGS[@]}" "${p[@]}" --point=n4-contiguous-t1-L65536-default-s1 --seed=2 >"$BATS_TEST_TMPDIR/in/b.out"
	run -2 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in"
	# the same fabric named another way, the same seed: one simulation
	(cd "$BATS_TEST_TMPDIR" && "$SIM" "${ARGS[@]}" "${p[@]}" --fabric=./site.fabric \
		--point=n4-contiguous-t1-L65536-default-s1 >in/b.out)
	run -0 "$COLLECT" -q -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in"
}

@test "two faults on one NIC, uplink, node or wiring are one line naming the second, exit 2" {
	for faults in 'slow-nic n1 1gbit; slow-nic n1 2gbit' 'slow-nic n1 1gbit;slow-tx n1 2gbit' \
		'slow-node n2 3; slow-node n2 2' 'move n1 leaf2; move n1 leaf2' \
		'slow-uplink leaf1 1gbit; slow-uplink leaf1 1mbit'; do
		run --separate-stderr -2 "$SIM" "${ARGS[@]}" --faults="$faults"
		second=${faults#*;}
		[ "$stderr" = "simulate: error: invalid fault '${second# }': another fault names it too: allowed is one a NIC, uplink, node or wiring" ]
		[ -z "$output" ]
	done
	# one fault each on two things, and a NIC and its node's straggling, are as before
	run -0 "$SIM" "${ARGS[@]}" --faults='slow-nic n1 1gbit;; slow-nic n2 2gbit; slow-node n1 2; slow-uplink leaf2 1mbit'
}

@test "a second slow-global is refused, exit 2: the model slows one pair of groups" {
	d=$BATS_TEST_TMPDIR/dragonfly.fabric
	printf '%s\n' 'switch t1 - n[1-2]' 'switch t2 - n[3-4]' 'switch t3 - n[5-6]' 'nic n[1-6] 10gbit' \
		'group g1 t1' 'group g2 t2' 'group g3 t3' 'global 1 1gbit' >"$d"
	run --separate-stderr -2 "$SIM" --fabric="$d" --hosts='n[1-6]' --faults='slow-global g1 g2 1mbit; slow-global g2 g3 1mbit'
	[ "$stderr" = "simulate: error: invalid fault 'slow-global g2 g3 1mbit': a second slow-global: allowed is one (the model slows one pair of groups)" ]
	run -0 "$SIM" --fabric="$d" --hosts='n[1-6]' --longs=65536 --faults='slow-global g2 g3 1mbit'
}

@test "a move onto the node's own switch, or onto a switch above leaves, is refused, exit 2" {
	run --separate-stderr -2 "$SIM" "${ARGS[@]}" --faults='move n1 leaf1'
	[ "$stderr" = "simulate: error: invalid fault 'move n1 leaf1': a move onto the switch the node is under already" ]
	t=$BATS_TEST_TMPDIR/tree.fabric
	printf '%s\n' 'switch top - leaf1 leaf2' 'switch leaf1 1gbit n[1-2]' 'switch leaf2 1gbit n[3-4]' >"$t"
	run --separate-stderr -2 "$SIM" "${ARGS[@]}" --fabric="$t" --faults='move n1 top'
	[ "$stderr" = "simulate: error: invalid fault 'move n1 top': a move onto a switch with switches under it: allowed are leaves" ]
	run -0 "$SIM" "${ARGS[@]}" --fabric="$t" --faults='move n1 leaf2'
}

@test "HOSTS as docs/simulate.md writes them, space- or comma-separated, takes blanks after a comma" {
	for hosts in 'n1, n2, n[3-4]' 'n1  n2 n[3-4]' 'n1,n2,n[3-4],'; do
		run -0 "$SIM" "${ARGS[@]}" --hosts="$hosts"
		[ "$(grep -c '^# host: ' <<<"$output")" = 4 ]
	done
	run --separate-stderr -2 "$SIM" "${ARGS[@]}" --hosts='n[1-100000000]'
	[ "$stderr" = "simulate: error: invalid hosts 'n[1-100000000]': allowed are names and ranges of at most 1000000, space- or comma-separated, e.g. n[1-16],m3" ]
}

@test "a RESULTS that cannot be written is one line, exit 3, never 'being submitted by another process'" {
	mkdir -p "$R"
	mount -t tmpfs -o size=64k,ro,mode=755 tmpfs "$R" 2>/dev/null || skip "cannot mount a small tmpfs here"
	MOUNTED=$R
	run --separate-stderr -3 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim FABRIC="$F" HOSTS='n[1-4]' \
		LONGS=65536 RESULTS="$R"
	[ "$stderr" = "simulate: error: cannot write in RESULTS '$R' (the lock '$R/.sim.lock')" ]
	run --separate-stderr -3 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=sim RESULTS="$R"
	[ "$stderr" = "campaign: error: cannot write in RESULTS '$R' (the lock '$R/.sim.lock')" ]
	run --separate-stderr -3 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim FABRIC="$F" HOSTS='n[1-4]' \
		LONGS=65536 RESULTS="$R/sub"
	[ "$stderr" = "simulate: error: cannot create RESULTS '$R/sub'" ]
}

@test "FAULTS holds at most 4,096 faults, and a node's second among thousands is named, exit 2" {
	faults=$(for i in $(seq 1 4097); do printf 'slow-node n%d 2;' "$i"; done)
	run --separate-stderr -2 "$SIM" "${BIG[@]}" --faults="$faults"
	[ "$stderr" = "simulate: error: invalid faults 'slow-node n1 2;slow-...': over 4096: allowed are at most 4096, ';'-separated" ]
	run --separate-stderr -2 "$SIM" "${BIG[@]}" --faults="${faults%%slow-node n4000 *}slow-node n17 3"
	[ "$stderr" = "simulate: error: invalid fault 'slow-node n17 3': another fault names it too: allowed is one a NIC, uplink, node or wiring" ]
}

@test "build/bin/simulate's --campaign is a name, never a path out of the campaign's directory, exit 2" {
	for name in '../../escaped' 'a/b' '' '.hidden'; do
		run --separate-stderr -2 "$SIM" --results="$R/sim" --campaign="$name" "${ARGS[@]}"
		[ "$stderr" = "simulate: error: invalid campaign '$name': allowed are letters, digits, '.', '_' and '-', the first a letter or digit, at most 64 (a file's name)" ]
	done
	[ ! -e "$R" ]
	[ -z "$(find "$BATS_TEST_TMPDIR" -name '*escaped*')" ]
}

@test "--start is a UTC time, never read past its end into a file's name, exit 2" {
	for start in x '' '2026/01/01T00:00:00Z' '2026-01-01T00:00:00Zx'; do
		run --separate-stderr -2 "$SIM" --start="$start" --results="$R/sim" --campaign=sim "${ARGS[@]:0:3}"
		[ "$stderr" = "simulate: error: invalid start '$start': allowed is a UTC time as YYYY-MM-DDTHH:MM:SSZ" ]
	done
	[ ! -e "$R" ]
}

@test "a point given twice (NODES 2,2, or 0 and all of HOSTS) is one line, exit 2, nothing left" {
	for a in --nodes=2,2 '--nodes=0 4' '--modes=contiguous contiguous'; do
		run --separate-stderr -2 "$SIM" --results="$R/sim" --campaign=sim "${ARGS[@]}" "$a"
		[[ $stderr == "simulate: error: invalid point 'n"[24]"-contiguous-t1-L65536-default-s1': given twice: allowed is each of NODES, MODES, TASKS_PER_NODE and LONGS once" ]]
		[ -z "$(ls -A "$R")" ]
	done
}

@test "a --min-bytes above every row is nothing to simulate: one line, exit 2, as aller's own" {
	run --separate-stderr -2 "$SIM" "${ARGS[@]}" --aller-args=--min-bytes=1T
	[ "$stderr" = "simulate: error: invalid --min-bytes '1099511627776': above every row of 4 nodes x 1 tasks of LONGS 65536 (at most 524288 bytes per peer): nothing to simulate" ]
	[ -z "$output" ]
	run -0 "$SIM" "${ARGS[@]}" --aller-args=--min-bytes=512k
	[ "$(grep -c '^[0-9]' <<<"$output")" = 1 ]
}

@test "--pairs' timed exchanges are bounded before any is drawn: tasks x tasks x iters at most 2^28, exit 2" {
	run --separate-stderr -2 "$SIM" "${BIG[@]}" --nodes=512 --aller-args='--pairs=64k --iters=1025'
	[ "$stderr" = "simulate: error: invalid --pairs world '512' of 1025 iters: allowed are at most 2^28 timed exchanges (tasks x tasks x iters: 1024 iters at most)" ]
	[ -z "$output" ]
}

@test "a simulated campaign's directory is made as mkdir makes one (the umask's), readable by the team" {
	(umask 022 && "$SIM" --results="$R/sim" --campaign=sim "${ARGS[@]}")
	[ "$(stat -c %a "$R/sim")" = 755 ]
	[ "$(stat -c %a "$R/sim/raw")" = 755 ]
}

@test "a simulation of 32,768 hosts is merged as simulated: its '# simulated:' line comes before the fabric's" {
	big=$BATS_TEST_TMPDIR/32k.fabric
	{
		echo 'switch top - leaf[1-256]'
		for l in $(seq 1 256); do echo "switch leaf$l 100gbit n[$(((l - 1) * 128 + 1))-$((l * 128))]"; done
		echo 'nic n[1-32768] 100gbit'
	} >"$big"
	"$SIM" --results="$R/sim" --campaign=sim --fabric="$big" --hosts='n[1-32768]' --longs=1048576 \
		--aller-args=--min-bytes=64k
	run -0 "$COLLECT" -q -o "$R/sim/merged" "$R/sim/raw"
	grep -q '	verdict	Simulated (aller-simulate' "$R/sim/merged/findings.tsv"
	grep -q '	simulated	model=bound ' "$R/sim/merged/facts.tsv"
}

@test "NODES from a CONF file is simulated as the CONF says, not all of HOSTS" {
	printf 'NODES="2"\nTASKS_PER_NODE=2\n' >"$BATS_TEST_TMPDIR/my.conf"
	run -0 bash "$ROOT/campaigns/simulate.sh" CAMPAIGN=sim CONF="$BATS_TEST_TMPDIR/my.conf" FABRIC="$F" \
		HOSTS='n[1-4]' LONGS=65536 RESULTS="$R"
	[ "$(cd "$R/sim/raw" && echo *.out)" = "$(cd "$R/sim/raw" && echo sim-n2-contiguous-t2-L65536-default-s1-*.out)" ]
	grep -qx 'setting NODES=2' "$R/sim/manifest"
}

@test "a measured campaign is never taken for a simulated one by a long record's rest reading 'simulated '" {
	mkdir -p "$R/meas/raw"
	echo data >"$R/meas/raw/keep.out"
	long="setting ALLER_ARGS=$(printf 'x%.0s' $(seq 1 236))simulated FABRIC=x"
	printf 'manifest 2\ncampaign meas\n%s\n' "$long" >"$R/meas/manifest"
	run --separate-stderr -2 "$SIM" --results="$R/meas" --campaign=meas "${ARGS[@]}"
	[ "$stderr" = "simulate: error: campaign 'meas' in '$R/meas' is measured: simulate into another CAMPAIGN" ]
	[ "$(ls "$R/meas/raw")" = keep.out ]
}
