#!/usr/bin/env bats
# aller built against MPICH (make MPI=mpich), beside the Open MPI build: what
# differs. tests/mpich/aller.bats (a link to tests/mpi/aller.bats) runs the
# whole MPI suite under MPICH too.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "the MPICH build links MPICH, not Open MPI, and says how it sends large counts" {
	[ "$TEST_MPI" = mpich ]
	run -0 mpirun_n 2 "$ALLER" c 1 16
	[[ $output == *$'\n# mpi: MPICH Version: 4.'* ]]
	[[ $output != *"Open MPI"* ]]
	[[ $output == *$'\n# large_counts: MPI_Alltoall_c (MPI-4) for counts above INT_MAX with alltoall'* ]]
	run -0 ldd "$ALLER"
	[[ $output == *libmpich* ]]
	[[ $output != *libmpi.so.40* ]]
	# and the Open MPI build is still Open MPI's
	run -0 ldd "$ROOT/build/bin/aller"
	[[ $output == *libmpi.so.40* ]]
}

@test "the MPICH stack: --stack=mpich-ucx runs verified and says what it set; Open MPI's stacks are refused" {
	run --separate-stderr -0 mpirun_n 2 "$ALLER" --stack=mpich-ucx c 2 64
	grep -qx "# stack: mpich-ucx: MPICH's ch4:ucx device (aller built with MPI=mpich); UCX over TCP here (--stack set: UCX_TLS=tcp,self,sm)" <<<"$output"
	perl "$ROOT/tests/lib/check-aller.pl" 2 64 2 contiguous <(printf '%s\n' "$output")
	run --separate-stderr -2 "$ALLER" --stack=ucx --check-args
	[ "$stderr" = "aller: error: stack 'ucx' (--stack) is openmpi's; this aller is built with mpich" ]
}

@test "--reveal under MPICH: its MPI_T has no counters, so a normal run that says so, exit 0" {
	run --separate-stderr -0 mpirun_n 4 "$ALLER" --reveal --reveal-dir=rv c 1 64
	printf '%s\n' "$output" | grep -q '^# reveal: unavailable (this MPI library exposes no monitoring counters .*)$'
	perl "$ROOT/tests/lib/check-aller.pl" 4 64 1 contiguous <(printf '%s\n' "$output")
	[ -z "$stderr" ]
	[ ! -e rv ]
	# Open MPI's variable is not set for it
	[[ $output != *OMPI_MCA_pml_monitoring_enable* ]]
}

@test "--buffers=cuda under MPICH without CUDA: the build refuses with one line" {
	run --separate-stderr -2 mpirun_n 2 "$ALLER" --buffers=cuda c 1 8
	[[ $stderr == *"'--buffers=cuda' needs a build with 'make CUDA=1'"* ]]
}
