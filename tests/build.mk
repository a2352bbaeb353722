# tests/: unit tests (cmocka), command-line, MPI and end-to-end tests (bats),
# all run by prove through tests/tap-run.
ALLER_UNIT := test_options test_select test_partition test_stats_verify test_output test_traffic \
	test_gpu test_split test_scale test_linkmap test_limits test_launched
COLLECT_UNIT := test_parse test_findings test_compare test_samples test_grow test_models test_changepoint test_hosts test_bound test_locate \
	test_fabricfile test_peer test_health test_nics test_fabric
UNIT_BIN := $(ALLER_UNIT:%=$(B)/tests/%) $(COLLECT_UNIT:%=$(B)/tests/%)
BATS_TESTS := $(sort $(wildcard tests/cli/*.bats)) $(sort $(wildcard tests/mpi/*.bats)) \
	$(sort $(wildcard tests/timed/*.bats)) $(sort $(wildcard tests/mpich/*.bats)) \
	$(sort $(wildcard tests/e2e/*.bats))
PROVE ?= prove
SAN_UNIT_BIN := $(ALLER_UNIT:%=$(B)/san/tests/%) $(COLLECT_UNIT:%=$(B)/san/tests/%)
# TESTS=... picks test files; default: all of them, the unit tests also
# under ASan and UBSan
TESTS ?= $(UNIT_BIN) $(SAN_UNIT_BIN) $(BATS_TESTS)

$(ALLER_UNIT:%=$(B)/tests/%): $(B)/tests/%: tests/unit/%.c $(ALLER_LIB_OBJ)
	$(call say,CCLD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALLER_CPPFLAGS) $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) \
		-lcmocka $(ALLER_LDLIBS) $(LDLIBS)

$(COLLECT_UNIT:%=$(B)/tests/%): $(B)/tests/%: tests/unit/%.c $(COLLECT_LIB_OBJ)
	$(call say,CCLD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(COLLECT_CPPFLAGS) $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) \
		-lcmocka -lm $(LDLIBS)

.PHONY: unit-tests test-build test-run
unit-tests: $(UNIT_BIN)

# The test build adds -Werror.
test: deps
	@$(MAKE) --no-print-directory WERROR=1 test-build
	@$(MAKE) --no-print-directory B=$(B)/san CFLAGS='$(SAN_FLAGS)' LDFLAGS='$(SAN_FLAGS)' \
		WERROR=1 unit-tests
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_TEST_SECONDS) FUZZ_SEED=1
	@$(MAKE) --no-print-directory test-run

# ... and aller against MPICH too (make MPI=mpich), for tests/mpich/.
test-build: all unit-tests
	@$(MAKE) --no-print-directory MPI=mpich B=$(B)/mpich WERROR=$(WERROR) $(B)/mpich/bin/aller

# The tests run make on this tree as a user would: without this make's
# command-line variables (make soak SOAK_ROUNDS=5 would hand them
# SOAK_ROUNDS, which make's check of its variables refuses) or its level.
AS_USER := env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL

# Four lanes at once (PROVE_JOBS + 2; PROVE_JOBS=1: one after another), then the timed
# ones. The end-to-end files in two ordered lanes, each on a local cluster
# of its own (tests/lib/cluster.bash: E2E_LANE_B's on port 16000); they wait
# mostly on the shaped network. Beside them, niced (tests/tap-run), the
# rest, which waits mostly on the CPU, in two lanes of its own (its longest
# files, QUICK_FIRST, and the others): with three slots its second lane
# waited for its first (10 and 8 minutes one after the other, the end-to-end
# lanes done in 13: a CI run); prove starts a 'par' group's jobs before any
# 'seq' group's, which held the end-to-end lanes back 4 minutes in another. Then, alone,
# tests/timed/ (assertions on what a timer saw) and MPICH's files (its ranks
# poll their cores busy). Both clusters go down at the end.
PROVE_JOBS ?= 2
ORDERED := tests/e2e/% tests/timed/% tests/mpich/%
E2E_LANE_B := $(filter-out tests/e2e/95%,$(sort $(wildcard tests/e2e/30-*.bats tests/e2e/[5-9]*.bats)))
comma := ,
PROVE_LANES = $(if $(E2E_LANE_B),--rules='seq={$(subst $(eval) ,$(comma),$(E2E_LANE_B))}') \
	--rules='seq=tests/e2e/*' --rules='seq={$(subst $(eval) ,$(comma),$(QUICK_FIRST))}' --rules='seq=**'
# The tests that run make on this tree (make install, make plots, ...) do
# so with the WERROR it was built with: with another, make rebuilds the
# binaries while the ordered lane runs them. The flags are checked after.
test-run: export WERROR := $(or $(shell sed -n 's/.* WERROR=\([01]\) .*/\1/p' $(B)/flags 2>/dev/null),$(WERROR))
test-run: export E2E_LANE_B := $(E2E_LANE_B)
test-run:
	@cp $(B)/flags $(B)/flags.tested
	@rc=0; $(AS_USER) $(PROVE) --timer -j$$(($(PROVE_JOBS) > 1 ? $(PROVE_JOBS) + 2 : 1)) $(PROVE_LANES) -e tests/tap-run \
		$(filter $(E2E_LANE_B),$(TESTS)) $(filter-out $(E2E_LANE_B),$(filter tests/e2e/%,$(TESTS))) \
		$(filter $(QUICK_FIRST),$(TESTS)) $(filter-out $(ORDERED) $(QUICK_FIRST),$(TESTS)) || rc=1; \
	if [ -n "$(filter tests/timed/% tests/mpich/%,$(TESTS))" ]; then $(AS_USER) $(PROVE) --timer -j1 -e tests/tap-run \
		$(filter tests/timed/%,$(TESTS)) $(filter tests/mpich/%,$(TESTS)) || rc=1; fi; \
	for d in $(B)/cluster $(B)/cluster-b; do [ ! -s $$d/run/settings ] || CLUSTER_DIR=$$d bash cluster/down.sh -q || rc=1; done; \
	exit $$rc
	@cmp -s $(B)/flags $(B)/flags.tested || { echo "make test: error: a test rebuilt $(B) with other flags ($$(cat $(B)/flags)) while the tests ran its binaries; a test runs make on $(B) with the flags it was built with, or on a B of its own" >&2; exit 1; }

check: test

# The edit-compile-test loop (docs/development.md): the unit tests, and the
# command-line and MPI tests against this build, less those that build a
# tree of their own (tag build) or take a minute (tag slow): no packages
# installed, no cluster, no other build; no lane is ordered, so none yields
# (TAP_RUN_NICE). Under 3 minutes on 2 cores, under 5 beside stress-ng
# --cpu 2 (make bench-test-quick measures both). The longest files first
# (QUICK_FIRST, by bench-test-quick's figures), so that the two lanes end
# together, not on one long file started last; the unit tests last.
QUICK_FIRST := tests/mpi/aller.bats tests/mpi/modes.bats tests/cli/shellcheck.bats \
	tests/mpi/split.bats tests/cli/plots.bats tests/mpi/hostile.bats tests/mpi/reveal.bats \
	tests/mpi/moe.bats tests/cli/hostile.bats
QUICK_TESTS := $(QUICK_FIRST) $(filter-out $(QUICK_FIRST) tests/cli/build.bats tests/cli/packaging.bats,\
	$(sort $(wildcard tests/cli/*.bats)) $(sort $(wildcard tests/mpi/*.bats))) $(UNIT_BIN)
.PHONY: test-quick bench-test-quick
test-quick: all unit-tests
	TAP_RUN_TAGS='!build,!slow' TAP_RUN_NICE=0 $(AS_USER) $(PROVE) --timer -j$(PROVE_JOBS) -e tests/tap-run $(QUICK_TESTS)
bench-test-quick: all unit-tests
	@$(AS_USER) bash tests/bench-quick.sh

# The MPI and cluster test files SOAK_ROUNDS times (3) beside stress-ng --cpu 2:
# per test, passes and runs (tests/soak.sh, tests/repeat.sh).
SOAK_ROUNDS ?= 3
.PHONY: soak
soak: deps
	@$(MAKE) --no-print-directory WERROR=1 test-build
	@$(AS_USER) bash tests/soak.sh $(SOAK_ROUNDS)

# Unit tests under AddressSanitizer and UndefinedBehaviorSanitizer.
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sanitize: deps
	@$(MAKE) --no-print-directory B=$(B)/san CFLAGS='$(SAN_FLAGS)' LDFLAGS='$(SAN_FLAGS)' \
		WERROR=1 unit-tests
	$(PROVE) -e tests/tap-run $(SAN_UNIT_BIN)

# Fixed-duration fuzzing runs of collect (libFuzzer, ASan, UBSan): the
# parser on arbitrary bytes, and whole files through the reader and merge.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_COLLECT_SRC := $(filter-out collect/main.c,$(COLLECT_SRC:%=collect/%)) \
	$(COMMON_SRC:%=common/%)
FUZZ_PARSE_SRC := $(addprefix collect/read/,parse.c point.c splits.c fabric.c hosts.c peer.c) \
	$(addprefix common/,bytes.c grow.c bound.c namehash.c partition.c fabricfile.c stacks.c strbuf.c text.c)
$(B)/fuzz/fuzz_parse: tests/fuzz/fuzz_parse.c $(FUZZ_PARSE_SRC) $(wildcard collect/read/*.h common/*.h)
	$(call say,FUZZCC,$@)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(COLLECT_CPPFLAGS) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_parse.c $(FUZZ_PARSE_SRC)

$(B)/fuzz/fuzz_merge: tests/fuzz/fuzz_merge.c $(FUZZ_COLLECT_SRC) $(wildcard collect/*/*.h common/*.h)
	$(call say,FUZZCC,$@)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(COLLECT_CPPFLAGS) -D_GNU_SOURCE $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_merge.c \
		$(FUZZ_COLLECT_SRC)

# The seeds: real outputs, damaged ones, and pairs of them as one merge input.
fuzz-corpus:
	@mkdir -p $(B)/fuzz/corpus $(B)/fuzz/corpus-merge
	@for f in tests/data/smoke/raw/*.out tests/data/collect/damaged/in/* tests/data/peers/*.txt \
		tests/data/peers/*.fabric tests/data/fabric/raw/*.out; do \
		n=seed-$$(basename "$$(dirname "$$f")")-$$(basename "$$f"); \
		cp "$$f" "$(B)/fuzz/corpus/$$n"; \
		{ cat "$$f"; printf '\n#~~\n'; cat tests/data/smoke/raw/smoke-n1-contiguous-19.out; } \
			>"$(B)/fuzz/corpus-merge/$$n"; \
	done

# The files a user names, each through the door (common/text.h) by its real
# parser: aller's (worlds, matrix and trace files, fabric files; MPI's
# wrapper with clang) and collect's (merged tables, other tools' outputs,
# manifests); tests/fuzz/files.dict holds values that broke readers before.
FUZZ_ALLER_SRC := $(ALLER_LIB_SRC:%=aller/%) $(COMMON_SRC:%=common/%)
$(B)/fuzz/fuzz_aller_files: tests/fuzz/fuzz_aller_files.c $(FUZZ_ALLER_SRC) $(wildcard aller/*.h aller/*/*.h common/*.h)
	$(call say,FUZZCC,$@)
	@mkdir -p $(@D)
	$(Q)OMPI_CC=$(FUZZ_CC) MPICH_CC=$(FUZZ_CC) $(MPICC) $(ALLER_CPPFLAGS) $(FUZZ_FLAGS) -o $@ \
		tests/fuzz/fuzz_aller_files.c $(FUZZ_ALLER_SRC) -lm
$(B)/fuzz/fuzz_collect_files: tests/fuzz/fuzz_collect_files.c $(FUZZ_COLLECT_SRC) $(wildcard collect/*/*.h common/*.h)
	$(call say,FUZZCC,$@)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(COLLECT_CPPFLAGS) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_collect_files.c \
		$(FUZZ_COLLECT_SRC) -lm

# make fuzz: every target FUZZ_SECONDS (60) each, its findings under
# $(B)/fuzz/TARGET-*; make test runs it for FUZZ_TEST_SECONDS (5) each, from
# one seed (FUZZ_SEED=1: the same inputs each run, so CI does not find today
# what it missed yesterday by chance; make fuzz alone seeds from the clock).
FUZZ_TARGETS := fuzz_parse fuzz_merge fuzz_aller_files fuzz_collect_files
FUZZ_TEST_SECONDS ?= 5
.PHONY: fuzz fuzz-collect fuzz-corpus
fuzz: deps $(FUZZ_TARGETS:%=$(B)/fuzz/%) fuzz-corpus
	@mkdir -p $(B)/fuzz/corpus-files
	@cp tests/data/peers/* tests/data/findings/merged/* $(B)/fuzz/corpus-files/
	@set -e; for t in $(FUZZ_TARGETS); do \
		case $$t in fuzz_parse) c=corpus ;; fuzz_merge) c=corpus-merge ;; *) c=corpus-files ;; esac; \
		echo "fuzz: $$t, $(FUZZ_SECONDS) s"; \
		$(B)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=1 -close_fd_mask=3 $(if $(FUZZ_SEED),-seed=$(FUZZ_SEED)) \
			-dict=tests/fuzz/files.dict -artifact_prefix=$(B)/fuzz/$$t- $(B)/fuzz/$$c; \
	done

fuzz-collect: deps $(B)/fuzz/fuzz_parse $(B)/fuzz/fuzz_merge fuzz-corpus
	$(B)/fuzz/fuzz_parse -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=1 \
		-artifact_prefix=$(B)/fuzz/ $(B)/fuzz/corpus
	$(B)/fuzz/fuzz_merge -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=1 -close_fd_mask=2 \
		-artifact_prefix=$(B)/fuzz/merge- $(B)/fuzz/corpus-merge

# The checks that need a GPU (tests/gpu/run.sh builds CUDA=1 NCCL=1 itself).
$(B)/tests/gpu-kernels: tests/gpu/kernels.c $(O)/aller/buffers/buffers_cuda.o \
		$(O)/aller/buffers/gpuinfo.o $(O)/aller/buffers/nvml.o
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(MPICC) $(ALLER_CPPFLAGS) -isystem $(CUDA_HOME)/include $(ALLER_CFLAGS) $(CFLAGS) -o $@ $^ \
		$(ALLER_CUDA_LIBS) $(LDLIBS)

.PHONY: gpu-check gpu-peers
gpu-check:
	@bash tests/gpu/run.sh
# aller's --timing=nccl beside nccl-tests' alltoall_perf (NCCL_TESTS=DIR or .tar.gz)
gpu-peers:
	@NCCL_TESTS="$(NCCL_TESTS)" bash tests/gpu/peers.sh
