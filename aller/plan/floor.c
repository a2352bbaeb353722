/* floor.c: see floor.h. */
#include "floor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "select.h"

const struct floor_kind floor_busbw = { "busbw", " GB/s", 1e6,   /* a petabyte per second */
					 "decimal GB/s above 0, at most 1000000" };
const struct floor_kind floor_eff = { "eff", "", 1, "a fraction of the limit above 0, at most 1" };

int floor_parse(const char *opt, const struct floor_kind *k, const char *val, struct floor *f,
		char *err, size_t errlen)
{
	char num[64], size[64];
	const char *at = strchr(val, '@');
	size_t n = at ? (size_t)(at - val) : strlen(val), m;
	double v;

	memset(f, 0, sizeof(*f));
	snprintf(num, sizeof(num), "%.*s", (int)(n < sizeof(num) ? n : sizeof(num) - 1), val);
	if (strlen(val) >= sizeof(num) || parse_double(num, 0, k->max, &v, NULL) != 0 || !(v > 0)) {
		snprintf(err, errlen, "invalid %s '%s': expected %s, optionally @SIZE (that per-peer "
			 "size) or @SIZE+ (it and larger), e.g. %s=%s@1M+", opt, val, k->expect, opt,
			 k == &floor_eff ? "0.5" : "2.5");
		return -1;
	}
	f->kind = k;
	f->min = v;
	if (!at)
		return 0;
	m = strlen(at + 1);
	f->from_up = m > 0 && at[m] == '+';
	snprintf(size, sizeof(size), "%.*s", (int)(m - (size_t)f->from_up), at + 1);
	return select_parse_size(opt, size, &f->bytes, err, errlen);
}

int floor_holds_at(const struct floor *f, long bytes_per_peer)
{
	if (f->min <= 0)
		return 0;
	if (f->bytes == 0)
		return 1;
	return f->from_up ? bytes_per_peer >= f->bytes : bytes_per_peer == f->bytes;
}

int floor_fails(const struct floor *f, long bytes_per_peer, double value)
{
	return floor_holds_at(f, bytes_per_peer) && !(value >= f->min);
}

void floor_describe(const struct floor *f, char *buf, size_t len)
{
	char size[32];

	if (f->bytes == 0) {
		snprintf(buf, len, "%s >= %g%s at every size", f->kind->what, f->min, f->kind->unit);
		return;
	}
	format_bytes(size, sizeof(size), f->bytes);
	snprintf(buf, len, "%s >= %g%s at %s per peer%s", f->kind->what, f->min, f->kind->unit, size,
		 f->from_up ? " and above" : "");
}
