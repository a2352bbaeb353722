# aller/: the benchmark. Built with $(MPICC); CUDA=1 adds device buffers.
# The face (main, run, options, output) and its wings: plan/ (partitions,
# selection, splits, statistics), sweep/ (the sweep, its timing disciplines,
# samples, the timeout), modes/ (--pairs, --congestion), world/ (the world,
# its hosts, the failure policy, test hooks), algo/ (the all-to-all
# algorithms), reveal/ (MPI_T), buffers/ (host and device memory,
# verification, GPUs). No two wings include each other (tests/cli/wings.bats).
ALLER_LIB_SRC := options.c options_table.c output.c json.c plan/plan.c plan/foresee.c plan/split.c plan/select.c \
	plan/stats.c plan/hist.c plan/floor.c world/eff.c world/faults.c world/hostmap.c world/limits.c world/counters.c world/qdisc.c world/placement.c world/launched.c \
	modes/linkmap.c algo/algo_list.c \
	algo/osc.c buffers/gpu.c buffers/verify.c buffers/memcheck.c buffers/buffers_host.c \
	buffers/footprint.c buffers/gpuinfo.c reveal/traffic.c
# every algorithm's file (format.h's list names them); NCCL's only in a NCCL build
ALLER_ALGO_SRC := algo/algo.c $(patsubst aller/%,%,$(filter-out aller/algo/algo_list.c \
	aller/algo/algo_nccl.c,$(wildcard aller/algo/algo_*.c)))
ALLER_SRC := main.c run.c modes/pairs.c modes/congest.c sweep/sweep.c sweep/sweep_count.c \
	sweep/sweep_calls.c sweep/moe.c sweep/samples.c sweep/timeout.c plan/bigcount.c world/world.c world/nodelimits.c world/nodecounters.c world/fabricmap.c buffers/copyrate.c \
	world/failure.c world/must.c buffers/setup.c reveal/reveal.c reveal/reveal_generic.c \
	reveal/reveal_peers.c reveal/reveal_queues.c $(ALLER_ALGO_SRC) $(ALLER_LIB_SRC)
ifeq ($(CUDA),1)
ALLER_CU := $(O)/aller/buffers/buffers_cuda.o
ALLER_SRC += buffers/nvml.c
ALLER_CUDA_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lstdc++
ifeq ($(NCCL),1)
# --transport=nccl: NCCL from NCCL_HOME (its include/ and lib64/ or lib/)
ALLER_SRC += algo/algo_nccl.c
# (their headers are not ours to warn about)
ALLER_CPPFLAGS += -DALLER_NCCL -isystem $(NCCL_HOME)/include -isystem $(CUDA_HOME)/include
ALLER_CUDA_LIBS := -L$(NCCL_HOME)/lib64 -L$(NCCL_HOME)/lib -Wl,-rpath,$(NCCL_HOME)/lib64 \
	-Wl,-rpath,$(NCCL_HOME)/lib -lnccl $(ALLER_CUDA_LIBS)
endif
else
ifeq ($(NCCL),1)
$(error NCCL=1 needs CUDA=1: NCCL moves device memory)
endif
ALLER_SRC += buffers/buffers_nocuda.c
ALLER_CU :=
ALLER_CUDA_LIBS :=
endif
ALLER_OBJ := $(ALLER_SRC:%.c=$(O)/aller/%.o) $(ALLER_CU) $(COMMON_OBJ)
# The pure modules, for the unit tests (no MPI runtime needed).
ALLER_LIB_OBJ := $(ALLER_LIB_SRC:%.c=$(O)/aller/%.o) $(COMMON_OBJ)

$(O)/aller/%.o: aller/%.c $(B)/flags
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(MPICC) $(ALLER_CPPFLAGS) $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/aller/buffers/buffers_cuda.o: aller/buffers/buffers_cuda.cu aller/buffers/buffers.h \
		aller/buffers/verify.h aller/options.h aller/plan/select.h aller/buffers/gpu.h \
		aller/buffers/gpuinfo.h aller/buffers/nvml.h \
		aller/algo/algo_list.h $(B)/flags
	$(call say,NVCC,$@)
	@mkdir -p $(@D)
	$(Q)$(NVCC) -Ialler -Icommon $(NVCC_ARCH) $(NVCCFLAGS) $(NVCC_WARN) -c -o $@ $<

$(B)/bin/aller: $(ALLER_OBJ)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(MPICC) $(LDFLAGS) -o $@ $^ $(ALLER_LDLIBS) $(ALLER_CUDA_LIBS) $(LDLIBS)
