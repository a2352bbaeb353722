/* outset.c: see outset.h. */
#include "outset.h"
#include "text.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "replace.h"

int outset_dir(const char *dir)
{
	char err[8400];

	if (replace_dir(dir, 1, err, sizeof(err)) == 0)
		return 0;
	return text_error(-1, "collect: error: %s\n", err);
}

int outset_open(struct outset *o, const char *dir, const char *const *names, int n,
		size_t buffer)
{
	memset(o, 0, sizeof(*o));
	for (int i = 0; i < n && i < OUTSET_MAX; i++) {
		char path[4096], err[4400];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (replace_target(path, NULL, o->final[i], sizeof(o->final[i]), err, sizeof(err)) != 0)
			return text_error(-1, "collect: error: %s\n", err);
		snprintf(path, sizeof(path), "%s", o->final[i]);   /* a copy: snprintf's arguments never overlap */
		snprintf(o->tmp[i], sizeof(o->tmp[i]), "%s.tmp.%ld", path, (long)getpid());
		o->n = i + 1;
		if (!(o->f[i] = replace_create(o->tmp[i], "", err, sizeof(err))))
			return text_error(-1, "collect: error: %s\n", err);
		if (buffer)
			setvbuf(o->f[i], NULL, _IOFBF, buffer);
	}
	return 0;
}

int outset_commit(struct outset *o, int failed)
{
	char err[8400];

	for (int i = 0; i < o->n; i++) {
		if (o->f[i] && (ferror(o->f[i]) | fclose(o->f[i])) && !failed)
			failed = text_error(1, "collect: error: cannot write '%s': %s\n", o->tmp[i],
				strerror(errno));
		o->f[i] = NULL;
	}
	for (int i = 0; i < o->n; i++) {
		if (failed)
			unlink(o->tmp[i]);
		else if (replace_commit(NULL, o->tmp[i], o->final[i], NULL, err, sizeof(err)) != 0) {
			text_error(0, "collect: error: %s\n", err);
			failed = 1;
		}
	}
	o->n = 0;
	return failed ? -1 : 0;
}
