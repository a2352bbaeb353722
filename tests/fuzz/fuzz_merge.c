/*
 * libFuzzer target: whole files through collect's reader (input.c) and
 * merge (merge.c, emit.c): the input is split at each "\n#~~\n" into up to 6
 * job outputs, written to a directory on tmpfs and merged from it, as a
 * campaign's raw directory is. Run with 'make fuzz-collect'.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read/input.h"
#include "judge/findings.h"
#include "merge/merge.h"

#define SEP "\n#~~\n"
#define MAX_FILES 6

static char in_dir[256], out_dir[256];

/* Empties a directory of the files this target writes into it. */
static void clear(const char *dir, int n)
{
	static const char *const outs[] = { "bandwidth.dat", "concurrency.dat", "scaling.dat",
					    "points.csv", "summary.txt" };
	char path[512];

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%d.out", dir, i);
		unlink(path);
	}
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", out_dir, outs[i]);
		unlink(path);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct merge_options o = { .outdir = out_dir, .quiet = 1, .then = findings_run };   /* (the findings judged too) */
	struct filelist files = { 0 };
	struct summary s;
	const char *p = (const char *)data, *end = p + size;
	char err[4608], path[512];
	int n = 0;

	if (!in_dir[0]) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(in_dir, sizeof(in_dir), "%s/fuzz-merge-in-%d", base, (int)getpid());
		snprintf(out_dir, sizeof(out_dir), "%s/fuzz-merge-out-%d", base, (int)getpid());
		mkdir(in_dir, 0755);
	}
	while (p <= end && n < MAX_FILES) {
		const char *sep = memmem(p, (size_t)(end - p), SEP, strlen(SEP));
		const char *stop = sep && n < MAX_FILES - 1 ? sep : end;
		FILE *f;
		snprintf(path, sizeof(path), "%s/f%d.out", in_dir, n++);
		if (!(f = fopen(path, "w")))
			abort();
		fwrite(p, 1, (size_t)(stop - p), f);
		fclose(f);
		if (stop == end)
			break;
		p = stop + strlen(SEP);
	}
	if (input_add(&files, in_dir, err, sizeof(err)) != 0)
		abort();
	/* the merge never crashes; it exits 0, 1 (warnings), 2 (no aller output among them) or 3 */
	if (files.n > 0 && (unsigned)merge_run(&o, &files, &s) > 3)
		abort();
	filelist_release(&files);
	clear(in_dir, n);
	return 0;
}
