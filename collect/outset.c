/* outset.c: see outset.h. */
#include "outset.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "dirs.h"

int outset_dir(const char *dir)
{
	if (dirs_make(dir) == 0)
		return 0;
	fprintf(stderr, "collect: error: cannot create the output directory '%s': %s\n", dir,
		strerror(errno));
	return -1;
}

int outset_open(struct outset *o, const char *dir, const char *const *names, int n,
		size_t buffer)
{
	memset(o, 0, sizeof(*o));
	for (int i = 0; i < n && i < OUTSET_MAX; i++) {
		snprintf(o->final[i], sizeof(o->final[i]), "%s/%s", dir, names[i]);
		snprintf(o->tmp[i], sizeof(o->tmp[i]), "%s/.%s.tmp.%ld", dir, names[i],
			 (long)getpid());
		o->n = i + 1;
		if (!(o->f[i] = fopen(o->tmp[i], "w"))) {
			fprintf(stderr, "collect: error: cannot write '%s': %s\n", o->tmp[i],
				strerror(errno));
			return -1;
		}
		if (buffer)
			setvbuf(o->f[i], NULL, _IOFBF, buffer);
	}
	return 0;
}

int outset_commit(struct outset *o, int failed)
{
	for (int i = 0; i < o->n; i++) {
		if (o->f[i] && (ferror(o->f[i]) | fclose(o->f[i])) && !failed) {
			fprintf(stderr, "collect: error: cannot write '%s': %s\n", o->tmp[i],
				strerror(errno));
			failed = 1;
		}
		o->f[i] = NULL;
	}
	for (int i = 0; i < o->n; i++) {
		if (failed)
			unlink(o->tmp[i]);
		else if (rename(o->tmp[i], o->final[i]) != 0) {
			fprintf(stderr, "collect: error: cannot rename '%s': %s\n", o->tmp[i],
				strerror(errno));
			failed = 1;
		}
	}
	o->n = 0;
	return failed ? -1 : 0;
}
