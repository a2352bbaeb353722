#!/usr/bin/env bats
# The write door (issue 77, item 2; docs/security.md, "Writing a result"):
# one writer in C (common/replace.c) and one in the shell (sh/write.sh), a
# lister of the writes that go around them (tests/door-write.sh), and the
# defects a full or shared RESULTS showed (H1-2, H2-2, H2-11, H2-12).
# shellcheck disable=SC2154,SC2016 # bats sets output, stderr and lines; single quotes are meant

load ../lib/helpers
load ../lib/fake-slurm

# a small file system of its own at $1 (removed by teardown)
small_fs() {
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2,mode=755" tmpfs "$1" 2>/dev/null || skip "cannot mount a small tmpfs here"
	MOUNTED=$1
}

teardown() {
	[ -z "${MOUNTED:-}" ] || { umount "$MOUNTED"; rmdir "$MOUNTED"; }
}

@test "no C writes a file but through common/replace.c; a bypass added in a copy is named, exit 1" {
	run -0 bash "$ROOT/tests/door-write.sh"
	[ -z "$output" ]
	t=$BATS_TEST_TMPDIR/t
	mkdir "$t"
	cp -r "$ROOT/aller" "$ROOT/collect" "$ROOT/common" "$ROOT/cluster" "$ROOT/campaigns" "$ROOT/jobs" \
		"$ROOT/plots" "$ROOT/sh" "$ROOT/tools" "$t/"
	run -0 bash "$ROOT/tests/door-write.sh" "$t"
	# a writer of its own, as collect --plots had: fopen "w", and open with O_CREAT
	sed -i 's|^static int clear_lists|static void bypass(void) { FILE *f = fopen("x", "w"); fclose(f); }\n&|' \
		"$t/collect/export/plots.c"
	run -1 bash "$ROOT/tests/door-write.sh" "$t"
	[[ $output == "collect/export/plots.c:"*':static void bypass(void) { FILE *f = fopen("x", "w")'* ]]
	[ "${#lines[@]}" = 1 ]
	printf 'int f(void) { return open("x", O_WRONLY | O_CREAT, 0600); }\n' >>"$t/common/dirs.c"
	run -1 bash "$ROOT/tests/door-write.sh" "$t"
	[[ $output == *"common/dirs.c:"*"O_CREAT"* ]]
	# reads are not this door's: fopen "r" is named by none
	printf 'FILE *g(void) { return fopen("x", "r"); }\n' >>"$t/common/bytes.c"
	run -1 bash "$ROOT/tests/door-write.sh" "$t"
	[[ $output != *"common/bytes.c"* ]]
}

@test "no script writes a computed path but through sh/write.sh, nor names a file by \$\$; a bypass added in a copy is named, exit 1" {
	t=$BATS_TEST_TMPDIR/t
	mkdir "$t"
	cp -r "$ROOT/campaigns" "$ROOT/jobs" "$ROOT/plots" "$ROOT/cluster" "$ROOT/sh" "$ROOT/tools" "$t/"
	run -0 bash "$ROOT/tests/door-write.sh" "$t"
	# export.sh's old temporary: a predictable name beside the target
	sed -i 's|^out=\$textfile/aller-\$CAMPAIGN.prom$|&\ntmp=$textfile/.aller-$CAMPAIGN.prom.$$|' "$t/plots/export.sh"
	run -1 bash "$ROOT/tests/door-write.sh" "$t"
	[[ $output == 'plots/export.sh:'*':tmp=$textfile/.aller-$CAMPAIGN.prom.$$' ]]
	# a redirection onto a computed path, as a job's settings file was written
	cp "$ROOT/plots/export.sh" "$t/plots/export.sh"
	printf 'job_settings "$i" >"$DIR/jobs/$SUB-$i.conf"\n' >>"$t/campaigns/submit.sh"
	run -1 bash "$ROOT/tests/door-write.sh" "$t"
	[ "$output" = "campaigns/submit.sh:$(wc -l <"$t/campaigns/submit.sh"):"'job_settings "$i" >"$DIR/jobs/$SUB-$i.conf"' ]
	# ... and an append; /dev/null, a descriptor and a comment are not writes
	cp "$ROOT/campaigns/submit.sh" "$t/campaigns/submit.sh"
	printf 'echo x >>"$manifest"\necho y >/dev/null 2>&1\n# echo z >"$x"\n' >>"$t/plots/lib.sh"
	run -1 bash "$ROOT/tests/door-write.sh" "$t"
	[ "$output" = "plots/lib.sh:$(($(wc -l <"$t/plots/lib.sh") - 2)):"'echo x >>"$manifest"' ]
}

@test "write_file: whole or not at all, never through another user's link, and a full disk is exit 3 in one line" {
	# shellcheck source=sh/toolkit.sh
	. "$ROOT/sh/toolkit.sh"
	cd "$BATS_TEST_TMPDIR"
	mkdir -m 755 d
	echo mine >victim
	ln -s "$PWD/victim" d/out
	chown -h nobody d/out
	run --separate-stderr -2 write_file d/out echo theirs
	[ "$stderr" = "campaign: error: not writing 'd/out': it is a symbolic link of another user (uid 65534): remove it or name another file" ]
	[ "$(cat victim)" = mine ]
	# a link of one's own is followed: its file replaced, the link kept
	ln -sfn "$PWD/victim" d/mine
	write_file d/mine echo replaced
	[ -L d/mine ] && [ "$(cat victim)" = replaced ]
	# a command that fails leaves the old file and no temporary
	echo old >d/f
	run --separate-stderr -3 write_file d/f sh -c 'echo half; echo "it broke" >&2; exit 1'
	[ "$stderr" = "campaign: error: cannot write '$PWD/d/f': it broke" ] || [ "$stderr" = "campaign: error: cannot write 'd/f': it broke" ]
	[ "$(cat d/f)" = old ] && [ "$(ls d)" = "$(printf 'f\nmine\nout')" ]
	# a directory everyone can write into is refused before anything is written
	mkdir -m 777 w
	run --separate-stderr -2 write_file w/f echo x
	[[ $stderr == "campaign: error: not writing into 'w': '$PWD/w' is writable by everyone (mode 0777)"* ]]
	[ -z "$(ls w)" ]
	# a full disk
	small_fs "$ROOT/build/door-write-$$" 16k
	dd if=/dev/zero of="$MOUNTED/fill" bs=1k 2>/dev/null || true
	run --separate-stderr -3 write_file "$MOUNTED/f" seq 100000
	[ "$stderr" = "campaign: error: cannot write '$MOUNTED/f': No space left on device" ]
	[ "$(ls "$MOUNTED")" = fill ]
}

@test "collect --plots writes no list through another user's link at DIR/plotsets: one line naming it and its owner, exit 3" {
	cd "$BATS_TEST_TMPDIR"
	"$COLLECT" -q -o m "$ROOT/tests/data/smoke/raw"
	mkdir victim
	ln -s "$PWD/victim" m/plotsets
	chown -h nobody m/plotsets
	run --separate-stderr -3 "$COLLECT" --plots m
	[ "$stderr" = "collect: error: --plots: not writing into 'm/plotsets': '$PWD/m/plotsets' belongs to another user (uid 65534): it could swap what is behind it" ]
	[ -z "$(ls victim)" ]
	# its own directory, as before
	rm m/plotsets
	run -0 "$COLLECT" --plots m
	[ -n "$(ls m/plotsets)" ]
}

@test "collect --findings and --compare -o write nothing into a directory everyone can write: one line, exit 3" {
	cd "$BATS_TEST_TMPDIR"
	"$COLLECT" -q -o m "$ROOT/tests/data/smoke/raw"
	mkdir w
	cp m/*.* w/
	rm w/findings.*
	chmod 777 w
	run --separate-stderr -3 "$COLLECT" --findings w
	[ "$stderr" = "collect: error: findings: not writing into 'w': '$PWD/w' is writable by everyone (mode 0777): another user could plant a link in it; write into a directory of your own in it (mkdir -m 755 ...)" ]
	[ ! -e w/findings.json ] && [ ! -e w/findings.tsv ]
	mkdir -m 777 c
	run --separate-stderr -3 "$COLLECT" --compare -o c "$ROOT/tests/data/smoke/raw" "$ROOT/tests/data/smoke/raw"
	[ "$stderr" = "collect: error: not writing into 'c': '$PWD/c' is writable by everyone (mode 0777): another user could plant a link in it; write into a directory of your own in it (mkdir -m 755 ...)" ]
	[ -z "$(ls c)" ]
}

@test "a variant's name longer than a point's file name allows is refused at submission: the name, its length, the limit, exit 2" {
	long=$(printf 'v%.0s' $(seq 300))
	run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=v "VARIANTS=default $long:A=1" DRYRUN=1
	[ "$stderr" = "campaign: error: invalid variant name 'vvvvvvvvvvvvvvvvvvvv...' in VARIANTS: 300 characters, at most 48 (every point's file name holds it)" ]
	run -0 bash "$ROOT/campaigns/submit.sh" CAMPAIGN=v "VARIANTS=default ${long:0:48}:A=1" DRYRUN=1
}

@test "RESULTS filling midway through a submission: exit 3, one line naming the file, its jobs cancelled and nothing of it left" {
	res=$ROOT/build/door-write-full-$$
	small_fs "$res" 200k
	FILL=$res fake_slurm
	run --separate-stderr -3 env PATH="$BATS_TEST_TMPDIR/bin:$PATH" bash "$ROOT/campaigns/submit.sh" CAMPAIGN=c \
		"RESULTS=$res" NODES="1 2" MODES=contiguous LONGS=64 SPLIT=1
	[ "$(grep -c 'error: ' <<<"$stderr")" = 1 ]
	[[ ${stderr##*$'\n'} == "campaign: error: cannot write '$res/c/jobs/"*"-1.conf': No space left on device: nothing of this submission is left (1 queued job cancelled, the manifest as it was)" ]]
	[ "$(cat "$BATS_TEST_TMPDIR/cancelled")" = 4241 ]
	# no manifest (the campaign was new), no job file, no temporary
	[ ! -e "$res/c/manifest" ]
	[ -z "$(ls -A "$res/c/jobs")" ]
}

@test "RESULTS full while a job runs: the point's reason (the disk full) is recorded, and make status shows it" {
	res=$ROOT/build/door-write-job-$$
	mkdir -p "$res"
	fake_slurm
	run -0 env PATH="$BATS_TEST_TMPDIR/bin:$PATH" bash "$ROOT/campaigns/submit.sh" CAMPAIGN=j "RESULTS=$res" \
		NODES=1 MODES=contiguous LONGS=64 "LAUNCHER=mpirun --oversubscribe -np 2" RETRIES=0
	conf=$(echo "$res"/j/jobs/*.conf)
	# raw/ on a file system with room for the provenance and not for aller's output
	small_fs "$res/j/raw" 64k
	dd if=/dev/zero of="$res/j/raw/.fill" bs=1k count=56 2>/dev/null
	run --separate-stderr -3 bash "$ROOT/jobs/aller.sbatch" "$conf"
	[[ $stderr == *"aller.sbatch: error: $res/j/raw/j-n1-contiguous-t2-L64-default-s1-"*".out: cannot write the point file: No space left on device (a full RESULTS?)"* ]]
	run --separate-stderr -1 env PATH="$BATS_TEST_TMPDIR/bin:$PATH" bash "$ROOT/campaigns/status.sh" CAMPAIGN=j "RESULTS=$res"
	[[ $output == *"n1-contiguous-t2-L64-default-s1 "*"failed (cannot write the point file: No space left on device (a full RESULTS?))"* ]]
	umount "$res/j/raw"
	MOUNTED=""
	rm -rf "$res"
}
