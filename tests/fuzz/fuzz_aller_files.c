/*
 * libFuzzer target: the files a user names to aller, each read through the
 * door (common/text.h) by its real parser: the bytes as an @FILE world list
 * (--check-args=@FILE, options_parse), as a --split=matrix: and a trace:
 * file (split_matrix_load), and as a fabric file (ranges such as n[1-4])
 * bound for a world on n[1-4] (--check-args=4 --nodes=n[1-4] --fabric=FILE,
 * foresee_print). Each is read or refused with one line, never a crash.
 * Seeds: the fabric files of tests/data/peers; dictionary tests/fuzz/files.dict. Run
 * with 'make fuzz' (FUZZ_SECONDS each).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "plan/foresee.h"
#include "plan/split.h"

static char file[256];

/* aller's options from argv, as its main parses them: 0, or -1 with a message (else abort). */
static int parse(struct options *o, char **argv)
{
	char err[8192] = "";
	int argc = 0, rc;

	while (argv[argc])
		argc++;
	options_init(o);
	rc = options_parse(o, argc, argv, err, sizeof(err));
	if (rc != 0 && (!err[0] || strchr(err, '\n')))
		abort();
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char worlds[300], matrix[300], trace[300], fabric[300], err[8192];
	struct options o;
	FILE *f;

	if (!file[0])
		snprintf(file, sizeof(file), "%s/fuzz-aller-%d", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
			 (int)getpid());
	if (!(f = fopen(file, "w")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	snprintf(worlds, sizeof(worlds), "--check-args=@%s", file);
	snprintf(matrix, sizeof(matrix), "--split=matrix:%s", file);
	snprintf(trace, sizeof(trace), "--split=trace:%s", file);
	snprintf(fabric, sizeof(fabric), "--fabric=%s", file);
	parse(&o, (char *[]){ "aller", worlds, "c", NULL });
	for (int k = 0; k < 2; k++)
		if (parse(&o, (char *[]){ "aller", "--check-args=4", k ? trace : matrix, "c", "1", "64", NULL }) == 0) {
			err[0] = '\0';
			if (split_matrix_load(&o.splits[0], err, sizeof(err)) != 0 && !err[0])
				abort();
			split_free(&o.splits[0]);
		}
	if (parse(&o, (char *[]){ "aller", "--check-args=4", "--nodes=n[1-4]", fabric, "c", "1", "64", NULL }) == 0) {
		FILE *out = fopen("/dev/null", "w");
		err[0] = '\0';
		if (!out || (foresee_print(&o, o.check_args, out, err, sizeof(err)) != 0 && !err[0]))
			abort();
		fclose(out);
	}
	return 0;
}
