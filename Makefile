# aller: a Slurm campaign toolkit for MPI all-to-all measurements.
# One non-recursive Makefile; fragments per directory are included below.
#
#   make                 build build/bin/aller and build/bin/collect
#   make CUDA=1          aller with CUDA device buffers (CUDA_HOME=/usr/local/cuda)
#   make test            every test, through prove (TAP)
#   make demo            local Slurm cluster, smoke campaign, plots
#   make install PREFIX=/opt/aller DESTDIR=...
#
# CFLAGS, CPPFLAGS, LDFLAGS and LDLIBS are yours; internal flags live in
# ALLER_* variables and yours are appended last. V=1 shows the commands.

MPICC ?= mpicc
NVCC ?= nvcc
CUDA ?= 0
CUDA_HOME ?= /usr/local/cuda
PREFIX ?= /usr/local
WERROR ?= 0

CFLAGS ?= -O2 -g
B := build
O := $(B)/obj

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(WERROR),1)
WARN += -Werror
endif
ALLER_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -MMD -MP
ALLER_CPPFLAGS := -Ialler
ALLER_LDLIBS := -lm

ifeq ($(V),1)
Q :=
say = @:
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2);
endif

.PHONY: all clean deps test check sanitize install bench-aller bench-collect \
	fuzz-collect demo plots campaign status cluster-up cluster-down cluster-status
all: $(B)/bin/aller $(B)/bin/collect

# Switching CUDA, compilers or flags rebuilds what depends on them.
FLAGS_NOW := CUDA=$(CUDA) MPICC=$(MPICC) CC=$(CC) NVCC=$(NVCC) CUDA_HOME=$(CUDA_HOME) \
	CFLAGS=$(CFLAGS) CPPFLAGS=$(CPPFLAGS) LDFLAGS=$(LDFLAGS) LDLIBS=$(LDLIBS) WERROR=$(WERROR)
$(B)/flags: FORCE
	@mkdir -p $(B)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(FLAGS_NOW)' ]; then echo '$(FLAGS_NOW)' >$@; fi
FORCE:

include aller/build.mk
include collect/build.mk
include tests/build.mk
include cluster/build.mk
include campaigns/build.mk
include plots/build.mk
include bench/build.mk

deps:
	@bash tools/deps.sh

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
