# common/: what aller and collect share: the raw output format (format.h),
# the merged format (merged.h, merged.c), byte sizes, directories, the
# growable array (grow.h), the growable string (strbuf.h), results written
# whole or not at all (replace.h, outset.h), the fabric's bound (bound.h), its flows (flows.h), a
# site's fabric file (fabricfile.h), a declared table's writer (tablerow.h),
# the one median (median.h).
# Plain C without MPI, compiled once with $(CC) and linked into both.
COMMON_SRC := bytes.c bound.c dirs.c fabricfile.c flows.c grow.c median.c merged.c namehash.c outset.c partition.c replace.c stacks.c strbuf.c \
	tablerow.c text.c
COMMON_OBJ := $(COMMON_SRC:%.c=$(O)/common/%.o)

$(O)/common/%.o: common/%.c $(B)/flags
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) -Icommon $(CPPFLAGS) $(ALLER_CFLAGS) $(CFLAGS) -c -o $@ $<
