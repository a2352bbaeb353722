/* Unit tests: the growable array (common/grow.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "grow.h"

static void doubles_from_first_and_keeps_what_it_held(void **state)
{
	size_t cap = 0;
	long *a = NULL;
	(void)state;

	a = grow(a, &cap, 1, sizeof(*a), 4);
	assert_non_null(a);
	assert_int_equal(cap, 4);
	for (long i = 0; i < 4; i++)
		a[i] = i;
	assert_ptr_equal(grow(a, &cap, 4, sizeof(*a), 4), a);   /* room already: unchanged */
	assert_int_equal(cap, 4);
	a = grow(a, &cap, 5, sizeof(*a), 4);
	assert_int_equal(cap, 8);
	a = grow(a, &cap, 100, sizeof(*a), 4);   /* as many doublings as it takes */
	assert_int_equal(cap, 128);
	for (long i = 0; i < 4; i++)
		assert_int_equal(a[i], i);
	free(a);
}

static void refuses_what_a_size_t_cannot_hold_and_leaves_the_array(void **state)
{
	size_t cap = 0;
	char *a = grow(NULL, &cap, 10, 1, 16);
	(void)state;

	assert_non_null(a);
	a[0] = 'x';
	assert_null(grow(a, &cap, SIZE_MAX / 8 + 1, 16, 16));   /* its bytes overflow */
	assert_null(grow(a, &cap, SIZE_MAX, 1, 16));            /* its count does */
	assert_int_equal(cap, 16);
	assert_int_equal(a[0], 'x');
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(doubles_from_first_and_keeps_what_it_held),
		cmocka_unit_test(refuses_what_a_size_t_cannot_hold_and_leaves_the_array),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
