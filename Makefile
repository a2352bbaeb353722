# aller: a Slurm campaign toolkit for MPI all-to-all measurements.
# One non-recursive Makefile; fragments per directory are included below.
#
#   make                 build build/bin/aller and build/bin/collect (and the local
#                        cluster's build/bin/cluster-plan)
#   make CUDA=1          aller with CUDA device buffers (CUDA_HOME=/usr/local/cuda;
#                        NVCC_ARCH= the -gencode list or CUDA_ARCHS="80 90",
#                        NVCCFLAGS= nvcc flags)
#   make CUDA=1 NCCL=1   ... and --transport=nccl (NCCL_HOME=$(CUDA_HOME))
#   make test            every test, through prove (TAP)
#   make test-quick      the edit-compile-test loop: unit, command-line and MPI
#                        tests against this build (under 3 minutes)
#   make demo            local Slurm cluster, smoke campaign, plots
#   make install PREFIX=/opt/aller DESTDIR=...
#
# CFLAGS, CPPFLAGS, LDFLAGS and LDLIBS are yours; internal flags live in
# ALLER_* variables and yours are appended last. V=1 shows the commands.

# MPI=mpich: aller against Debian's MPICH (mpicc.mpich) in its own build
# tree, build/mpich, beside the Open MPI one. MPICH's mpi.h marks
# MPI_STATUSES_IGNORE so that gcc 12 warns falsely (-Wstringop-overflow).
MPI ?= openmpi
ifeq ($(MPI),mpich)
MPICC ?= mpicc.mpich
B ?= build/mpich
MPI_WARN := -Wno-stringop-overflow
else ifneq ($(MPI),openmpi)
$(error MPI=$(MPI): allowed are openmpi (the default) and mpich)
endif
MPICC ?= mpicc
NVCC ?= nvcc
CUDA ?= 0
CUDA_HOME ?= /usr/local/cuda
NCCL ?= 0
NCCL_HOME ?= $(CUDA_HOME)
# Device code for A100 (sm_80) and H100/H200 (sm_90), and PTX for newer GPUs.
NVCC_ARCH ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
	-gencode arch=compute_90,code=compute_90
# CUDA_ARCHS="80 90" (or "8.0 9.0", "sm_80 sm_90"): that -gencode list
# instead, from compute capabilities as Spack's cuda_arch and EasyBuild's
# cuda_compute_capabilities give them.
ifneq ($(strip $(CUDA_ARCHS)),)
NVCC_ARCH := $(foreach a,$(subst .,,$(patsubst sm_%,%,$(CUDA_ARCHS))),-gencode arch=compute_$(a),code=sm_$(a))
endif
NVCCFLAGS ?= -O2
PREFIX ?= /usr/local
WERROR ?= 0

CFLAGS ?= -O2 -g
B ?= build
O := $(B)/obj

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes $(MPI_WARN)
NVCC_WARN := -Xcompiler -Wall,-fPIC
ifeq ($(WERROR),1)
WARN += -Werror
NVCC_WARN += -Werror all-warnings -Xcompiler -Werror
endif
ALLER_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -MMD -MP
ALLER_CPPFLAGS := -Ialler -Icommon
ALLER_LDLIBS := -lm

ifeq ($(V),1)
Q :=
say = @:
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
# make -s: silent, as make's own -s means
Q := @
say = @:
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2);
endif

.PHONY: all clean deps deps-demo deps-reframe reframe test test-quick check sanitize install export trend undrain isolate schedule unschedule bench-aller bench-bound bench-collect bench-fabric bench-reveal bench-campaign bench-scale bench-startup bench-demo bench-report \
	fuzz-collect demo plots campaign simulate bench-simulate status cluster-up cluster-down cluster-status
all: $(B)/bin/aller $(B)/bin/collect $(B)/bin/simulate

# Switching CUDA, compilers or flags rebuilds what depends on them.
FLAGS_NOW := MPI=$(MPI) CUDA=$(CUDA) MPICC=$(MPICC) CC=$(CC) NVCC=$(NVCC) CUDA_HOME=$(CUDA_HOME) \
	CFLAGS=$(CFLAGS) CPPFLAGS=$(CPPFLAGS) LDFLAGS=$(LDFLAGS) LDLIBS=$(LDLIBS) WERROR=$(WERROR) \
	NVCC_ARCH=$(NVCC_ARCH) NVCCFLAGS=$(NVCCFLAGS) NCCL=$(NCCL) NCCL_HOME=$(NCCL_HOME)
$(B)/flags: FORCE
	@mkdir -p $(B)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(FLAGS_NOW)' ]; then echo '$(FLAGS_NOW)' >$@; fi
FORCE:

include common/build.mk
include aller/build.mk
include collect/build.mk
include tests/build.mk
include simulate/build.mk
include cluster/build.mk
include campaigns/build.mk
include plots/build.mk
include bench/build.mk

# Debian packages by what needs them (tools/deps.sh): deps all of them (make
# test), deps-demo the demo's and the local cluster's, deps-reframe ReFrame's.
deps:
	@bash tools/deps.sh
deps-demo:
	@bash tools/deps.sh demo $(if $(filter 1,$(CLUSTER_ACCOUNTING)),accounting)
deps-reframe:
	@bash tools/deps.sh reframe

# aller's ReFrame checks on the local cluster (reframe/run.sh: the vendored
# ReFrame 4.9.3; REFRAME_ARGS go to ReFrame, e.g. -n, -S busbw_ref=GBPS).
reframe: deps-reframe all cluster-up
	@bash reframe/run.sh $(REFRAME_ARGS)

# The toolkit in a shared software tree: binaries in bin/, the scripts in
# share/aller/ (they find the binaries relative to themselves), wrappers
# aller-campaign, aller-status, aller-plots, aller-compare, aller-report,
# aller-export, aller-trend, aller-isolate, aller-undrain, aller-schedule and aller-simulate
# that work from any directory.
SHARE_FILES := jobs/aller.sbatch jobs/job-lib.sh jobs/finish.sbatch $(wildcard sh/*.sh) $(wildcard campaigns/*.sh) campaigns/vars \
	$(wildcard campaigns/*.conf) $(wildcard plots/*.sh) $(wildcard plots/*.gp) plots/report-head.html $(wildcard docs/*.md) \
	reframe/aller.py reframe/local.py
# What an installed copy says it is (a source tree asks git).
MAN_PAGES := man/aller.1 man/collect.1 man/aller-campaign.1
ALLER_VERSION := $(shell sed -n 's/^\#define ALLER_VERSION "\(.*\)"$$/\1/p' common/format.h)
TOOLKIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
install: all
	$(call say,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/aller/jobs $(DESTDIR)$(PREFIX)/share/aller/sh \
		$(DESTDIR)$(PREFIX)/share/aller/campaigns $(DESTDIR)$(PREFIX)/share/aller/plots \
		$(DESTDIR)$(PREFIX)/share/aller/docs $(DESTDIR)$(PREFIX)/share/aller/reframe
	$(Q)install -m 755 $(B)/bin/aller $(B)/bin/collect $(B)/bin/simulate $(DESTDIR)$(PREFIX)/bin/
	$(Q)install -m 755 tools/param2trace $(DESTDIR)$(PREFIX)/bin/aller-param2trace
	$(Q)for f in $(SHARE_FILES); do \
		install -m $$(test -x $$f && echo 755 || echo 644) $$f $(DESTDIR)$(PREFIX)/share/aller/$$f || exit 1; \
	done
	$(Q)echo '$(ALLER_VERSION) ($(TOOLKIT_REV), installed)' >$(DESTDIR)$(PREFIX)/share/aller/VERSION
	$(Q)for w in campaign:campaigns/submit.sh status:campaigns/status.sh plots:plots/plot.sh \
		compare:plots/compare.sh report:plots/report.sh export:plots/export.sh \
		trend:plots/trend.sh isolate:campaigns/isolate.sh undrain:campaigns/undrain.sh \
		schedule:campaigns/schedule.sh simulate:campaigns/simulate.sh; do \
		printf '#!/bin/sh\n# installed by aller'"'"'s make install\nexec bash "$$(dirname "$$0")/../share/aller/%s" "$$@"\n' \
			"$${w#*:}" >$(DESTDIR)$(PREFIX)/bin/aller-$${w%%:*}; \
		chmod 755 $(DESTDIR)$(PREFIX)/bin/aller-$${w%%:*}; \
	done
	$(Q)install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/modulefiles/aller
	$(Q)install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	$(Q)for w in status plots compare report export trend isolate undrain schedule; do \
		echo '.so man1/aller-campaign.1' >$(DESTDIR)$(PREFIX)/share/man/man1/aller-$$w.1; \
	done
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(ALLER_VERSION)|g' modules/aller.lua \
		>$(DESTDIR)$(PREFIX)/share/modulefiles/aller/$(ALLER_VERSION).lua
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(ALLER_VERSION)|g' modules/aller.tcl \
		>$(DESTDIR)$(PREFIX)/share/modulefiles/aller/$(ALLER_VERSION)

clean:
	rm -rf $(B)

# the compilers' dependency files (not what a campaign or a test left under $(B))
-include $(shell find $(O) $(B)/tests -name '*.d' -type f 2>/dev/null)
