#!/usr/bin/env bats
# The local Slurm cluster: real munge, slurmctld, slurmd per node, slurmdbd.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers
load ../lib/cluster

setup_file() {
	cluster_up
}

setup() {
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
}

@test "every node of the local cluster is idle" {
	run -0 sinfo -h -N -o '%N %T'
	[ "$(printf '%s\n' "$output" | grep -c ' idle$')" = 4 ]
}

@test "srun places tasks on four distinct nodes with their own hostnames" {
	run -0 timeout 60 srun -N4 -n8 bash -c 'echo "$SLURMD_NODENAME $(hostname)"'
	[ "$(printf '%s\n' "$output" | sort -u | wc -l)" = 4 ]
	for n in n1 n2 n3 n4; do [[ $output == *"$n $n"* ]]; done
}

@test "an MPI all-to-all across the four nodes passes with srun --mpi=pmix" {
	run --separate-stderr -0 srun_aller -N4 -n8 --mpi=pmix "$ALLER" s 1 64
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	perl "$ROOT/tests/lib/check-aller.pl" 8 64 1 strided "$BATS_TEST_TMPDIR/out"
	[[ $output == *"# nodes: 4"* ]]
	# the four nodes' blocks of two: one line
	[[ $output == *"# host: n[1-4] 0-1 +2"* ]]
	run --separate-stderr -0 srun_aller -N4 -n8 -m cyclic --mpi=pmix "$ALLER" s 1 64
	[[ $output == *"# host: n[1-4] 0,4 +1"* ]]
}

@test "each node has its own /tmp and /dev/shm" {
	# both mark first, then count: a shared /tmp would show two marks
	run -0 timeout 60 srun -N2 -n2 bash -c 'touch /tmp/mark-$SLURMD_NODENAME; sleep 1; ls /tmp | grep -c mark-'
	[ "$output" = "$(printf '1\n1')" ]
}

@test "--gpus-per-task=1 gives each task of a node its own CUDA_VISIBLE_DEVICES" {
	run -0 timeout 60 srun -N1 -n2 --gpus-per-task=1 bash -c 'echo "$SLURM_LOCALID=$CUDA_VISIBLE_DEVICES"'
	[[ $output == *"0=0"* ]]
	[[ $output == *"1=1"* ]]
	run -0 timeout 60 srun -N1 -n2 --gpus-per-task=1 --gpu-bind=closest true
}

@test "sacct reports a failed job as FAILED with its exit code" {
	id=$(sbatch --parsable -o /dev/null --wrap 'exit 3')
	wait_job "$id"
	# slurmdbd's record lands after the job has left the queue
	SAW="sacct -X -j $id -o State,ExitCode" wait_for "sacct to record job $id as FAILED|3:0" 20 sacct_says "$id" 'FAILED|3:0'
}

sacct_says() {
	[ "$(sacct -X -n -P -j "$1" -o State,ExitCode)" = "$2" ]
}

@test "cluster-up twice is harmless" {
	before=$(cat "$CLUSTER_DIR/run/slurmctld.pid")
	run -0 bash "$ROOT/cluster/up.sh"
	[[ $output == *"already up"* ]]
	[ "$(cat "$CLUSTER_DIR/run/slurmctld.pid")" = "$before" ]
}

@test "a second cluster on taken ports is refused plainly" {
	CLUSTER_DIR=$BATS_TEST_TMPDIR/other run -1 bash "$ROOT/cluster/up.sh"
	[[ $output == *"cluster: error: port 17000 is taken: choose another base with CLUSTER_PORT=..."* ]]
}

@test "the namespaces of a cluster whose processes are gone are removed, not refused as another's" {
	# a session that ends without 'make cluster-down' leaves its namespaces, empty
	[ -s "$CLUSTER_DIR/fabric/links" ] || skip "the cluster runs without the fabric (CLUSTER_FABRIC=lo)"
	ip netns add aller17100-head
	ip netns add aller17100-sw
	export CLUSTER_DIR=$BATS_TEST_TMPDIR/left CLUSTER_PORT=17100 CLUSTER_NODES=1 CLUSTER_ACCOUNTING=0
	run bash "$ROOT/cluster/up.sh"
	bash "$ROOT/cluster/down.sh" -q
	left=$(ip netns list | awk '/^aller17100-/ { print $1 }')
	for ns in $left; do ip netns del "$ns" 2>/dev/null || true; done
	[ "$status" = 0 ]
	[[ $output == *"removing aller17100-*: the namespaces of a cluster whose processes are gone"* ]]
	[ -z "$left" ]
}

# a node a test killed comes back whatever the test did: the next tests need all four
teardown() {
	[ -z "${killed:-}" ] || { bash "$ROOT/cluster/node.sh" revive "$killed" && wait_idle 4; }
}

@test "a killed node goes down, and comes back when revived" {
	killed=n4
	bash "$ROOT/cluster/node.sh" kill n4
	SAW="sinfo -n n4" wait_for "n4 down (SlurmdTimeout 10 s, then slurmctld's next ping)" 90 node_in n4 down
	bash "$ROOT/cluster/node.sh" revive n4
	wait_idle 4
}
