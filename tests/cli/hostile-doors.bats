#!/usr/bin/env bats
# A hostile user at the doors (docs/security.md; docs/exit-codes.md, "Reading
# a user's file", "Numbers, rates and ranges"): what got through them once.
# Each test fails if its defect comes back.
# shellcheck disable=SC2154 # bats sets output and stderr
load ../lib/helpers

@test "a FIFO where one is allowed is read once its writer comes, not as empty, its writer left blocked (h11)" {
	cd "$BATS_TEST_TMPDIR"
	mkfifo worlds
	(sleep 1 && timeout 5 bash -c 'echo 4 >worlds') </dev/null >/dev/null 2>&1 &
	run --separate-stderr timeout 10 "$ALLER" --check-args=@worlds
	# the writer got its reader and ended (a read of an empty FIFO left it blocked in open)
	wait $!
	[ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "$status: $stderr"; return 1; }
}

@test "a range's trailing comma is an empty item, refused as a leading one is (h11)" {
	cd "$BATS_TEST_TMPDIR"
	for r in 'n[1,]' 'n[,1]' 'n[1-2,]'; do
		printf 'nic %s 1gbit\n' "$r" >r.fabric
		run --separate-stderr -2 timeout 10 "$ALLER" --check-args=2 --nodes=n1 --fabric=r.fabric
		[ "$stderr" = "aller: error: r.fabric:1: a range's item is N or A-B (A <= B, at most 1000000 names): '$r'" ] ||
			{ echo "$r: $stderr"; return 1; }
	done
}

@test "an option's value past its buffer is refused whole, not cut to a number that passes (h11)" {
	z=$(printf '0%.0s' {1..70})
	# each was exit 0: the junk past the buffer (64 or 32 bytes) dropped unseen
	for a in "--congestion=0.5${z}junk" "--congestion=0.5:alltoall:${z:0:61}1Mjunk" \
		"--min-busbw=2.5@${z:0:61}1Mjunk" "--min-eff=0.5@${z:0:61}1M+junk"; do
		run --separate-stderr -2 "$ALLER" "$a" --check-args=4
		[ "${#stderr_lines[@]}" -eq 1 ] && [[ $stderr == "aller: error: invalid --"* ]] || { echo "$a: $stderr"; return 1; }
	done
	for w in "${z:0:30}4junk" "4,${z:0:30}4junk"; do
		run --separate-stderr -2 "$ALLER" --check-args="$w"
		[ "$stderr" = "aller: error: invalid world size '(32 or more)': expected an integer, 1..1099511627776" ] ||
			{ echo "$w: $stderr"; return 1; }
	done
	run -0 "$ALLER" --congestion=0.5:alltoall:1M --min-busbw=2.5@1M+ --check-args=4,8
}

@test "--congestion's least world is a number, not 300 digits (h11)" {
	run --separate-stderr -2 "$ALLER" --congestion=1e-300 --check-args=4
	[ "$stderr" = "aller: error: --congestion=1e-300 makes no aggressor of a world of 4: give a larger fraction or more tasks (at least 1e+300)" ]
	run --separate-stderr -2 "$ALLER" --congestion=0.1 --check-args=4
	[[ $stderr == *"(at least 10)" ]]
}

@test "write_file onto a directory refuses it, exit 3, not a result moved into it as a temporary (h11)" {
	# shellcheck source=sh/toolkit.sh
	. "$ROOT/sh/toolkit.sh"
	cd "$BATS_TEST_TMPDIR"
	mkdir -m 755 out.tsv
	run --separate-stderr -3 write_file out.tsv echo result
	[ "$stderr" = "campaign: error: cannot write 'out.tsv': it is a directory" ]
	[ -z "$(ls -A out.tsv)" ] && ! compgen -G 'out.tsv.*'
}

@test "GPUS_PER_TASK is 0 or 1 to 999: past 2^63 or with a leading zero, exit 2 at submission, not sbatch's to refuse (h11)" {
	for v in 99999999999999999999999 00 007 1000; do
		run --separate-stderr -2 bash "$ROOT/campaigns/submit.sh" CONF="$ROOT/campaigns/smoke.conf" CAMPAIGN=h11-gpus \
			RESULTS="$ROOT/build/h11-gpus-never" NODES=1 DRYRUN=1 GPUS_PER_TASK="$v"
		[ "$stderr" = "campaign: error: invalid GPUS_PER_TASK '$v': expected 0 or a whole number from 1 to 999, no leading zero" ] ||
			{ echo "$v: $stderr"; return 1; }
	done
	[ ! -e "$ROOT/build/h11-gpus-never" ]
}

@test "the shell's errors are one line whatever a value holds: a newline, CR, tab and ESC escaped, as collect's are" {
	run --separate-stderr -2 bash "$ROOT/plots/plot.sh" CAMPAIGN=$'x\ny\r\e[31m\tz'
	[ "${#stderr_lines[@]}" = 1 ]
	[ "$stderr" = "plots: error: invalid CAMPAIGN 'x\\ny\\r\\x1b[31m\\tz': allowed are letters, digits, '.', '_' and '-', the first a letter or digit" ]
}

# shellcheck disable=SC2016 # single quotes meant: bash -c expands them
@test "append_lines refuses a FIFO or a directory at its path at once, one line, exit 3 (it hung on a FIFO)" {
	cd "$BATS_TEST_TMPDIR"
	mkfifo f
	mkdir d
	run --separate-stderr -3 timeout 10 bash -c '. "$0/sh/toolkit.sh"; append_lines f x' "$ROOT"
	[ "$stderr" = "campaign: error: cannot write 'f': it is not a regular file" ]
	run --separate-stderr -3 timeout 10 bash -c '. "$0/sh/toolkit.sh"; append_lines d x' "$ROOT"
	[ "$stderr" = "campaign: error: cannot write 'd': it is not a regular file" ]
	run -0 bash -c '. "$0/sh/toolkit.sh"; append_lines r x; append_lines r y' "$ROOT"
	[ "$(cat r)" = $'x\ny' ]
}
