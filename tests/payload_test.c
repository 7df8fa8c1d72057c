/* Object sizes and contents, and the generator under them. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"
#include "rng.h"

#define SEED 0x5eed
#define THREAD 3

Test(payload, size_mean_per_op_seed)
{
	const int n = 100000;
	double sum = 0;
	for (int i = 0; i < n; i++) {
		struct rpb_rng r;
		rpb_rng_seed(&r, SEED, THREAD, (uint64_t)i);
		uint64_t s = rpb_payload_size(&r, 0, 4096);
		cr_assert_lt(s, 4096);
		sum += (double)s;
	}
	double mean = sum / n;
	cr_assert(mean > 2047.5 * 0.99 && mean < 2047.5 * 1.01, "mean size %.1f", mean);
}

Test(payload, size_range_and_degenerate)
{
	struct rpb_rng r, copy;
	rpb_rng_seed(&r, SEED, 0, 0);
	uint64_t seen_lo = UINT64_MAX, seen_hi = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t s = rpb_payload_size(&r, 100, 110);
		cr_assert(s >= 100 && s < 110, "size %llu out of [100, 110)", (unsigned long long)s);
		seen_lo = s < seen_lo ? s : seen_lo;
		seen_hi = s > seen_hi ? s : seen_hi;
	}
	cr_assert_eq(seen_lo, 100);
	cr_assert_eq(seen_hi, 109);
	/* min == max and max < min give min, and still draw exactly one value. */
	copy = r;
	cr_assert_eq(rpb_payload_size(&r, 512, 512), 512);
	rpb_rng_next(&copy);
	cr_assert(memcmp(&r, &copy, sizeof r) == 0, "a degenerate size still draws once");
	cr_assert_eq(rpb_payload_size(&r, 9, 3), 9);
	cr_assert_eq(rpb_payload_size(&r, 0, 1), 0);
}

Test(payload, ascii_is_printable_and_uniform)
{
	const size_t n = 10u << 20, chunk = 65536 + 3; /* odd chunks exercise the tail */
	unsigned char *buf = malloc(chunk);
	uint64_t count[256] = {0};
	struct rpb_rng r;
	rpb_rng_seed(&r, SEED, 1, 0);
	for (size_t done = 0; done < n; done += chunk) {
		rpb_payload_fill(&r, RPB_CONTENT_ASCII, buf, chunk);
		for (size_t i = 0; i < chunk; i++)
			count[buf[i]]++;
	}
	uint64_t total = 0;
	for (int c = 0; c < 256; c++)
		total += count[c];
	double expect = (double)total / 95;
	for (int c = 0; c < 256; c++) {
		if (c < 0x20 || c > 0x7e) {
			cr_assert_eq(count[c], 0, "byte 0x%02x in ASCII content", c);
			continue;
		}
		double dev = ((double)count[c] - expect) / expect;
		cr_assert(dev > -0.05 && dev < 0.05, "'%c' frequency off by %.2f%%", c, dev * 100);
	}
	free(buf);
}

Test(payload, binary_covers_all_bytes)
{
	const size_t n = 1u << 20;
	unsigned char *buf = malloc(n);
	uint64_t count[256] = {0};
	struct rpb_rng r;
	rpb_rng_seed(&r, SEED, 2, 0);
	rpb_payload_fill(&r, RPB_CONTENT_BINARY, buf, n);
	for (size_t i = 0; i < n; i++)
		count[buf[i]]++;
	for (int c = 0; c < 256; c++) {
		double dev = ((double)count[c] - n / 256.0) / (n / 256.0);
		cr_assert(dev > -0.05 && dev < 0.05, "byte 0x%02x frequency off by %.2f%%", c,
			  dev * 100);
	}
	free(buf);
}

static void fill_at(enum rpb_content kind, uint64_t index, unsigned char *buf, size_t n)
{
	struct rpb_rng r;
	rpb_rng_seed(&r, SEED, THREAD, index);
	rpb_payload_fill(&r, kind, buf, n);
}

Test(payload, deterministic_per_triple)
{
	static const size_t sizes[] = {0, 1, 4, 5, 7, 8, 9, 13, 64, 1000, 65537};
	unsigned char a[65538], b[65538]; /* one guard byte */
	for (int k = RPB_CONTENT_ASCII; k <= RPB_CONTENT_BINARY; k++) {
		for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			size_t n = sizes[i];
			memset(a, 0, sizeof a);
			memset(b, 0xff, sizeof b);
			fill_at((enum rpb_content)k, 17, a, n);
			fill_at((enum rpb_content)k, 17, b, n);
			cr_assert(memcmp(a, b, n) == 0, "kind %d size %zu differs on replay", k, n);
			cr_assert_eq(a[n], 0, "wrote past %zu bytes", n);
			cr_assert_eq(b[n], 0xff, "wrote past %zu bytes", n);
			if (n >= 8) {
				fill_at((enum rpb_content)k, 18, b, n);
				cr_assert(memcmp(a, b, n) != 0, "indexes 17 and 18 collide");
			}
		}
	}
	/* Binary bytes are a fixed (little-endian) view of the words drawn. */
	struct rpb_rng r;
	rpb_rng_seed(&r, SEED, THREAD, 17);
	uint64_t w = rpb_rng_next(&r);
	fill_at(RPB_CONTENT_BINARY, 17, a, 8);
	for (int j = 0; j < 8; j++)
		cr_assert_eq(a[j], (unsigned char)(w >> (8 * j)));
}

Test(payload, rng_range_unbiased)
{
	enum { K = 7, DRAWS = 700000 };
	uint64_t count[K] = {0};
	struct rpb_rng r;
	rpb_rng_seed(&r, SEED, 4, 0);
	for (int i = 0; i < DRAWS; i++) {
		uint64_t v = rpb_rng_range(&r, 0, K);
		cr_assert_lt(v, K);
		count[v]++;
	}
	double chi2 = 0, expect = (double)DRAWS / K;
	for (int i = 0; i < K; i++)
		chi2 += ((double)count[i] - expect) * ((double)count[i] - expect) / expect;
	cr_assert_lt(chi2, 22.46, "chi-square %.2f over 6 degrees of freedom (p < 0.001)", chi2);

	/* Offset ranges, the full width, the degenerate case and [0, 1). */
	for (int i = 0; i < 10000; i++) {
		uint64_t v = rpb_rng_range(&r, 1000, 1003);
		cr_assert(v >= 1000 && v < 1003);
		v = rpb_rng_range(&r, UINT64_MAX - 5, UINT64_MAX);
		cr_assert(v >= UINT64_MAX - 5 && v < UINT64_MAX);
		double d = rpb_rng_double(&r);
		cr_assert(d >= 0.0 && d < 1.0);
	}
	cr_assert_eq(rpb_rng_range(&r, 5, 5), 5);
	cr_assert_eq(rpb_rng_range(&r, 6, 2), 6);
}

Test(payload, neighbouring_seeds_are_unrelated)
{
	struct rpb_rng a, b;
	uint64_t first[3][2];
	for (int k = 0; k < 3; k++) {
		rpb_rng_seed(&a, 1, 1, 1);
		rpb_rng_seed(&b, 1 + (k == 0), 1 + (k == 1), 1 + (k == 2));
		first[k][0] = rpb_rng_next(&a);
		first[k][1] = rpb_rng_next(&b);
		cr_assert_neq(first[k][0], first[k][1]);
		/* About half the bits differ: no shared structure. */
		int diff = __builtin_popcountll(first[k][0] ^ first[k][1]);
		cr_assert(diff > 12 && diff < 52, "only %d bits differ", diff);
	}
	/* Swapping stream and index must not give the same sequence. */
	rpb_rng_seed(&a, 1, 2, 3);
	rpb_rng_seed(&b, 1, 3, 2);
	cr_assert_neq(rpb_rng_next(&a), rpb_rng_next(&b));
}
