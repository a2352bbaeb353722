/* median.h: the one median of aller and collect, and the order it sorts by. */
#ifndef COMMON_MEDIAN_H
#define COMMON_MEDIAN_H

/*
 * The median of v[0..n): the middle value, or the mean of the two middle
 * ones; NaNs left out, v sorted in place (its first values the others);
 * NAN for none.
 */
double median_of(double *v, long n);
/* qsort's ascending order of doubles. */
int median_order(const void *a, const void *b);

#endif
