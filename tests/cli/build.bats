#!/usr/bin/env bats
# The build: other compilers and flags, CUDA, install into a staging tree.
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers

@test "make CC=clang CFLAGS='-O0 -g' builds warning-free into another build tree" {
	run -0 make -C "$ROOT" B="$BATS_TEST_TMPDIR/b" CC=clang CFLAGS='-O0 -g' WERROR=1 V=1
	[[ $output == *"clang "*"-O0 -g"* ]]
	[[ $output != *"warning:"* ]]
	run -0 "$BATS_TEST_TMPDIR/b/bin/collect" --version
}

@test "the user's CFLAGS come last, V=1 shows the commands and make -s none" {
	run -0 make -C "$ROOT" B="$BATS_TEST_TMPDIR/b" CFLAGS='-O1 -DUSER_FLAG=1' V=1
	[[ $output == *"-Wall -Wextra"*"-O1 -DUSER_FLAG=1 -c"* ]]
	run -0 make -C "$ROOT" B="$BATS_TEST_TMPDIR/b" CFLAGS='-O1 -DUSER_FLAG=1'
	[[ $output != *" CC "* ]] # nothing to rebuild
	rm "$BATS_TEST_TMPDIR/b/bin/collect"
	run -0 make -s -C "$ROOT" B="$BATS_TEST_TMPDIR/b" CFLAGS='-O1 -DUSER_FLAG=1'
	[ -z "$output" ] # make -s: silent, the link it redid included
	[ -x "$BATS_TEST_TMPDIR/b/bin/collect" ]
}

@test "make CUDA=1 builds aller with device buffers; without a GPU it says so and exits 3" {
	command -v "${NVCC:-nvcc}" >/dev/null || skip "no nvcc"
	run -0 make -C "$ROOT" B="$BATS_TEST_TMPDIR/c" CUDA=1 WERROR=1 V=1 "$BATS_TEST_TMPDIR/c/bin/aller"
	# device code for sm_80 and sm_90 and PTX for newer GPUs, nvcc's warnings as errors
	[[ $output == *"nvcc "*"-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"*"-Werror all-warnings"* ]]
	aller=$BATS_TEST_TMPDIR/c/bin/aller
	run -0 ldd "$aller"
	[[ $output == *libcudart* ]]
	if nvidia-smi -L >/dev/null 2>&1; then
		skip "a GPU is present: the no-GPU message does not apply"
	fi
	run --separate-stderr -3 "$aller" --buffers=cuda c 1 16
	[[ $stderr == "aller: error: rank 0 on "*": no usable CUDA device: "* ]]
	run -0 "$aller" c 1 16
	[ "${lines[-1]}" = "# Done" ]
	# switching CUDA off rebuilds without the device back end
	run -0 make -C "$ROOT" B="$BATS_TEST_TMPDIR/c" CUDA=0 "$BATS_TEST_TMPDIR/c/bin/aller"
	run -0 ldd "$aller"
	[[ $output != *libcudart* ]]
}

@test "make CUDA=1 NCCL=1 builds --transport=nccl and the GPU kernel test; without a GPU: exit 3, one line" {
	command -v "${NVCC:-nvcc}" >/dev/null || skip "no nvcc"
	[ -e "${NCCL_HOME:-/usr/local/cuda}/include/nccl.h" ] || skip "no NCCL"
	b=$BATS_TEST_TMPDIR/n
	run -0 make -C "$ROOT" B="$b" CUDA=1 NCCL=1 WERROR=1 "$b/bin/aller" "$b/tests/gpu-kernels"
	run -0 ldd "$b/bin/aller"
	[[ $output == *libnccl* ]]
	[[ $output == *libcudart* ]]
	run --separate-stderr -0 "$b/bin/aller" --help
	[[ $output == *"--transport=mpi|nccl"* ]]
	if nvidia-smi -L >/dev/null 2>&1; then
		skip "a GPU is present: make gpu-check runs the device checks"
	fi
	run --separate-stderr -3 "$b/bin/aller" --transport=nccl c 1 16
	[[ $stderr == "aller: error: rank 0 on "*": no usable CUDA device: "* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
	run --separate-stderr -2 "$b/bin/aller" --transport=nccl --algo=pairwise c 1 16
	[ "$stderr" = "aller: error: '--transport=nccl' has one algorithm, ncclAlltoAll: leave out --algo" ]
	run -2 "$b/tests/gpu-kernels"
	[[ $output == "kernels: no device: "* ]]
	# and the GPU check itself skips cleanly
	run -0 bash "$ROOT/tests/gpu/run.sh"
	[ "$output" = "gpu-check: all: skipped (no GPU: nvidia-smi -L fails)" ]
	# and so does make gpu-peers, with no input or a good one; a bad value given is refused
	tar=$BATS_TEST_TMPDIR/nccl-tests.tar.gz
	touch "$tar"
	run -0 make -s -C "$ROOT" gpu-peers
	[ "$output" = "gpu-peers: skipped (no GPU: nvidia-smi -L fails)" ]
	run --separate-stderr -2 make -s -C "$ROOT" gpu-peers NCCL_TESTS="$BATS_TEST_TMPDIR"
	[[ $stderr == "gpu-peers: NCCL_TESTS '$BATS_TEST_TMPDIR': no src/Makefile there"* ]]
	run --separate-stderr -2 env MAX=12 NCCL_TESTS="$tar" bash "$ROOT/tests/gpu/peers.sh"
	[ "$stderr" = "gpu-peers: MAX '12': a power of two of at least 8 bytes is allowed" ]
	mkdir -p "$BATS_TEST_TMPDIR/nt/src" && touch "$BATS_TEST_TMPDIR/nt/src/Makefile"
	run -0 make -s -C "$ROOT" gpu-peers NCCL_TESTS="$BATS_TEST_TMPDIR/nt"
	[ "$output" = "gpu-peers: skipped (no GPU: nvidia-smi -L fails)" ]
	# the build without NCCL refuses the transport in one line
	run --separate-stderr -2 "$ROOT/build/bin/aller" --transport=nccl c 1 16
	[ "$stderr" = "aller: error: '--transport=nccl' needs a build with 'make CUDA=1 NCCL=1'; this aller moves data with MPI only" ]
}

@test "make install PREFIX DESTDIR stages a toolkit that works from any directory" {
	stage=$BATS_TEST_TMPDIR/stage
	run -0 make -C "$ROOT" install PREFIX=/opt/aller DESTDIR="$stage"
	p=$stage/opt/aller
	for f in bin/aller bin/collect bin/aller-campaign bin/aller-status bin/aller-plots \
		bin/aller-compare bin/aller-report bin/aller-export share/aller/plots/export.sh bin/aller-trend \
		bin/aller-isolate bin/aller-undrain bin/aller-schedule bin/aller-param2trace share/aller/campaigns/pairs.sh \
		share/aller/jobs/aller.sbatch share/aller/jobs/job-lib.sh share/aller/jobs/finish.sbatch \
		share/aller/campaigns/submit.sh share/aller/campaigns/smoke.conf \
		share/aller/plots/plot.sh share/aller/plots/common.gp share/aller/plots/lib.sh \
		share/aller/plots/compare.sh share/aller/plots/report.sh share/aller/plots/report-head.html share/aller/plots/ranges.gp; do
		[ -e "$p/$f" ] || { echo "missing $f"; return 1; }
	done
	cd "$BATS_TEST_TMPDIR"
	run -0 "$p/bin/aller" --version
	run -2 "$p/bin/aller-campaign" CAMPAIGN=x NODES=0
	[[ $output == *"invalid node count '0'"* ]]
	# a dry run checks RESULTS as a submission would: ./results here is in /tmp, node-local
	run -2 env SLURM_CONF=/nonexistent "$p/bin/aller-campaign" DRYRUN=1 CAMPAIGN=x
	[[ $output == *"RESULTS '$PWD/results' is node-local on most clusters"* ]]
	run -0 env SLURM_CONF=/nonexistent "$p/bin/aller-campaign" DRYRUN=1 CAMPAIGN=x \
		"RESULTS=$p/share/aller/results"
	[[ $output == *"ALLER_BIN=$p/bin/aller"*"$p/share/aller/jobs/aller.sbatch"* ]]
	# the wrappers answer --help and --version, and know their version
	for w in aller-campaign aller-status aller-plots aller-compare aller-report aller-export aller-trend \
		aller-isolate aller-undrain aller-schedule; do
		run --separate-stderr -0 "$p/bin/$w" --help
		[[ $output == "usage: $w"* ]]
		run -0 "$p/bin/$w" --version
		[[ $output =~ ^$w\ [0-9]+\.[0-9]+\.[0-9]+\ \(.*installed\)$ ]]
	done
	mkdir -p camp
	cp -r "$ROOT/tests/data/smoke/raw" camp/
	run -0 "$p/bin/aller-plots" --campaign-dir camp
	[[ $output == *"camp/plots/scaling.png"* ]]
	# the installed compare keeps its results in ./results
	mkdir -p results/a results/b
	cp -r camp/raw results/a/
	cp -r camp/raw results/b/
	run --separate-stderr -0 "$p/bin/aller-compare" BASE=a NEW=b
	[[ ${lines[-1]} == "compare: "*" points matched: 0 faster, 0 slower, "*" same, 0 noise; 0 only in BASE, 0 only in NEW" ]]
	[ -s results/compare-a-vs-b/compare.csv ]
}

@test "make deps is quiet when everything is installed" {
	run --separate-stderr -0 make -s -C "$ROOT" deps
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "make demo installs the demo's packages only; make deps every set's" {
	run -0 bash "$ROOT/tools/deps.sh" --list demo
	demo=$output
	for p in openmpi-bin slurmd munge gnuplot-nox nftables; do grep -qx "$p" <<<"$demo"; done
	for p in chromium prometheus mariadb-server python3-lxml bats mpich; do
		if grep -qx "$p" <<<"$demo"; then echo "the demo installs $p"; return 1; fi
	done
	run -0 bash "$ROOT/tools/deps.sh" --list
	for p in $demo chromium prometheus mariadb-server python3-lxml bats; do grep -qx "$p" <<<"$output"; done
	run -0 bash "$ROOT/tools/deps.sh" --list reframe
	[[ $output == *python3-jsonschema* ]]
	run --separate-stderr -2 bash "$ROOT/tools/deps.sh" --list gpu
	[ "$stderr" = "deps: error: unknown set 'gpu': demo, accounting, reframe, tests or all are allowed" ]
	# the demo and cluster-up ask for the demo's set only
	run -0 make -n -C "$ROOT" demo
	[[ $output == *"tools/deps.sh demo"* ]]
	[[ $output != *"tools/deps.sh"$'\n'* ]]
}

@test "make deps without root names exactly the missing packages and fails" {
	command -v setpriv >/dev/null || skip "no setpriv"
	run --separate-stderr -1 env DEPS_PACKAGES="bash aller-no-such-package" \
		setpriv --reuid=65534 --regid=65534 --clear-groups bash "$ROOT/tools/deps.sh"
	[ "$stderr" = "deps: error: missing Debian packages: aller-no-such-package; as root, run: apt-get install aller-no-such-package" ]
}

@test "make deps cut short by a signal takes its policy-rc.d away (no daemon would start on any install after)" {
	[ "$(id -u)" = 0 ] || skip "make deps installs as root"
	policy=$BATS_TEST_TMPDIR/policy-rc.d   # where it would be /usr/sbin's
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\ntouch "%s/apt"; exec sleep 60\n' "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/bin/apt-get"
	chmod +x "$BATS_TEST_TMPDIR/bin/apt-get"
	# its own process group, as a terminal's job is: the signal reaches apt-get too
	DEPS_POLICY=$policy DEPS_PACKAGES=aller-no-such-package PATH="$BATS_TEST_TMPDIR/bin:$PATH" \
		setsid bash "$ROOT/tools/deps.sh" 2>/dev/null &
	pid=$!
	wait_for "deps to call apt-get" 20 test -e "$BATS_TEST_TMPDIR/apt"
	[ -x "$policy" ]
	kill -TERM -- "-$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 143 ]
	[ ! -e "$policy" ]
}

@test "make bench-collect builds and runs at a smoke size (so it cannot rot)" {
	# the test build's flags (WERROR=1): nothing is rebuilt
	run --separate-stderr -0 make -C "$ROOT" --no-print-directory WERROR=1 bench-collect N=22 ROUNDS=1
	[[ $output == *"# bench-collect: 22 synthetic job outputs"* ]]
	[[ $output == *"peak memory:"* ]]
}

@test "make bench-campaign runs at a smoke size (so it cannot rot): status and a plan of every size" {
	run --separate-stderr -0 make -C "$ROOT" --no-print-directory WERROR=1 bench-campaign POINTS="10 20"
	grep -qx '  points   status_s     plan_s' <<<"$output"
	grep -Eqx ' +10 +[0-9.]+ +[0-9.]+' <<<"$output"
	grep -Eq '^ +20 +[0-9.]+ +[0-9.]+   growth x2 points: status x' <<<"$output"
	[ -z "$(find "$ROOT/build" -maxdepth 1 -name 'bench-campaign.*')" ]   # nothing left behind
}

@test "dpkg-buildpackage builds the Debian package: binaries, wrappers, man pages, modulefiles" {
	command -v dh >/dev/null || skip "debhelper is not installed (make deps)"
	ver=$(sed -n 's/^#define ALLER_VERSION "\(.*\)"$/\1/p' "$ROOT/common/format.h")
	# the package's version is aller's
	[ "$(sed -n '1s/^aller (\([^)]*\)).*/\1/p' "$ROOT/debian/changelog")" = "$ver" ]
	src=$BATS_TEST_TMPDIR/src/aller
	mkdir -p "$src"
	(cd "$ROOT" && git ls-files -co --exclude-standard | tar -cf - -T -) | tar -xf - -C "$src"
	run -0 bash -c "cd '$src' && dpkg-buildpackage -us -uc -b 2>&1"
	deb=$BATS_TEST_TMPDIR/src/aller_${ver}_amd64.deb
	run -0 dpkg-deb -c "$deb"
	for f in usr/bin/aller usr/bin/collect usr/bin/aller-campaign usr/share/aller/jobs/aller.sbatch \
		usr/share/aller/jobs/job-lib.sh \
		usr/share/man/man1/aller.1.gz usr/share/man/man1/aller-campaign.1.gz \
		"usr/share/modulefiles/aller/$ver.lua" "usr/share/modulefiles/aller/$ver"; do
		[[ $output == *" ./$f"* ]] || { echo "the package lacks $f"; false; }
	done
	run -0 dpkg-deb -f "$deb" Depends
	[[ $output == *libopenmpi* ]]
}
