/* The histogram's standard deviation: exact sums of squares, checked
 * against a two-pass computation, across merge and diff, and for values
 * whose squares overflow 64 bits. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "hist.h"
#include "rng.h"

static struct rpb_hist *hist_new(void)
{
	struct rpb_hist *h = malloc(sizeof *h);
	cr_assert_not_null(h);
	rpb_hist_init(h);
	return h;
}

/* Population standard deviation, two-pass, in long double. */
static double stddev_of(const uint64_t *v, size_t n)
{
	long double mean = 0, var = 0;
	for (size_t i = 0; i < n; i++)
		mean += (long double)v[i];
	mean /= (long double)n;
	for (size_t i = 0; i < n; i++)
		var += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	return (double)sqrtl(var / (long double)n);
}

static void assert_close(double got, double want, const char *what)
{
	cr_assert(fabs(got - want) <= 1e-9 * want + 1e-6, "%s: stddev %.6f, want %.6f", what, got,
		  want);
}

Test(hist_stddev, matches_two_pass_for_spread_values)
{
	enum { N = 50000 };
	uint64_t *v = malloc(N * sizeof *v);
	struct rpb_hist *h = hist_new();
	struct rpb_hist_snap *s = malloc(sizeof *s);
	cr_assert(v && s);
	struct rpb_rng rng;
	rpb_rng_seed(&rng, 7, 0, 0);
	for (size_t i = 0; i < N; i++) {
		v[i] = 1000 + rpb_rng_next(&rng) % 5000000; /* 1 us .. 5 ms */
		rpb_hist_record(h, v[i]);
	}
	rpb_hist_snapshot(h, s);
	/* Exact sums: the buckets alone would be up to 0.4% off per value. */
	assert_close(rpb_snap_stddev(s), stddev_of(v, N), "uniform");
	free(v), free(h), free(s);
}

Test(hist_stddev, squares_beyond_64_bits)
{
	/* 10 s and 20 s: each square is above 2^64 ns^2. */
	uint64_t v[] = {10000000000u, 20000000000u, 10000000000u, 20000000000u};
	struct rpb_hist *h = hist_new();
	struct rpb_hist_snap *s = malloc(sizeof *s);
	cr_assert_not_null(s);
	for (size_t i = 0; i < 4; i++)
		rpb_hist_record(h, v[i]);
	rpb_hist_snapshot(h, s);
	assert_close(rpb_snap_stddev(s), 5e9, "10 s and 20 s");
	free(h), free(s);
}

Test(hist_stddev, constant_and_single_are_zero)
{
	struct rpb_hist *h = hist_new();
	struct rpb_hist_snap *s = malloc(sizeof *s);
	cr_assert_not_null(s);
	rpb_hist_record(h, 123456789);
	rpb_hist_snapshot(h, s);
	cr_assert_eq(rpb_snap_stddev(s), 0.0, "one sample");
	for (int i = 0; i < 1000; i++)
		rpb_hist_record(h, 123456789);
	rpb_hist_snapshot(h, s);
	cr_assert_eq(rpb_snap_stddev(s), 0.0, "a constant");
	free(h), free(s);
}

Test(hist_stddev, merge_and_diff_keep_the_sums)
{
	uint64_t a[] = {100, 200, 300, 5000000000u}, b[] = {7, 9000, 12000000000u};
	uint64_t all[] = {100, 200, 300, 5000000000u, 7, 9000, 12000000000u};
	struct rpb_hist *ha = hist_new(), *hb = hist_new();
	struct rpb_hist_snap *sa = malloc(sizeof *sa), *sb = malloc(sizeof *sb),
			     *m = malloc(sizeof *m), *d = malloc(sizeof *d);
	cr_assert(sa && sb && m && d);
	for (size_t i = 0; i < 4; i++)
		rpb_hist_record(ha, a[i]);
	for (size_t i = 0; i < 3; i++)
		rpb_hist_record(hb, b[i]);
	rpb_hist_snapshot(ha, sa);
	rpb_hist_snapshot(hb, sb);
	rpb_snap_init(m);
	rpb_snap_add(m, sa);
	rpb_snap_add(m, sb);
	assert_close(rpb_snap_stddev(m), stddev_of(all, 7), "merged");
	/* The samples recorded after a snapshot: b's, recorded into a. */
	for (size_t i = 0; i < 3; i++)
		rpb_hist_record(ha, b[i]);
	struct rpb_hist_snap *now = malloc(sizeof *now);
	cr_assert_not_null(now);
	rpb_hist_snapshot(ha, now);
	rpb_snap_diff(d, now, sa);
	assert_close(rpb_snap_stddev(d), stddev_of(b, 3), "diff");
	free(ha), free(hb), free(sa), free(sb), free(m), free(d), free(now);
}
