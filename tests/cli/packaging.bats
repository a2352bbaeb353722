#!/usr/bin/env bats
# The Spack and EasyBuild recipes (packaging/) against the Makefile, through
# tools/recipes.py (neither Spack nor EasyBuild runs here).
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

recipes() { python3 "$ROOT/tools/recipes.py" "$@"; }
eb=$ROOT/packaging/easybuild/aller-1.1.0-foss-2023a.eb
eb_cuda=$ROOT/packaging/easybuild/aller-1.1.0-foss-2023a-CUDA-12.1.1.eb

@test "the recipes carry the project's version and pass only make variables the Makefile reads" {
	run -0 recipes check
	[[ $output == "recipes: ok: version $(sed -n 's/^#define ALLER_VERSION "\(.*\)"$/\1/p' "$ROOT/common/format.h"); make variables "*"CUDA_ARCHS"*"MPICC"*"PREFIX"* ]]
	# a copy of what the check reads, changed: a new version, a renamed knob
	t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t"
	(cd "$ROOT" && cp -r --parents Makefile ./*/build.mk common/format.h packaging "$t")
	sed -i 's/^#define ALLER_VERSION ".*"/#define ALLER_VERSION "9.9.9"/' "$t/common/format.h"
	run --separate-stderr -1 recipes check "$t"
	[[ $stderr == *"recipes: error: spack: no version('9.9.9')"* ]]
	[[ $stderr == *"recipes: error: packaging/easybuild/aller-1.1.0-foss-2023a.eb: version '1.1.0', the project's is '9.9.9'"* ]]
	(cd "$ROOT" && cp common/format.h "$t/common/format.h")
	sed -i 's/CUDA_ARCHS/CUDA_ARCH_LIST/g' "$t/Makefile"
	run --separate-stderr -1 recipes check "$t"
	[[ $stderr == *"recipes: error: packaging/"*": passes CUDA_ARCHS=, which the Makefile does not read"* ]]
}

@test "make with Spack's and EasyBuild's arguments builds once and installs what their sanity checks expect" {
	b=$BATS_TEST_TMPDIR/b
	mapfile -t build < <(recipes spack BUILD)
	mapfile -t install < <(recipes spack INSTALL)
	run -0 make -C "$ROOT" B="$b" "${build[@]}"
	run -0 make -C "$ROOT" B="$b" DESTDIR="$BATS_TEST_TMPDIR/spack" "${install[@]}"
	[[ $output != *" CC "* ]] # the same knobs: nothing rebuilt
	for p in $(recipes spack PATHS); do
		[ -e "$BATS_TEST_TMPDIR/spack/opt/aller/$p" ] || { echo "spack: no $p"; return 1; }
	done
	# EasyBuild's ConfigureMake: make BUILDOPTS, make install INSTALLOPTS, the
	# toolchain's MPICC and CC in the environment
	run -0 env MPICC=mpicc CC=gcc bash -c "make -C '$ROOT' B='$b' $(recipes easybuild "$eb" BUILD) &&
		make -C '$ROOT' B='$b' DESTDIR='$BATS_TEST_TMPDIR/eb' install $(recipes easybuild "$eb" INSTALL)"
	for p in $(recipes easybuild "$eb" PATHS); do
		[ -e "$BATS_TEST_TMPDIR/eb/opt/aller/$p" ] || { echo "easybuild: no $p"; return 1; }
	done
	run -0 "$BATS_TEST_TMPDIR/eb/opt/aller/bin/aller" --help
	run -0 "$BATS_TEST_TMPDIR/eb/opt/aller/bin/collect" --version
}

@test "the CUDA recipes' arguments reach nvcc: their architectures and NCCL" {
	mapfile -t build < <(recipes spack BUILD +cuda +nccl cuda_arch=80 cuda_arch=90)
	run -0 make -n -C "$ROOT" B="$BATS_TEST_TMPDIR/g" "${build[@]}"
	[[ $output == *"-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"* ]]
	[[ $output == *"-DALLER_NCCL"*"-isystem /spack/nccl/include"* ]]
	run -0 env MPICC=mpicc CC=gcc EBROOTCUDA=/eb/cuda EBROOTNCCL=/eb/nccl \
		bash -c "make -n -C '$ROOT' B='$BATS_TEST_TMPDIR/g2' $(recipes easybuild "$eb_cuda" BUILD)"
	[[ $output == *"-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"* ]]
	[[ $output == *"-isystem /eb/nccl/include"* ]]
}
