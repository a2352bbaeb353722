# Shared by the bats tests: paths, and mpirun as this machine needs it.
# shellcheck shell=bash disable=SC2034,SC2154 # used by the tests; output is bats'
bats_require_minimum_version 1.5.0
ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
ALLER=$BUILD/bin/aller
COLLECT=$BUILD/bin/collect
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Ranks share two cores here: let them yield instead of spinning. A run that
# exits non-zero (most tests' point) ends at once: Open MPI's mpirun waits
# odls_base_sigkill_timeout (1 s) after SIGTERM before SIGKILL, even for tasks
# already gone, and aller does not catch SIGTERM.
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_odls_base_sigkill_timeout=0

# mpirun_n N PROGRAM ARGS...: N ranks on this machine ("${MPIRUN[@]}" N ...).
MPIRUN=(mpirun --oversubscribe -np)
mpirun_n() {
	"${MPIRUN[@]}" "$@"
}

# column_of NAME FILE: that column of every data row of aller's output, by the
# header's names.
column_of() {
	awk -v n="$1" '/^# columns: / { for (i = 3; i <= NF; i++) if ($i == n) c = i - 2; next }
		/^[0-9]/ { print $c }' "$2"
}

# The files in tests/mpich/ (links to tests/mpi/ and its own) run against
# the MPICH build (make MPI=mpich) with MPICH's launcher.
TEST_MPI=openmpi
if [ "$(basename "$BATS_TEST_DIRNAME")" = mpich ]; then
	TEST_MPI=mpich
	BUILD=$ROOT/build/mpich
	ALLER=$BUILD/bin/aller
	MPIRUN=(mpiexec.mpich -n)
fi

# wait_for WHAT SECONDS CHECK...: runs CHECK until it succeeds, every 0.2 s,
# at most SECONDS; waits on a state, never on a clock alone. On time out it
# says what it waited for and what it saw (SAW, a command run then, when
# set) and fails.
wait_for() {
	local what=$1 limit=$2 end
	shift 2
	end=$((SECONDS + limit))
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "waited $limit s for $what; saw: $(${SAW:-true} 2>&1 | tail -n 8)" >&2
			return 1
		fi
		sleep 0.2
	done
}
