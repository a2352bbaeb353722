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
# latest FILE...: the last of a sorted glob (a point's newest attempt).
latest() {
	local f=("$@")
	printf '%s' "${f[-1]}"
}
