/* compare_out.c: what a comparison writes (see compare_impl.h). */
#include "compare_impl.h"
#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "bytes.h"
#include "merged.h"
#include "merge/setrow.h"
#include "read/splits.h"

/* To stdout and compare.txt, escaped but its end (text_escape): a side's path with a newline forges no line. */
static void say(const struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const struct cmp *c, const char *fmt, ...)
{
	char line[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = n < 0 ? 0 : n < (int)sizeof(line) ? n - (n > 0 && line[n - 1] == '\n') : (int)sizeof(line) - 1;
	for (FILE *f = stdout, *txt = c->txt; f; f = f == stdout ? txt : NULL)   /* line[n]: its newline, or none */
		text_escape(f, line, (size_t)n), fputs(line[n] == '\n' ? "\n" : "", f);
}

static const char *str(const char *s)
{
	return s && *s ? s : "-";
}

/* A verdict's word: a comparison's, or against the expected (simulated). */
static const char *vname(const struct cmp *c, enum verdict v)
{
	static const char *const expected[V_N] = { "expected", "noise", "faster", "short", "spike", "missing" };

	return (c->expected ? expected : verdict_names)[v];
}

const char *compare_side_name(const struct side *sd)
{
	return sd->campaign ? sd->campaign : sd->arg;
}

static void values(char *buf, size_t len, const struct side *sd, int i)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int k = 0; k < sd->nvalues[i] && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s'%s'", k ? ", " : "", sd->values[i][k]);
	if (sd->many[i] && at < len)
		snprintf(buf + at, len - at, ", ...");
}

/* Whether a setting's values differ between the sides. */
static int differs(const struct side *a, const struct side *b, int i)
{
	int same = a->nvalues[i] == b->nvalues[i] && !a->many[i] && !b->many[i], l = 0;

	for (int k = 0; same && k < a->nvalues[i]; k++, same = l < b->nvalues[i])
		for (l = 0; l < b->nvalues[i] && strcmp(a->values[i][k], b->values[i][l]); l++)
			;
	return !same;
}

static void head(const struct cmp *c)
{
	char a[2048], b[2048];
	int shown = 0;

	say(c, "# aller compare: %sBASE '%s' (%s) vs %sNEW '%s' (%s)\n", c->expected ? "expected (simulated) " : "",
	    compare_side_name(&c->base), c->base.arg, c->expected ? "measured " : "", compare_side_name(&c->new), c->new.arg);
	if (!c->expected)
		say(c, "# tolerance: %s\n", c->tol_spec);
	say(c, c->expected ? "# rule: against the expected (simulated): a row is short where its median call (tmed) is "
	    "slower than the simulated row's slowest call (its tmax: the model's noise band, efficiency 0.70..0.98 of "
	    "the bound), faster where below its fastest (tmin), else expected; tol: the band's top over the simulated "
	    "tavg\n" :
	    "# rule: ratio = tavg NEW / BASE, tmed likewise; same when |ratio - 1| <= the "
	    "tolerance of the size; noise when outside it but tmed's ratio is outside it the other way, or each "
	    "side's tavg lies inside the other's [tmin, tmax]; spike when outside it but tmed's ratio is within it "
	    "and one slow call moved an average by half the difference or more; missing where a tavg is not a "
	    "number; else faster or slower\n");
	for (int i = 0; i < NSETTINGS && !c->expected; i++) {
		if (!differs(&c->base, &c->new, i))
			continue;
		values(a, sizeof(a), &c->base, i);
		values(b, sizeof(b), &c->new, i);
		say(c, "# setting that differs: %s: BASE %s | NEW %s\n", compare_setting_name(i), a, b);
		shown++;
	}
	if (!shown)
		say(c, c->expected ? "# settings: measured against simulated, matched by the points' identity\n" :
		    "# settings: the same on both sides\n");
	say(c, "%-11s %-10s %4s %5s %5s %8s %-10s %10s %11s %11s %7s %7s %5s %s\n", "mode",
	    "variant", "tpn", "nodes", "comms", "commsize", "algo", "per_peer", "tavg_base", "tavg_new", "ratio",
	    "tmed", "tol", "verdict");
}

/* The algorithm, and its split but uniform: "alltoallv/zipf:1.2:1". */
static const char *algo_text(const struct meas *m)
{
	static char buf[320];

	snprintf(buf, sizeof(buf), "%s%s%s", merged_algo_name(m->algo), m->split ? "/" : "",
		 m->split ? splits_name(m->split) : "");
	return buf;
}

/* A spike's slow call: the higher average's side's tmax. */
static const struct meas *spiked(const struct pair *p)
{
	return p->ratio > 1 ? p->n : p->b;
}

static void table_row(const struct cmp *c, const struct pair *p)
{
	char size[32], med[16] = "-", call[64] = "";

	if (isfinite(p->med_ratio))
		snprintf(med, sizeof(med), "%.3f", p->med_ratio);
	if (p->v == V_SPIKE)
		snprintf(call, sizeof(call), ": a call of %.3g s in %s", spiked(p)->tmax, spiked(p) == p->n ? "NEW" : "BASE");
	format_bytes(size, sizeof(size), p->b->bytes);
	say(c, "%-11s %-10s %4s %5ld %5ld %8ld %-10s %10s %11.4e %11.4e %7.3f %7s %4.0f%% %s%s\n",
	    str(p->b->pt->m->mode), str(p->b->pt->m->variant), str(p->b->pt->m->tasks_per_node), p->b->nodes,
	    p->b->comms, p->b->commsize, algo_text(p->b), size, p->b->tavg, p->n->tavg, p->ratio, med,
	    100 * p->tol, vname(c, p->v), call);
}

/*
 * findings.tsv (collect/findings.h's columns): one regression finding, the rows slower beyond the tolerance
 * and the worst of them; or that none is, and the rows one slow call moved (spikes), the slowest call of
 * them.
 */
static void finding(const struct cmp *c)
{
	const struct pair *worst = NULL, *spike = NULL, *w;
	char size[32], text[1024];
	int at;

	if (!c->ftsv)
		return;
	for (const struct pair *p = c->pairs; p < c->pairs + c->npairs; p++)   /* one side's alone: V_SAME */
		if (p->v == V_SLOWER && (!worst || p->ratio > worst->ratio))
			worst = p;
		else if (p->v == V_SPIKE && (!spike || spiked(p)->tmax > spiked(spike)->tmax))
			spike = p;
	if ((w = worst))
		at = snprintf(text, sizeof(text), "Against %s%s: %ld of %ld rows %s; the worst takes %.2fx the %stime", c->expected ?
			      "the expected (simulated) " : "", compare_side_name(&c->base), c->count[V_SLOWER], c->matched, c->expected ?
			      "fall short of what the fabric should give (their median call slower than the simulated slowest)" :
			      "slower beyond the tolerance", w->ratio, c->expected ? "expected " : "");
	else if (c->expected)
		at = snprintf(text, sizeof(text), "Against the expected (simulated) %s: none of %ld rows falls short of what the "
			      "fabric should give (%ld faster, %ld as expected).", compare_side_name(&c->base), c->matched,
			      c->count[V_FASTER], c->count[V_SAME]);
	else
		at = snprintf(text, sizeof(text), "Against %s: none of %ld rows slower beyond the tolerance (%ld faster, "
			      "%ld the same, %ld within the noise)%s", compare_side_name(&c->base), c->matched,
			      c->count[V_FASTER], c->count[V_SAME], c->count[V_NOISE], (w = spike) ? "; " : ".");
	if (spike && !worst)
		at += snprintf(text + at, sizeof(text) - (size_t)at, "%ld whose median held but one slow call moved the "
			       "average (a spike, not a regression): the slowest a call of %.3g s in %s, %.0fx its median",
			       c->count[V_SPIKE], spiked(w)->tmax, spiked(w) == w->n ? "NEW" : "BASE",
			       spiked(w)->tmax / spiked(w)->tmed);
	format_bytes(size, sizeof(size), w ? w->b->bytes : 0);
	if (w)
		snprintf(text + at, sizeof(text) - (size_t)at, ", on %ld node%s (%s), commsize %ld, %s per peer, %s.",
			 w->b->nodes, w->b->nodes == 1 ? "" : "s", str(w->b->pt->m->mode), w->b->commsize, size,
			 algo_text(w->b));
	TABLE_HEADER((&(struct table_out){ c->ftsv, NULL, '\t', 0 }), FINDING_COLUMNS);
	TABLE_ROW((&(struct table_out){ c->ftsv, NULL, '\t', 0 }),
		  (&(struct finding_row){ worst ? "warning" : spike ? "notice" : "info", finding_kind(FK_regression)->name,
					  text, NULL, worst ? fabs(log(worst->ratio)) : 0, 1, "sentence" }), FINDING_COLUMNS);
}

/* Points of one side only, one line per point (mode, variant, tasks per node, nodes). */
static void missing_lines(const struct cmp *c)
{
	const struct pair *first = NULL;
	long rows = 0;

	for (long i = 0; i <= c->npairs; i++) {
		const struct pair *p = i < c->npairs ? &c->pairs[i] : NULL;
		const struct meas *m, *f;
		if (p && p->b && p->n)
			continue;
		m = p ? (p->b ? p->b : p->n) : NULL;
		f = first ? (first->b ? first->b : first->n) : NULL;
		if (p && first && !p->b == !first->b && compare_point_key(m, f) == 0) {
			rows++;
			continue;
		}
		if (first)
			say(c, "# only in %s: %s, variant %s, %s tasks per node, %ld nodes%s (%ld rows)\n",
			    first->b ? "BASE" : "NEW", str(f->pt->m->mode), str(f->pt->m->variant),
			    str(f->pt->m->tasks_per_node), f->nodes, f->pt->reveal ? ", instrumented" : "", rows);
		first = p;
		rows = 1;
	}
}

/*
 * compare.csv (common/tablerow.h): a row per measurement of either side, matched or not: its identity, the
 * tolerance, both sides' times and their ratios (empty where a side lacks it), the verdict.
 */
#define COMPARE_COLUMNS(X) \
	X(mode, TEXT, mode) \
	X(variant, TEXT, variant) \
	X(tasks_per_node, TEXT, tpn) \
	X(instrumented, TEXT, instrumented) \
	X(nodes, LONG, nodes) \
	X(comms, LONG, comms) \
	X(commsize, LONG, commsize) \
	X(algo, TEXT, algo) \
	X(split, TEXT, split) \
	X(bytes_per_peer, LONG, bytes) \
	X(tolerance, G, tol) \
	X(tavg_base, G, tavg_base) \
	X(tavg_new, G, tavg_new) \
	X(ratio, G, ratio) \
	X(tmed_base, G, tmed_base) \
	X(tmed_new, G, tmed_new) \
	X(tmed_ratio, G, tmed_ratio) \
	X(tmin_base, G, tmin_base) \
	X(tmax_base, G, tmax_base) \
	X(tmin_new, G, tmin_new) \
	X(tmax_new, G, tmax_new) \
	X(verdict, TEXT, verdict)
TABLE_STRUCT(compare_row, COMPARE_COLUMNS);

static void csv_row(const struct cmp *c, struct table_out *t, const struct pair *p)
{
	const struct meas *m = p->b ? p->b : p->n, *b = p->b, *n = p->n;
	int both = b && n;

	TABLE_ROW(t, (&(struct compare_row){ .mode = str(m->pt->m->mode), .variant = str(m->pt->m->variant),
		.tpn = str(m->pt->m->tasks_per_node), .instrumented = m->pt->reveal ? "yes" : "no", .nodes = m->nodes,
		.comms = m->comms, .commsize = m->commsize, .algo = merged_algo_name(m->algo),
		.split = splits_name(m->split), .bytes = m->bytes, .tol = both ? p->tol : NAN,
		.tavg_base = b ? b->tavg : NAN, .tavg_new = n ? n->tavg : NAN,
		.ratio = both ? p->ratio : NAN, .tmed_base = b ? b->tmed : NAN,
		.tmed_new = n ? n->tmed : NAN, .tmed_ratio = both ? p->med_ratio : NAN,
		.tmin_base = b ? b->tmin : NAN, .tmax_base = b ? b->tmax : NAN,
		.tmin_new = n ? n->tmin : NAN, .tmax_new = n ? n->tmax : NAN,
		.verdict = both ? vname(c, p->v) : b ? "only_base" : "only_new" }), COMPARE_COLUMNS);
}

#define DAT_COLUMNS "bytes_per_peer ratio tmed_ratio band_low band_high tavg_base tavg_new"

/* The matched pairs as data sets per (point, commsize, comms), rows by size; their index. */
static void ratio_sets(const struct cmp *c)
{
	long sets = 0;
	struct line idx;   /* sets.tsv */

	if (line_open(&idx, c->idx, 64 * 1024) != 0) {
		text_error(0, "collect: error: out of memory\n");
		return;
	}
	fprintf(c->dat, "# aller compare: NEW/BASE per data set, rows by bytes per peer; band: "
		"1 -/+ the tolerance\n# columns: %s\n", DAT_COLUMNS);
	setrow_header(&idx);
	for (long i = 0; i < c->npairs;) {
		const struct pair *p = &c->pairs[i];
		const struct meas *m = p->b;
		long k = i, rows = 0;
		if (!p->b || !p->n) {
			i++;
			continue;
		}
		for (; k < c->npairs && (!c->pairs[k].b || !c->pairs[k].n || compare_set_key(c->pairs[k].b, m) == 0); k++)
			rows += c->pairs[k].b && c->pairs[k].n;
		fprintf(c->dat, "%s# mode: %s variant: %s tasks_per_node: %s instrumented: %s nodes: "
			"%ld commsize: %ld comms: %ld algo: %s split: %s\n\"%s, %ld nodes, commsize "
			"%ld%s%s\"\n", sets ? "\n\n" : "", str(m->pt->m->mode), str(m->pt->m->variant),
			str(m->pt->m->tasks_per_node), m->pt->reveal ? "yes" : "no", m->nodes, m->commsize, m->comms,
			merged_algo_name(m->algo), splits_name(m->split), str(m->pt->m->mode), m->nodes,
			m->commsize, m->algo || m->split ? ", " : "", m->algo || m->split ? algo_text(m) : "");
		setrow_put(&idx, &(struct set_row){
			.file = "compare.dat", .index = sets++, .kind = "ratio", .mode = m->pt->m->mode,
			.nodes = m->nodes, .commsize = m->commsize, .comms = m->comms, .bytes = -1,
			.tpn = m->pt->m->tasks_per_node, .variant = m->pt->m->variant, .algo = m->algo,
			.split = m->split, .rows = rows, .point = -1, .bytes_max = -1 });
		for (; i < k; i++) {
			p = &c->pairs[i];
			if (!p->b || !p->n)
				continue;
			fprintf(c->dat, "%ld %.6g ", p->b->bytes, p->ratio);
			fprintf(c->dat, isfinite(p->med_ratio) ? "%.6g" : "NaN", p->med_ratio);
			fprintf(c->dat, " %.6g %.6g %.6e %.6e\n", c->expected ? p->b->tmin / p->b->tavg : 1 - p->tol, 1 + p->tol, p->b->tavg,
				p->n->tavg);
		}
	}
	line_close(&idx);
}

void compare_report(struct cmp *c)
{
	head(c);
	for (long i = 0; i < c->npairs; i++)
		if (c->pairs[i].b && c->pairs[i].n)
			table_row(c, &c->pairs[i]);
	missing_lines(c);
	if (c->dups[0] || c->dups[1])
		say(c, "# left out: %ld measurements in BASE and %ld in NEW repeat the identity of "
		    "another one on their side (points of several campaigns or series alike)\n", c->dups[0], c->dups[1]);
	say(c, "compare: %ld points matched%s: %ld faster, %ld %s, %ld %s, %ld noise", c->matched,
	    c->expected ? " against the expected (simulated)" : "", c->count[V_FASTER], c->count[V_SLOWER],
	    vname(c, V_SLOWER), c->count[V_SAME], vname(c, V_SAME), c->count[V_NOISE]);
	for (int v = V_SPIKE; v < V_N; v++)
		if (c->count[v])
			say(c, ", %ld %s", c->count[v], vname(c, v));
	say(c, "; %ld only in BASE, %ld only in NEW\n", c->only[0], c->only[1]);
	finding(c);
	if (c->csv) {
		struct table_out t = { c->csv, NULL, ',', 0 };
		TABLE_HEADER(&t, COMPARE_COLUMNS);
		for (long i = 0; i < c->npairs; i++)
			csv_row(c, &t, &c->pairs[i]);
	}
	if (c->dat)
		ratio_sets(c);
}

