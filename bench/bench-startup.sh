#!/usr/bin/env bash
# bench/bench-startup.sh: MPI start-ups on the local cluster under load, by
# Slurm's PMIx fence collective. ROUNDS (150) rounds, each one srun of a
# 4-node, 8-task aller (one call of 64 longs) with SLURM_PMIX_FENCE=mixed
# (Slurm's default: MPI_Init's zero-byte fence by the tree collective) and
# one with =ring (the local cluster's mpi.conf), interleaved, beside
# `stress-ng --cpu 2`. Prints, per setting, start-ups, crashes (a task
# killed by a signal), other failures and hangs (no end within 60 s). The
# core files of crashed tasks go to build/bench-startup/cores when
# CORES=1 (core_pattern set for the run, put back after). Needs the cluster
# up (make cluster-up) and root; asserts nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-150}
out=$root/build/bench-startup
cd "$root"
[ -s build/cluster/env.sh ] || { echo "bench-startup: error: the local cluster is not up: make cluster-up" >&2; exit 2; }
# shellcheck source=/dev/null
. build/cluster/env.sh
rm -rf "$out"
mkdir -p "$out/cores"
pattern=$(cat /proc/sys/kernel/core_pattern)
stress-ng --cpu 2 --timeout $((rounds * 30)) >/dev/null 2>&1 &
hog=$!
cleanup() {
	kill "$hog" 2>/dev/null || true
	[ "${CORES:-0}" != 1 ] || echo "$pattern" >/proc/sys/kernel/core_pattern
}
trap cleanup EXIT
if [ "${CORES:-0}" = 1 ]; then
	echo "$out/cores/core.%e.%p.%h" >/proc/sys/kernel/core_pattern
	ulimit -c unlimited
fi
declare -A runs=() crashed=() failed=() hung=()
for ((i = 1; i <= rounds; i++)); do
	for fence in mixed ring; do
		rc=0
		SLURM_PMIX_FENCE=$fence timeout 60 srun -N4 -n8 --mpi=pmix --kill-on-bad-exit=1 build/bin/aller 0 1 64 \
			>"$out/$fence-$i.out" 2>"$out/$fence-$i.err" || rc=$?
		runs[$fence]=$((${runs[$fence]:-0} + 1))
		if [ "$rc" = 124 ]; then
			hung[$fence]=$((${hung[$fence]:-0} + 1))
		elif grep -q 'Segmentation fault\|Process received signal' "$out/$fence-$i.err"; then
			crashed[$fence]=$((${crashed[$fence]:-0} + 1))
		elif [ "$rc" != 0 ]; then
			failed[$fence]=$((${failed[$fence]:-0} + 1))
		else
			rm -f "$out/$fence-$i.out" "$out/$fence-$i.err"
		fi
	done
done
printf '# bench-startup: 4 nodes x 2 tasks, srun --mpi=pmix, beside stress-ng --cpu 2, interleaved\n'
printf '%-28s %8s %8s %8s %8s\n' SLURM_PMIX_FENCE start-ups crashed failed hung
for fence in mixed ring; do
	printf '%-28s %8d %8d %8d %8d\n' "$fence$([ "$fence" = mixed ] && echo ' (Slurm default)' || echo ' (cluster/mpi.conf)')" \
		"${runs[$fence]}" "${crashed[$fence]:-0}" "${failed[$fence]:-0}" "${hung[$fence]:-0}"
done
echo "(outputs of the failed start-ups: $out)"
