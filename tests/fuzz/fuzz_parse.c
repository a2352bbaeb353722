/*
 * libFuzzer target: collect's parser on arbitrary bytes, split into lines
 * the way input.c does (a last line without '\n' is incomplete), header-only
 * and full parses both; and the same bytes as another tool's all-to-all
 * output (read/peer.h), told by its lines and as each format; as a point's
 * fabric facts (read/fabric.h: trees, groups, rails), each row's bound
 * worked out; and as a site's fabric file (common/fabricfile.h). Run with
 * 'make fuzz-collect [FUZZ_SECONDS=60]'.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabricfile.h"
#include "read/fabric.h"
#include "read/parse.h"
#include "read/peer.h"
#include "read/point.h"

static void on_row(void *ctx, const char *line, size_t len, const struct crow *r)
{
	size_t *seen = ctx;
	/* the offsets the parser reports must lie inside the line */
	for (int c = 0; c < r->ncols; c++)
		if ((size_t)r->off[c] + r->len[c] > len)
			abort();
	*seen += line[0] != '\0';
}

static void on_warn(void *ctx, const char *path, long line, const char *msg)
{
	(void)ctx;
	(void)path;
	(void)line;
	if (!msg[0])
		abort();
}

static void run(const uint8_t *data, size_t size, int header_only)
{
	struct point pt;
	struct parser p;
	size_t i = 0, seen = 0;

	point_init(&pt);
	pt.path = strdup("fuzz");
	parser_init(&p, &pt, header_only);
	p.row = on_row;
	p.warn = on_warn;
	p.ctx = &seen;
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t len = nl ? (size_t)(nl - (data + i)) : size - i;
		if (len > PARSE_MAX_LINE)
			parser_long_line(&p, len);
		else if (parser_line(&p, (const char *)data + i, len, nl != NULL))
			break;
		i += len + 1;
	}
	parser_end(&p);
	(void)point_state(&pt);
	point_release(&pt);
}

/* The bytes as a peer's output (up to a NUL: it reads text): a row or an error, never both. */
static void run_peer(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct peer p;

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	for (int f = PEER_NONE; f <= PEER_NCCL; f++) {
		err[0] = '\0';
		if (peer_parse(&p, text, "fuzz", (enum peer_format)f, err, sizeof(err)) == 0) {
			if (p.nrows < 1 || err[0])
				abort();
			for (long i = 0; i < p.nrows; i++)
				if (!(p.row[i].bytes >= 0) || !(p.row[i].t >= 0) || p.row[i].tasks < 0)
					abort();
			peer_free(&p);
		} else if (!err[0] || p.nrows || p.row) {
			abort();
		}
	}
	free(text);
}

/* The bytes as fact lines (up to a NUL) of worlds of 1 to 16 tasks: each level's bound, a number or none. */
static void run_fabric(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct fabricfile ff;

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	for (long world = 1; world <= 16; world *= 4) {
		struct fabric f;
		struct bound b;
		if (fabric_open(&f, text, world) == 0)
			for (int level = 0; level < FABRIC_LEVELS; level++)
				if (fabric_row(&f, level % 2 ? "strided" : "contiguous", level, 1048576, &b) == 0 &&
				    (!(b.t >= 0) || !(b.t_minimal >= b.t * (1 - 1e-12)) || !(b.load >= 0)))
					abort();
		fabric_close(&f);
	}
	if (fabricfile_parse(&ff, text, "fuzz", err, sizeof(err)) == 0) {
		char *lines = fabricfile_lines(&ff, "fuzz", NULL, 0);
		free(lines);
		fabricfile_free(&ff);
	} else if (!err[0] || ff.nnode || ff.node || ff.sw) {
		abort();
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 1);
	run(data, size, 0);
	run_peer(data, size);
	run_fabric(data, size);
	return 0;
}
