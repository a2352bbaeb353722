/*
 * gen_outputs DIR N [fabric|fabric-each]: writes N synthetic aller outputs of realistic
 * size into DIR, as a campaign would leave them: campaigns of 2 modes x 11
 * node counts (1..1024 nodes, 8 tasks per node, LONGS 1 Mi), job provenance,
 * every level and count, '# Done'. Numbers are plausible, not measured; the
 * format is aller's own (output.c, partition.c). With "fabric", nodes named
 * n0.. and the fabric's lines (16 nodes per leaf, 100 Gbit/s NICs, uplinks
 * 4:1), so that collect works out every row's bound: a campaign's points
 * of one node count share their nodes, as jobs on one allocation do. With
 * "fabric-each", every point on nodes of its own (n<k x 1024>..): no two
 * points share a fabric.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "options.h"
#include "output.h"
#include "partition.h"
#include "plan/stats.h"
#include "world/world.h"

/* One level's rows, with times that grow with the bytes moved. */
static void level_rows(FILE *f, const struct partition *p, long longs, unsigned *seed)
{
	long world = p->world;

	for (int i = 0; i < partition_ncounts(longs, p->target); i++) {
		struct row r;
		double t;
		memset(&r, 0, sizeof(r));
		r.comms = p->ncomms;
		r.commsize = partition_max_size(p);
		r.count = partition_count(longs, p->target, i);
		r.gib = stats_gib(r.count, r.commsize);
		t = 2e-6 + r.gib / (5.0 + (rand_r(seed) % 100) / 50.0);
		stats_init(&r.s);
		stats_add(&r.s, t * 0.9, r.gib);
		stats_add(&r.s, t, r.gib);
		stats_add(&r.s, t * 1.2, r.gib);
		r.aggbw = (double)world * r.gib / t / 1.2;
		r.slowest = (long)(rand_r(seed) % (unsigned)world);
		r.busbw = stats_busbw(r.count, r.commsize, stats_tavg(&r.s));
		for (int k = 0; k < 4; k++)
			r.isolate[k] = NAN;
		for (int k = 0; k < 3; k++)
			r.congest[k] = NAN;
		r.imbalance = 1;
		r.vbusbw = r.busbw;
		r.hottest = NAN;
		r.iters = 3;
		output_row(f, &r);
	}
}

/* The fabric's lines of a point on `nodes` nodes, as a job writes them; its host line into hosts. */
static void fabric_lines(FILE *f, long nodes, long base, char *hosts, size_t len)
{
	for (long n = 0; n < nodes; n++) {
		fprintf(f, "# %s: switch n%ld leaf%ld\n# %s: nic_rate n%ld 100gbit\n", ALLER_KEY_FABRIC, base + n,
			n / 16, ALLER_KEY_FABRIC, base + n);
		if (n % 16 == 0)
			fprintf(f, "# %s: uplink_rate leaf%ld %ldgbit\n", ALLER_KEY_FABRIC, n / 16,
				100 * (nodes - n < 16 ? nodes - n : 16) / 4);
	}
	/* as aller writes a run of numbered nodes (world/hostmap.h) */
	if (nodes == 1)
		snprintf(hosts, len, "n%ld 0-7\n", base);
	else
		snprintf(hosts, len, "n[%ld-%ld] 0-7 +8\n", base, base + nodes - 1);
}

/* Output k of a campaign's points, into f. */
static void write_output(FILE *f, long k, long longs, int fabric, unsigned *seed)
{
	long campaign = k / 22, nodes = 1L << ((k / 2) % 11), world = 8 * nodes;
	int strided = k % 2;
	const char *mode = strided ? ALLER_MODE_STRIDED : ALLER_MODE_CONTIGUOUS;
	char command[64], start[32], hosts[64];
	struct run_info info;
	struct options opt;
	struct world w;

	fprintf(f, "# %s: c%04ld\n# %s: %ld\n# %s: %s\n# %s: %ld\n", ALLER_KEY_CAMPAIGN,
		campaign, ALLER_KEY_POINT_NODES, nodes, ALLER_KEY_POINT_MODE, mode,
		ALLER_KEY_JOB, 1000 + k);
	snprintf(command, sizeof(command), "aller %s 3 %ld", mode, longs);
	snprintf(start, sizeof(start), "2026-12-01T%02ld:%02ld:00Z", k / 60 % 24, k % 60);
	if (fabric)
		fabric_lines(f, nodes, fabric > 1 ? k * 1024 : 0, hosts, sizeof(hosts));
	else
		snprintf(hosts, sizeof(hosts), "n1 0-%ld\n", world - 1);
	memset(&info, 0, sizeof(info));
	memset(&w, 0, sizeof(w));
	options_init(&opt);
	opt.strided = strided;
	opt.iters = 3;
	opt.longs = longs;
	w.size = (int)world;
	w.nnodes = (int)nodes;
	w.tpn_min = w.tpn_max = 8;
	info.opt = &opt;
	info.w = &w;
	info.command = command;
	info.mpi = "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4";
	info.host_map = hosts;
	info.buffers = "host";
	info.selection = "commsizes all; bytes per peer 8 B..max";
	info.start = start;
	info.algos = "alltoall";
	info.transport = "mpi";
	info.wtick = 1e-9;
	output_header(f, &info);
	for (int level = 0; level < partition_nlevels(world); level++) {
		struct partition p;
		partition_init(&p, world, partition_level_target(world, level), strided);
		output_level(f, &info, level, &p, "alltoall", NULL, level == 0);
		level_rows(f, &p, longs, seed);
	}
	output_done(f);
	fprintf(f, "# %s: 0\n", ALLER_KEY_EXIT);
}

int main(int argc, char **argv)
{
	long n, longs = 1L << 20;
	unsigned seed = 12345;
	int fabric = argc != 4 ? 0 : !strcmp(argv[3], "fabric") ? 1 : !strcmp(argv[3], "fabric-each") ? 2 : -1;

	if ((argc != 3 && fabric <= 0) || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: gen_outputs DIR N [fabric|fabric-each]\n");
		return 2;
	}
	for (long k = 0; k < n; k++) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/c%04ld-n%ld-%s-%ld.out", argv[1], k / 22,
			 1L << ((k / 2) % 11), k % 2 ? ALLER_MODE_STRIDED : ALLER_MODE_CONTIGUOUS,
			 1000 + k);
		if (!(f = fopen(path, "w"))) {
			perror(path);
			return 3;
		}
		write_output(f, k, longs, fabric, &seed);
		fclose(f);
	}
	return 0;
}
