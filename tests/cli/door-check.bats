#!/usr/bin/env bats
# Checked as it will run (issue 77, item 5): one function decides a stack in
# its environment, for --check-args and the run alike; a campaign shows aller
# each point's whole environment, its variant's assignments included; a
# launcher's variable that is not aller's own is named with how to run it;
# every error line escapes what it quotes; collect --judge refuses another
# collective's nccl-tests output and keeps long host names whole.
# shellcheck disable=SC2154 # bats sets output, stderr and lines

load ../lib/helpers

@test "aller --check-args refuses a stack the environment contradicts, as the run does, one line, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	OMPI_MCA_pml=ob1 run --separate-stderr -2 "$ALLER" --check-args=8 --stack=ucx
	[ "$stderr" = "aller: error: stack 'ucx' sets OMPI_MCA_pml=ucx, but the environment has OMPI_MCA_pml=ob1: unset it, or run without the stack" ]
	ALLER_STACK=ucx UCX_TLS=rc run --separate-stderr -2 "$ALLER" --check-args=8
	[ "$stderr" = "aller: error: stack 'ucx' sets UCX_TLS=tcp,self,sm, but the environment has UCX_TLS=rc: unset it, or run without the stack" ]
	run -0 "$ALLER" --check-args=8 --stack=ucx
}

@test "a run whose stack the environment contradicts says so before MPI_Init, the same line, exit 2, nothing run" {
	cd "$BATS_TEST_TMPDIR"
	# UCX_TLS is the stack's fourth variable: before, the first three were set and Open MPI's UCX failed
	UCX_TLS=rc run --separate-stderr -2 "$ALLER" --stack=ucx c 1 8
	[ "$stderr" = "aller: error: stack 'ucx' sets UCX_TLS=tcp,self,sm, but the environment has UCX_TLS=rc: unset it, or run without the stack" ]
	[ "$output" = "" ]
}

@test "aller alone with a launcher's variable not its own (srun --pty's shell, a stale PMI_SIZE): named, and how to run it as one task" {
	cd "$BATS_TEST_TMPDIR"
	PMI_SIZE=8 run --separate-stderr -3 "$ALLER" c 1 8
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == *"(PMI_SIZE=8)"*"started by hand where PMI_SIZE is not its own (typed in srun -n 8 --pty bash, or a stale one), run it as one task: env -u PMI_SIZE aller ..." ]]
	SLURM_PROCID=0 SLURM_STEP_NUM_TASKS=8 run --separate-stderr -3 "$ALLER" c 1 8
	[[ $stderr == *"run it as one task: env -u SLURM_STEP_NUM_TASKS aller ..." ]]
	# as it says: one task
	PMI_SIZE=8 run -0 env -u PMI_SIZE "$ALLER" c 1 8
	[ "${lines[-1]}" = "# Done" ]
}

# A copy of the campaign layer (RESULTS inside it: a shared directory), the
# build shared; a stand-in sbatch that notes each job it would queue.
campaign_tree() {
	t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t" "$BATS_TEST_TMPDIR/bin"
	cp -r "$ROOT/campaigns" "$ROOT/jobs" "$ROOT/sh" "$ROOT/Makefile" "$t/"
	ln -s "$ROOT/build" "$t/build"
	printf '#!/bin/sh\necho "$*" >>"%s/queued"\necho 4242\n' "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/bin/sbatch"
	printf '#!/bin/sh\nexit 0\n' >"$BATS_TEST_TMPDIR/bin/squeue"
	chmod +x "$BATS_TEST_TMPDIR/bin/sbatch" "$BATS_TEST_TMPDIR/bin/squeue"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH
}

@test "a variant's ALLER_STACK unknown, another MPI's or contradicted: refused at submission naming the variant and the value, nothing queued" {
	campaign_tree
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=v "RESULTS=$t/res" NODES=1 MODES=contiguous \
		"VARIANTS=default x:ALLER_STACK=nosuch"
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "campaign: error: point n1-contiguous-t2-L524288-x-s1 (2 ranks, variant x: ALLER_STACK=nosuch): invalid ALLER_STACK 'nosuch': expected one of the stacks aller knows: "* ]]
	[ ! -e "$BATS_TEST_TMPDIR/queued" ]
	[ ! -e "$t/res/v" ]   # no campaign directory left behind
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=v "RESULTS=$t/res" NODES=1 MODES=contiguous \
		"VARIANTS=m:ALLER_STACK=mpich-ucx"
	[ "$stderr" = "campaign: error: point n1-contiguous-t2-L524288-m-s1 (2 ranks, variant m: ALLER_STACK=mpich-ucx): stack 'mpich-ucx' (ALLER_STACK) is mpich's; this aller is built with openmpi (build it with MPI=mpich)" ]
	# contradicted by the variant's own assignments, or by the environment the job inherits
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=v "RESULTS=$t/res" NODES=1 MODES=contiguous \
		"VARIANTS=u:ALLER_STACK=ucx,OMPI_MCA_pml=ob1" DRYRUN=1
	[ "$stderr" = "campaign: error: point n1-contiguous-t2-L524288-u-s1 (2 ranks, variant u: ALLER_STACK=ucx OMPI_MCA_pml=ob1): stack 'ucx' sets OMPI_MCA_pml=ucx, but the environment has OMPI_MCA_pml=ob1: unset it, or run without the stack" ]
	UCX_TLS=rc run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=v "RESULTS=$t/res" NODES=1 \
		MODES=contiguous "VARIANTS=default u:ALLER_STACK=ucx"
	[[ $stderr == *"(2 ranks, variant u: ALLER_STACK=ucx): stack 'ucx' sets UCX_TLS=tcp,self,sm, but the environment has UCX_TLS=rc: "* ]]
	[ ! -e "$BATS_TEST_TMPDIR/queued" ]
	[ ! -e "$t/res/v" ]
	# the stack the environment agrees with is queued
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=v "RESULTS=$t/res" NODES=1 MODES=contiguous "VARIANTS=default u:ALLER_STACK=ucx"
	grep -q 'ALLER_STACK=ucx$' "$t"/res/v/jobs/*-0.conf
}

@test "an error line escapes what it quotes (ESC, newline, CR, tab, an 8-bit byte), aller's and collect's alike; UTF-8 stays itself" {
	cd "$BATS_TEST_TMPDIR"
	bad=$'\e[31mX\nY\rZ\tW\xff\xc2\x9b\xc3\xa9'   # ... a C1 CSI (U+009B) and an e-acute
	run --separate-stderr -2 "$ALLER" --split="$bad" c 1 8
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "aller: error: invalid split '\\x1b[31mX\\nY\\rZ\\tW\\xff\\xc2\\x9b"$'\xc3\xa9'"': "* ]]
	run --separate-stderr -2 "$ALLER" --check-args --split="$bad"
	[[ $stderr == "aller: error: invalid split '\\x1b[31mX\\nY\\rZ\\tW\\xff\\xc2\\x9b"$'\xc3\xa9'"': "* ]]
	run --separate-stderr -2 "$COLLECT" "no$bad"
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "collect: error: cannot read 'no\\x1b[31mX\\nY\\rZ\\tW\\xff\\xc2\\x9b"$'\xc3\xa9'"': "* ]]
	run --separate-stderr -2 "$COLLECT" --judge --fabric="$ROOT/tests/data/peers/local.fabric" "no$bad"
	[[ $stderr == "collect: error: --judge: output 'no\\x1b[31mX\\nY\\rZ\\tW\\xff"* ]]
	# a merge's warning names its file so too
	echo "not aller's" >"x$bad.out"
	run --separate-stderr -2 "$COLLECT" "x$bad.out"
	[ "${stderr_lines[0]}" = "x\\x1b[31mX\\nY\\rZ\\tW\\xff\\xc2\\x9b"$'\xc3\xa9'".out:1: no aller header ('# aller: ...'): not an aller output, skipped" ]
}

@test "every diagnostic line of aller and collect goes through the one escaper (common/text.h's text_error): the sites around it are listed" {
	cd "$ROOT"
	run grep -rnw --include='*.c' --include='*.cu' -E 'stderr|perror|dprintf|STDERR_FILENO' aller collect common
	# the escaper itself; --trace's lines (numbers and aller's algorithm names); the watchdog's
	# async-signal-safe write (its text prepared from the world's own names); collect's summary
	# (numbers) and its warnings (each through text_escape); --help's text; a comparison of files
	known=$(grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*)' <<<"$output" | grep -vE '^common/text\.c:.*(text_escape\(stderr|fputc|m \? m : stderr|fwrite\(out)|^aller/sweep/sweep_calls\.c:.*(trace|fputc\(event)|^aller/sweep/timeout\.c:.*write\(STDERR_FILENO|^common/replace\.c:.*same_as_fd|^collect/merge/merge\.c:.*(write_summary\(stderr|summary_warnings : m->o->side \? NULL : stderr)|^collect/main\.c:.*no summary on stderr' || true)
	[ -z "$known" ] || { echo "around the escaper: $known"; return 1; }
}

@test "collect --judge never merges nccl-tests' hosts by a cut name: 63 bytes kept whole, a longer name refused with its line" {
	cd "$ROOT/tests/data/peers"
	a=$(printf 'node-%057d' 0)   # 62 bytes, and a 63rd that tells the hosts apart
	sed -e "s/on  *n[12] device/on ${a}a device/; s/on  *n[34] device/on ${a}b device/" alltoall_perf.txt >"$BATS_TEST_TMPDIR/long.txt"
	printf 'switch leaf1 1gbit %sa %sb\nnic %sa 1gbit\nnic %sb 1gbit\n' "$a" "$a" "$a" "$a" >"$BATS_TEST_TMPDIR/long.fabric"
	run --separate-stderr -0 "$COLLECT" --judge --format=nccl-tests --fabric="$BATS_TEST_TMPDIR/long.fabric" "$BATS_TEST_TMPDIR/long.txt"
	[ "${lines[1]}" = "# placement: 8 tasks on 2 nodes, as its rank lines say" ]
	# 65 bytes and 66: before, both were their first 63 bytes, one host
	a=$(printf 'node-%060d' 0)
	sed -e "s/on  *n[12] device/on ${a}a device/; s/on  *n[34] device/on ${a}b device/" alltoall_perf.txt >"$BATS_TEST_TMPDIR/longer.txt"
	run --separate-stderr -2 "$COLLECT" --judge --format=nccl-tests --fabric=local.fabric "$BATS_TEST_TMPDIR/longer.txt"
	[[ $stderr == "collect: error: --judge: $BATS_TEST_TMPDIR/longer.txt:6: a rank's line that is not '#  Rank R Group G Pid P on HOST device D' (HOST of at most 63 bytes, as a fabric file's): '#  Rank  0 Group  0 Pid   4100 on node-000"* ]]
	[ "$output" = "" ]
}

@test "collect --judge refuses another collective's nccl-tests output, told by its rows where no line names it" {
	cd "$ROOT/tests/data/peers"
	# all_reduce_perf of a nccl-tests that prints no '# Collective test starting:' line
	sed -e '/Collective test/d; s/alltoall_perf/all_reduce_perf/; s/float    none/float     sum/' alltoall_perf.txt >"$BATS_TEST_TMPDIR/ar.txt"
	run --separate-stderr -2 "$COLLECT" --judge --format=nccl-tests --fabric=local.fabric "$BATS_TEST_TMPDIR/ar.txt"
	[ "$stderr" = "collect: error: --judge: $BATS_TEST_TMPDIR/ar.txt:17: a row of a reduction (all_reduce_perf, reduce_scatter_perf or reduce_perf), not alltoall_perf's: its redop 'sum'" ]
	[ "$output" = "" ]
	# broadcast_perf: a root
	sed -e '/Collective test/d; s/none      -1/none       0/' alltoall_perf.txt >"$BATS_TEST_TMPDIR/bc.txt"
	run --separate-stderr -2 "$COLLECT" --judge --format=nccl-tests --fabric=local.fabric "$BATS_TEST_TMPDIR/bc.txt"
	[[ $stderr == *"bc.txt:17: a row of a rooted collective (broadcast_perf, reduce_perf, gather_perf or scatter_perf), not alltoall_perf's: its root '0'" ]]
	# where its line names it: named
	sed -e 's/alltoall_perf/all_reduce_perf/; s/float    none/float     sum/' alltoall_perf.txt >"$BATS_TEST_TMPDIR/ar2.txt"
	run --separate-stderr -2 "$COLLECT" --judge --format=nccl-tests --fabric=local.fabric "$BATS_TEST_TMPDIR/ar2.txt"
	[ "$stderr" = "collect: error: --judge: $BATS_TEST_TMPDIR/ar2.txt:2: a nccl-tests output of another collective, not alltoall_perf's: 'all_reduce_perf'" ]
}

@test "an error line reaches stderr in one write, so no other process's output (mpirun's banner) lands inside it" {
	run strace -f -e trace=write -o "$BATS_TEST_TMPDIR/w" "$ALLER" --split=$'\e[31mX' c 1 8
	[ "$(grep -c 'write(2, "aller: error: invalid split' "$BATS_TEST_TMPDIR/w")" = 1 ]
	[ "$(grep -c 'write(2, ' "$BATS_TEST_TMPDIR/w")" = 1 ]
	run strace -f -e trace=write -o "$BATS_TEST_TMPDIR/c" "$COLLECT" --judge --fabric=/nonexistent x
	[ "$(grep -c 'write(2, ' "$BATS_TEST_TMPDIR/c")" = 1 ]
}
