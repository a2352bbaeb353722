# collect/: the merger. Plain C, no MPI; shares aller/format.h.
COLLECT_LIB_SRC := merge.c emit.c parse.c point.c input.c state.c
COLLECT_SRC := main.c $(COLLECT_LIB_SRC)
# Shared with aller, compiled here with $(CC).
COLLECT_SHARED := dirs.c bytes.c
COLLECT_SHARED_OBJ := $(COLLECT_SHARED:%.c=$(O)/collect/shared/%.o)
COLLECT_OBJ := $(COLLECT_SRC:%.c=$(O)/collect/%.o) $(COLLECT_SHARED_OBJ)
COLLECT_LIB_OBJ := $(COLLECT_LIB_SRC:%.c=$(O)/collect/%.o) $(COLLECT_SHARED_OBJ)
COLLECT_CPPFLAGS := -Icollect -Ialler

$(O)/collect/%.o: collect/%.c $(B)/flags
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(COLLECT_CPPFLAGS) $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/collect/shared/%.o: aller/%.c $(B)/flags
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(COLLECT_CPPFLAGS) $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/bin/collect: $(COLLECT_OBJ)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
