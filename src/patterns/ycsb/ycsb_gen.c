/* YCSB's generators as CoreWorkload uses them: the operation chooser, the
 * key choosers (uniform, scrambled zipfian, latest, hotspot, sequential,
 * exponential), field and scan lengths, and the acknowledged insert
 * counter. Each worker draws from its own stream (seed, worker), so a run
 * is repeatable; the sequential chooser and the insert counter are shared,
 * as in YCSB. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ycsb.h"

#define YCSB_STREAM UINT64_C(0x7963736200000000) /* "ycsb" */

/* ScrambledZipfianGenerator's inner generator: 10^10 items, and its zeta
 * for theta 0.99, both YCSB's constants. */
#define SCRAMBLED_ITEMS UINT64_C(10000000000)
#define SCRAMBLED_THETA 0.99
#define SCRAMBLED_ZETAN 26.46902820178302

double ycsb_zeta(uint64_t from, uint64_t n, double theta, double start)
{
	double sum = start;
	for (uint64_t i = from; i < n; i++)
		sum += 1.0 / pow((double)(i + 1), theta);
	return sum;
}

/* zeta(n) for an n too large to sum (another theta than YCSB's precomputed
 * one for 10^10 items): the first terms summed, the rest by Euler-Maclaurin,
 * exact to about 1e-12. */
static double zeta_large(uint64_t n, double theta)
{
	const uint64_t m = 10000;
	double sum = ycsb_zeta(0, m - 1, theta, 0); /* 1..m-1 */
	double M = (double)m, N = (double)n;
	sum += (pow(N, 1 - theta) - pow(M, 1 - theta)) / (1 - theta);
	sum += (pow(M, -theta) + pow(N, -theta)) / 2;
	sum += theta / 12 * (pow(M, -theta - 1) - pow(N, -theta - 1));
	return sum;
}

static void zipf_setup(struct ycsb_zipf *z, uint64_t min, uint64_t max, double theta,
		       double zetan)
{
	z->base = min;
	z->items = max - min + 1;
	z->theta = theta;
	z->alpha = 1.0 / (1.0 - theta);
	z->zeta2 = ycsb_zeta(0, 2, theta, 0);
	z->half_pow = pow(0.5, theta);
	z->zetan = zetan;
	z->countforzeta = z->items;
	/* YCSB computes eta from the items it was built with, also after the
	 * item count grows; kept so. */
	z->eta = (1 - pow(2.0 / (double)z->items, 1 - theta)) / (1 - z->zeta2 / z->zetan);
}

void ycsb_zipf_init(struct ycsb_zipf *z, uint64_t min, uint64_t max, double theta)
{
	zipf_setup(z, min, max, theta, ycsb_zeta(0, max - min + 1, theta, 0));
}

void ycsb_zipf_init_scrambled(struct ycsb_zipf *z, double theta)
{
	double zetan = theta == SCRAMBLED_THETA ? SCRAMBLED_ZETAN : zeta_large(SCRAMBLED_ITEMS + 1, theta);
	zipf_setup(z, 0, SCRAMBLED_ITEMS, theta, zetan);
}

uint64_t ycsb_zipf_next(struct ycsb_zipf *z, struct rpb_rng *r, uint64_t items)
{
	if (items > z->countforzeta) {
		z->zetan = ycsb_zeta(z->countforzeta, items, z->theta, z->zetan);
		z->countforzeta = items;
		z->eta = (1 - pow(2.0 / (double)z->items, 1 - z->theta)) / (1 - z->zeta2 / z->zetan);
	}
	double u = rpb_rng_double(r);
	double uz = u * z->zetan;
	if (uz < 1.0)
		return z->base;
	if (uz < 1.0 + z->half_pow)
		return z->base + 1;
	return z->base + (uint64_t)((double)items * pow(z->eta * u - z->eta + 1, z->alpha));
}

/* ---- the acknowledged insert counter ---- */

int ycsb_ack_init(struct ycsb_ack *a, uint64_t start)
{
	atomic_init(&a->next, start);
	atomic_init(&a->limit, (int64_t)start - 1);
	atomic_init(&a->seq, 0);
	atomic_flag_clear(&a->advancing);
	a->done = calloc(YCSB_ACK_WINDOW, sizeof *a->done);
	return a->done ? 0 : -1;
}

void ycsb_ack_free(struct ycsb_ack *a)
{
	free((void *)a->done);
	a->done = NULL;
}

bool ycsb_ack_done(struct ycsb_ack *a, uint64_t v)
{
	const uint64_t mask = YCSB_ACK_WINDOW - 1;
	if (v - (uint64_t)(ycsb_ack_last(a) + 1) >= YCSB_ACK_WINDOW)
		return false;
	atomic_store_explicit(&a->done[v & mask], 1, memory_order_release);
	/* One thread at a time moves the limit over the acknowledged numbers
	 * that follow it; whoever finds the next one marked after letting go
	 * moves it on (YCSB's tryLock, without its missed wake-up). */
	for (;;) {
		if (atomic_flag_test_and_set_explicit(&a->advancing, memory_order_acquire))
			return true;
		int64_t lim = atomic_load_explicit(&a->limit, memory_order_relaxed);
		while (atomic_load_explicit(&a->done[(uint64_t)(lim + 1) & mask], memory_order_acquire)) {
			atomic_store_explicit(&a->done[(uint64_t)(lim + 1) & mask], 0, memory_order_relaxed);
			lim++;
		}
		atomic_store_explicit(&a->limit, lim, memory_order_release);
		atomic_flag_clear_explicit(&a->advancing, memory_order_release);
		if (!atomic_load_explicit(&a->done[(uint64_t)(lim + 1) & mask], memory_order_acquire))
			return true;
	}
}

/* ---- a worker's generators ---- */

uint64_t ycsb_expected_new_keys(const struct rpb_ycsb_opts *o)
{
	/* CoreWorkload: (int) (opcount * insertproportion * 2.0), "2 is fudge factor" */
	return (uint64_t)((double)o->operationcount * o->proportion[YCSB_INSERT] * 2.0);
}

void ycsb_gen_init(struct ycsb_gen *g, const struct rpb_ycsb_opts *o, struct ycsb_ack *ack,
		   uint64_t seed, unsigned worker)
{
	memset(g, 0, sizeof *g);
	g->o = o;
	g->ack = ack;
	rpb_rng_seed(&g->rng, seed, YCSB_STREAM, worker);
	g->key_lo = o->insertstart;
	g->key_items = o->inserts;
	switch (o->requestdistribution) {
	case YCSB_ZIPFIAN:
		g->key_items = o->inserts + ycsb_expected_new_keys(o) + 1;
		ycsb_zipf_init_scrambled(&g->keyzipf, o->zipfianconstant);
		break;
	case YCSB_LATEST: {
		/* SkewedLatestGenerator: a zipfian over the records acknowledged so
		 * far, always YCSB's default constant. */
		int64_t last = ack ? ycsb_ack_last(ack) : (int64_t)o->recordcount - 1;
		uint64_t items = last > 1 ? (uint64_t)last : 2;
		ycsb_zipf_init(&g->keyzipf, 0, items - 1, 0.99);
		break;
	}
	case YCSB_EXPONENTIAL:
		g->exp_gamma = -log(1.0 - o->exp_percentile / 100.0) /
			       ((double)o->recordcount * o->exp_frac);
		break;
	default:
		break;
	}
	if (o->scanlengthdistribution == YCSB_ZIPFIAN)
		ycsb_zipf_init(&g->scanzipf, o->minscanlength, o->maxscanlength, o->zipfianconstant);
	if (o->fieldlengthdistribution == YCSB_LEN_ZIPFIAN)
		ycsb_zipf_init(&g->lenzipf, o->minfieldlength, o->fieldlength, o->zipfianconstant);
	/* DiscreteGenerator over the operations with a positive proportion. */
	double sum = 0;
	for (int i = 0; i < YCSB_NOPS; i++)
		sum += o->proportion[i];
	for (int i = 0; i < YCSB_NOPS; i++)
		g->cum[i] = sum > 0 ? o->proportion[i] / sum : 0;
}

enum ycsb_op ycsb_next_op(struct ycsb_gen *g)
{
	double val = rpb_rng_double(&g->rng);
	int last = YCSB_READ;
	for (int i = 0; i < YCSB_NOPS; i++) {
		if (g->cum[i] <= 0)
			continue;
		last = i;
		if (val < g->cum[i])
			return (enum ycsb_op)i;
		val -= g->cum[i];
	}
	return (enum ycsb_op)last; /* rounding at the very top */
}

/* One draw of the key chooser. */
static int64_t choose(struct ycsb_gen *g)
{
	const struct rpb_ycsb_opts *o = g->o;
	switch (o->requestdistribution) {
	case YCSB_ZIPFIAN: {
		uint64_t v = ycsb_zipf_next(&g->keyzipf, &g->rng, g->keyzipf.items);
		return (int64_t)(g->key_lo + (uint64_t)ycsb_fnv64((int64_t)v) % g->key_items);
	}
	case YCSB_LATEST: {
		int64_t max = g->ack ? ycsb_ack_last(g->ack) : (int64_t)o->recordcount - 1;
		if (max < 1)
			return 0;
		return max - (int64_t)ycsb_zipf_next(&g->keyzipf, &g->rng, (uint64_t)max);
	}
	case YCSB_HOTSPOT: {
		uint64_t hot = (uint64_t)((double)g->key_items * o->hotspotdatafraction);
		uint64_t cold = g->key_items - hot;
		if (rpb_rng_double(&g->rng) < o->hotspotopnfraction || cold == 0)
			return (int64_t)(g->key_lo + rpb_rng_range(&g->rng, 0, hot));
		return (int64_t)(g->key_lo + hot + rpb_rng_range(&g->rng, 0, cold));
	}
	case YCSB_SEQUENTIAL: {
		uint64_t n = g->ack ? atomic_fetch_add(&g->ack->seq, 1) : g->seq_next++;
		return (int64_t)(g->key_lo + n % g->key_items);
	}
	case YCSB_EXPONENTIAL:
		return (int64_t)(-log(1.0 - rpb_rng_double(&g->rng)) / g->exp_gamma);
	default:
		return (int64_t)(g->key_lo + rpb_rng_range(&g->rng, 0, g->key_items));
	}
}

uint64_t ycsb_next_keynum(struct ycsb_gen *g)
{
	int64_t last = g->ack ? ycsb_ack_last(g->ack) : (int64_t)g->o->recordcount - 1;
	int64_t k;
	if (g->o->requestdistribution == YCSB_EXPONENTIAL) {
		do
			k = last - choose(g);
		while (k < 0);
	} else {
		do
			k = choose(g);
		while (k > last);
	}
	return (uint64_t)k;
}

uint64_t ycsb_next_scanlen(struct ycsb_gen *g)
{
	const struct rpb_ycsb_opts *o = g->o;
	if (o->scanlengthdistribution == YCSB_ZIPFIAN)
		return ycsb_zipf_next(&g->scanzipf, &g->rng, g->scanzipf.items);
	return rpb_rng_range(&g->rng, o->minscanlength, o->maxscanlength + 1);
}

uint64_t ycsb_next_fieldlen(struct ycsb_gen *g)
{
	const struct rpb_ycsb_opts *o = g->o;
	switch (o->fieldlengthdistribution) {
	case YCSB_LEN_UNIFORM:
		return rpb_rng_range(&g->rng, o->minfieldlength, o->fieldlength + 1);
	case YCSB_LEN_ZIPFIAN:
		return ycsb_zipf_next(&g->lenzipf, &g->rng, g->lenzipf.items);
	default:
		return o->fieldlength;
	}
}

unsigned ycsb_next_field(struct ycsb_gen *g)
{
	return (unsigned)rpb_rng_range(&g->rng, 0, g->o->fieldcount);
}
