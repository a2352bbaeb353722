/*
 * models.h: a curve's fit of Hockney's model, t = latency + bytes / bw, as
 * pure logic (findings.c writes merged/models.csv from it).
 *
 * The fit is least squares of the relative residuals (weights 1 / t^2), so
 * 8 B and 4 MiB count alike; a negative latency is fixed at 0. Where one
 * line fits badly (its worst relative residual above MODEL_BAD) and there
 * are MODEL_MIN_PIECE points on each side, the best split into two lines
 * (a protocol switch: eager to rendezvous) is kept when it fits better.
 */
#ifndef COLLECT_MODELS_H
#define COLLECT_MODELS_H

#include "tablerow.h"

#define MODEL_BAD 0.25
#define MODEL_MIN_PIECE 3

struct line_fit {
	double latency;   /* seconds */
	double slope;     /* seconds per byte; <= 0: flat (no bandwidth) */
	double r2;        /* weighted */
	double worst;     /* the largest |fit - t| / t */
};

struct model {
	long n;
	struct line_fit all;
	int two;          /* a two-piece fit is kept */
	double break_x;   /* ... its upper piece's first x */
	struct line_fit lo, hi;
};

/*
 * models.csv (common/tablerow.h), a row per curve: its point, level, algorithm,
 * split and commsize, the points fitted, the one-line fit (latency, the
 * communicator's asymptotic bandwidth in decimal GB/s, n_half, r2, the
 * worst relative residual) and, where two lines are kept, the break and
 * each piece's latency and bandwidth (empty otherwise).
 */
#define MODEL_COLUMNS(X) \
	X(point, LONG, point) \
	X(level, LONG, level) \
	X(algo, TEXT, algo) \
	X(split, TEXT, split) \
	X(commsize, LONG, commsize) \
	X(n, LONG, n) \
	X(latency_s, REAL, latency) \
	X(bw_GBs, REAL, bw) \
	X(n_half_B, REAL, n_half) \
	X(r2, REAL, r2) \
	X(worst_rel, REAL, worst) \
	X(break_B, REAL, break_x) \
	X(lo_latency_s, REAL, lo_latency) \
	X(lo_bw_GBs, REAL, lo_bw) \
	X(hi_latency_s, REAL, hi_latency) \
	X(hi_bw_GBs, REAL, hi_bw)
TABLE_STRUCT(model_row, MODEL_COLUMNS);

/* Fits x ascending, n >= 2, every t > 0; 0, or -1 (too few points). */
int model_fit(const double *x, const double *t, long n, struct model *m);
/* The asymptotic bandwidth (x per second) of a line, NAN when flat. */
double model_bw(const struct line_fit *f);
/* The x at half of it (latency / slope), NAN when flat. */
double model_n_half(const struct line_fit *f);

#endif
