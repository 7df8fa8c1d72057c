/* YCSB's measurements per worker, merged at the end (ycsb_meas.h): what
 * DBWrapper.measure, Measurements.measure/measureIntended/reportStatus and
 * each OneMeasurement* keep, recorded without locks (one writer per slot)
 * and without allocating in the timed loop (a failure's name gets its
 * storage on the error path). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "options.h"
#include "ycsb_meas.h"

const char *const ycsb_mnames[YM_COUNT] = {
	"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "VERIFY", "SCAN-LATENCY-PER-RECORD",
	"READ-FAILED", "READ-ERROR", "READ-NOT_FOUND",
	"UPDATE-FAILED", "UPDATE-ERROR", "UPDATE-NOT_FOUND",
	"INSERT-FAILED", "INSERT-ERROR", "INSERT-NOT_FOUND",
	"SCAN-FAILED", "SCAN-ERROR", "SCAN-NOT_FOUND",
};
const char *const ycsb_status_names[YS_COUNT] = {"OK", "ERROR", "NOT_FOUND", "UNEXPECTED_STATE"};
const char *const ycsb_mtype_names[] = {"histogram", "hdrhistogram", "hdrhistogram+histogram",
					"hdrhistogram+raw", "timeseries", "raw", NULL};

enum ycsb_mname ycsb_fail_name(const struct ycsb_mconf *c, enum ycsb_mname op, enum ycsb_st st)
{
	/* reportlatencyforeacherror, or the status in latencytrackederrors:
	 * "READ-NOT_FOUND"; else "READ-FAILED". */
	unsigned k = (c->per_status || c->tracked[st]) ? (st == YS_NOT_FOUND ? 2 : 1) : 0;
	return (enum ycsb_mname)(YM_FAIL0 + 3 * (unsigned)op + k);
}

static int slot_storage(struct ycsb_wslot *s, const struct ycsb_mconf *c)
{
	if (ycsb_mtype_hdr(c->type) && !s->hdr && !(s->hdr = calloc(YCSB_HDR_LEN, sizeof *s->hdr)))
		return -1;
	if (ycsb_mtype_buckets(c->type) && !s->buckets &&
	    !(s->buckets = calloc(c->buckets, sizeof *s->buckets)))
		return -1;
	s->ready = true;
	return 0;
}

int ycsb_wmeas_init(struct ycsb_wmeas *m, const struct ycsb_mconf *c, const bool need[YM_COUNT],
		    uint64_t cap)
{
	memset(m, 0, sizeof *m);
	for (int map = 0; map < YCSB_MAPS; map++)
		for (int k = 0; k < YM_COUNT; k++) {
			struct ycsb_wslot *s = &m->s[map][k];
			s->min = s->max = -1;
			bool used = map == YCSB_MAP_OP ? c->interval != 1 : c->interval != 0;
			if (need[k] && used && slot_storage(s, c) != 0)
				return -1;
		}
	if (ycsb_mtype_points(c->type) && cap) {
		/* Reserved, not committed: the kernel supplies pages as samples
		 * reach them, so a run without an end costs only what it uses. */
		m->map_len = (size_t)cap * sizeof *m->pts;
		void *p = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED) {
			m->map_len = 0;
			return -1;
		}
		m->pts = p;
		m->cap = (size_t)cap;
	}
	return 0;
}

void ycsb_wmeas_free(struct ycsb_wmeas *m)
{
	for (int map = 0; map < YCSB_MAPS; map++)
		for (int k = 0; k < YM_COUNT; k++) {
			free((void *)m->s[map][k].hdr);
			free(m->s[map][k].buckets);
		}
	if (m->pts)
		munmap(m->pts, m->map_len);
	memset(m, 0, sizeof *m);
}

static inline void bump(_Atomic uint64_t *a, uint64_t d)
{
	/* One writer: a relaxed load and store, as the runner's counters. */
	atomic_store_explicit(a, atomic_load_explicit(a, memory_order_relaxed) + d,
			      memory_order_relaxed);
}

/* The slot exists from its first latency or status on. */
static struct ycsb_wslot *slot(struct ycsb_wmeas *m, const struct ycsb_mconf *c, int map,
			       enum ycsb_mname name, uint64_t now)
{
	struct ycsb_wslot *s = &m->s[map][name];
	if (!s->ready && slot_storage(s, c) != 0) { /* the error path's names */
		m->dropped++;
		return NULL;
	}
	if (!atomic_load_explicit(&s->first_ns, memory_order_relaxed)) {
		s->first_seq = ++m->seq;
		atomic_store_explicit(&s->first_ns, now ? now : 1, memory_order_release);
	}
	return s;
}

/* Java's (int) ((end - start) / 1000), kept within int. */
static int32_t micros(uint64_t start, uint64_t end)
{
	uint64_t us = end > start ? (end - start) / 1000 : 0;
	return us > INT32_MAX ? INT32_MAX : (int32_t)us;
}

static void record(struct ycsb_wmeas *m, const struct ycsb_mconf *c, int map, enum ycsb_mname name,
		   int32_t us, uint64_t end)
{
	struct ycsb_wslot *s = slot(m, c, map, name, end);
	if (!s)
		return;
	bump(&s->count, 1);
	bump(&s->sum, (uint64_t)us);
	if (s->hdr)
		bump(&s->hdr[ycsb_hdr_index(us)], 1);
	if (s->buckets) {
		/* OneMeasurementHistogram: millisecond buckets, then overflow. */
		if ((uint32_t)(us / 1000) >= c->buckets)
			s->overflow++;
		else
			s->buckets[us / 1000]++;
	}
	s->sumsq += (unsigned __int128)((uint64_t)us * (uint64_t)us);
	if (s->min < 0 || us < s->min)
		s->min = us;
	if (us > s->max)
		s->max = us;
	if (m->pts) {
		if (m->npts < m->cap)
			m->pts[m->npts++] = (struct ycsb_point){
				.t_ns = end, .us = us, .slot = (uint16_t)(map * YM_COUNT + name)};
		else
			m->dropped++;
	}
}

static void report(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname name,
		   enum ycsb_st st, uint64_t end)
{
	/* Measurements.reportStatus: the intended map with interval = intended. */
	struct ycsb_wslot *s = slot(m, c, c->interval == 1 ? YCSB_MAP_INTENDED : YCSB_MAP_OP, name, end);
	if (s)
		s->status[st]++;
}

void ycsb_meas_both(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname name,
		    uint64_t ist, uint64_t start, uint64_t end)
{
	if (c->interval != 1)
		record(m, c, YCSB_MAP_OP, name, micros(start, end), end);
	if (c->interval != 0)
		record(m, c, YCSB_MAP_INTENDED, name, micros(ist, end), end);
}

void ycsb_meas_op(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname op,
		  enum ycsb_st st, uint64_t ist, uint64_t start, uint64_t end)
{
	ycsb_meas_both(m, c, st == YS_OK ? op : ycsb_fail_name(c, op, st), ist, start, end);
	report(m, c, op, st, end);
}

void ycsb_meas_value(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname name,
		     int32_t us, uint64_t end)
{
	if (c->interval != 1)
		record(m, c, YCSB_MAP_OP, name, us, end);
}

void ycsb_meas_status(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname name,
		      enum ycsb_st st, uint64_t end)
{
	report(m, c, name, st, end);
}

/* ---- merging ---- */

static int point_cmp(const void *a, const void *b)
{
	const struct ycsb_point *x = a, *y = b;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->t_ns < y->t_ns ? -1 : x->t_ns > y->t_ns;
}

/* Creation order: the first event anywhere, then a worker's own sequence. */
static bool created_before(const struct ycsb_merged *a, const struct ycsb_merged *b)
{
	if (a->first_ns != b->first_ns)
		return a->first_ns < b->first_ns;
	if (a->first_w != b->first_w)
		return a->first_w < b->first_w;
	return a->first_seq < b->first_seq;
}

int ycsb_meas_merge(struct ycsb_result *r, const struct ycsb_mconf *c, struct ycsb_wmeas *const *w,
		    unsigned nw)
{
	memset(r, 0, sizeof *r);
	size_t npts = 0;
	for (unsigned t = 0; t < nw; t++) {
		npts += w[t]->npts;
		r->dropped += w[t]->dropped;
	}
	if (npts && !(r->all = malloc(npts * sizeof *r->all)))
		return -1;
	size_t at = 0;
	for (unsigned t = 0; t < nw; t++) {
		if (w[t]->npts)
			memcpy(r->all + at, w[t]->pts, w[t]->npts * sizeof *r->all);
		at += w[t]->npts;
	}
	if (npts)
		qsort(r->all, npts, sizeof *r->all, point_cmp);
	at = 0;
	for (int map = 0; map < YCSB_MAPS; map++) {
		for (int k = 0; k < YM_COUNT; k++) {
			struct ycsb_merged *g = &r->m[map][k];
			g->min = g->max = -1;
			for (unsigned t = 0; t < nw; t++) {
				const struct ycsb_wslot *s = &w[t]->s[map][k];
				uint64_t first = atomic_load(&s->first_ns);
				if (!first)
					continue;
				struct ycsb_merged one = {.first_ns = first, .first_seq = s->first_seq,
							  .first_w = t};
				if (!g->present || created_before(&one, g)) {
					g->first_ns = one.first_ns;
					g->first_seq = one.first_seq;
					g->first_w = t;
				}
				g->present = true;
				if (s->hdr) {
					if (!g->hdr && !(g->hdr = calloc(YCSB_HDR_LEN, sizeof *g->hdr)))
						return -1;
					for (unsigned i = 0; i < YCSB_HDR_LEN; i++)
						g->hdr[i] += atomic_load_explicit(&s->hdr[i], memory_order_relaxed);
				}
				if (s->buckets) {
					if (!g->buckets && !(g->buckets = calloc(c->buckets, sizeof *g->buckets)))
						return -1;
					for (uint32_t i = 0; i < c->buckets; i++)
						g->buckets[i] += s->buckets[i];
				}
				g->overflow += s->overflow;
				g->count += atomic_load(&s->count);
				g->sum += atomic_load(&s->sum);
				g->sumsq += s->sumsq;
				if (s->min >= 0 && (g->min < 0 || s->min < g->min))
					g->min = s->min;
				if (s->max > g->max)
					g->max = s->max;
				for (int st = 0; st < YS_COUNT; st++)
					g->status[st] += s->status[st];
			}
			/* Every type keeps storage for what it prints, even a name
			 * that only ever had a status. */
			if (g->present && ycsb_mtype_hdr(c->type) && !g->hdr &&
			    !(g->hdr = calloc(YCSB_HDR_LEN, sizeof *g->hdr)))
				return -1;
			if (g->present && ycsb_mtype_buckets(c->type) && !g->buckets &&
			    !(g->buckets = calloc(c->buckets, sizeof *g->buckets)))
				return -1;
			unsigned id = (unsigned)(map * YM_COUNT + k);
			g->pts = r->all ? r->all + at : NULL;
			while (at < npts && r->all[at].slot == id)
				at++, g->npts++;
		}
		/* The map's names in creation order, then as Java iterates them. */
		unsigned byage[YM_COUNT], n = 0;
		for (unsigned k = 0; k < YM_COUNT; k++) {
			if (!r->m[map][k].present)
				continue;
			unsigned i = n++;
			while (i > 0 && created_before(&r->m[map][k], &r->m[map][byage[i - 1]])) {
				byage[i] = byage[i - 1];
				i--;
			}
			byage[i] = k;
		}
		ycsb_chm_order(byage, n, r->order[map]);
		r->norder[map] = n;
	}
	return 0;
}

void ycsb_result_free(struct ycsb_result *r)
{
	for (int map = 0; map < YCSB_MAPS; map++)
		for (int k = 0; k < YM_COUNT; k++) {
			free(r->m[map][k].hdr);
			free(r->m[map][k].buckets);
		}
	free(r->all);
	memset(r, 0, sizeof *r);
}

/* ---- Java 8's ConcurrentHashMap, as far as its iteration order goes ---- */

static uint32_t java_hash(const char *s)
{
	uint32_t h = 0;
	for (; *s; s++)
		h = 31 * h + (unsigned char)*s;
	return h;
}

static uint32_t spread(uint32_t h)
{
	return (h ^ (h >> 16)) & 0x7fffffffu;
}

#define CHM_MAX 64

void ycsb_chm_order(const unsigned *names, unsigned n, unsigned *out)
{
	/* Bins of nodes (as indices into names), each a list in bin order. */
	unsigned bins[CHM_MAX][YM_COUNT], len[CHM_MAX] = {0};
	unsigned size = 16, count = 0, threshold = 12;
	for (unsigned i = 0; i < n; i++) {
		unsigned b = spread(java_hash(ycsb_mnames[names[i]])) & (size - 1);
		bins[b][len[b]++] = names[i]; /* putVal appends at the bin's tail */
		if (++count < threshold || size == CHM_MAX)
			continue;
		/* transfer(): each bin splits into bin i and i + size; the tail run
		 * that goes one way stays in order, the nodes before it are
		 * pushed onto the front of their list (reversed). */
		unsigned nb[CHM_MAX][YM_COUNT], nl[CHM_MAX] = {0};
		for (unsigned k = 0; k < size; k++) {
			if (!len[k])
				continue;
			unsigned last = 0;
			unsigned run = spread(java_hash(ycsb_mnames[bins[k][0]])) & size;
			for (unsigned p = 1; p < len[k]; p++) {
				unsigned bit = spread(java_hash(ycsb_mnames[bins[k][p]])) & size;
				if (bit != run) {
					run = bit;
					last = p;
				}
			}
			unsigned lo[YM_COUNT], hi[YM_COUNT], nlo = 0, nhi = 0;
			/* The run from last on, in order... */
			for (unsigned p = last; p < len[k]; p++) {
				if (run)
					hi[nhi++] = bins[k][p];
				else
					lo[nlo++] = bins[k][p];
			}
			/* ...and each node before it put in front. */
			for (unsigned p = 0; p < last; p++) {
				unsigned v = bins[k][p];
				bool up = spread(java_hash(ycsb_mnames[v])) & size;
				unsigned *list = up ? hi : lo, *ln = up ? &nhi : &nlo;
				memmove(list + 1, list, *ln * sizeof *list);
				list[0] = v;
				(*ln)++;
			}
			memcpy(nb[k], lo, nlo * sizeof *lo);
			nl[k] = nlo;
			memcpy(nb[k + size], hi, nhi * sizeof *hi);
			nl[k + size] = nhi;
		}
		size *= 2;
		threshold = size - (size >> 2);
		memcpy(bins, nb, sizeof bins);
		memcpy(len, nl, sizeof len);
	}
	unsigned at = 0;
	for (unsigned b = 0; b < size; b++)
		for (unsigned p = 0; p < len[b]; p++)
			out[at++] = bins[b][p];
}

void ycsb_display_name(char *buf, size_t n, const struct ycsb_mconf *c, int map,
		       enum ycsb_mname name, const char *prefix)
{
	/* getOpIntendedMeasurement: "Intended-" + operation with interval both. */
	snprintf(buf, n, "%s%s%s", prefix ? prefix : "",
		 map == YCSB_MAP_INTENDED && c->interval == 2 ? "Intended-" : "", ycsb_mnames[name]);
}
