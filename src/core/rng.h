/* Deterministic pseudo-random numbers: every value rpbench draws derives
 * from (seed, stream, index), so any operation of any thread can be
 * regenerated exactly, by the run and later by verify. */
#ifndef RPB_RNG_H
#define RPB_RNG_H

#include <stdint.h>

struct rpb_rng {
	uint64_t s[4]; /* xoshiro256** state */
};

/* Seeds a generator for one (seed, stream, index) triple; the three are mixed
 * with splitmix64 so neighbouring triples give unrelated sequences. */
void rpb_rng_seed(struct rpb_rng *r, uint64_t seed, uint64_t stream, uint64_t index);
/* rpb_rng_seed in two steps, for a loop that seeds many indexes of one
 * stream: rpb_rng_seed_at(r, rpb_rng_base(seed, stream), index) seeds r
 * exactly as rpb_rng_seed(r, seed, stream, index) does. */
uint64_t rpb_rng_base(uint64_t seed, uint64_t stream);
void rpb_rng_seed_at(struct rpb_rng *r, uint64_t base, uint64_t index);
uint64_t rpb_rng_next(struct rpb_rng *r);
/* Uniform in [lo, hi) without modulo bias; returns lo when hi <= lo. */
uint64_t rpb_rng_range(struct rpb_rng *r, uint64_t lo, uint64_t hi);
/* Uniform in [0, 1). */
double rpb_rng_double(struct rpb_rng *r);

#endif
