/* YCSB's generators as CoreWorkload uses them: the operation chooser, the
 * key choosers (uniform, scrambled zipfian, latest, hotspot, sequential,
 * exponential), field and scan lengths, and the acknowledged insert
 * counter. Each worker draws from its own stream (seed, worker), so a run
 * is repeatable, and each operation's kind from one of its own (seed,
 * worker, operation), so it is known from the operation's index; the
 * sequential chooser and the insert counter are shared, as in YCSB. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ledger.h"
#include "ycsb.h"

#define YCSB_STREAM UINT64_C(0x7963736200000000) /* "ycsb" */
#define YCSB_OP_STREAM UINT64_C(0x7963736f00000000) /* "ycso": one per worker */

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

_Static_assert(sizeof(struct ycsb_ack_head) == 64, "the counter's head is one cache line");

static void ack_setup(struct ycsb_ack *a, uint64_t start)
{
	struct ycsb_ack_head *h = a->h;
	memcpy(h->magic, YCSB_ACK_MAGIC, sizeof h->magic);
	h->start = start;
	h->window = YCSB_ACK_WINDOW;
	atomic_init(&h->next, start);
	atomic_init(&h->limit, (int64_t)start - 1);
	a->done = (_Atomic unsigned char *)(h + 1);
	atomic_init(&a->seq, 0);
	atomic_flag_clear(&a->advancing);
}

int ycsb_ack_init(struct ycsb_ack *a, uint64_t start)
{
	memset(a, 0, sizeof *a);
	a->given_up_fd = -1;
	a->len = sizeof *a->h + YCSB_ACK_WINDOW;
	a->h = calloc(1, a->len);
	if (!a->h)
		return -1;
	ack_setup(a, start);
	return 0;
}

int ycsb_ack_init_file(struct ycsb_ack *a, uint64_t start, const char *dir, char *msg, size_t n)
{
	memset(a, 0, sizeof *a);
	a->given_up_fd = -1;
	a->len = sizeof *a->h + YCSB_ACK_WINDOW;
	int fd = rpb_results_file_create(dir, YCSB_ACK_FILE, O_RDWR, msg, n);
	if (fd < 0)
		return -1;
	void *map = MAP_FAILED;
	/* A sparse file: only the pages of marks the run reaches take space. */
	if (ftruncate(fd, (off_t)a->len) == 0)
		map = mmap(NULL, a->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		snprintf(msg, n, "cannot map %s/%s: %s; check the results directory (--out)", dir,
			 YCSB_ACK_FILE, strerror(errno));
	close(fd); /* the mapping keeps the file */
	if (map == MAP_FAILED)
		return -1;
	a->h = map;
	a->mapped = true;
	ack_setup(a, start);
	a->given_up_fd = rpb_results_file_create(dir, YCSB_GIVEN_UP_FILE, O_WRONLY | O_APPEND, msg, n);
	if (a->given_up_fd < 0) {
		ycsb_ack_free(a);
		return -1;
	}
	return 0;
}

void ycsb_ack_free(struct ycsb_ack *a)
{
	if (a->mapped && a->h)
		munmap(a->h, a->len);
	else
		free(a->h);
	if (a->given_up_fd >= 0)
		close(a->given_up_fd);
	a->h = NULL;
	a->done = NULL;
	a->given_up_fd = -1;
}

void ycsb_ack_given_up(struct ycsb_ack *a, uint64_t v)
{
	if (a->given_up_fd < 0)
		return;
	char line[32];
	int len = snprintf(line, sizeof line, "%" PRIu64 "\n", v);
	/* One write of a short line to an O_APPEND file: whole even when several
	 * workers give up at once. A failed write leaves the number unlisted,
	 * and verify then reports its record missing: loud, not silent. */
	if (write(a->given_up_fd, line, (size_t)len) != len)
		return;
}

bool ycsb_ack_is_done(const struct ycsb_ack_head *h, uint64_t v)
{
	int64_t lim = atomic_load_explicit(&((struct ycsb_ack_head *)h)->limit, memory_order_acquire);
	if ((int64_t)v <= lim)
		return true;
	/* The limit's own slot may still hold its mark (killed between moving
	 * the limit and clearing it): the number a window after it is not told. */
	if (v - (uint64_t)(lim + 1) >= h->window - 1)
		return false;
	const _Atomic unsigned char *done = (const _Atomic unsigned char *)(h + 1);
	return atomic_load_explicit(&done[v % h->window], memory_order_acquire) != 0;
}

bool ycsb_ack_done(struct ycsb_ack *a, uint64_t v)
{
	const uint64_t mask = YCSB_ACK_WINDOW - 1;
	if (v - (uint64_t)(ycsb_ack_last(a) + 1) >= YCSB_ACK_WINDOW)
		return false;
	atomic_store_explicit(&a->done[v & mask], 1, memory_order_release);
	/* One thread at a time moves the limit over the acknowledged numbers
	 * that follow it; whoever finds the next one marked after letting go
	 * moves it on (YCSB's tryLock, without its missed wake-up). The limit
	 * moves before the mark it passes is cleared, so a process killed at
	 * any instant leaves every done number either marked or at most the
	 * limit. */
	for (;;) {
		if (atomic_flag_test_and_set_explicit(&a->advancing, memory_order_acquire))
			return true;
		int64_t lim = atomic_load_explicit(&a->h->limit, memory_order_relaxed);
		while (atomic_load_explicit(&a->done[(uint64_t)(lim + 1) & mask], memory_order_acquire)) {
			lim++;
			atomic_store_explicit(&a->h->limit, lim, memory_order_release);
			atomic_store_explicit(&a->done[(uint64_t)lim & mask], 0, memory_order_relaxed);
		}
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
		int64_t last = ack ? ycsb_ack_last(ack) : (int64_t)o->records - 1;
		uint64_t items = last > 1 ? (uint64_t)last : 2;
		ycsb_zipf_init(&g->keyzipf, 0, items - 1, 0.99);
		break;
	}
	case YCSB_EXPONENTIAL:
		g->exp_gamma = -log(1.0 - o->exp_percentile / 100.0) /
			       ((double)o->records * o->exp_frac);
		break;
	default:
		break;
	}
	if (o->scanlengthdistribution == YCSB_ZIPFIAN)
		ycsb_zipf_init(&g->scanzipf, o->minscanlength, o->maxscanlength, o->zipfianconstant);
	if (o->fieldlengthdistribution == YCSB_LEN_ZIPFIAN)
		ycsb_zipf_init(&g->lenzipf, o->minfieldlength, o->fieldlength, o->zipfianconstant);
	ycsb_op_weights(o, g->cum);
}

void ycsb_op_weights(const struct rpb_ycsb_opts *o, double cum[YCSB_NOPS])
{
	/* DiscreteGenerator over the operations with a positive proportion. */
	double sum = 0;
	for (int i = 0; i < YCSB_NOPS; i++)
		sum += o->proportion[i] > 0 ? o->proportion[i] : 0;
	for (int i = 0; i < YCSB_NOPS; i++)
		cum[i] = sum > 0 && o->proportion[i] > 0 ? o->proportion[i] / sum : 0;
}

enum ycsb_op ycsb_op_kind(const double cum[YCSB_NOPS], uint64_t seed, unsigned worker, uint64_t i)
{
	struct rpb_rng r;
	rpb_rng_seed(&r, seed, YCSB_OP_STREAM | worker, i);
	double val = rpb_rng_double(&r);
	int last = YCSB_READ;
	for (int k = 0; k < YCSB_NOPS; k++) {
		if (cum[k] <= 0)
			continue;
		last = k;
		if (val < cum[k])
			return (enum ycsb_op)k;
		val -= cum[k];
	}
	return (enum ycsb_op)last; /* rounding at the very top */
}

unsigned ycsb_op_label(const struct rpb_job *job, unsigned worker, uint64_t i)
{
	const struct rpb_ycsb_opts *o = ycsb_opts(job);
	if (o->phase == YCSB_LOAD)
		return YCSB_INSERT;
	double cum[YCSB_NOPS];
	ycsb_op_weights(o, cum);
	return ycsb_op_kind(cum, job->run.seed, worker, i);
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
		int64_t max = g->ack ? ycsb_ack_last(g->ack) : (int64_t)o->records - 1;
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
	int64_t last = g->ack ? ycsb_ack_last(g->ack) : (int64_t)g->o->records - 1;
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
	case YCSB_LEN_HISTOGRAM: {
		/* HistogramGenerator.nextValue: a uniform draw below the counts'
		 * sum, walked down the buckets before the last; bucket i gives
		 * (i + 1) blocks, the last bucket (buckets - 1) blocks. */
		int64_t number = (int64_t)rpb_rng_range(&g->rng, 0, o->hist_area);
		uint32_t i = 0;
		for (; i + 1 < o->nhist; i++) {
			number -= (int64_t)o->hist[i];
			if (number <= 0)
				return (uint64_t)(i + 1) * o->hist_block;
		}
		return (uint64_t)i * o->hist_block;
	}
	default:
		return o->fieldlength;
	}
}

unsigned ycsb_next_field(struct ycsb_gen *g)
{
	return (unsigned)rpb_rng_range(&g->rng, 0, g->o->fieldcount);
}
