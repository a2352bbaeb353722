#!/usr/bin/env bash
# tests/gpu/peers.sh (make gpu-peers NCCL_TESTS=DIR): aller's --timing=nccl
# beside nccl-tests' alltoall_perf on one GPU, interleaved rounds, 8 B to
# 1 GiB per peer; prints per size each one's median time per call and their
# ratio. DIR: nccl-tests' source tree, or its release tarball (unpacked into
# build/gpu/). Without a GPU: one "skipped" line, exit 0 (NCCL_TESTS or not).
#   ROUNDS (3) rounds, ITERS (20) timed calls and WARMUP (5) untimed ones per
#   size in each tool, MAX (1073741824) the largest size in bytes.
# Exit 0; 2 on bad input (one line); 1 when a build or a run fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
b=$root/build/gpu
rounds=${ROUNDS:-3} iters=${ITERS:-20} warmup=${WARMUP:-5} max=${MAX:-1073741824}
die() { printf 'gpu-peers: %s\n' "$1" >&2; exit "${2:-2}"; }
src=${NCCL_TESTS:-}
gpu() { nvidia-smi -L >/dev/null 2>&1; }
skip() { echo "gpu-peers: skipped (no GPU: nvidia-smi -L fails)"; exit 0; }
# without a GPU there is nothing to compare: skipped, as gpu-check is; a value given is checked still
[ -n "$src" ] || gpu || skip
[ -n "$src" ] || die "NCCL_TESTS=DIR is needed: nccl-tests' source tree (with src/Makefile) or its .tar.gz"
[ -e "$src" ] || die "NCCL_TESTS '$src': no such file or directory"
for v in rounds iters warmup max; do
	case ${!v} in '' | *[!0-9]* | 0*) die "${v^^} '${!v}': a positive integer is allowed" ;; esac
done
if [ $((max & (max - 1))) != 0 ] || [ "$max" -lt 8 ]; then
	die "MAX '$max': a power of two of at least 8 bytes is allowed"
fi
case $src in
*.tar.gz | *.tgz) [ -f "$src" ] || die "NCCL_TESTS '$src': not a file" ;;
*) [ -f "$src/src/Makefile" ] || die "NCCL_TESTS '$src': no src/Makefile there (nccl-tests' source tree?)" ;;
esac
gpu || skip
[ "$(id -u)" != 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_tcp_if_include=${OMPI_MCA_btl_tcp_if_include:-lo}
cuda=${CUDA_HOME:-/usr/local/cuda} nccl=${NCCL_HOME:-${CUDA_HOME:-/usr/local/cuda}}
mkdir -p "$b/peers"
case $src in
*.tar.gz | *.tgz)
	tar -xzf "$src" -C "$b/peers" || die "NCCL_TESTS '$src': cannot unpack it" 1
	src=$(find "$b/peers" -mindepth 2 -maxdepth 3 -path '*/src/Makefile' | head -n 1)
	src=${src%/src/Makefile} ;;
esac
perf=$b/peers/nccl-tests/alltoall_perf
if ! { make -s -C "$root" B="$b" CUDA=1 NCCL=1 NCCL_HOME="$nccl" "$b/bin/aller" &&
	make -C "$src/src" BUILDDIR="$b/peers/nccl-tests" CUDA_HOME="$cuda" NCCL_HOME="$nccl" \
		${NVCC_GENCODE:+NVCC_GENCODE="$NVCC_GENCODE"} "$perf"; } >"$b/peers/build.log" 2>&1; then
	tail -n 20 "$b/peers/build.log"
	die "build failed (build/gpu/peers/build.log)" 1
fi

# One round: "tool bytes seconds" per size, from each tool's own table.
round() {
	"$perf" -b 8 -e "$max" -f 2 -g 1 -n "$iters" -w "$warmup" >"$b/peers/nccl-tests.out" 2>&1 ||
		{ cat "$b/peers/nccl-tests.out" >&2; die "alltoall_perf failed" 1; }
	awk '$1 ~ /^[0-9]+$/ && NF >= 8 { print "nccl-tests", $1, $6 / 1e6 }' "$b/peers/nccl-tests.out"
	mpirun -np 1 "$b/bin/aller" --transport=nccl --timing=nccl --warmup="$warmup" c "$iters" $((max / 8)) \
		>"$b/peers/aller.out" 2>"$b/peers/aller.err" || { cat "$b/peers/aller.err" >&2; die "aller failed" 1; }
	awk '$1 == "#" && $2 == "columns:" { for (i = 3; i <= NF; i++) col[$i] = i - 2; next }
	     /^[0-9]/ && col["count"] { print "aller", $col["count"] * 8, $col["tavg_s"] }' "$b/peers/aller.out"
}
for _ in $(seq "$rounds"); do round; done >"$b/peers/times" || exit $?
echo "gpu-peers: $(nvidia-smi -L | head -n 1); $rounds interleaved rounds, $iters calls each; median seconds per call"
awk -v rounds="$rounds" '
	function median(list,   n, v, i, j, t) { n = split(list, v, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
	{ t[$1, $2] = t[$1, $2] " " $3; size[$2] }
	END { printf "%12s %14s %14s %8s\n", "bytes", "aller_s", "nccl_tests_s", "ratio"
		n = 0; for (s in size) sizes[++n] = s + 0
		for (i = 2; i <= n; i++) for (j = i; j > 1 && sizes[j - 1] > sizes[j]; j--) { x = sizes[j]; sizes[j] = sizes[j - 1]; sizes[j - 1] = x }
		for (i = 1; i <= n; i++) { s = sizes[i]
			if (!(("aller", s) in t) || !(("nccl-tests", s) in t)) continue
			a = median(t["aller", s]); c = median(t["nccl-tests", s])
			printf "%12d %14.4e %14.4e %8.3f\n", s, a, c, c > 0 ? a / c : 0 } }' "$b/peers/times"
