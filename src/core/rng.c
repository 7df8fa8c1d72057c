/* splitmix64-seeded xoshiro256** (see rng.h). */
#include "rng.h"

#define GOLDEN UINT64_C(0x9e3779b97f4a7c15)

/* One splitmix64 step: advance the counter by the golden ratio and return its
 * finalised value. A bijection of the counter, so four consecutive outputs
 * are distinct and the xoshiro state can never be all zero. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += GOLDEN);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* Each of seed, stream and index passes through a full avalanche before the
 * next is folded in, so triples differing in one low bit share nothing. */
uint64_t rpb_rng_base(uint64_t seed, uint64_t stream)
{
	uint64_t x = seed;
	x = splitmix64(&x) ^ stream;
	return splitmix64(&x);
}

void rpb_rng_seed_at(struct rpb_rng *r, uint64_t base, uint64_t index)
{
	uint64_t x = base ^ index;
	x = splitmix64(&x);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

void rpb_rng_seed(struct rpb_rng *r, uint64_t seed, uint64_t stream, uint64_t index)
{
	rpb_rng_seed_at(r, rpb_rng_base(seed, stream), index);
}

uint64_t rpb_rng_next(struct rpb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* Lemire's multiply-shift: the high word of x * n is uniform in [0, n)
 * except that 2^64 mod n low words are over-represented; rejecting draws
 * whose low word falls below that threshold removes the bias. The modulo is
 * only computed on the rare path where a rejection is possible. */
uint64_t rpb_rng_range(struct rpb_rng *r, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return lo;
	uint64_t n = hi - lo;
	unsigned __int128 m = (unsigned __int128)rpb_rng_next(r) * n;
	if ((uint64_t)m < n) {
		uint64_t threshold = -n % n; /* 2^64 mod n */
		while ((uint64_t)m < threshold)
			m = (unsigned __int128)rpb_rng_next(r) * n;
	}
	return lo + (uint64_t)(m >> 64);
}

/* The top 53 bits fill a double's mantissa exactly: multiples of 2^-53. */
double rpb_rng_double(struct rpb_rng *r)
{
	return (double)(rpb_rng_next(r) >> 11) * 0x1.0p-53;
}
