#!/usr/bin/env bash
# bench/bench-aller.sh: aller against a plain timed MPI_Alltoall loop
# (bench/a2a_loop.c) at 4 ranks, size by size, also against the loop writing
# fresh send data before each call, and the share of aller's wall
# time spent inside the calls for a sweep with LONGS=4Mi. Prints figures;
# asserts nothing. Settings: RANKS (4), ITERS (20), LONGS (1Mi), ROUNDS (3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ranks=${RANKS:-4} iters=${ITERS:-20} longs=${LONGS:-1048576} rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"

# A/B interleaved, so both see the same machine state.
for ((r = 1; r <= rounds; r++)); do
	run "$root/build/bin/aller" c "$iters" "$longs" | world_rows >"$tmp/verify.$r"
	run "$root/build/bench/a2a_loop" "$iters" "$longs" >"$tmp/loop.$r"
	run "$root/build/bench/a2a_loop" "$iters" "$longs" fresh >"$tmp/fresh.$r"
	run "$root/build/bin/aller" --no-verify c "$iters" "$longs" | world_rows >"$tmp/noverify.$r"
done
echo "# bench-aller: $ranks ranks, $iters timed iterations, LONGS=$longs, $rounds interleaved rounds"
echo "# median over rounds of the average time per call on the world communicator;"
echo "# ratio = aller / plain loop (target: within 5% from 64 KiB per peer), ratio_nv for"
echo "# aller --no-verify; ratio_fresh = aller / the loop writing fresh send data before"
echo "# each call as verification must (a2a_loop ... fresh)"
printf '%10s %10s %12s %12s %12s %12s %7s %8s %11s\n' bytes/peer count loop_s fresh_s aller_s \
	no-verify_s ratio ratio_nv ratio_fresh
while read -r count _; do
	awk -v c="$count" -v l="$(med loop "$count")" -v f="$(med fresh "$count")" -v a="$(med verify "$count")" \
		-v n="$(med noverify "$count")" 'BEGIN { printf "%10d %10d %12.5e %12.5e %12.5e %12.5e %7.3f %8.3f %11.3f\n",
		c * 8, c, l, f, a, n, a / l, n / l, a / f }'
done <"$tmp/loop.1"

share_longs=$((4 * 1024 * 1024))
echo "# share of aller's wall time inside MPI_Alltoall calls, LONGS=$share_longs, 3 iterations:"
for v in "" --no-verify; do
	for ((r = 1; r <= rounds; r++)); do
		run "$root/build/bin/aller" $v c 3 "$share_longs" | sed -n 's/^# wall: .*calls (\([0-9.]*\)%.*/\1/p'
	done | median | awk -v v="${v:-verification on}" '{ printf "#   %s: median %.1f%%\n", v, $1 }'
done
