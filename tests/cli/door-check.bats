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
