#!/usr/bin/env bash
# bench/bench-aller.sh: aller against a plain timed MPI_Alltoall loop
# (bench/a2a_loop.c) on the world communicator, size by size, at each rank
# count of RANKS: the default (verified, data written once per count) against
# the plain loop, --fresh-data against the loop that writes fresh send data
# before each call, --no-verify against the plain loop; then the share of
# aller's wall time spent inside the calls for a whole sweep with LONGS=4Mi,
# at 3 and at ITERS iterations, for each --verify mode.
# With ALGOS="pairwise put ...": instead, per algorithm, aller --algo=ALGO
# (verified) against the loop making the same calls, and communicator 0's
# interference factor (aller --isolate) at each level of two or more
# communicators.
# With SPLITS="uniform zipf:1.2 hot:1:0.5 ...": instead, per split, aller
# --split=SPLIT (alltoallv, verified, and --no-verify) against the plain loop
# of MPI_Alltoallv calls with the same counts (a2a_loop's, from split.c).
# With TIMINGS="barrier loop osu": instead, aller --timing=T (verified) against
# the plain loop timed the same way (a2a_loop ITERS LONGS reused|loop|osu).
# With CACHES="hot cold": aller, then aller --cold-cache, against the plain
# (hot) loop.
# VERIFY_B (none): what the second aller column checks, --verify=none or
# warmup (the check's own cost beside aller's default: e.g. TIMINGS="osu loop"
# VERIFY_B=warmup, where every checked call's check must stay outside the
# next call's time).
# Prints figures; asserts nothing.
# Settings: RANKS ("2 4"), ITERS (20), LONGS (1Mi), ROUNDS (5), ALGOS, SPLITS,
# TIMINGS, CACHES (none), VERIFY_B (none).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
iters=${ITERS:-20} longs=${LONGS:-1048576} rounds=${ROUNDS:-5} verify_b=${VERIFY_B:-none}
case $verify_b in none | warmup) ;; *)
	echo "bench-aller: error: VERIFY_B '$verify_b': none or warmup" >&2
	exit 2
	;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
aller=$root/build/bin/aller loop=$root/build/bench/a2a_loop

# versus ARGS_FN ITEM...: per ITEM, the plain loop (a2a_loop ITERS LONGS
# $(ARGS_FN loop ITEM)) and aller verified and --no-verify ($(ARGS_FN aller
# ITEM)) on the world communicator, interleaved in a new order each round.
versus() {
	local fn=$1 i f v
	shift
	for ((r = 1; r <= rounds; r++)); do
		for v in $(for i in "$@"; do echo "loop@$i aller@$i nv@$i"; done | tr ' ' '\n' | shuf); do
			i=${v#*@} f=$(tr ':/' '__' <<<"${v#*@}")
			read -r -a l <<<"$("$fn" loop "$i")"
			read -r -a a <<<"$("$fn" aller "$i")"
			case $v in
			loop@*) run "$loop" "$iters" "$longs" "${l[@]}" >"$tmp/loop-$f.$r" ;;
			aller@*) run "$aller" "${a[@]}" --commsizes=world c "$iters" "$longs" |
				world_rows >"$tmp/aller-$f.$r" ;;
			nv@*) run "$aller" "${a[@]}" --verify="$verify_b" --commsizes=world c "$iters" "$longs" |
				world_rows >"$tmp/nv-$f.$r" ;;
			esac
		done
	done
}

# versus_table NAME ITEM...: versus's medians, a row per (ITEM, count the loop measured).
versus_table() {
	local name=$1 i f
	shift
	printf '%-14s %10s %11s %11s %7s %11s %8s %8s\n' "$name" bytes/peer loop_s aller_s ratio \
		"verify=${verify_b:0:4}_s" ratio_b aller/b
	for i in "$@"; do
		f=$(tr ':/' '__' <<<"$i")
		while read -r count _; do
			awk -v i="$i" -v c="$count" -v l="$(med "loop-$f" "$count")" -v x="$(med "aller-$f" "$count")" \
				-v n="$(med "nv-$f" "$count")" \
				'BEGIN { printf "%-14s %10d %11.4e %11.4e %7.3f %11.4e %8.3f %8.3f\n", i, c * 8, l, x, x / l, n, n / l, x / n }'
		done <"$tmp/loop-$f.1"
	done
}

# What the loop and aller are given per algorithm, split, timing, cache.
algo_args() { if [ "$1" = loop ]; then echo "reused $2"; else echo "--algo=$2"; fi; }
split_args() { if [ "$1" = loop ]; then echo "reused alltoallv $2"; else echo "--split=$2"; fi; }
timing_args() {
	if [ "$1" = aller ]; then echo "--timing=$2"; elif [ "$2" = barrier ]; then echo reused; else echo "$2"; fi
}
cache_args() { if [ "$1" = loop ]; then echo reused; elif [ "$2" = cold ]; then echo --cold-cache; fi; }

# algos RANKS: each algorithm against the plain loop of its calls, interleaved; interference.
algos() {
	# shellcheck disable=SC2086 # a list of names
	versus algo_args $ALGOS
	echo "# bench-aller ALGOS: $ranks ranks, $iters timed iterations, LONGS=$longs, $rounds interleaved rounds"
	echo "# median over rounds of the average time per call on the world communicator; ratio ="
	echo "# aller --algo=ALGO (verified) / the plain loop of the same calls (target: within 5% from"
	echo "# 64 KiB); ratio_b: aller --verify=VERIFY_B / the loop; aller/b: aller / aller --verify=VERIFY_B"
	# shellcheck disable=SC2086
	versus_table algo $ALGOS
	echo "# interference (--isolate): communicator 0's tavg together / alone, median over"
	echo "# sizes and $rounds rounds, per level (comms x commsize):"
	for ((r = 1; r <= rounds; r++)); do
		run "$aller" --isolate c 5 "$((ranks * 8192))" | awk '/^[0-9]/ && $1 > 1 { print $1 "x" $2, $17 }'
	done | sort -k1,1V | awk '{ v[$1] = v[$1] " " $2 } END { for (k in v) print k, v[k] }' | sort -V |
		while read -r level values; do
			printf '#   %s: %s\n' "$level" "$(tr ' ' '\n' <<<"$values" | grep . | median)"
		done
}

# splits RANKS: each split's alltoallv against the plain loop of the same calls, interleaved.
splits() {
	# shellcheck disable=SC2086 # a list of specs
	versus split_args $SPLITS
	echo "# bench-aller SPLITS: $ranks ranks, $iters timed iterations, LONGS=$longs, $rounds interleaved rounds"
	echo "# median over rounds of the average time per call on the world communicator, alltoallv;"
	echo "# ratio = aller --split=SPLIT (verified) / the plain loop of MPI_Alltoallv with the same"
	echo "# counts; ratio_b: aller --verify=VERIFY_B / the loop; counts whose busiest task does not fit"
	echo "# LONGS are left out by both"
	# shellcheck disable=SC2086
	versus_table split $SPLITS
}

for ranks in ${RANKS:-2 4}; do
	# shellcheck source=bench/lib.sh
	. "$root/bench/lib.sh"
	if [ -n "${SPLITS:-}" ]; then
		splits
		continue
	fi
	if [ -n "${TIMINGS:-}${CACHES:-}" ]; then
		what=$([ -n "${TIMINGS:-}" ] && echo timing || echo cache)
		# shellcheck disable=SC2086 # a list of names
		versus "${what}_args" ${TIMINGS:-$CACHES}
		echo "# bench-aller ${what^^}S: $ranks ranks, $iters timed iterations, LONGS=$longs, $rounds interleaved rounds"
		echo "# median over rounds of the average time per call on the world communicator; ratio ="
		echo "# aller (verified) / the plain loop timed the same way (caches: the plain loop, hot);"
		echo "# ratio_b: aller --verify=VERIFY_B / the loop; aller/b: aller / aller --verify=VERIFY_B"
		# shellcheck disable=SC2086
		versus_table "$what" ${TIMINGS:-$CACHES}
		continue
	fi
	if [ -n "${ALGOS:-}" ]; then
		algos
		continue
	fi
	# Interleaved, in a new random order each round: this VM has slow phases
	# of some seconds, which a fixed order would lay on the same variant.
	for ((r = 1; r <= rounds; r++)); do
		for v in $(printf '%s\n' loop aller fresh afresh nv | shuf); do
			case $v in
			loop) run "$loop" "$iters" "$longs" >"$tmp/loop.$r" ;;
			fresh) run "$loop" "$iters" "$longs" fresh >"$tmp/fresh.$r" ;;
			aller) run "$aller" --commsizes=world c "$iters" "$longs" | world_rows >"$tmp/aller.$r" ;;
			afresh) run "$aller" --commsizes=world --fresh-data c "$iters" "$longs" |
				world_rows >"$tmp/afresh.$r" ;;
			nv) run "$aller" --commsizes=world --no-verify c "$iters" "$longs" |
				world_rows >"$tmp/nv.$r" ;;
			esac
		done
	done
	echo "# bench-aller: $ranks ranks, $iters timed iterations, LONGS=$longs, $rounds interleaved rounds"
	echo "# median over rounds of the average time per call on the world communicator;"
	echo "# ratio = aller (verified, reused data) / plain loop; ratio_fresh = aller --fresh-data /"
	echo "# the loop writing fresh send data before each call; ratio_nv = aller --no-verify / plain"
	echo "# loop (targets: within 5% from 64 KiB per peer, 10% below)"
	printf '%10s %10s %11s %11s %7s %11s %11s %11s %11s %8s\n' bytes/peer count loop_s aller_s \
		ratio fresh_s afresh_s ratio_fresh no-verify_s ratio_nv
	while read -r count _; do
		awk -v c="$count" -v l="$(med loop "$count")" -v a="$(med aller "$count")" \
			-v f="$(med fresh "$count")" -v af="$(med afresh "$count")" -v n="$(med nv "$count")" \
			'BEGIN { printf "%10d %10d %11.4e %11.4e %7.3f %11.4e %11.4e %11.3f %11.4e %8.3f\n",
			c * 8, c, l, a, a / l, f, af, af / f, n, n / l }'
	done <"$tmp/loop.1"

	share_longs=$((4 * 1024 * 1024))
	echo "# share of aller's wall time inside the MPI_Alltoall calls (warm-ups included),"
	echo "# whole sweep (every level and count), LONGS=$share_longs, median of $rounds:"
	echo "# and the run's time by part ('# wall_parts:', seconds, each the median of its own)"
	echo "# (targets: --verify=all >= 60%, --verify=none >= 92%; the check is as much memory traffic as a"
	echo "# call inside a node: docs/development.md):"
	for it in 3 "$iters"; do
		for v in --verify=all --verify=warmup --verify=none; do
			for ((r = 1; r <= rounds; r++)); do
				run "$aller" "$v" c "$it" "$share_longs" | awk '
					/^# wall: / { match($0, /calls \([0-9.]*%/); share = substr($0, RSTART + 7, RLENGTH - 8) }
					/^# wall_parts: / { parts = ""; for (i = 3; i <= NF && $i ~ /=/; i++) parts = parts " " $i }
					END { print share parts }'
			done | awk -v v="$v" -v it="$it" -v n="$rounds" '
				{ for (i = 1; i <= NF; i++) { split($i, kv, "="); name[i] = kv[2] == "" ? "share" : kv[1]
					col[i, NR] = kv[2] == "" ? $i : kv[2] } }
				function med(i,   k, a, m, t, j) { m = 0; for (k = 1; k <= n; k++) a[++m] = col[i, k] + 0
					for (k = 2; k <= m; k++) for (j = k; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
					return a[int((m + 1) / 2)] }
				END { printf "#   %2d iterations, %s: %.1f%%;", it, v, med(1)
					for (i = 2; i <= NF; i++) printf " %s %.3f", name[i], med(i); printf "\n" }'
		done
	done
done
