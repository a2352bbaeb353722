/*
 * libFuzzer target: the files a user names to collect, other than aller's
 * raw outputs (fuzz_parse, fuzz_merge), each read through the door
 * (common/text.h) by its real reader: the bytes as every merged table of a
 * directory (points.csv row by row, points-index.csv, facts.tsv, sets.tsv,
 * pairs.tsv, pairs.dat, findings.tsv: collect/model/campaign.c), as another
 * tool's output for --judge (osu_alltoall, IMB-MPI1, alltoall_perf, told by
 * its lines and as each: collect/read/peer.c), and as a campaign's manifest
 * and Slurm's answers (collect --status). Each is read or refused with one
 * line, never a crash. Run with 'make fuzz' (FUZZ_SECONDS each).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/campaign.h"
#include "read/peer.h"
#include "read/status.h"
#include "text.h"

static char dir[256];
static const char *const tables[] = { "points.csv", "points-index.csv", MERGED_FACTS_FILE, MERGED_SETS_FILE,
				      MERGED_PAIRS_FILE, MERGED_PAIRS_DAT, MERGED_FINDINGS_FILE };

static int count_row(void *ctx, const struct mrow *r)
{
	(*(long *)ctx)++;
	return r->point < 0;   /* a row read is a point's */
}

/* A refusal says why, on one line. */
static void said(int rc, const char *err)
{
	if (rc != 0 && (!err[0] || strchr(err, '\n')))
		abort();
}

static void merged(void)
{
	struct campaign c = { .dir = dir };
	char err[8192] = "";
	double bw[16];
	long rows = 0;

	said(campaign_rows(&c, count_row, &rows, err, sizeof(err)), err);
	err[0] = '\0';
	if (campaign_load(&c, dir, CAMPAIGN_POINTS | CAMPAIGN_SETS | CAMPAIGN_PAIRS | CAMPAIGN_FINDINGS,
			  err, sizeof(err)) != 0) {
		said(-1, err);
		return;
	}
	campaign_matrix(&c, 0, 4, bw);
	campaign_slow_links(&c, NULL, NULL);
	campaign_release(&c);
}

static void peer(const char *path)
{
	char err[8192] = "";
	struct strbuf text;
	struct peer p;

	if (text_load(path, TEXT_PEER, &text, err, sizeof(err)) != 0) {
		said(-1, err);
		return;
	}
	for (int f = PEER_NONE; f <= PEER_NCCL; f++) {
		err[0] = '\0';
		if (peer_parse(&p, text.s, path, (enum peer_format)f, err, sizeof(err)) == 0)
			peer_free(&p);
		else
			said(-1, err);
	}
	strbuf_release(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[512], none[512];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/fuzz-collect-files-%d", access("/dev/shm", W_OK) == 0 ? "/dev/shm"
			 : "/tmp", (int)getpid());
		mkdir(dir, 0755);
	}
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		FILE *f;
		snprintf(path, sizeof(path), "%s/%s", dir, tables[i]);
		if (!(f = fopen(path, "w")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
			abort();
	}
	merged();
	peer(path);
	snprintf(none, sizeof(none), "%s/no-raw", dir);
	status_main(4, (char *[]){ path, none, path, path, NULL });
	return 0;
}
