#!/usr/bin/env bash
# bench/bench-detect.sh (make bench-detect, and make bench-simulate after its
# costs): detection power, measured (issue 79, item 4). On each of FABRICS
# (at 1,000 nodes or tasks and more, both modes, LONGS 2^24 a task) it
# simulates DETECT_RUNS campaigns of one random fault of each kind at each
# severity (the rows through it at 1/2, 1/4, 1/10 of their bound: the faulted
# link at that share of its rate; a slow node's memory and compute as many
# times slower as its rows need, MEMX x 2, 4, 10: its copy rate is MEMX times
# what its NICs carry), each in a random place and with its own noise, and
# HEALTHY_RUNS campaigns of no fault; collect judges each, and the campaign
# is graded by its suspects.tsv: found, the injected link or node named (a
# slow-tx, slow-rx or slow-node as found when its node or its NIC is named:
# which of these it is, collect's words say apart); wrong, a suspect that
# names another. Prints per fabric, kind and severity the runs, found % and
# wrong %, and per fabric the false alarms (suspects, warnings) per healthy
# campaign; then the time it took. Seeded (DETECT_SEED): the same figures
# each time. Prints figures; asserts nothing.
#   fattree  bench/fattree-4096.fabric, 1,024 nodes, 4 tasks a node (one NIC): the first 8 leaves
#            under each of agg1, agg3, agg5 and agg7 (under two aggregation switches alone
#            their uplinks carry the same bytes: no campaign could tell them apart)
#   frontier docs/fabrics/frontier.fabric, n[1-1024] (8 groups), 4 tasks a node (its 4 rails)
#   h100     docs/fabrics/h100-rail.fabric, n[1-128] x 8 GPUs: 1,024 tasks (4 scalable units)
# Settings: FABRICS (fattree frontier h100), KINDS (all of a fabric's),
# SEVERITIES (2 4 10), DETECT_RUNS (3), HEALTHY_RUNS (20), DETECT_SEED (1),
# BENCH_DIR (a fresh temporary directory).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fabrics=${FABRICS:-fattree frontier h100} sevs=${SEVERITIES:-2 4 10}
runs=${DETECT_RUNS:-3} healthy=${HEALTHY_RUNS:-20}
dir=${BENCH_DIR:-$(mktemp -d)}
trap 'rm -rf "$dir"' EXIT
RANDOM=${DETECT_SEED:-1}
start=$SECONDS

# setup FABRIC: its file, hosts, nodes, tasks a node, copy rate, kinds, rails, switches, groups, rates.
setup() {
	case $1 in
	fattree) file=$root/bench/fattree-4096.fabric tpn=4 copy=400GB/s memx=8 rails=() nic=200
		hosts=(n{1..256} n{1025..1280} n{2049..2304} n{3073..3328})
		kinds="slow-nic slow-tx slow-rx slow-uplink move slow-node"
		switches=(leaf{1..8} leaf{33..40} leaf{65..72} leaf{97..104} agg1 agg3 agg5 agg7) uprate=()
		for _ in {1..32}; do uprate+=(3200); done; uprate+=(25600 25600 25600 25600) ;;
	frontier) file=$root/docs/fabrics/frontier.fabric hosts=(n{1..1024}) tpn=4 copy=2000GB/s memx=10 rails=(hsn0 hsn1 hsn2 hsn3) nic=200
		kinds="slow-nic slow-nic-rail slow-tx slow-rx slow-global move slow-node" switches=(s{1..8}) groups=8 global=200 ;;
	h100) file=$root/docs/fabrics/h100-rail.fabric hosts=(n{1..128}) tpn=8 copy=7200GB/s memx=9 rails=(ib{0..7}) nic=400
		kinds="slow-nic slow-nic-rail slow-tx slow-rx slow-uplink move slow-node"
		switches=() uprate=(); for k in {0..7}; do for s in {1..4}; do switches+=("rail$k-su$s") uprate+=(12800); done; done ;;
	*) echo "bench-detect: unknown fabric '$1': allowed are fattree, frontier and h100" >&2; exit 2 ;;
	esac
	kinds=${KINDS:-$kinds}
}

# fault KIND SEVERITY: a random fault of that kind, in fault; its target (what collect should name) in want.
fault() {
	local n=${hosts[RANDOM % ${#hosts[@]}]} k sw g h
	case $1 in
	slow-nic | slow-tx | slow-rx) fault="$1 $n $(awk -v r="$nic" -v s="$2" 'BEGIN { print r / s }')gbit" want="node $n" ;;
	slow-nic-rail) k=${rails[RANDOM % ${#rails[@]}]}
		fault="slow-nic $n:$k $(awk -v r="$nic" -v s="$2" 'BEGIN { print r / s }')gbit" want="nic $n:$k" ;;
	slow-uplink) k=$((RANDOM % ${#switches[@]})) sw=${switches[k]}
		fault="slow-uplink $sw $(awk -v r="${uprate[k]}" -v s="$2" 'BEGIN { print r / s }')gbit" want="up $sw" ;;
	slow-global) g=$((RANDOM % groups + 1)) h=$((RANDOM % (groups - 1) + 1))
		h=$((h >= g ? h + 1 : h))
		fault="slow-global g$g g$h $(awk -v r="$global" -v s="$2" 'BEGIN { print r / s }')gbit" want="global g$g g$h" ;;
	move) # onto another leaf than its own (per leaf: fattree 32 nodes, frontier a group's 128, h100's a unit's 32 a rail)
		local i=${n#n} own to
		case $fab in
		fattree) own=$(((i - 1) / 32 + 1)) to=$(((own + RANDOM % 7) % 8 + 1)) to=${switches[to - 1]}
			[ "$to" != "leaf$own" ] || to=${switches[own % 8]} ;;
		frontier) own=$(((i - 1) / 128 + 1)) to=s$(((own + RANDOM % 7) % 8 + 1)) ;;
		h100) own=$(((i - 1) / 32 + 1)) k=${rails[RANDOM % ${#rails[@]}]} to=rail${k#ib}-su$((own % 4 + 1)) n=$n:$k ;;
		esac
		fault="move $n $to" want="node ${n%%:*}" ;;
	slow-node) fault="slow-node $n $(($2 * memx))" want="node $n" ;;
	esac
}

# grade DIR WANT: "found among wrong alarms" of a judged campaign, by its suspects.tsv: found, a
# suspect names WANT alone (a warning); among, WANT is one of the candidates a notice names (the
# campaign's rows cannot separate them); wrong, a suspect of a warning names another; alarms, its
# suspects and its warnings besides the suspects' and the verdict's.
grade() {
	awk -F'\t' -v want="$2" '
		BEGIN { split(want, w, " ") }
		FILENAME ~ /suspects/ && FNR > 1 { alarms++
			cand = index($3, "cannot separate") > 0
			ok = w[1] == "node" ? ($1 == "host" && $2 == w[2]) || ($1 == "link" && ($2 == "nic:" w[2] || index($2, "nic:" w[2] ":") == 1)) :
			     w[1] == "nic" ? ($1 == "link" && $2 == "nic:" w[2]) || ($1 == "host" && index(w[2], $2 ":") == 1) :
			     w[1] == "up" ? $1 == "link" && $2 == "up:" w[2] :
			     $1 == "link" && ($2 == "global:" w[2] ":" w[3] || $2 == "global:" w[3] ":" w[2])
			if (ok && cand) among = 1; else if (ok) found = 1; else if (!cand) wrong = 1 }
		FILENAME ~ /findings/ && FNR > 1 && $1 == "warning" && $2 != "suspect" && $2 != "located" && $2 != "verdict" { alarms++ }
		END { print found + 0, (among && !found) + 0, wrong + 0, alarms + 0 }' "$1/merged/suspects.tsv" "$1/merged/findings.tsv"
}

# campaign NAME FAULT: simulated (seed: a fresh one each, i) and judged.
i=0
campaign() {
	"$root/build/bin/simulate" --results="$dir/$1" --campaign="$1" --fabric="$file" --hosts="${hosts[*]}" \
		--tasks-per-node="$tpn" --modes="contiguous strided" --longs=16777216 --seed="$i" --copy="$copy" \
		--faults="$2" --start=2026-01-01T00:00:00Z
	"$root/build/bin/collect" -q -o "$dir/$1/merged" "$dir/$1/raw" 2>/dev/null || [ $? -le 1 ]
}

printf '%-9s %-14s %-8s %-5s %-7s %-7s %s\n' fabric kind severity runs found% among% wrong%
for fab in $fabrics; do
	setup "$fab"
	for kind in $kinds; do
		for sev in $sevs; do
			f=0 c=0 w=0
			for ((r = 0; r < runs; r++)); do
				fault "$kind" "$sev"
				i=$((i + 1))
				campaign "c$i" "$fault"
				read -r a m b _ < <(grade "$dir/c$i" "$want")
				f=$((f + a)) c=$((c + m)) w=$((w + b))
				[ -z "${DETECT_VERBOSE:-}" ] || echo "  $fab $fault: found $a among $m wrong $b" >&2
				rm -rf "${dir:?}/c$i"
			done
			[ "$kind" != move ] || sev="-"
			awk -v a="$fab" -v k="$kind" -v s="$sev" -v n="$runs" -v f="$f" -v c="$c" -v w="$w" \
				'BEGIN { printf "%-9s %-14s %-8s %-5d %-7.0f %-7.0f %.0f\n", a, k, s == "-" ? "-" : "1/" s, n, 100 * f / n, 100 * c / n, 100 * w / n }'
			[ "$kind" != move ] || break
		done
	done
	alarms=0
	for ((r = 0; r < healthy; r++)); do
		i=$((i + 1))
		campaign "c$i" ""
		read -r _ _ _ a < <(grade "$dir/c$i" "none")
		alarms=$((alarms + a))
		[ -z "${DETECT_VERBOSE:-}" ] || [ "$a" = 0 ] || echo "  $fab healthy c$i: $a alarms" >&2
		rm -rf "${dir:?}/c$i"
	done
	awk -v a="$fab" -v n="$healthy" -v x="$alarms" 'BEGIN { printf "%-9s %-14s %-8s %-5d false alarms per campaign: %.2f\n", a, "healthy", "-", n, x / n }'
done
echo "# $((SECONDS - start)) s"
