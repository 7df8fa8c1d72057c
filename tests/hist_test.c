/* The latency histogram: accuracy against exact percentiles, merge, diff,
 * bucket bounds, and a concurrent reader (also run under TSan). */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "rng.h"

#define NSAMPLES 200000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static struct rpb_hist *hist_new(void)
{
	struct rpb_hist *h = malloc(sizeof *h);
	cr_assert_not_null(h);
	rpb_hist_init(h);
	return h;
}

static struct rpb_hist_snap *snap_new(void)
{
	struct rpb_hist_snap *s = malloc(sizeof *s);
	cr_assert_not_null(s);
	rpb_snap_init(s);
	return s;
}

enum dist { UNIFORM, LOGUNIFORM, CONSTANT, SMALL, MIXED };

/* One sample of a test distribution, in ns. */
static uint64_t draw(struct rpb_rng *r, enum dist d)
{
	switch (d) {
	case UNIFORM: /* 1 us .. 100 ms */
		return rpb_rng_range(r, 1000, 100000000);
	case LOGUNIFORM: /* log-normal-ish: e^U, U in [2, 23): 7 ns .. ~10 s */
		return (uint64_t)exp(2.0 + 21.0 * rpb_rng_double(r));
	case CONSTANT:
		return 1234567;
	case SMALL: /* the exact region */
		return rpb_rng_range(r, 0, 300);
	case MIXED:
	default:
		return draw(r, (enum dist)rpb_rng_range(r, 0, MIXED));
	}
}

/* Nearest rank: the ceil(p/100 * n)-th smallest sample. */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, double p)
{
	double r = p * (double)n / 100.0;
	size_t rank = (size_t)ceil(r);
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static void check_accuracy(enum dist d, const char *name)
{
	static const double ps[] = {50, 90, 95, 99, 99.9, 99.99, 100};
	uint64_t *v = malloc(NSAMPLES * sizeof *v);
	struct rpb_hist *h = hist_new();
	struct rpb_hist_snap *s = snap_new();
	struct rpb_rng r;
	rpb_rng_seed(&r, 42, d, 0);
	uint64_t sum = 0;
	for (size_t i = 0; i < NSAMPLES; i++) {
		v[i] = draw(&r, d);
		sum += v[i];
		rpb_hist_record(h, v[i]);
	}
	qsort(v, NSAMPLES, sizeof *v, cmp_u64);
	rpb_hist_snapshot(h, s);
	cr_assert_eq(s->count, NSAMPLES, "%s: count", name);
	cr_assert_eq(s->sum, sum, "%s: sum", name);
	cr_assert_eq(s->min, v[0], "%s: min is exact", name);
	cr_assert_eq(s->max, v[NSAMPLES - 1], "%s: max is exact", name);
	for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		uint64_t want = exact_percentile(v, NSAMPLES, ps[i]);
		uint64_t got = rpb_snap_percentile(s, ps[i]);
		double err = fabs((double)got - (double)want) / (double)(want ? want : 1);
		cr_assert(err <= 0.01 || got == want, "%s p%g: got %llu, exact %llu (%.3f%%)",
			  name, ps[i], (unsigned long long)got, (unsigned long long)want, err * 100);
	}
	cr_assert_eq(rpb_snap_percentile(s, 100), v[NSAMPLES - 1], "%s: p100 is max", name);
	free(v);
	free(h);
	free(s);
}

Test(hist, percentiles_within_one_percent)
{
	check_accuracy(UNIFORM, "uniform");
	check_accuracy(LOGUNIFORM, "log-uniform");
	check_accuracy(CONSTANT, "constant");
	check_accuracy(SMALL, "small");
	check_accuracy(MIXED, "mixed");
}

Test(hist, merge_equals_one_histogram)
{
	struct rpb_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct rpb_hist_snap *sa = snap_new(), *sb = snap_new(), *merged = snap_new(),
			     *sall = snap_new();
	struct rpb_rng r;
	rpb_rng_seed(&r, 7, 0, 0);
	for (int i = 0; i < NSAMPLES; i++) {
		uint64_t x = draw(&r, MIXED);
		rpb_hist_record(i % 3 ? a : b, x);
		rpb_hist_record(all, x);
	}
	rpb_hist_snapshot(a, sa);
	rpb_hist_snapshot(b, sb);
	rpb_hist_snapshot(all, sall);
	rpb_snap_add(merged, sa);
	rpb_snap_add(merged, sb);
	cr_assert_eq(merged->count, sall->count);
	cr_assert_eq(merged->sum, sall->sum);
	cr_assert_eq(merged->min, sall->min);
	cr_assert_eq(merged->max, sall->max);
	cr_assert(memcmp(merged->buckets, sall->buckets, sizeof merged->buckets) == 0);
	cr_assert_eq(rpb_snap_percentile(merged, 99), rpb_snap_percentile(sall, 99));
	free(a), free(b), free(all), free(sa), free(sb), free(merged), free(sall);
}

Test(hist, diff_gives_the_interval)
{
	struct rpb_hist *h = hist_new(), *second = hist_new();
	struct rpb_hist_snap *s1 = snap_new(), *s2 = snap_new(), *d = snap_new(),
			     *want = snap_new();
	struct rpb_rng r;
	rpb_rng_seed(&r, 9, 0, 0);
	for (int i = 0; i < NSAMPLES / 2; i++)
		rpb_hist_record(h, draw(&r, MIXED));
	rpb_hist_snapshot(h, s1);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int i = 0; i < NSAMPLES / 2; i++) {
		uint64_t x = draw(&r, UNIFORM); /* narrower than the first half */
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
		rpb_hist_record(h, x);
		rpb_hist_record(second, x);
	}
	rpb_hist_snapshot(h, s2);
	rpb_hist_snapshot(second, want);
	rpb_snap_diff(d, s2, s1);
	cr_assert_eq(d->count, NSAMPLES / 2);
	cr_assert_eq(d->sum, want->sum);
	cr_assert(memcmp(d->buckets, want->buckets, sizeof d->buckets) == 0);
	/* Interval extremes are the bounds of the extreme samples' buckets. */
	cr_assert_eq(d->min, rpb_hist_bucket_low(rpb_hist_bucket(lo)));
	cr_assert_eq(d->max, rpb_hist_bucket_high(rpb_hist_bucket(hi)));
	cr_assert_eq(rpb_snap_percentile(d, 50), rpb_snap_percentile(want, 50));

	rpb_snap_diff(d, s2, s2);
	cr_assert_eq(d->count, 0);
	cr_assert_eq(rpb_snap_percentile(d, 99), 0);
	free(h), free(second), free(s1), free(s2), free(d), free(want);
}

static void check_bounds(uint64_t v)
{
	unsigned b = rpb_hist_bucket(v);
	cr_assert_lt(b, RPB_HIST_BUCKETS);
	uint64_t low = rpb_hist_bucket_low(b), high = rpb_hist_bucket_high(b);
	uint64_t limit = low / RPB_HIST_SUB > 1 ? low / RPB_HIST_SUB : 1;
	cr_assert(low <= v && v <= high, "%llu outside its bucket %u [%llu, %llu]",
		  (unsigned long long)v, b, (unsigned long long)low, (unsigned long long)high);
	cr_assert_leq(high - low + 1, limit, "bucket %u too wide", b);
}

Test(hist, bucket_bounds)
{
	for (uint64_t v = 0; v < 100000; v++)
		check_bounds(v);
	for (int k = 1; k < 49; k++) {
		uint64_t p = UINT64_C(1) << k;
		check_bounds(p - 1);
		check_bounds(p);
		check_bounds(p + 1);
	}
	check_bounds(RPB_HIST_MAX);
	struct rpb_rng r;
	rpb_rng_seed(&r, 3, 0, 0);
	for (int i = 0; i < 1000000; i++) /* random magnitudes, random mantissas */
		check_bounds(rpb_rng_next(&r) >> rpb_rng_range(&r, 15, 64));
	/* The buckets tile [0, RPB_HIST_MAX] without gaps or overlaps. */
	cr_assert_eq(rpb_hist_bucket_low(0), 0);
	for (unsigned i = 0; i < RPB_HIST_BUCKETS; i++) {
		cr_assert_eq(rpb_hist_bucket(rpb_hist_bucket_low(i)), i);
		cr_assert_eq(rpb_hist_bucket(rpb_hist_bucket_high(i)), i);
		if (i + 1 < RPB_HIST_BUCKETS)
			cr_assert_eq(rpb_hist_bucket_low(i + 1), rpb_hist_bucket_high(i) + 1);
	}
	cr_assert_eq(rpb_hist_bucket_high(RPB_HIST_BUCKETS - 1), RPB_HIST_MAX);
}

Test(hist, empty_and_overflow)
{
	struct rpb_hist *h = hist_new();
	struct rpb_hist_snap *s = snap_new();
	rpb_hist_snapshot(h, s);
	cr_assert_eq(s->count, 0);
	cr_assert_eq(rpb_snap_percentile(s, 50), 0);
	cr_assert_eq(rpb_snap_percentile(s, 100), 0);
	cr_assert_eq(rpb_snap_mean(s), 0.0);

	uint64_t huge = RPB_HIST_MAX * 4 + 17;
	rpb_hist_record(h, 100);
	rpb_hist_record(h, RPB_HIST_MAX + 1);
	rpb_hist_record(h, huge);
	rpb_hist_snapshot(h, s);
	cr_assert_eq(s->count, 3);
	cr_assert_eq(s->max, huge);
	cr_assert_eq(s->min, 100);
	cr_assert_eq(s->buckets[RPB_HIST_BUCKETS - 1], 2);
	cr_assert_eq(rpb_snap_percentile(s, 100), huge);
	cr_assert_eq(rpb_snap_percentile(s, 10), 100); /* exact below 256 */
	cr_assert_eq(rpb_hist_bucket(UINT64_MAX), RPB_HIST_BUCKETS - 1);
	free(h), free(s);
}

#define WRITES 2000000

struct race {
	struct rpb_hist *h;
	atomic_bool done;
	int bad;         /* set by the reader, asserted by the main thread */
	uint64_t reads;
};

static void *reader(void *arg)
{
	struct race *x = arg;
	struct rpb_hist_snap *s = malloc(sizeof *s);
	uint64_t last_count = 0, last_sum = 0;
	bool finished;
	do {
		finished = atomic_load(&x->done);
		rpb_hist_snapshot(x->h, s);
		if (s->count < last_count || s->sum < last_sum || s->count > WRITES)
			x->bad = 1;
		last_count = s->count;
		last_sum = s->sum;
		(void)rpb_snap_percentile(s, 99); /* never stuck on a torn copy */
		x->reads++;
	} while (!finished);
	if (last_count != WRITES)
		x->bad = 2;
	free(s);
	return NULL;
}

Test(hist, concurrent_reader_sees_monotonic_counts)
{
	struct race x = {.h = hist_new()};
	atomic_init(&x.done, false);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, reader, &x), 0);
	struct rpb_rng r;
	rpb_rng_seed(&r, 5, 0, 0);
	for (int i = 0; i < WRITES; i++)
		rpb_hist_record(x.h, rpb_rng_next(&r) >> rpb_rng_range(&r, 20, 64));
	atomic_store(&x.done, true);
	cr_assert_eq(pthread_join(t, NULL), 0);
	cr_assert_eq(x.bad, 0, "reader saw a count go backwards (%d)", x.bad);
	cr_assert_gt(x.reads, 0);
	free(x.h);
}
