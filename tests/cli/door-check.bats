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
	[[ $stderr == "collect: error: --judge: file 'no\\x1b[31mX\\nY\\rZ\\tW\\xff"* ]]
}

@test "every diagnostic line of aller and collect goes through the one escaper (common/text.h's text_error): the sites around it are listed" {
	cd "$ROOT"
	run grep -rn --include='*.c' --include='*.cu' -E 'fprintf\(stderr|fputs\([^;]*stderr|fputc\([^;]*stderr|vfprintf\(stderr|perror\(|dprintf\(2|STDERR_FILENO' aller collect common
	# the escaper's own newline; --trace's lines (numbers and aller's algorithm names);
	# the watchdog's async-signal-safe write (its text prepared from the world's own names)
	known=$(grep -vE '^common/text\.c:.*fputc|^aller/sweep/sweep_calls\.c:.*(trace|fputc\(event)|^aller/sweep/timeout\.c:.*write\(STDERR_FILENO|^common/replace\.c:.*same_as_fd' <<<"$output" || true)
	[ -z "$known" ] || { echo "around the escaper: $known"; return 1; }
}
