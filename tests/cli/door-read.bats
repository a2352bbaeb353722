#!/usr/bin/env bats
# Reading a user's file (issue 77, item 1): one door (common/text.h) every
# reader of a file a user names goes through, its rules (a regular file, or
# a FIFO where allowed; a cap; no NUL; CRLF as LF; a cut file said) and its
# one message form, FILE:LINE: what; tests/door-read.sh lists the reads
# that go around it. docs/security.md and docs/exit-codes.md say the same.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

P=$ROOT/tests/data/peers

@test "every file aller, collect, common and simulate read goes through the door, or is on the commented list" {
	run -0 bash "$ROOT/tests/door-read.sh"
	[ "$output" = "" ]
}

@test "a read around the door is named, file and line, exit 1; so is one more in a file the list allows" {
	mkdir "$BATS_TEST_TMPDIR/tree"
	cp -r "$ROOT/aller" "$ROOT/collect" "$ROOT/common" "$ROOT/simulate" "$ROOT/tests" "$BATS_TEST_TMPDIR/tree/"
	cd "$BATS_TEST_TMPDIR/tree"
	printf 'static FILE *bypass(const char *p) { return fopen(p, "r"); }\n' >>collect/judge/against.c
	printf 'static FILE *more(const char *p) { return fopen(p, "r"); }\n' >>aller/buffers/buffers_host.c
	printf 'static int manifest(const char *p) { return open(p, 0); }\n' >>simulate/main.c
	run -1 bash tests/door-read.sh
	[[ $output == *"collect/judge/against.c: fopen outside the door (1, allowed 0): collect/judge/against.c:"* ]]
	[[ $output == *"aller/buffers/buffers_host.c: fopen outside the door (2, allowed 1):"* ]]
	[[ $output == *"simulate/main.c: open outside the door (1, allowed 0):"* ]]
	[ "${#lines[@]}" = 3 ]
}

@test "a FIFO as the fabric file or as --judge's output, a device as an @FILE world list: refused at once, one line, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	mkfifo fifo
	run --separate-stderr -2 timeout 10 "$ALLER" --check-args=8 --nodes='n[1-2]' --fabric=fifo c
	[ "$stderr" = "aller: error: fabric file 'fifo' is a FIFO, not a regular file" ]
	run --separate-stderr -2 timeout 10 "$COLLECT" --judge --fabric=fifo "$P/osu_alltoall.txt"
	[ "$stderr" = "collect: error: --judge: fabric file 'fifo' is a FIFO, not a regular file" ]
	run --separate-stderr -2 timeout 10 "$COLLECT" --judge --fabric="$P/local.fabric" fifo
	[ "$stderr" = "collect: error: --judge: output 'fifo' is a FIFO, not a regular file" ]
	run --separate-stderr -2 timeout 10 "$ALLER" --check-args=@/dev/zero c
	[ "$stderr" = "aller: error: --check-args' file '/dev/zero' is a device, not a regular file" ]
	run --separate-stderr -2 timeout 10 "$ALLER" --check-args=@. c
	[ "$stderr" = "aller: error: --check-args' file '.' is a directory, not a regular file" ]
}

@test "an @FILE world list: a NUL byte, a cut last line, a file past its cap refused with FILE:LINE or its size" {
	cd "$BATS_TEST_TMPDIR"
	printf '8,16\n32\0,64\n' >nul
	run --separate-stderr -2 "$ALLER" --check-args=@nul c
	[ "$stderr" = "aller: error: nul:2: a NUL byte: not text" ]
	printf '8,16,32,64,128,256,512,1024,2048\n' | head -c 31 >cut.w
	run --separate-stderr -2 "$ALLER" --check-args=@cut.w c
	[ "$stderr" = "aller: error: cut.w:1: cut short: its last line has no newline" ]
	{ seq 1 200000; echo; } >big
	[ "$(wc -c <big)" -gt 1048576 ]
	run --separate-stderr -2 "$ALLER" --check-args=@big c
	[ "$stderr" = "aller: error: --check-args' file 'big' is larger than 1048576 bytes, the most one may be" ]
	# through a pipe (a campaign's @<(...)) the cap holds as it is read
	run --separate-stderr -2 bash -c '"$0" --check-args=@<(cat big) c' "$ALLER"
	[[ $stderr == "aller: error: --check-args' file '/dev/fd/"*"' is larger than 1048576 bytes, the most one may be" ]]
	: >empty
	run --separate-stderr -2 "$ALLER" --check-args=@empty c
	[ "$stderr" = "aller: error: --check-args' file 'empty' holds no world size" ]
}

@test "an @FILE world list: blank lines, ', ' and CRLF are separators; a bad world is named with FILE:LINE" {
	cd "$BATS_TEST_TMPDIR"
	printf '2\n\n4, 8\r\n16\r\n' >worlds
	run -0 "$ALLER" --check-args=@worlds --time-per-size=0.5 c 3 64
	[ "${#lines[@]}" = 4 ]
	[[ ${lines[3]} == "budget: world 16: "* ]]
	run -0 bash -c '"$0" --check-args=@<(printf "2 4\n") --time-per-size=0.5 c 3 64' "$ALLER"
	[ "${#lines[@]}" = 2 ]
	printf '2\n\n4, 8\r\nx\n' >worlds
	run --separate-stderr -2 "$ALLER" --check-args=@worlds c
	[ "$stderr" = "aller: error: worlds:4: invalid world size 'x': expected an integer, 1..1099511627776" ]
}

@test "a fabric file in CRLF reads as the same file in LF; one that declares nothing is refused" {
	cd "$BATS_TEST_TMPDIR"
	sed 's/$/\r/' "$P/local.fabric" >crlf.fabric
	run -0 "$ALLER" --check-args=8 --fabric="$P/local.fabric" --nodes='n[1-4]' c 2 4194304
	lf=${output#*$'\n'}   # (the first line names the file)
	run -0 "$ALLER" --check-args=8 --fabric=crlf.fabric --nodes='n[1-4]' c 2 4194304
	[ "${output#*$'\n'}" = "$lf" ]
	[[ $lf == *"nic:n1"* ]]
	printf '# nothing yet\n\n' >empty.fabric
	run --separate-stderr -2 "$ALLER" --check-args=8 --fabric=empty.fabric --nodes='n[1-2]' c
	[[ $stderr == "aller: error: fabric file 'empty.fabric' declares nothing: expected 'switch NAME RATE"* ]]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=empty.fabric --nodes='n[1-2]' "$P/osu_alltoall.txt"
	[[ $stderr == "collect: error: --judge: fabric file 'empty.fabric' declares nothing: "* ]]
}

@test "nodes the fabric file does not know at all: named, exit 2, not a table of rows no link carries" {
	cd "$P"
	run --separate-stderr -2 "$ALLER" --check-args=8 --nodes='x[1-2]' --fabric=local.fabric c
	[ "$stderr" = "aller: error: --nodes: no node of them is in the fabric file 'local.fabric' (no switch, nic or gpu line names 'x1')" ]
	[ "$output" = "" ]
	run --separate-stderr -2 "$COLLECT" --judge --fabric=local.fabric --nodes='x[1-2]' osu_alltoall.txt
	[ "$stderr" = "collect: error: --judge: no node of the run is in the fabric file 'local.fabric' (no switch, nic or gpu line names 'x1')" ]
	[ "$output" = "" ]
}

@test "collect --judge: an IMB-MPI1 output with an osu_alltoall one after it is refused at the OSU title's line" {
	cat "$P/imb_alltoall.txt" "$P/osu_alltoall.txt" >"$BATS_TEST_TMPDIR/two.txt"
	n=$(($(wc -l <"$P/imb_alltoall.txt") + 2))
	run --separate-stderr -2 "$COLLECT" --judge --fabric="$P/local.fabric" "$BATS_TEST_TMPDIR/two.txt"
	[ "$stderr" = "collect: error: --judge: $BATS_TEST_TMPDIR/two.txt:$n: a title line of another tool's output (a file holds one run of one tool): '# OSU MPI All-to-All Personalized Exchange Latency Test v7.4'" ]
	[ "$output" = "" ]
}

@test "a merged points.csv that is garbage or cut short is refused with FILE:LINE, exit 3, not judged clean" {
	cd "$BATS_TEST_TMPDIR"
	run -0 "$COLLECT" -q -o m "$ROOT/tests/data/smoke/raw"
	cp -r m cut && head -c 2000 m/points.csv >cut/points.csv
	n=$(($(head -c 2000 m/points.csv | wc -l) + 1))
	run --separate-stderr -3 "$COLLECT" --findings cut
	[ "$stderr" = "collect: error: findings: cut/points.csv:$n: cut short: its last line has no newline" ]
	run --separate-stderr -3 "$COLLECT" --openmetrics cut
	[ "$stderr" = "collect: error: cut/points.csv:$n: cut short: its last line has no newline" ]
	cp -r m garbage && printf 'garbage\n' >garbage/points.csv
	run --separate-stderr -3 "$COLLECT" --findings garbage
	[ "$stderr" = "collect: error: findings: garbage/points.csv:1: not the merge's points.csv: its header does not begin 'point,'" ]
	cp -r m short && { head -n 3 m/points.csv; head -n 4 m/points.csv | tail -1 | cut -d, -f1-5; } >short/points.csv
	run --separate-stderr -3 "$COLLECT" --findings short
	[ "$stderr" = "collect: error: findings: short/points.csv:4: not a row of the merge's (its fields not the header's, or no point's number)" ]
	run -0 "$COLLECT" --findings m
}
