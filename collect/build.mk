# collect/: the collector. Plain C, no MPI; shares common/ with aller.
# The face (main.c: the modes and options) and its wings: read/ (aller's
# outputs, point files, hosts, splits, --state, --samples), merge/ (the merge,
# its groups, rows and views, the merged tables written), model/ (a merged
# campaign read back by name, once: the one reader of the merged tables),
# judge/ (models, findings, suspects, the tomography, trend and change points:
# from the model only; which hosts straggle in --samples' calls, read/'s),
# compare/ (--compare) and export/ (--openmetrics, --plots: what the plots
# draw, from the model). No two wings include each other
# (tests/cli/wings.bats); wings include others' headers as "wing/name.h".
COLLECT_LIB_SRC := $(addprefix read/,parse.c point.c input.c splits.c hosts.c fabric.c state.c status.c samples.c peer.c) \
	$(addprefix merge/,merge.c groups.c store.c row.c emit.c setrow.c line.c) model/campaign.c model/health.c \
	$(addprefix judge/,findings.c findings_kinds.c findings_across.c models.c changepoint.c \
		trend.c suspects.c fbound.c locate.c findings_rank.c stragglers.c against.c \
		findings_nics.c nics.c topology.c findings_topology.c) \
	$(addprefix compare/,compare.c compare_side.c compare_out.c compare_run.c) \
	export/export.c export/plots.c export/plots_kinds.c
COLLECT_SRC := main.c $(COLLECT_LIB_SRC)
COLLECT_OBJ := $(COLLECT_SRC:%.c=$(O)/collect/%.o) $(COMMON_OBJ)
COLLECT_LIB_OBJ := $(COLLECT_LIB_SRC:%.c=$(O)/collect/%.o) $(COMMON_OBJ)
COLLECT_CPPFLAGS := -Icollect -Icommon

$(O)/collect/%.o: collect/%.c $(B)/flags
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(COLLECT_CPPFLAGS) $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/bin/collect: $(COLLECT_OBJ)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lm $(LDLIBS)
