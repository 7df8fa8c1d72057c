/* The baseline read back and held against the runs compared now: same
 * workload, same backend, profile and sync, then every headline figure's
 * change, its noise and its gate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "baseline.h"
#include "fsutil.h"
#include "shown.h"

#define RPB_BL_COMPARE_MAX (UINT64_C(1) << 28) /* far larger than any compare.json */

const struct rpb_bl_keydef rpb_bl_keys[RPB_BL_NKEYS] = {
	[RPB_BL_THROUGHPUT] = {"throughput", "throughput_per_s", "throughput", "ops/s", true, 1},
	[RPB_BL_P50] = {"p50", "p50_us", "latency p50", "µs", false, 1},
	[RPB_BL_P99] = {"p99", "p99_us", "latency p99", "µs", false, 1},
	[RPB_BL_P999] = {"p99.9", "p99.9_us", "latency p99.9", "µs", false, 1},
	[RPB_BL_BYTES] = {"bytes", "", "bytes on disk per acked object", "bytes", false, 0},
};

/* msg = "--baseline DIR: " + what the reader said. */
static int refuse_load(const char *dir, char *msg, size_t n)
{
	char why[8192], shown[RPB_SHOWN_SIZE];
	snprintf(why, sizeof why, "%s", msg);
	snprintf(msg, n, "--baseline %s: %s", rpb_shown(shown, sizeof shown, dir), why);
	return -1;
}

/* The runs a compare directory's compare.json lists, each read from its
 * directory (relative to the compare directory, as compare writes it). */
static int load_compare(struct rpb_baseline *b, const char *dir, char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 16], shown[RPB_SHOWN_SIZE];
	snprintf(path, sizeof path, "%s/compare.json", dir);
	const char *why;
	size_t len = 0;
	char *text = rpb_file_slurp(path, RPB_BL_COMPARE_MAX, &len, &why);
	json_error_t jerr;
	json_t *root = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr) : NULL;
	free(text);
	if (!root) {
		snprintf(msg, n, "%s %s; give the results directory of one run or a compare output directory",
			 rpb_shown(shown, sizeof shown, path), why ? why : "is not valid JSON");
		return -1;
	}
	b->from_compare = true;
	int rc = 0;
	size_t i, k;
	json_t *col, *run;
	json_array_foreach(json_object_get(root, "backends"), i, col)
		json_array_foreach(json_object_get(col, "runs"), k, run) {
			const char *rd = json_string_value(json_object_get(run, "dir"));
			if (rc || !rd || !*rd) {
				if (!rc)
					snprintf(msg, n, "%s: a run has no \"dir\"; give a compare.json that rpbench compare wrote",
						 rpb_shown(shown, sizeof shown, path));
				rc = -1;
				continue;
			}
			char rp[RPB_CMP_PATH];
			if (snprintf(rp, sizeof rp, "%s%s%s", rd[0] == '/' ? "" : dir,
				     rd[0] == '/' ? "" : "/", rd) >= (int)sizeof rp) {
				snprintf(msg, n, "%s: a run's directory is longer than %d bytes", path,
					 RPB_CMP_PATH - 1);
				rc = -1;
				continue;
			}
			rc = rpb_cmp_add(&b->cmp, rp, NULL, -1, msg, n);
		}
	json_decref(root);
	if (!rc && !b->cmp.nruns) {
		snprintf(msg, n, "%s lists no run; give a compare directory whose runs left results",
			 rpb_shown(shown, sizeof shown, path));
		rc = -1;
	}
	return rc;
}

int rpb_bl_load(struct rpb_baseline *b, const char *dir, bool (*backend_known)(const char *),
		char *msg, size_t n)
{
	memset(b, 0, sizeof *b);
	rpb_cmp_init(&b->cmp, backend_known);
	if (snprintf(b->dir, sizeof b->dir, "%s", dir) >= (int)sizeof b->dir) {
		snprintf(msg, n, "--baseline is longer than %d bytes; choose a shorter path",
			 RPB_CMP_PATH - 1);
		return -1;
	}
	char path[RPB_CMP_PATH + 16];
	struct stat st;
	snprintf(path, sizeof path, "%s/result.json", dir);
	bool run = stat(path, &st) == 0;
	snprintf(path, sizeof path, "%s/compare.json", dir);
	if (!run && stat(path, &st) != 0) {
		snprintf(msg, n, "holds neither result.json (a run's results directory) nor compare.json (a compare output directory); give one of them");
		return refuse_load(dir, msg, n);
	}
	int rc = run ? rpb_cmp_add(&b->cmp, dir, NULL, -1, msg, n) : load_compare(b, dir, msg, n);
	if (rc || rpb_cmp_check(&b->cmp, msg, n) != 0)
		return refuse_load(dir, msg, n);
	rpb_cmp_compute(&b->cmp);
	return 0;
}

void rpb_bl_free(struct rpb_baseline *b)
{
	rpb_cmp_free(&b->cmp);
	free(b->rows);
	b->rows = NULL;
	b->nrows = 0;
}

/* The baseline's columns, for a refusal: "leveldb / durable / none, ...". */
static void columns_text(const struct rpb_cmp *c, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < c->nbackends && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s / %s / %s", i ? ", " : "",
					c->backends[i].name, c->backends[i].profile,
					c->backends[i].sync);
	if (!c->nbackends)
		snprintf(buf, n, "no run with results");
}

static bool same_pattern(const struct rpb_baseline *b, const char *pattern, char *msg, size_t n)
{
	if (!strcmp(b->cmp.pattern, pattern))
		return true;
	char shown[RPB_SHOWN_SIZE];
	snprintf(msg, n, "--baseline %s ran pattern %s, the runs compared now %s; give a baseline of the same workload",
		 rpb_shown(shown, sizeof shown, b->dir), b->cmp.pattern, pattern);
	return false;
}

int rpb_bl_precheck(const struct rpb_baseline *b, const char *pattern, const char *const *backends,
		    size_t nbackends, char *msg, size_t n)
{
	if (!same_pattern(b, pattern, msg, n))
		return -1;
	for (size_t i = 0; i < nbackends; i++) {
		size_t k = 0;
		while (k < b->cmp.nbackends && strcmp(b->cmp.backends[k].name, backends[i]))
			k++;
		if (k == b->cmp.nbackends) {
			char cols[1024], shown[RPB_SHOWN_SIZE];
			columns_text(&b->cmp, cols, sizeof cols);
			snprintf(msg, n, "--baseline %s has no %s run (it has: %s); give a baseline of the same backend",
				 rpb_shown(shown, sizeof shown, b->dir), backends[i], cols);
			return -1;
		}
	}
	return 0;
}

/* The first run of c with a result.json. */
static const struct rpb_cmp_run *first_root(const struct rpb_cmp *c)
{
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].root)
			return &c->runs[i];
	return NULL;
}

/* rpb_cmp_check's rule between the baseline's first run and now's. */
static int same_options(const struct rpb_baseline *b, const struct rpb_cmp *now, char *msg,
			size_t n)
{
	const struct rpb_cmp_run *x = first_root(&b->cmp), *y = first_root(now);
	if (!x || !y)
		return 0;
	struct rpb_cmp pair;
	rpb_cmp_init(&pair, now->backend_known);
	if (!(pair.runs = calloc(2, sizeof *pair.runs))) {
		snprintf(msg, n, "out of memory");
		return -1;
	}
	pair.runs[0] = *x; /* shallow: the roots stay their owners' */
	pair.runs[1] = *y;
	pair.nruns = 2;
	char why[8192];
	int rc = rpb_cmp_check(&pair, why, sizeof why);
	free(pair.runs);
	if (rc)
		snprintf(msg, n, "the baseline is another workload: %s", why);
	return rc;
}

/* A figure of run r: a label's member, or bytes per object. */
static bool run_value(const struct rpb_cmp_run *r, const char *label, enum rpb_bl_key key,
		      double *v)
{
	if (key == RPB_BL_BYTES) {
		*v = r->v[RPB_M_BYTES_PER_OBJECT];
		return r->have[RPB_M_BYTES_PER_OBJECT];
	}
	const json_t *l = json_object_get(json_object_get(r->root, "labels"), label);
	const json_t *x = json_object_get(l, rpb_bl_keys[key].json);
	*v = json_number_value(x);
	return json_is_number(x);
}

static struct rpb_bl_side side(const struct rpb_cmp *c, const struct rpb_cmp_backend *col,
			       const char *label, enum rpb_bl_key key)
{
	struct rpb_bl_side s = {0};
	double vals[RPB_CMP_MAX_RUNS];
	size_t k = 0;
	for (size_t i = 0; i < col->nruns; i++)
		if (run_value(&c->runs[col->runs[i]], label, key, &vals[k]))
			k++;
	if (!k)
		return s;
	s.have = true;
	s.n = (unsigned)k;
	s.median = rpb_cmp_median(vals, k);
	s.min = vals[0];
	s.max = vals[k - 1];
	return s;
}

static const struct rpb_bl_gate *gate_for(const struct rpb_bl_gates *g, const char *label,
					  enum rpb_bl_key key)
{
	const struct rpb_bl_gate *any = NULL;
	for (size_t i = 0; g && i < g->n; i++)
		if (g->g[i].key == key) {
			if (!strcmp(g->g[i].label, label))
				return &g->g[i];
			if (!g->g[i].label[0])
				any = &g->g[i];
		}
	return any;
}

/* The change, its noise and its gate. The noise rule: with two runs or
 * more on both sides, ranges that overlap are within noise, ranges apart
 * are not; with one run on either side it is unknown. */
static void judge_row(struct rpb_bl_row *r, const struct rpb_bl_gates *g)
{
	const struct rpb_bl_side *a = &r->base, *z = &r->now;
	if (a->median != 0) {
		r->have_change = true;
		r->change_pct = (z->median - a->median) / a->median * 100;
	} else if (z->median == 0) {
		r->have_change = true;
	}
	r->worse_pct = rpb_bl_keys[r->key].higher_better ? -r->change_pct : r->change_pct;
	if (a->n >= 2 && z->n >= 2)
		r->noise = a->min <= z->max && z->min <= a->max ? RPB_BL_NOISE_WITHIN
								: RPB_BL_NOISE_APART;
	const struct rpb_bl_gate *gate = gate_for(g, r->label, r->key);
	if (!gate)
		return;
	r->gated = true;
	r->threshold_pct = gate->pct;
	/* A baseline of 0 (nothing to scale by) regresses on any worsening. */
	bool worse = r->have_change ? r->worse_pct > gate->pct
				    : !rpb_bl_keys[r->key].higher_better && z->median > 0;
	r->regressed = worse && r->noise != RPB_BL_NOISE_WITHIN;
}

static int add_row(struct rpb_baseline *b, size_t *cap, const struct rpb_cmp *now,
		   const struct rpb_cmp_backend *nc, const struct rpb_cmp_backend *bc,
		   const char *label, enum rpb_bl_key key, const struct rpb_bl_gates *g)
{
	struct rpb_bl_side base = side(&b->cmp, bc, label, key), cur = side(now, nc, label, key);
	if (!base.have || !cur.have)
		return 0;
	if (b->nrows == *cap) {
		size_t nc2 = *cap ? 2 * *cap : 64;
		struct rpb_bl_row *rows = realloc(b->rows, nc2 * sizeof *rows);
		if (!rows)
			return -1;
		b->rows = rows;
		*cap = nc2;
	}
	struct rpb_bl_row *r = &b->rows[b->nrows++];
	memset(r, 0, sizeof *r);
	snprintf(r->column, sizeof r->column, "%s", nc->label);
	snprintf(r->label, sizeof r->label, "%s", label);
	r->key = key;
	r->base = base;
	r->now = cur;
	judge_row(r, g);
	b->ngated += r->gated;
	b->nregressed += r->regressed;
	return 0;
}

/* The rows of one column: every label of its first run, then bytes. */
static int column_rows(struct rpb_baseline *b, size_t *cap, const struct rpb_cmp *now,
		       const struct rpb_cmp_backend *nc, const struct rpb_cmp_backend *bc,
		       const struct rpb_bl_gates *g)
{
	const char *label;
	const json_t *v;
	json_object_foreach(json_object_get(now->runs[nc->runs[0]].root, "labels"), label, v)
		for (int k = 0; k < RPB_BL_BYTES; k++)
			if (add_row(b, cap, now, nc, bc, label, (enum rpb_bl_key)k, g) != 0)
				return -1;
	return add_row(b, cap, now, nc, bc, "", RPB_BL_BYTES, g);
}

static const struct rpb_cmp_backend *match_column(const struct rpb_baseline *b,
						  const struct rpb_cmp_backend *nc, char *msg,
						  size_t n)
{
	char shown[RPB_SHOWN_SIZE];
	for (size_t i = 0; i < b->cmp.nbackends; i++) {
		const struct rpb_cmp_backend *bc = &b->cmp.backends[i];
		if (strcmp(bc->name, nc->name) || strcmp(bc->profile, nc->profile) ||
		    strcmp(bc->sync, nc->sync))
			continue;
		if (bc->ended_early) {
			snprintf(msg, n, "--baseline %s: its %s / %s / %s runs did not complete (stop %s); give a baseline whose runs completed",
				 rpb_shown(shown, sizeof shown, b->dir), bc->name, bc->profile, bc->sync,
				 bc->stops);
			return NULL;
		}
		return bc;
	}
	char cols[1024];
	columns_text(&b->cmp, cols, sizeof cols);
	snprintf(msg, n, "--baseline %s has no run of %s / %s / %s (it has: %s); give a baseline of the same backend, profile and sync",
		 rpb_shown(shown, sizeof shown, b->dir), nc->name, nc->profile, nc->sync, cols);
	return NULL;
}

/* Every label-specific gate names a label some row has. */
static int gates_known(const struct rpb_baseline *b, const struct rpb_bl_gates *g, char *msg,
		       size_t n)
{
	for (size_t i = 0; g && i < g->n; i++) {
		if (!g->g[i].label[0])
			continue;
		bool found = false;
		for (size_t k = 0; !found && k < b->nrows; k++)
			found = !strcmp(b->rows[k].label, g->g[i].label);
		if (!found) {
			char labels[1024] = "", shown[RPB_SHOWN_SIZE];
			size_t len = 0;
			for (size_t k = 0; k < b->nrows && len < sizeof labels; k++)
				if (b->rows[k].key == RPB_BL_THROUGHPUT)
					len += (size_t)snprintf(labels + len, sizeof labels - len, "%s%s",
								len ? ", " : "", b->rows[k].label);
			snprintf(msg, n, "--max-regress names the label '%s', which the runs and the baseline do not both have (labels: %s)",
				 rpb_shown(shown, sizeof shown, g->g[i].label), labels[0] ? labels : "none");
			return -1;
		}
	}
	return 0;
}

int rpb_bl_judge(struct rpb_baseline *b, const struct rpb_cmp *now, const struct rpb_bl_gates *g,
		 char *msg, size_t n)
{
	if (!same_pattern(b, now->pattern, msg, n) || same_options(b, now, msg, n) != 0)
		return -1;
	size_t cap = 0;
	for (size_t i = 0; i < now->nbackends; i++) {
		const struct rpb_cmp_backend *nc = &now->backends[i];
		if (nc->ended_early || !nc->nruns)
			continue; /* no measure of its backend: named as incomplete */
		const struct rpb_cmp_backend *bc = match_column(b, nc, msg, n);
		if (!bc)
			return -1;
		if (column_rows(b, &cap, now, nc, bc, g) != 0) {
			snprintf(msg, n, "out of memory");
			return -1;
		}
	}
	return gates_known(b, g, msg, n);
}
