/* against.c: collect --judge (see against.h). */
#include "against.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "bytes.h"
#include "fabricfile.h"
#include "grow.h"
#include "judge/locate.h"
#include "read/fabric.h"
#include "read/peer.h"
#include "strbuf.h"
#include "text.h"

#define ERR 4608

static const char usage[] =
	"usage: collect --judge --fabric=FILE [--nodes=LIST] [--tasks-per-node=N]\n"
	"                       [--placement=block|cyclic] [--line-rate=RATE]\n"
	"                       [--format=osu|imb|nccl-tests] OUTPUT\n";

struct judge {
	const char *output, *fabric, *nodes, *placement;
	long ppn;                 /* 0: not given */
	double line_rate;         /* GB/s, 0: not given */
	enum peer_format format;
	struct peer peer;
	struct fabricfile ff;
	char (*node)[FABRICFILE_NAME];   /* the run's nodes, in the order ranks fill them */
	long nnodes;
	size_t room;
	struct namehash names;    /* of node[] */
	long *rank_node;          /* alltoall_perf: each rank's node */
};

static int refuse(const char *fmt, const char *a, const char *b)
{
	char what[8192];

	snprintf(what, sizeof(what), fmt, a, b);
	return text_error(2, "collect: error: --judge: %s\n", what);
}

/* A node of the run, added when new; its index, or -1 out of memory (or a name too long). */
static long add_node(struct judge *j, const char *name)
{
	long i = namehash_find(&j->names, name, j->nnodes ? j->node[0] : "", sizeof(*j->node));
	char (*n)[FABRICFILE_NAME];

	if (i >= 0 || strlen(name) >= sizeof(*n))
		return strlen(name) >= sizeof(*n) ? -1 : i;
	if (!(n = grow(j->node, &j->room, (size_t)j->nnodes + 1, sizeof(*n), 64)))
		return -1;
	j->node = n;
	snprintf(n[j->nnodes], sizeof(*n), "%s", name);
	return namehash_add(&j->names, (size_t)j->nnodes, n[0], sizeof(*n)) == 0 ? j->nnodes++ : -1;
}

static int add_named(const char *name, void *ctx)
{
	struct judge *j = ctx;
	long before = j->nnodes;

	if (add_node(j, name) < 0)
		return -1;
	return j->nnodes > before ? 0 : -5;   /* -5: named twice */
}

/* The options and the output's name: 0, or 2 with one line. */
static int options(struct judge *j, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=') ? strchr(a, '=') + 1 : "";
		if (a[0] == '-' && strchr(a, '=') && !*v) {
			return refuse("option '%s' needs a value: %sVALUE", a, a);
		} else if (!strncmp(a, "--fabric=", 9)) {
			j->fabric = v;
		} else if (!strncmp(a, "--nodes=", 8)) {
			j->nodes = v;
		} else if (!strncmp(a, "--tasks-per-node=", 17)) {
			if (parse_long(v, 1, FABRIC_WORLD, &j->ppn) != 0)
				return refuse("invalid --tasks-per-node '%s': expected a whole number, 1..65536%s", v, "");
		} else if (!strncmp(a, "--placement=", 12)) {
			if (strcmp(v, "block") && strcmp(v, "cyclic"))
				return refuse("--placement '%s': block (ranks fill a node, then the next) or "
					      "cyclic (a rank a node, round) is allowed%s", v, "");
			j->placement = v;
		} else if (!strncmp(a, "--line-rate=", 12)) {
			if (!((j->line_rate = bound_rate(v)) > 0))
				return refuse("--line-rate '%s': a number above 0 and kbit, mbit, gbit, gbps or "
					      "GB/s is allowed%s", v, "");
		} else if (!strncmp(a, "--format=", 9)) {
			if ((j->format = peer_format_named(v)) == PEER_NONE)
				return refuse("--format '%s': osu, imb or nccl-tests is allowed%s", v, "");
		} else if (!strcmp(a, "--help")) {
			fputs(usage, stdout);
			return -1;
		} else if (a[0] == '-' && a[1]) {
			return refuse("unknown option '%s'%s (see 'collect --help')", a, "");
		} else if (j->output) {
			return refuse("one OUTPUT is judged at a time, not '%s' and '%s'", j->output, a);
		} else {
			j->output = a;
		}
	}
	if (!j->output || !j->fabric)
		return refuse("%s is needed: %s", !j->output ? "an OUTPUT" : "--fabric=FILE",
			      "collect --judge --fabric=FILE [--nodes=LIST] ... OUTPUT");
	return 0;
}

/* The run's nodes: --nodes' (names and ranges, comma-separated), else the fabric file's, in order. */
static int given_nodes(struct judge *j)
{
	char bad[256] = "";
	int rc = 0;

	if (!j->nodes) {
		for (long i = 0; i < j->ff.nnode && rc == 0; i++)
			rc = add_node(j, j->ff.node[i].name) < 0 ? -1 : 0;
		if (rc == 0 && j->nnodes == 0)
			return refuse("the fabric file '%s' names no node: give the run's with --nodes=LIST%s",
				      j->fabric, "");
		return rc == 0 ? 0 : refuse("out of memory%s%s", "", "");
	}
	rc = fabricfile_list(j->nodes, add_named, j, bad, sizeof(bad));
	if (rc == 0)
		return 0;
	return refuse(rc == -5 ? "--nodes '%s': a node named twice (in '%s')"
		      : rc == -1 ? "--nodes '%s': out of memory%s"
		      : "--nodes '%s': '%s' is not a name or a range as Slurm writes them (n[1-4,7])",
		      j->nodes, bad);
}

/* alltoall_perf's ranks' hosts as the run's nodes, each rank's node noted. */
static int file_nodes(struct judge *j)
{
	if (j->nodes || j->ppn || j->placement)
		return refuse("%s: alltoall_perf's output names each rank's host: %s", j->output,
			      "--nodes, --tasks-per-node and --placement are not taken with it");
	if (j->peer.nhosts > FABRIC_WORLD)
		return refuse("%s: more ranks than the bound is worked out for (%s)", j->output, "65536");
	if (!(j->rank_node = malloc(sizeof(long) * (size_t)j->peer.nhosts)))
		return refuse("out of memory%s%s", "", "");
	for (long r = 0; r < j->peer.nhosts; r++)
		if ((j->rank_node[r] = add_node(j, j->peer.host[r])) < 0)
			return refuse("out of memory%s%s", "", "");
	return 0;
}

/* Rank r's node among `tasks` of the run. */
static long node_of(const struct judge *j, long r)
{
	if (j->rank_node)
		return j->rank_node[r];
	return j->placement && !strcmp(j->placement, "cyclic") ? r % j->nnodes : r / j->ppn;
}

/* The facts of `tasks` ranks (collect/read/fabric.h's): their hosts, the fabric file's lines, the line rate. */
static char *facts(const struct judge *j, long tasks)
{
	const char **names = malloc(sizeof(*names) * (size_t)j->nnodes);
	char *lines;
	struct strbuf b;

	strbuf_init(&b);
	for (long r = 0; r < tasks; r++)
		strbuf_addf(&b, "host %s %ld\n", j->node[node_of(j, r)], r);
	for (long i = 0; names && i < j->nnodes; i++) {
		names[i] = j->node[i];
		if (j->line_rate > 0)
			strbuf_addf(&b, "limit nic %s %.17g GB/s\n", j->node[i], j->line_rate);
	}
	lines = names ? fabricfile_lines(&j->ff, j->fabric, names, j->nnodes) : NULL;
	for (char *s = lines, *e; s && *s; s = e + (*e == '\n')) {
		e = s + strcspn(s, "\n");
		strbuf_addf(&b, "fabric %.*s\n", (int)(e - s), s);
	}
	free(lines);
	free(names);
	if (!lines)
		b.failed = 1;
	return strbuf_detach(&b);
}

/* What one task count's rows reached: the largest size's, and the range at LOCATE_MIN_BYTES and more. */
struct reach {
	long tasks, rows;
	double lo, hi, last_bytes, last_eff;
	char last_link[200];
	int bounded, last_tier;   /* last_tier: its switch's, where an uplink bounds it */
};

static void verdict(const struct reach *v)
{
	char size[32], words[320], min[32], *partial;

	if (!v->bounded) {
		printf("# verdict: %ld tasks: no bound: no link with a known rate carries their bytes "
		       "(all on one node, or the fabric file rates none of their links)\n", v->tasks);
		return;
	}
	format_bytes(size, sizeof(size), (long)v->last_bytes);
	format_bytes(min, sizeof(min), LOCATE_MIN_BYTES);
	bound_link_words(v->last_link, words, sizeof(words));
	partial = strstr(words, " (a partial bound");
	printf("# verdict: %ld tasks: at the largest size, %s per peer, %.0f%% of what the fabric allows, "
	       "bound by %.*s", v->tasks, size, 100 * v->last_eff, (int)(partial ? partial - words : (long)strlen(words)),
	       words);
	if (v->last_tier >= 2)   /* a switch above the leaves: which tier of the tree */
		printf(", tier %d", v->last_tier);
	printf("%s", partial ? partial : "");
	if (v->rows > 1)
		printf(" (rows of %s per peer and more: %.0f-%.0f%%)", min, 100 * v->lo, 100 * v->hi);
	printf("%s\n", v->last_eff < 0.5 ? ": far from its bound."
	       : v->last_eff > 1.05 ? ": above its bound: the fabric described is not what bounds these "
				     "tasks (a rate declared too low, or the tasks not placed as given)."
	       : ".");
}

/* Each row with its bound, and a verdict per task count; 0, or 2. */
static int judge_rows(struct judge *j)
{
	struct fabric f = { 0 };
	struct reach v = { 0 };
	long open = 0;

	printf("# columns: bytes_per_peer tasks t_s bound_s eff_bound bottleneck\n");
	for (long i = 0; i < j->peer.nrows; i++) {
		const struct peer_row *row = &j->peer.row[i];
		struct bound b = { 0 };
		char link[200] = "-";
		double eff = 0;
		if (row->tasks != open) {
			char *text = facts(j, row->tasks);
			if (open)
				fabric_close(&f), verdict(&v);
			if (!text || fabric_open(&f, text, row->tasks) != 0) {
				free(text);
				fabric_close(&f);
				return refuse("out of memory%s%s", "", "");
			}
			free(text);
			open = row->tasks;
			v = (struct reach){ .tasks = open, .lo = 1e300 };
		}
		if (row->bytes <= 0 || fabric_row(&f, "contiguous", 0, row->bytes, &b) != 0)
			continue;
		if (b.t > 0) {
			struct bound_fabric net = fabric_bound(&f);
			bound_link_of(&net, &b, link, sizeof(link));
			eff = row->t > 0 ? b.t / row->t : 0;
		}
		printf("%.0f\t%ld\t%.6e\t%.6e\t%.4f\t%s\n", row->bytes, row->tasks, row->t, b.t, eff, link);
		if (b.t > 0 && row->bytes >= v.last_bytes) {
			struct bound_fabric net = fabric_bound(&f);
			v.last_tier = b.link == BOUND_UPLINK && b.at >= 0 ? bound_tier(&net, b.at) : 0;
			v.bounded = 1;
			v.last_bytes = row->bytes;
			v.last_eff = eff;
			snprintf(v.last_link, sizeof(v.last_link), "%s", link);
		}
		if (b.t > 0 && row->bytes >= LOCATE_MIN_BYTES) {
			v.rows++;
			v.lo = eff < v.lo ? eff : v.lo;
			v.hi = eff > v.hi ? eff : v.hi;
		}
	}
	if (open)
		fabric_close(&f), verdict(&v);
	return 0;
}

/* The run's shape, from the file or the options; 0, or 2 with one line. */
static int shape(struct judge *j)
{
	long world;
	int rc = j->peer.format == PEER_NCCL ? file_nodes(j) : given_nodes(j);

	for (long i = 0, known = 0; rc == 0 && i < j->nnodes && !known; i++)   /* one unknown: a partial bound */
		if (!(known = fabricfile_knows(&j->ff, j->node[i])) && i == j->nnodes - 1)
			rc = refuse("no node of the run is in the fabric file '%s' (no switch, nic or gpu "
				    "line names '%s')", j->fabric, j->node[0]);
	if (rc != 0 || j->peer.format == PEER_NCCL)
		return rc != 0 ? 2 : 0;
	if (!j->ppn)
		j->ppn = 1;
	world = j->nnodes * j->ppn;
	if (world > FABRIC_WORLD)
		return refuse("%s nodes x --tasks-per-node: more than 65536 tasks%s", j->nodes ? j->nodes : "the fabric file's", "");
	for (long i = 0; i < j->peer.nrows; i++) {
		struct peer_row *row = &j->peer.row[i];
		if (!row->tasks)
			row->tasks = world;
		if (row->tasks > world) {
			char what[64];
			snprintf(what, sizeof(what), "%ld processes", row->tasks);
			return text_error(2, "collect: error: --judge: %s:%ld: a table of %s, more than the %ld node%s x "
				"%ld task%s per node given (--nodes, --tasks-per-node)\n", j->output, row->line, what,
				j->nnodes, j->nnodes == 1 ? "" : "s", j->ppn, j->ppn == 1 ? "" : "s");
		}
	}
	return 0;
}

static void describe(const struct judge *j)
{
	long world = j->peer.format == PEER_NCCL ? j->peer.nhosts : j->nnodes * j->ppn;

	printf("# judge: %s: %s (%s), the time per call its %s\n", j->output, j->peer.title,
	       peer_format_name(j->peer.format), j->peer.timecol);
	printf("# placement: %ld tasks on %ld node%s", world, j->nnodes, j->nnodes == 1 ? "" : "s");
	if (j->peer.format == PEER_NCCL)
		printf(", as its rank lines say\n");
	else
		printf(", %ld per node, %s\n", j->ppn, j->placement ? j->placement : "block");
	printf("# fabric: %s%s\n", j->fabric, j->line_rate > 0 ? " (each NIC at --line-rate)" : "");
	printf("# bound: the least time the busiest link needs per call (common/bound.h: bytes that stay "
	       "on a node cross none); eff_bound = bound_s / t_s\n");
}

int against_main(int argc, char **argv)
{
	struct judge j = { 0 };
	struct strbuf text;
	char err[ERR];
	int rc = options(&j, argc, argv);

	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (text_load(j.output, TEXT_PEER, &text, err, sizeof(err)) != 0 ||
	    peer_parse(&j.peer, text.s, j.output, j.format, err, sizeof(err)) != 0 ||
	    fabricfile_load(&j.ff, j.fabric, err, sizeof(err)) != 0)
		rc = refuse("%s%s", err, "");
	strbuf_release(&text);
	if (rc == 0)
		rc = shape(&j);
	if (rc == 0) {
		describe(&j);
		rc = judge_rows(&j);
	}
	peer_free(&j.peer);
	fabricfile_free(&j.ff);
	namehash_free(&j.names);
	free(j.node);
	free(j.rank_node);
	return rc;
}
