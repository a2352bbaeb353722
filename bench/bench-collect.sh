#!/usr/bin/env bash
# bench/bench-collect.sh: merges N (10,000) synthetic job outputs and prints
# rows/s, MB/s, peak memory and the ratio of the merge time to the I/O floor:
# reading the inputs (cat to /dev/null) plus writing as many bytes as the
# merge writes (dd), measured in the same run, rounds interleaved. Prints
# figures; asserts nothing.
# Settings: N (10000), ROUNDS (3), BENCH_DIR (a fresh temporary directory).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${N:-10000} rounds=${ROUNDS:-3}
dir=${BENCH_DIR:-$(mktemp -d)}
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/raw"
"$root/build/bench/gen_outputs" "$dir/raw" "$n"
bytes=$(du -sb "$dir/raw" | cut -f1)
rows=$(cat "$dir"/raw/* | grep -c '^[0-9]')

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: >"$dir/t.read" && : >"$dir/t.write" && : >"$dir/t.collect" && : >"$dir/mem"
# the output volume, from a first merge
"$root/build/bin/collect" -q -o "$dir/merged" "$dir/raw"
out=$(du -sb "$dir/merged" | cut -f1)
for ((r = 1; r <= rounds; r++)); do
	rm -f "$dir/dd.out"
	t0=$(now)
	find "$dir/raw" -type f -print0 | xargs -0 cat >/dev/null
	t1=$(now)
	dd if=/dev/zero of="$dir/dd.out" bs=1M count=$(((out + 1048575) / 1048576)) status=none
	t2=$(now)
	/usr/bin/time -f %M -o "$dir/mem.$r" "$root/build/bin/collect" -q -o "$dir/merged" "$dir/raw"
	t3=$(now)
	awk -v a="$t1" -v b="$t0" "BEGIN { print a - b }" >>"$dir/t.read"
	awk -v a="$t2" -v b="$t1" "BEGIN { print a - b }" >>"$dir/t.write"
	awk -v a="$t3" -v b="$t2" "BEGIN { print a - b }" >>"$dir/t.collect"
	cat "$dir/mem.$r" >>"$dir/mem"
done
tr=$(median <"$dir/t.read") tw=$(median <"$dir/t.write") tm=$(median <"$dir/t.collect")
mem=$(sort -n "$dir/mem" | tail -n 1)
awk -v n="$n" -v b="$bytes" -v r="$rows" -v tr="$tr" -v tw="$tw" -v tm="$tm" -v m="$mem" -v o="$out" -v k="$rounds" 'BEGIN {
	printf "# bench-collect: %d synthetic job outputs, %.1f MB, %d rows; median of %d rounds\n", n, b / 1e6, r, k
	printf "merge:              %.3f s  (%.0f rows/s, %.1f MB/s in, %.1f MB written)\n", tm, r / tm, b / 1e6 / tm, o / 1e6
	printf "written/read:       %.2f (target <= 1.5)\n", o / b
	printf "read (cat > null):  %.3f s\n", tr
	printf "write (dd, %.0f MB): %.3f s\n", o / 1e6, tw
	printf "I/O floor:          %.3f s  ratio merge/floor %.2f (target <= 1.5)\n", tr + tw, tm / (tr + tw)
	printf "peak memory:        %.1f MiB (target < 64 MiB)\n", m / 1024
}'
