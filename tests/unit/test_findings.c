/*
 * Unit tests: the findings' one rule of "beyond the noise", and the
 * report's order of the findings (collect/judge/findings_impl.h).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "judge/findings_impl.h"
#include "merged.h"

static struct mrow row(double tmed, double lo, double hi)
{
	struct mrow r = { .TMED = tmed, .TMED_LO = lo, .TMED_HI = hi, .TAVG = tmed, .TMIN = lo, .TMAX = hi };
	return r;
}

/* A row's noise: its median's interval, relative, half; else min..max around tavg. */
static void noise_is_the_relative_half_interval(void **state)
{
	struct mrow r = row(2, 1.8, 2.2), m = row(2, NAN, NAN);
	(void)state;
	assert_float_equal(find_noise(&r), 0.1, 1e-12);
	m.TMIN = 1, m.TMAX = 3;
	assert_float_equal(find_noise(&m), 0.5, 1e-12);
	m.TAVG = 0;
	assert_true(isnan(find_noise(&m)));
}

/* Beyond: more than 10% from 1 and more than twice the noise; either way. */
static void beyond_needs_both_floors(void **state)
{
	(void)state;
	assert_false(find_beyond(1.09, 0));            /* within FIND_NOISE_MIN */
	assert_true(find_beyond(1.11, 0));
	assert_true(find_beyond(1 / 1.12, 0.01));      /* faster counts too */
	assert_false(find_beyond(1.3, 0.2));            /* twice the noise is 40% */
	assert_true(find_beyond(1.5, 0.2));
	assert_true(find_beyond(1.5, NAN));             /* no interval known: the floor alone */
	assert_false(find_beyond(NAN, 0));
	/* two rows compared: their noises added (1.25 is not beyond 0.1 + 0.05 twice) */
	assert_false(find_beyond(1.25, 0.1 + 0.05));
	assert_true(find_beyond(1.35, 0.1 + 0.05));
}

/*
 * The report's first screen: at most FINDINGS_FIRST sentences, warnings
 * first, what to act on first, then the larger effect, then the order
 * found; peaks, limits and crossovers (information to look up) a table.
 */
static void the_report_ranks_what_to_act_on_first(void **state)
{
	static const struct { const char *sev, *kind, *text; double effect; } in[] = {
		{ "info", "peak", "peak 1", 0 },       { "info", "peak", "peak 2", 0 },
		{ "info", "peak", "peak 3", 0 },       { "info", "limit", "limit 1", 0 },
		{ "notice", "modes", "modes 1", 0.3 }, { "info", "scaling", "scaling 1", 0.9 },
		{ "warning", "suspect", "Suspect host n3", 0 },
		{ "warning", "located", "The slow link is the NIC of n3", 0 },
		{ "notice", "placement", "placement 1", 1.2 },   /* the larger effect: before modes */
		{ "info", "scaling", "scaling 2", 0.1 },   { "info", "crossover", "crossover 1", 0 },
	};
	static const char *const first[] = { "Suspect host n3", "The slow link is the NIC of n3",
					     "placement 1", "modes 1", "scaling 1" };
	struct finding_row rows[11];
	struct fout o = { .rows = rows, .nrows = 11 };
	int tables = 0;
	(void)state;
	for (int i = 0; i < 11; i++)
		rows[i] = (struct finding_row){ in[i].sev, in[i].kind, in[i].text, "", in[i].effect, 0, "" };
	find_rank(&o);
	for (int i = 0; i < 11; i++) {
		tables += strcmp(rows[i].shown, "table") == 0;
		if (strcmp(rows[i].shown, "sentence") == 0)
			assert_string_equal(rows[i].text, first[rows[i].rank - 1]);
	}
	assert_int_equal(tables, 6);
	assert_int_equal(rows[9].rank, 6);    /* scaling 2: the first of the table */
	assert_int_equal(rows[10].rank, 11);  /* a crossover, after every sentence */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(noise_is_the_relative_half_interval),
		cmocka_unit_test(beyond_needs_both_floors),
		cmocka_unit_test(the_report_ranks_what_to_act_on_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
