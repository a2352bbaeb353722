#!/usr/bin/env bash
# bench/bench-reveal.sh: what --reveal costs, as the PERUSE paper measured
# it: the same aller configuration with reveal off and on (pml tier),
# interleaved A/B, size by size on the world communicator, and the ratio of
# the median times; in between, monitoring on without reveal, to tell the
# monitoring layer's cost from that of the reads. Prints figures; asserts nothing.
# Settings: RANKS (4), ITERS (20), LONGS (1Mi), ROUNDS (5), TIER (pml).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ranks=${RANKS:-4} iters=${ITERS:-20} longs=${LONGS:-1048576} rounds=${ROUNDS:-5} tier=${TIER:-pml}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"

for ((r = 1; r <= rounds; r++)); do
	run "$root/build/bin/aller" --no-verify c "$iters" "$longs" | world_rows >"$tmp/off.$r"
	OMPI_MCA_pml_monitoring_enable=1 run "$root/build/bin/aller" --no-verify c "$iters" "$longs" |
		world_rows >"$tmp/mon.$r"
	run "$root/build/bin/aller" --no-verify --reveal="$tier" --reveal-dir="$tmp/rv" \
		c "$iters" "$longs" >"$tmp/on-full.$r"
	grep -q "^# reveal: $tier;" "$tmp/on-full.$r" ||
		{ echo "bench-reveal: error: tier '$tier' is not available here" >&2; exit 3; }
	world_rows <"$tmp/on-full.$r" >"$tmp/on.$r"
done
echo "# bench-reveal: $ranks ranks, $iters timed iterations, LONGS=$longs, $rounds interleaved A/B rounds"
echo "# median over rounds of the average time per call on the world communicator;"
echo "# ratio = reveal=$tier / off (monitoring layer plus the MPI_T reads around each call);"
echo "# mon = monitoring on, no reveal / off (the monitoring layer alone)"
printf '%10s %10s %13s %13s %13s %8s %8s\n' bytes/peer count off_s monitoring_s reveal_s mon ratio
while read -r count _; do
	awk -v c="$count" -v a="$(med off "$count")" -v m="$(med mon "$count")" -v b="$(med on "$count")" \
		'BEGIN { printf "%10d %10d %13.6e %13.6e %13.6e %8.3f %8.3f\n", c * 8, c, a, m, b, m / a, b / a }'
done <"$tmp/off.1"
