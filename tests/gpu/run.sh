#!/usr/bin/env bash
# tests/gpu/run.sh (make gpu-check): the checks that need an NVIDIA GPU, in
# one prepared run of a few minutes; one line per check, "gpu-check: NAME:
# ok | FAILED | skipped (why)", exit 1 when one failed.
#   build     make CUDA=1 NCCL=1 into build/gpu, and the kernel test
#   kernels   the fill and check kernels against the host reference, also a
#             buffer of more than 2^31 elements when memory allows
#   nccl      a one-rank --transport=nccl sweep, verified, passes the contract checker,
#             its '# device:' line says what the GPU is (name, clocks, nic, link)
#   timing    --timing=nccl: the header says so, each row's '# stream_time:', no eff
#             above 1.02
#   moe       --transport=nccl --moe (device combine buffer) verified, and a damaged
#             combined element caught (exit 1)
#   refuse    --buffers=cuda with Debian's Open MPI (not CUDA-aware): exit 3, one line
#   share     two ranks on one GPU with NCCL: exit 3, one line
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
b=$root/build/gpu
failed=0
say() { printf 'gpu-check: %s: %s\n' "$1" "$2"; [ "$2" != FAILED ] || failed=1; }
[ "$(id -u)" != 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_tcp_if_include=${OMPI_MCA_btl_tcp_if_include:-lo}
if ! nvidia-smi -L >/dev/null 2>&1; then
	say all "skipped (no GPU: nvidia-smi -L fails)"
	exit 0
fi
nvidia-smi -L | sed 's/^/gpu-check: /'

mkdir -p "$b"   # a fresh clone has no build/ yet: the log and the outputs go there
if make -s -C "$root" B="$b" CUDA=1 NCCL=1 WERROR=1 "$b/bin/aller" "$b/tests/gpu-kernels" >"$b/build.log" 2>&1; then
	say build ok
else
	say build FAILED
	tail -n 20 "$b/build.log"
	exit 1
fi
aller=$b/bin/aller

out=$(timeout 120 "$b/tests/gpu-kernels" 2>&1)
case $? in 0) say kernels "ok (${out#kernels: ok: })" ;; 2) say kernels "skipped ($out)" ;; *) say kernels FAILED; echo "$out" ;; esac

if timeout 120 mpirun -np 1 "$aller" --transport=nccl c 3 $((1 << 24)) >"$b/nccl.out" 2>"$b/nccl.err" &&
	perl "$root/tests/lib/check-aller.pl" 1 $((1 << 24)) 3 contiguous "$b/nccl.out" &&
	grep -q '^# transport: nccl ' "$b/nccl.out" && grep -q '^# device: .* name=.* nic=.* link=' "$b/nccl.out"; then
	say nccl "ok ($(grep -m1 '^# transport:' "$b/nccl.out" | cut -c3-); largest row: $(grep -m1 '^1 ' "$b/nccl.out" | awk '{ printf "%s longs, %.3g GiB/s", $3, $9 }'))"
	grep -m1 '^# device:' "$b/nccl.out" | sed 's/^/gpu-check: /'
else
	say nccl FAILED
	cat "$b/nccl.err"
fi

# eff: the row's column by name; "-" where no limit applies
if timeout 120 mpirun -np 1 "$aller" --transport=nccl --timing=nccl c 20 $((1 << 24)) >"$b/timing.out" 2>"$b/timing.err" &&
	grep -q '^# timing: nccl' "$b/timing.out" && grep -q '^# stream_time: count=' "$b/timing.out" &&
	worst=$(awk '$2 == "columns:" { for (i = 3; i <= NF; i++) c[$i] = i - 2 }
		/^[0-9]/ && $c["eff"] != "-" && $c["eff"] > w { w = $c["eff"] } END { print w + 0 }' "$b/timing.out") &&
	awk -v w="$worst" 'BEGIN { exit !(w <= 1.02) }'; then
	say timing "ok (highest eff $worst)"
else
	say timing FAILED
	cat "$b/timing.err"; grep '^# limit:' "$b/timing.out"
fi

if timeout 120 mpirun -np 1 "$aller" --transport=nccl --moe --split=zipf:1.2 c 3 $((1 << 20)) >"$b/moe.out" 2>"$b/moe.err" &&
	grep -q '^# moe: ' "$b/moe.out" && tail -n 1 "$b/moe.out" | grep -qx '# Done' &&
	! ALLER_TEST_MOE_CORRUPT=combine timeout 60 mpirun -np 1 "$aller" --transport=nccl --moe c 2 1024 \
		>/dev/null 2>"$b/moe-bad.err" && grep -q "moe's combine: element" "$b/moe-bad.err"; then
	say moe ok
else
	say moe FAILED
	cat "$b/moe.err" "$b/moe-bad.err" 2>/dev/null
fi

timeout 60 mpirun -np 1 "$aller" --buffers=cuda c 1 1024 >/dev/null 2>"$b/refuse.err"
rc=$?
if [ "$rc" = 3 ] && [ "$(grep -c '^aller: error: ' "$b/refuse.err")" = 1 ] && grep -q 'not CUDA-aware' "$b/refuse.err"; then
	say refuse "ok ($(head -c 120 "$b/refuse.err")...)"
else
	say refuse "FAILED"
	echo "exit $rc"; cat "$b/refuse.err"
fi

CUDA_VISIBLE_DEVICES=0 timeout 60 mpirun --oversubscribe -np 2 -x CUDA_VISIBLE_DEVICES "$aller" --transport=nccl c 1 1024 >/dev/null 2>"$b/share.err"
rc=$?
if [ "$rc" = 3 ] && grep -q "share their GPU with another rank of their node, which NCCL cannot" "$b/share.err"; then
	say share ok
else
	say share FAILED
	echo "exit $rc"; cat "$b/share.err"
fi
exit "$failed"
