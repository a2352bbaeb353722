#!/usr/bin/env bash
# bench/bench-fabric.sh: rows judged against what the local fabric allows, as
# its rates change: for each CLUSTER_OVERSUB in OVERSUBS ("1 2 4") and
# CLUSTER_NIC_RATE in RATES ("1gbit 500mbit"), the local cluster rebuilt so
# and one campaign of 4 nodes x 2 tasks, contiguous and strided, LONGS=1 Mi
# (1-4 MiB per peer), ITERS=3. Prints, per configuration, the rows of 1 MiB
# per peer or more that a network link bounds: how many, their eff_bound
# range, how many read 0.7..1.05, which links bound them, and the reasons
# (above_bound) of those that beat their bound beyond their interval. Needs root and
# the cluster's packages (make deps-demo); takes the cluster down first and
# leaves it down. Asserts nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
res=$root/build/bench-fabric
oversubs=${OVERSUBS:-1 2 4} rates=${RATES:-1gbit 500mbit}
cd "$root"
printf '# bench-fabric: 4 nodes x 2 tasks, contiguous and strided, rows of 1 MiB per peer or more bound by a link\n'
printf '%-8s %-8s %5s %13s %10s  %s\n' oversub nic rows eff_bound 0.7..1.05 'bottlenecks; above their bound: why'

for o in $oversubs; do
	for r in $rates; do
		bash cluster/down.sh >/dev/null 2>&1 || true
		CLUSTER_OVERSUB=$o CLUSTER_NIC_RATE=$r bash cluster/up.sh >/dev/null 2>&1
		# shellcheck source=/dev/null
		. build/cluster/env.sh
		rm -rf "$res"
		mkdir -p "$res"
		final=$(bash campaigns/submit.sh RESULTS="$res" CAMPAIGN=fab NODES=4 TASKS_PER_NODE=2 \
			MODES="contiguous strided" LONGS=1048576 ITERS=3 ALLER_ARGS=--min-bytes=1M 2>/dev/null)
		for _ in $(seq 1200); do
			[ -z "$(squeue -h -j "$final" 2>/dev/null)" ] && break
			sleep 0.5
		done
		awk -F, -v o="$o" -v r="$r" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$(c["bytes_per_peer"]) >= 1048576 && $(c["bottleneck"]) ~ /^(nic|up):/ {
				e = $(c["eff_bound"]); n++; in_ += e >= 0.7 && e <= 1.05
				if (n == 1 || e < lo) lo = e
				if (n == 1 || e > hi) hi = e
				links[$(c["bottleneck"])]++
				if ($(c["above_bound"]) != "") why[$(c["above_bound"])]++ }
			END { s = ""; for (l in links) s = s " " l "x" links[l]
			      s = s ";"; for (w in why) s = s " " w "x" why[w]
			      printf "%-8s %-8s %5d %6.2f..%-5.2f %10d %s\n", o, r, n, lo, hi, in_, s }' \
			"$res/fab/merged/points.csv"
	done
done
bash cluster/down.sh >/dev/null 2>&1 || true
