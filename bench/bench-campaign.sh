#!/usr/bin/env bash
# bench/bench-campaign.sh: campaign status and submission planning at POINTS
# points (default "100 1000 10000"), with stand-in Slurm commands (sacct,
# squeue, scontrol, sbatch: small scripts answering every job at once, as a
# controller does) and a synthetic campaign: a manifest of every point and
# job, a complete raw file for half of the points (the other half to plan
# again). Times `aller-status` and a DRYRUN submission (the plan: which
# points are missing, each shown to aller --check-args), each once, and
# prints seconds and the growth between sizes; then (BREAKDOWN=0: not) the
# plan of the largest size by function, from bash's trace. Asserts nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# inside the toolkit's tree: a campaign's RESULTS must be shared, not /tmp
mkdir -p "$root/build"
tmp=$(mktemp -d "$root/build/bench-campaign.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The stand-ins: every job the manifest names, completed; nothing queued.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/sacct" <<'EOF'
#!/usr/bin/env bash
# sacct -X -n -P -j ID,ID,... -o ...: each job, completed
for a in "$@"; do case $prev in -j) ids=$a ;; esac; prev=$a; done
tr , '\n' <<<"${ids:-}" | awk '{ printf "%s|aller-bench-%s|COMPLETED|0:0|00:00:01|n1|None\n", $1, $1 }'
EOF
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/squeue"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/scontrol"
printf '#!/bin/sh\necho $$\n' >"$tmp/bin/sbatch"
chmod +x "$tmp/bin/"*
export PATH=$tmp/bin:$PATH
unset SLURM_CONF

# A complete point file, small: aller's own output at one rank.
"$root/build/bin/aller" --commsizes=world c 1 4 >"$tmp/one.out" 2>/dev/null ||
	{ echo "bench-campaign: build aller first (make)" >&2; exit 2; }

# campaign N: the campaign "bN" of N points (N/2 node counts x 2 modes), jobs 1..N.
campaign() {
	local n=$1 c=b$1 dir=$tmp/results/b$1 sub=20261202T000000Z-1
	mkdir -p "$dir/raw"
	{
		echo "manifest 2"
		echo "setting NODES=$(seq -s ' ' 1 $((n / 2)))"
		echo "setting MODES=contiguous strided"
		for v in TASKS_PER_NODE=1 GPUS_PER_TASK=0 BUFFERS=host ITERS=0 LONGS=0 VARIANTS=default \
			MPI=openmpi "LAUNCHER=srun --mpi=pmix"; do
			echo "series 1 $v"
		done
		echo "submission $sub time=2026-12-02T00:00:00Z toolkit=bench conf=-"
		awk -v n="$n" -v s="$sub" 'BEGIN {
			for (i = 1; i <= n; i++) {
				key = sprintf("n%d-%s-t1-L0-default-s1", (i + 1) / 2, i % 2 ? "contiguous" : "strided")
				printf "plan %s %s\npoint %s %s job=%d name=aller-bench-%d\n", s, key, s, key, i, i
			}
		}'
	} >"$dir/manifest"
	# half of the points have their complete file
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i += 2) printf "n%d-contiguous-t1-L0-default-s1\n", (i + 1) / 2 }' |
		while read -r key; do
			{ echo "# point: $key"; cat "$tmp/one.out"; } >"$dir/raw/$c-$key-$sub-j1-a01.out"
		done
}

# breakdown N: the plan of campaign bN once more under bash's trace, each
# traced command's time given to the function it ran in: shares of the
# plan by function (the trace's own cost inflates every command alike).
breakdown() {
	local trace=$tmp/trace
	bash -c 'PS4="+ \$EPOCHREALTIME \${FUNCNAME[0]:-main} "; set -x; source "$0" "$@"' \
		"$root/campaigns/submit.sh" "CAMPAIGN=b$1" "RESULTS=$tmp/results" DRYRUN=1 >/dev/null 2>"$trace" || true
	echo "# the plan of $1 points by function (shares of its traced time; the 6 largest):"
	awk '$1 ~ /^\++$/ && $2 ~ /^[0-9]+\.[0-9]+$/ { if (f != "") { t[f] += $2 - p; n[f]++ } p = $2; f = $3 }
		END { for (k in t) { s += t[k]; print t[k], n[k], k } print s, 0, "=total" }' "$trace" |
		sort -gr | awk 'NR == 1 { s = $1; next } NR <= 7 { printf "#   %-18s %5.1f%% (%d traced commands)\n", $3, 100 * $1 / s, $2 }'
}

printf '%8s %10s %10s\n' points status_s plan_s
prev_s="" prev_p="" prev_n=""
for n in ${POINTS:-100 1000 10000}; do
	campaign "$n"
	t0=$(date +%s.%N)
	bash "$root/campaigns/status.sh" "CAMPAIGN=b$n" "RESULTS=$tmp/results" >/dev/null || true
	t1=$(date +%s.%N)
	bash "$root/campaigns/submit.sh" "CAMPAIGN=b$n" "RESULTS=$tmp/results" DRYRUN=1 >/dev/null
	t2=$(date +%s.%N)
	s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	p=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", b - a }')
	printf '%8d %10s %10s' "$n" "$s" "$p"
	[ -z "$prev_n" ] || awk -v n="$n" -v m="$prev_n" -v s="$s" -v t="$prev_s" -v p="$p" -v q="$prev_p" \
		'BEGIN { printf "   growth x%.0f points: status x%.1f, plan x%.1f", n / m, s / t, p / q }'
	echo
	prev_n=$n prev_s=$s prev_p=$p
done
echo "# targets: the plan of 10,000 points < 10 s, their status < 2 s; x10 points <= x11 time, to 100,000"
[ "${BREAKDOWN:-1}" = 0 ] || breakdown "$(awk '{ print $NF }' <<<"${POINTS:-100 1000 10000}")"
