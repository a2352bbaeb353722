# simulate/: build/bin/simulate (make simulate, aller-simulate), one aller output drawn from the fabric model
# (docs/simulate.md): plain C, no MPI, linking common/ (the fabric file,
# the bound, the output format). make simulate (campaigns/simulate.sh)
# runs it per point and merges the outputs with collect.
SIMULATE_SRC := main.c model.c pairs.c
SIMULATE_OBJ := $(SIMULATE_SRC:%.c=$(O)/simulate/%.o) $(O)/simulate/linkmap.o $(COMMON_OBJ)
SIMULATE_LIB_OBJ := $(O)/simulate/model.o $(COMMON_OBJ)

$(O)/simulate/%.o: simulate/%.c $(B)/flags
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) -Isimulate -Ialler/modes -Icommon $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) -c -o $@ $<

# --pairs' slow links by aller's one rule: its pure linkmap.c, compiled without MPI.
$(O)/simulate/linkmap.o: aller/modes/linkmap.c $(B)/flags
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) -Ialler/modes -Icommon $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/bin/simulate: $(SIMULATE_OBJ)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lm $(LDLIBS)

$(B)/tests/test_simulate: tests/unit/test_simulate.c $(SIMULATE_LIB_OBJ)
	$(call say,CCLD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) -Isimulate -Icommon $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) \
		-lcmocka -lm $(LDLIBS)
unit-tests: $(B)/tests/test_simulate
UNIT_BIN += $(B)/tests/test_simulate
SAN_UNIT_BIN += $(B)/san/tests/test_simulate
