# bench/: benchmarks that print figures (never timed tests).
# (--split's counts from aller's own split.c: the same counts, the plain calls)
$(B)/bench/a2a_loop: bench/a2a_loop.c $(O)/aller/plan/split.o $(O)/common/grow.o $(B)/flags
	$(call say,CCLD,$@)
	@mkdir -p $(@D)
	$(Q)$(MPICC) $(ALLER_CPPFLAGS) $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(O)/aller/plan/split.o $(O)/common/grow.o $(ALLER_LDLIBS) $(LDLIBS)

# Synthetic outputs written by aller's own output code.
$(B)/bench/gen_outputs: bench/gen_outputs.c $(ALLER_LIB_OBJ) $(B)/flags
	$(call say,CCLD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALLER_CPPFLAGS) $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(ALLER_LIB_OBJ) $(ALLER_LDLIBS) $(LDLIBS)

bench-aller: deps all $(B)/bench/a2a_loop
	@bash bench/bench-aller.sh

bench-collect: deps all $(B)/bench/gen_outputs
	@bash bench/bench-collect.sh

# A simulated campaign's simulate, merge and judge times at 128 to 4,096 nodes, then the
# detection power on three big fabrics (docs/simulate.md; DETECT_RUNS=N, FABRICS=...).
bench-simulate: all
	@bash bench/bench-simulate.sh
	@bash bench/bench-detect.sh

bench-detect: all
	@bash bench/bench-detect.sh

# The fabric model's (bound, bottleneck, located link) share of the merge.
bench-bound: deps all $(B)/bench/gen_outputs
	@bash bench/bench-bound.sh

# Rows against the local fabric's bound across its oversubscription and NIC rates.
bench-fabric: deps-demo all
	@bash bench/bench-fabric.sh

# MPI start-ups on the local cluster under load, by Slurm's PMIx fence
# collective (the crash in MPI_Init: docs/troubleshooting.md).
bench-startup: deps-demo all cluster-up
	@bash bench/bench-startup.sh

bench-reveal: deps all
	@bash bench/bench-reveal.sh

bench-campaign: deps all
	@bash bench/bench-campaign.sh

# P = 10^6 on 10^4 nodes, pure parts: a task's bytes, its peers, rank 0's host lines.
bench-scale: $(B)/tests/test_scale
	@$(B)/tests/test_scale | sed -n 's/^# scale: //p'

# make demo's steps timed apart: packages, build, cluster, queue, jobs, final job.
bench-demo: all
	@bash bench/bench-demo.sh

# make report's parts: its plots (gnuplot), its status, the page.
bench-report: all
	@bash bench/bench-report.sh
