# collect/: the merger. Plain C, no MPI; shares common/ with aller.
COLLECT_LIB_SRC := table.c export.c trend.c changepoint.c suspects.c hosts.c fbound.c findings.c findings_kinds.c findings_across.c models.c merge.c outset.c groups.c splits.c samples.c compare.c compare_side.c compare_out.c compare_run.c emit.c setrow.c row.c line.c store.c parse.c point.c input.c state.c
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
