# For the end-to-end tests: the local cluster, up with accounting.
export CLUSTER_ACCOUNTING=${CLUSTER_ACCOUNTING:-1}
# make test runs the end-to-end files in two ordered lanes at once
# (tests/build.mk), each on a cluster of its own: a file of E2E_LANE_B (30,
# 50-94) on port 16000 in build/cluster-b, the others on the default (or the
# caller's).
case " ${E2E_LANE_B:-} " in
*" tests/e2e/${BATS_TEST_FILENAME##*/} "*) export CLUSTER_PORT=16000 CLUSTER_DIR=$ROOT/build/cluster-b ;;
esac
export CLUSTER_DIR=${CLUSTER_DIR:-$ROOT/build/cluster}
export CLUSTER_NODES=${CLUSTER_NODES:-4}
# cluster_up: the cluster up with this file's settings; one up with other
# settings (an earlier file's) is taken down first, as up.sh refuses it.
cluster_up() {
	# the daemons must not keep bats' descriptor 3 open
	bash "$ROOT/cluster/up.sh" 3>&- >/dev/null 2>"$BATS_FILE_TMPDIR/cluster-up.err" ||
		{ grep -q ' is up with other settings ' "$BATS_FILE_TMPDIR/cluster-up.err" && bash "$ROOT/cluster/down.sh" -q &&
			bash "$ROOT/cluster/up.sh" 3>&- >/dev/null 2>"$BATS_FILE_TMPDIR/cluster-up.err"; } || {
		cat "$BATS_FILE_TMPDIR/cluster-up.err" >&2
		return 1
	}
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
}
# campaign_results NAME (in setup_file): the cluster up, and a fresh results
# directory build/NAME for the file's campaigns (inside the repository, which
# the nodes see).
campaign_results() {
	cluster_up
	export RES=$ROOT/build/$1
	rm -rf "$RES"
	mkdir -p "$RES"
}
submit() { bash "$ROOT/campaigns/submit.sh" "RESULTS=$RES" "$@"; }
# smoke_campaign NAME ITERS: the fabric tests' ordinary campaign (4 nodes x 1
# task, contiguous and strided, 512 KiB..4 MiB per peer, ITERS calls a
# count), submitted and waited for; merged into $RES/NAME/merged.
smoke_campaign() {
	local final
	final=$(submit CAMPAIGN="$1" NODES=4 TASKS_PER_NODE=1 MODES="contiguous strided" LONGS=524288 ITERS="$2" \
		ALLER_ARGS="--min-bytes=256K") || return 1
	wait_job "$final" 300
}
status() { bash "$ROOT/campaigns/status.sh" "RESULTS=$RES" "$@"; }

# wait_job ID [SECONDS]: until the job has left the queue.
left_queue() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
wait_job() {
	SAW="squeue -j $1" wait_for "job $1 to leave the queue" "${2:-120}" left_queue "$1"
}
# nodes_in STATE N: N nodes are in STATE, as sinfo's %T says it (idle: up,
# responding, not drained and free)
nodes_in() { [ "$(sinfo -h -N -o '%N %T' | awk -v s="$1" '$2 == s { print $1 }' | sort -u | wc -l)" -ge "$2" ]; }
# node_in NODE STATE: the node's state begins with STATE (down* is down)
node_in() { [[ $(sinfo -h -n "$1" -o '%T') == "$2"* ]]; }
wait_idle() { SAW="sinfo -N" wait_for "${1:-$CLUSTER_NODES} nodes idle" 60 nodes_in idle "${1:-$CLUSTER_NODES}"; }
# job_started CAMPAIGN JOB: the newest point file of the job has aller's header
job_started() {
	local f=("$RES/$1/raw/"*"-j$2-"*.out)
	[ -e "${f[0]}" ] && grep -q '^# aller: ' "${f[-1]}"
}
# last_point_running CAMPAIGN: the job of the campaign's last point in $job,
# once it runs and its step has begun aller (the header in its point file).
last_point_running() {
	job=$(awk '/^point / { print $4 }' "$RES/$1/manifest" | tail -n 1)
	job=${job#job=}
	SAW="squeue -j $job" wait_for "job $job to run aller" 60 job_started "$1" "$job"
}
# latest FILE...: the last of a sorted glob (a point's newest attempt).
latest() {
	local f=("$@")
	printf '%s' "${f[-1]}"
}
# srun_aller ARGS...: srun of aller, bounded, a task's failure ending the
# step; not tried again: a start-up that crashes fails the test (the crash
# that retries used to hide, in MPI_Init, was Slurm's tree fence:
# cluster/mpi.conf.in).
srun_aller() {
	timeout 120 srun --kill-on-bad-exit=1 "$@"
}
# fabric_setup (a test's setup): the cluster's environment, and FABRIC (its
# fault script); the test skipped where the cluster runs without the fabric.
fabric_setup() {
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
	[ -s "$CLUSTER_DIR/fabric/links" ] || skip "the cluster runs without the fabric (CLUSTER_FABRIC=lo)"
	# shellcheck disable=SC2034 # the tests use it
	FABRIC=$ROOT/cluster/fabric.sh
}
# fabric_heal (a test's teardown): every link back to its built rate.
fabric_heal() {
	[ ! -s "$CLUSTER_DIR/fabric/links" ] || bash "$ROOT/cluster/fabric.sh" heal
}
