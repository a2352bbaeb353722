# For the end-to-end tests: the local cluster, up with accounting.
export CLUSTER_ACCOUNTING=${CLUSTER_ACCOUNTING:-1}
export CLUSTER_NODES=${CLUSTER_NODES:-4}
cluster_up() {
	# the daemons must not keep bats' descriptor 3 open
	bash "$ROOT/cluster/up.sh" 3>&- >/dev/null 2>"$BATS_FILE_TMPDIR/cluster-up.err" || {
		cat "$BATS_FILE_TMPDIR/cluster-up.err" >&2
		return 1
	}
	# shellcheck source=/dev/null
	. "$ROOT/build/cluster/env.sh"
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
wait_job() {
	local id=$1 limit=${2:-120} i
	for ((i = 0; i < limit * 2; i++)); do
		[ -z "$(squeue -h -j "$id" 2>/dev/null)" ] && return 0
		sleep 0.5
	done
	echo "job $id still queued after $limit s" >&2
	return 1
}
# last_point_running CAMPAIGN: the job of the campaign's last point in
# $job, once it runs (and 2 s more, so its steps have started).
last_point_running() {
	job=$(awk '/^point / { print $4 }' "$RES/$1/manifest" | tail -n 1)
	job=${job#job=}
	for _ in $(seq 120); do
		[ "$(squeue -h -j "$job" -o %T)" = RUNNING ] && break
		sleep 0.5
	done
	sleep 2
}
# latest FILE...: the last of a sorted glob (a point's newest attempt).
latest() {
	local f=("$@")
	printf '%s' "${f[-1]}"
}
# srun_aller ARGS...: srun of aller with the campaigns' retry rule (one more
# attempt after exit 3, a signal, or a launch that failed before aller's
# header; Open MPI 4.1.4 fails in connection set-up in about 1-2% of
# multi-node steps here). Its stdout is aller's, its status the last try's.
srun_aller() {
	local rc out
	for attempt in 1 2; do
		rc=0
		out=$(timeout 120 srun "$@") || rc=$?
		if [ "$rc" -ne 3 ] && [ "$rc" -lt 124 ] && { [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] ||
			[[ $out == *"# aller: "* ]]; }; then
			break
		fi
		echo "srun_aller: attempt $attempt ended with $rc; once more" >&2
	done
	printf '%s\n' "$out"
	return "$rc"
}
# fabric_setup (a test's setup): the cluster's environment, and FABRIC (its
# fault script); the test skipped where the cluster runs without the fabric.
fabric_setup() {
	# shellcheck source=/dev/null
	. "$ROOT/build/cluster/env.sh"
	[ -s "$ROOT/build/cluster/fabric/links" ] || skip "the cluster runs without the fabric (CLUSTER_FABRIC=lo)"
	# shellcheck disable=SC2034 # the tests use it
	FABRIC=$ROOT/cluster/fabric.sh
}
# fabric_heal (a test's teardown): every link back to its built rate.
fabric_heal() {
	[ ! -s "$ROOT/build/cluster/fabric/links" ] || bash "$ROOT/cluster/fabric.sh" heal
}
