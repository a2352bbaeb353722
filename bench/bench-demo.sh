#!/usr/bin/env bash
# bench/bench-demo.sh: where `make demo` spends its wall time, phase by
# phase, on this machine: the Debian packages (make deps-demo: nothing to
# install where they are, which this bench says), the build from clean
# (make -j all into a scratch B) beside the local cluster's start
# (cluster/up.sh, after cluster/down.sh), the submission (campaigns/submit.sh, the demo's
# arguments), the wait until the final job has left the queue, split by
# Slurm's own times of each job (scontrol: queued = start - submit, ran =
# end - start; the final job merges and plots), then the status. The same
# steps as make demo's recipe (campaigns/build.mk), timed apart. Prints
# seconds per phase and the total beside the target (45 s); asserts
# nothing. Needs root and leaves the cluster up. Settings: CAMPAIGN
# (bench-demo), RESULTS (build/bench-demo).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
campaign=${CAMPAIGN:-bench-demo} results=${RESULTS:-$root/build/bench-demo}
now() { date +%s.%N; }
declare -A took=()
order=()
# phase NAME CMD...: CMD's wall time as NAME's
phase() {
	local name=$1 t0
	shift
	t0=$(now)
	"$@" >/dev/null 2>"$results.$name.err" || { echo "bench-demo: $name failed: $(tail -n 1 "$results.$name.err")" >&2; exit 3; }
	took[$name]=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
	order+=("$name")
}
wait_final() {
	while [ -n "$(squeue -h -j "$final" 2>/dev/null)" ]; do sleep 0.2; done
}
# jobs: each job of the campaign, "name queued_s ran_s" from scontrol's times
jobs() {
	local id
	awk '$1 == "point" || $1 == "final" { for (i = 3; i <= NF; i++) if ($i ~ /^job=/) print substr($i, 5) }' \
		"$results/$campaign/manifest" | sort -un | while read -r id; do
		scontrol -o show job "$id" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
			function s(t) { gsub(/[-T:]/, " ", t); return mktime(t) }
			END { printf "%s %d %d\n", v["JobName"], s(v["StartTime"]) - s(v["SubmitTime"]), s(v["EndTime"]) - s(v["StartTime"]) }'
	done
}

rm -rf "$results" "$results".* "$root/build/bench/demo"
mkdir -p "$results"
phase packages make -s deps-demo
phase cluster_down bash cluster/down.sh
# as make demo: the build on every core beside the cluster's start; each timed on its own too
build_and_up() {
	local t0 b
	t0=$(now)
	{ make -s -j"$(nproc)" B=build/bench/demo all && awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }' >"$results.build"; } &
	b=$!
	bash cluster/up.sh
	awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }' >"$results.up"
	wait "$b"
}
phase build_and_up build_and_up
# shellcheck source=/dev/null
. build/cluster/env.sh
t0=$(now)
final=$(bash campaigns/submit.sh CONF=campaigns/smoke.conf "CAMPAIGN=$campaign" "RESULTS=$results" 'NODES=1 2 4' FORCE=1 2>"$results.submit.err")
took[submit]=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
order+=(submit)
phase wait wait_final
phase status bash campaigns/status.sh "CAMPAIGN=$campaign" "RESULTS=$results"

echo "# bench-demo: make demo's steps timed apart on this machine (the build into a scratch B; the cluster taken down first)"
total=0
for p in "${order[@]}"; do
	printf '%-13s %7.2f s%s\n' "$p" "${took[$p]}" "$([ "$p" != build_and_up ] ||
		echo " (the build on $(nproc) cores $(cat "$results.build") s, the cluster up $(cat "$results.up") s)")"
	total=$(awk -v a="$total" -v b="${took[$p]}" 'BEGIN { print a + b }')
done
printf '%-13s %7.2f s (target < 45 s; the packages: %s)\n' total "$total" \
	"$(grep -q "deps: installing" "$results.packages.err" && echo "installed by this run" || echo "already installed here, 0 to install")"
echo "# the wait, by job (Slurm's times, whole seconds): queued = start - submit, ran = end - start"
jobs | awk '{ printf "#   %-36s queued %3d s, ran %3d s\n", $1, $2, $3 }'
