/*
 * findings_kinds.c: each kind of finding, from the points' summaries and
 * rows (findings_impl.h); when each is emitted: docs/plots.md.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "bound.h"
#include "grow.h"
#include "findings_impl.h"
#include "merged.h"
#include "read/fabric.h"
#include "text.h"

void find_emit(struct fout *o, enum finding_kind k, const char *severity, const char *text,
	       const long *points, int npoints, ...)
{
	const char *kind = finding_kind(k)->name;
	va_list ap;
	const char *name;
	int first = 1;
	double effect = 0;   /* the largest |ln x| of its ratio, efficiency or factor */

	if (o->n++)
		strbuf_addf(&o->b, ",\n");
	o->warnings += strcmp(severity, "warning") == 0;
	o->notices += strcmp(severity, "notice") == 0;
	strbuf_addf(&o->b, "{\"kind\": \"%s\", \"severity\": \"%s\", \"text\": ", kind, severity);
	text_add_json(&o->b, text);
	strbuf_addf(&o->b, ", \"numbers\": {");
	va_start(ap, npoints);
	while ((name = va_arg(ap, const char *)) != NULL) {
		double v = va_arg(ap, double);
		if ((!strcmp(name, "ratio") || !strcmp(name, "efficiency") || !strcmp(name, "factor")) &&
		    isfinite(v) && v > 0 && fabs(log(v)) > effect)
			effect = fabs(log(v));
		strbuf_addf(&o->b, "%s\"%s\": ", first ? "" : ", ", name);
		if (isfinite(v))
			strbuf_addf(&o->b, "%.6g", v);
		else
			strbuf_addf(&o->b, "null");
		first = 0;
	}
	va_end(ap);
	strbuf_addf(&o->b, "}, \"points\": [");
	for (int i = 0; i < npoints; i++)
		strbuf_addf(&o->b, "%s%ld", i ? ", " : "", points[i]);
	strbuf_addf(&o->b, "]}");
	struct strbuf pts;
	struct finding_row *r = grow(o->rows, &o->cap, o->nrows + 1, sizeof(*r), 16);
	strbuf_init(&pts);
	for (int i = 0; i < npoints; i++)
		strbuf_addf(&pts, "%s%ld", i ? "," : "", points[i]);
	if (!r) {
		strbuf_release(&pts);
		return;
	}
	o->rows = r;
	o->rows[o->nrows++] = (struct finding_row){ severity, kind, strdup(text), pts.s, effect, 0, "" };
}

void fout_release(struct fout *o)
{
	for (size_t i = 0; i < o->nrows; i++) {
		free((char *)o->rows[i].text);
		free((char *)o->rows[i].points);
	}
	free(o->rows);
	strbuf_release(&o->b);
	memset(o, 0, sizeof(*o));
}

void find_where(char *buf, size_t len, const struct fpoint *p)
{
	int variant = p->pt->variant[0] && strcmp(p->pt->variant, "default");

	snprintf(buf, len, "On %ld node%s (%s%s%s%s%s)", p->pt->nodes, p->pt->nodes == 1 ? "" : "s", p->pt->mode,
		 variant ? ", " : "", variant ? p->pt->variant : "", p->pt->placement[0] ? ", " : "",
		 p->pt->placement);
}

static void size_of(char *buf, size_t len, double bytes)
{
	format_bytes(buf, len, isfinite(bytes) ? (long)bytes : 0);
}

double find_noise(const struct mrow *r)
{
	if (isfinite(r->TMED_LO) && isfinite(r->TMED_HI) && r->TMED > 0)
		return (r->TMED_HI - r->TMED_LO) / 2 / r->TMED;
	return r->TAVG > 0 ? (r->TMAX - r->TMIN) / 2 / r->TAVG : NAN;
}

int find_beyond(double ratio, double noise)
{
	return isfinite(ratio) && fabs(ratio - 1) > fmax(FIND_NOISE_MIN, 2 * (isfinite(noise) ? noise : 0));
}

/* interference or congestion: a factor of one row, beyond its noise or not. */
static void factor(struct fout *o, const struct fpoint *p, const struct fbest *r, enum finding_kind kind,
		   const char *what)
{
	char where[256], size[32], text[768];
	double f = r->value, n = r->noise;
	int beyond = find_beyond(f, n);

	find_where(where, sizeof(where), p);
	size_of(size, sizeof(size), r->bytes);
	snprintf(text, sizeof(text), "%s: %s %.2fx at %s per peer (commsize %ld, %s): %s the noise "
		 "(+-%.0f%% at that row)", where, what, f, size, r->commsize, r->algo,
		 beyond ? "beyond" : "within", 100 * (isfinite(n) ? n : 0));
	find_emit(o, kind, beyond && f > 1 ? "notice" : "info", text, &p->pt->point, 1, "factor", f,
		  "noise", n, "bytes_per_peer", r->bytes, "commsize", (double)r->commsize, NULL);
}

int find_recurring(const struct fpoint *p)
{
	double share = p->slow_rows > 0 ? (double)p->slow_n / p->slow_rows : 0;

	return p->pt->nodes >= 2 && p->slow_rows >= FIND_SLOW_ROWS &&
	       share >= (2.0 / (double)p->pt->nodes > 0.5 ? 2.0 / (double)p->pt->nodes : 0.5);
}

/*
 * The best row at the point's largest size against what its fabric allows
 * (the merge's bound: points.csv's bound_s, bottleneck, eff_bound and
 * above_bound); where that is unknown, against the line rate its output
 * records (aller's eff).
 */
static void find_limit(struct fout *o, const struct fpoint *p)
{
	const struct mrow *r = &p->eff;
	const char *why;
	char where[256], size[32], text[1536], link[320];
	double eff = r->eff_bound;

	find_where(where, sizeof(where), p);
	size_of(size, sizeof(size), r->bytes);
	if (!(r->BOUND > 0) || !(eff > 0)) {
		eff = r->EFF;
		snprintf(text, sizeof(text), "%s: at its largest size the best row reaches %.0f%% of "
			 "the line rate its output records, at %s per peer (commsize %ld, %s)%s", where,
			 100 * eff, size, r->COMMSIZE, r->algo, eff < 0.5 ? ": far from the "
			 "hardware's limit." : eff > 1.05 ? ": above the rate recorded, which is "
			 "then not what bounds it (a shaper's burst, or a wrong --line-rate)." : ".");
		find_emit(o, FK_limit, eff < 0.5 ? "notice" : "info", text, &p->pt->point, 1, "eff", eff,
			  "bytes_per_peer", r->bytes, "commsize", (double)r->COMMSIZE, NULL);
		return;
	}
	why = !r->above_bound[0] ? (eff > 1 ? ": at its bound, within its interval." : eff < 0.5 ? ": far from its bound." : ".")
	      : !strcmp(r->above_bound, "spread") ? ": above its bound for the median task; its slowest task took "
						  "the bound (the median task finished sooner)."
	      : !strcmp(r->above_bound, "burst") ? ": above its bound beyond its interval: the link's shaper passes "
						 "a burst at once, and a row this small is mostly burst."
	      : ": above its bound beyond its interval: the rate declared for the link is below what it "
		"carried (a wrong rate, or not what limits the row).";
	find_link_words(p, r->BOTTLENECK, link, sizeof(link));
	snprintf(text, sizeof(text), "%s: at its largest size the best row reaches %.0f%% of what "
		 "the fabric allows, bound by %s (%.0f%% of the NICs' line rate), at %s per peer "
		 "(commsize %ld, %s)%s", where, 100 * eff, link, 100 * r->EFF, size,
		 r->COMMSIZE, r->algo, why);
	find_emit(o, FK_limit, eff < 0.5 ? "notice" : "info", text, &p->pt->point, 1, "eff_bound", eff,
		  "bound_s", r->BOUND, "eff", r->EFF, "bytes_per_peer", r->bytes, "commsize",
		  (double)r->COMMSIZE, NULL);
}

void find_link_words(const struct fpoint *p, const char *id, char *buf, size_t len)
{
	const struct fabric *f = p && p->fabric && !strncmp(id, "up:", 3) ? fabric_shared(p->fabric, p->pt->world) : NULL;
	size_t n = f ? strcspn(id + 3, "(") : 0;   /* the switch's name ("up:" there: f is only then) */

	bound_link_words(id, buf, len);
	for (long i = 0; f && i < f->nleaves; i++)
		if (strlen(f->leaf_name[i]) == n && !strncmp(f->leaf_name[i], id + 3, n)) {
			struct bound_fabric bf = fabric_bound(f);
			int tier = bound_tier(&bf, i);
			if (tier >= 2 && strlen(buf) + 10 < len && !strchr(id, '('))
				snprintf(buf + strlen(buf), len - strlen(buf), ", tier %d", tier);
			break;
		}
	if (f)
		fabric_unshare(f);
	if (p && p->located && strcmp(p->located, id) && strlen(buf) + 16 < len) {   /* the measured before the declared */
		snprintf(buf + strlen(buf), len - strlen(buf), " as declared, with ");
		bound_link_words(p->located, buf + strlen(buf), len - strlen(buf));
		snprintf(buf + strlen(buf), len - strlen(buf), ", the slow link located, in its path");
	}
}

void find_point(struct fout *o, const struct fpoint *p)
{
	char where[256], size[32], size2[32], text[1024], link[320];

	find_where(where, sizeof(where), p);
	if (p->peak.point >= 0) {
		size_of(size, sizeof(size), p->peak.bytes);
		size_of(size2, sizeof(size2), p->agg.bytes);
		snprintf(text, sizeof(text), "%s: the peak is %.3g GiB/s per task at %s per peer "
			 "(commsize %ld, %s) and %.3g GiB/s of all tasks together at %s per peer "
			 "(commsize %ld).", where, p->peak.value, size, p->peak.commsize,
			 p->peak.algo, p->agg.value, size2, p->agg.commsize);
		find_emit(o, FK_peak, "info", text, &p->pt->point, 1, "nodes", (double)p->pt->nodes, "bwavg_GiBs",
			  p->peak.value, "bytes_per_peer", p->peak.bytes, "aggbw_GiBs", p->agg.value,
			  "agg_bytes_per_peer", p->agg.bytes, NULL);
	}
	if (p->eff.point >= 0)
		find_limit(o, p);
	if (find_recurring(p)) {   /* beside a located link not its own, a host that waits on it */
		size_t h = strlen(p->slow_host);
		int waits = p->located && !(!strncmp(p->located, "nic:", 4) && !strncmp(p->located + 4, p->slow_host, h) &&
					    strchr(":", p->located[4 + h]));
		bound_link_words(waits ? p->located : "", link, sizeof(link));
		snprintf(text, sizeof(text), "%s: %s holds the slowest task in %d of %d rows (%.0f%%; 1 in %ld if it were "
			 "chance)%s%s%s", where, p->slow_host, p->slow_n, p->slow_rows, 100.0 * p->slow_n / p->slow_rows,
			 p->pt->nodes, waits ? ", waiting on " : ".", waits ? link : "", waits ? ", the slow link located: "
			 "its slow rows' communicators run through it." : "");
		find_emit(o, FK_slowest_host, waits ? "info" : "notice", text, &p->pt->point, 1, "rows", (double)p->slow_n,
			  "of", (double)p->slow_rows, "nodes", (double)p->pt->nodes, NULL);
	}
	if (p->interf.point >= 0)
		factor(o, p, &p->interf, FK_interference,
		       "communicator 0 is slower beside the others than alone by");
	if (p->cong.point >= 0)
		factor(o, p, &p->cong, FK_congestion,
		       "the victims are slower with the aggressors busy by");
	find_nics(o, p);
}
