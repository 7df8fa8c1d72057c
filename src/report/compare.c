/* Result directories read back, checked to be comparable, and summarised per
 * backend. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "compare.h"
#include "compare_rows.h"
#include "data_skips.h"
#include "fsutil.h"
#include "jsontext.h"
#include "pattern.h"
#include "result_check.h"
#include "run_end.h"
#include "shown.h"
#include "workload.h"

#define RPB_CMP_RESULT_MAX (UINT64_C(1) << 32) /* far larger than any result.json */

const struct rpb_cmp_metric_def rpb_cmp_metrics[RPB_M_COUNT] = {
	[RPB_M_THROUGHPUT] = {"throughput_per_s", "%s throughput, ops/s", true, true},
	[RPB_M_P50] = {"p50_us", "%s latency p50, µs", false, true},
	[RPB_M_P99] = {"p99_us", "%s latency p99, µs", false, true},
	[RPB_M_P999] = {"p99.9_us", "%s latency p99.9, µs", false, true},
	[RPB_M_MAX] = {"max_us", "%s latency max, µs", false, true},
	[RPB_M_ALL_THROUGHPUT] = {"all_throughput_per_s", "all labels throughput, samples/s", true,
				  true},
	[RPB_M_STORE_BYTES] = {"store_bytes", "bytes on disk: tables, MiB", false, false},
	[RPB_M_DISK_BYTES] = {"store_wal_bytes", "bytes on disk: tables + WAL, MiB", false, true},
	[RPB_M_BYTES_PER_OBJECT] = {"bytes_per_object", "bytes on disk per acked object", false,
				    true},
	[RPB_M_SPACE_AMP] = {"space_amplification", "space amplification (on disk ÷ acked bytes)",
			     false, true},
	[RPB_M_ACKED] = {"acked", "acked operations", true, false},
};

void rpb_cmp_init(struct rpb_cmp *c, bool (*backend_known)(const char *name))
{
	memset(c, 0, sizeof *c);
	c->backend_known = backend_known;
}

void rpb_cmp_free(struct rpb_cmp *c)
{
	for (size_t i = 0; i < c->nruns; i++) {
		json_decref(c->runs[i].root);
		json_decref(c->runs[i].load_root);
	}
	for (size_t i = 0; i < c->nbackends; i++)
		json_decref(c->backends[i].errors);
	free(c->runs);
	free(c->backends);
	memset(c, 0, sizeof *c);
}

bool rpb_cmp_number(const json_t *root, const char *path, double *out)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", path);
	const json_t *cur = root;
	for (char *save = NULL, *part = strtok_r(buf, "/", &save); cur && part;
	     part = strtok_r(NULL, "/", &save))
		cur = json_object_get(cur, part);
	if (!json_is_number(cur))
		return false;
	*out = json_number_value(cur);
	return true;
}

static const char *jstr(const json_t *obj, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : dflt;
}

/* The figures of one run from its main label and totals. */
static void read_figures(struct rpb_cmp_run *r)
{
	static const char *const label_keys[] = {
		[RPB_M_THROUGHPUT] = "throughput_per_s", [RPB_M_P50] = "p50_us",
		[RPB_M_P99] = "p99_us", [RPB_M_P999] = "p99.9_us", [RPB_M_MAX] = "max_us"};
	const json_t *label = json_object_get(json_object_get(r->root, "labels"), r->main_label);
	for (int m = RPB_M_THROUGHPUT; m <= RPB_M_MAX; m++) {
		json_t *v = json_object_get(label, label_keys[m]);
		r->have[m] = json_is_number(v);
		r->v[m] = r->have[m] ? json_number_value(v) : 0;
	}
	const json_t *totals = json_object_get(r->root, "totals");
	double x;
	r->have[RPB_M_ALL_THROUGHPUT] = rpb_cmp_number(totals, "throughput_per_s", &x);
	r->v[RPB_M_ALL_THROUGHPUT] = r->have[RPB_M_ALL_THROUGHPUT] ? x : 0;
	r->have[RPB_M_STORE_BYTES] = rpb_cmp_number(totals, "store_bytes", &x);
	r->v[RPB_M_STORE_BYTES] = r->have[RPB_M_STORE_BYTES] ? x : 0;
	r->have[RPB_M_ACKED] = rpb_cmp_number(totals, "acked", &x);
	r->acked = r->have[RPB_M_ACKED] ? (uint64_t)x : 0;
	r->v[RPB_M_ACKED] = (double)r->acked;
	r->acked_bytes = rpb_cmp_number(totals, "acked_bytes", &x) ? (uint64_t)x : 0;
	/* Results from before totals.wal_bytes: the gauge's last reading. */
	r->have_wal = rpb_cmp_number(totals, "wal_bytes", &r->wal_bytes) ||
		      (r->server && rpb_cmp_number(r->root, "backend_gauges/wal_bytes/last", &r->wal_bytes));
}

/* Bytes on disk with the WAL, and what is reckoned from them: a server's
 * tables plus the WAL it wrote, an embedded store's directory (its log is
 * inside). A server run that does not say its WAL has no total. */
static void disk_figures(struct rpb_cmp_run *r)
{
	bool have = r->have[RPB_M_STORE_BYTES] && (!r->server || r->have_wal);
	double disk = have ? r->v[RPB_M_STORE_BYTES] + (r->server ? r->wal_bytes : 0) : 0;
	r->have[RPB_M_DISK_BYTES] = have;
	r->v[RPB_M_DISK_BYTES] = disk;
	r->have[RPB_M_BYTES_PER_OBJECT] = have && r->acked > 0;
	r->v[RPB_M_BYTES_PER_OBJECT] = r->have[RPB_M_BYTES_PER_OBJECT] ? disk / (double)r->acked : 0;
	r->have[RPB_M_SPACE_AMP] = have && r->have_results && r->acked_bytes > 0;
	r->v[RPB_M_SPACE_AMP] = r->have[RPB_M_SPACE_AMP] ? disk / (double)r->acked_bytes : 0;
}

static struct rpb_cmp_run *new_run(struct rpb_cmp *c, const char *dir, int exit_code, char *msg,
				   size_t n)
{
	if (c->nruns == RPB_CMP_MAX_RUNS) {
		snprintf(msg, n, "too many runs to compare (at most %d)", RPB_CMP_MAX_RUNS);
		return NULL;
	}
	if (!c->runs && !(c->runs = calloc(RPB_CMP_MAX_RUNS, sizeof *c->runs))) {
		snprintf(msg, n, "out of memory");
		return NULL;
	}
	struct rpb_cmp_run *r = &c->runs[c->nruns];
	memset(r, 0, sizeof *r);
	if (snprintf(r->dir, sizeof r->dir, "%s", dir) >= (int)sizeof r->dir) {
		snprintf(msg, n, "results directory %.256s... is longer than %d bytes; choose a shorter path",
			 dir, RPB_CMP_PATH - 1);
		return NULL;
	}
	char real[PATH_MAX];
	if (realpath(dir, real)) {
		snprintf(r->real, sizeof r->real, "%s", real);
		for (size_t i = 0; i < c->nruns; i++)
			if (!strcmp(c->runs[i].real, r->real)) {
				snprintf(msg, n, "%s and %s are the same results directory; name each run once",
					 c->runs[i].dir, dir);
				return NULL;
			}
	}
	snprintf(r->stop, sizeof r->stop, "none");
	r->exit_code = exit_code;
	return r;
}

int rpb_cmp_add_missing(struct rpb_cmp *c, const char *dir, const char *name, const char *backend,
			int exit_code, char *msg, size_t n)
{
	struct rpb_cmp_run *r = new_run(c, dir, exit_code, msg, n);
	if (!r)
		return -1;
	snprintf(r->backend, sizeof r->backend, "%s", backend);
	snprintf(r->name, sizeof r->name, "%s", name ? name : backend);
	c->nruns++;
	return 0;
}

int rpb_cmp_add(struct rpb_cmp *c, const char *dir, const char *name, int exit_code, char *msg,
		size_t n)
{
	struct rpb_cmp_run *r = new_run(c, dir, exit_code, msg, n);
	if (!r)
		return -1;
	char path[RPB_CMP_PATH + 16];
	snprintf(path, sizeof path, "%s/result.json", dir);
	const char *why;
	size_t len = 0;
	char *text = rpb_file_slurp(path, RPB_CMP_RESULT_MAX, &len, &why);
	json_error_t jerr;
	r->root = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr) : NULL;
	free(text);
	if (!r->root) {
		if (why)
			snprintf(msg, n, "%s has no readable result.json (it %s); give the results directory of an rpbench run",
				 dir, why);
		else
			snprintf(msg, n, "%s: malformed JSON (line %d); give the results directory of an rpbench run",
				 path, jerr.line);
		return -1;
	}
	if (rpb_cmp_result_check(r->root, path, c->backend_known, msg, n) != 0 ||
	    rpb_cmp_probe_check(dir, msg, n) != 0 || rpb_cmp_intervals_check(dir, msg, n) != 0) {
		json_decref(r->root);
		r->root = NULL;
		return -1;
	}
	const json_t *manifest = json_object_get(r->root, "manifest");
	snprintf(r->backend, sizeof r->backend, "%s", jstr(manifest, "backend", "?"));
	snprintf(r->name, sizeof r->name, "%s", name ? name : r->backend);
	snprintf(r->backend_version, sizeof r->backend_version, "%s",
		 jstr(manifest, "backend_version", ""));
	const json_t *server = json_object_get(manifest, "server");
	r->server = json_is_object(server) ||
		    json_is_string(json_object_get(json_object_get(manifest, "store"), "dsn"));
	snprintf(r->server_version, sizeof r->server_version, "%s", jstr(server, "server_version", ""));
	snprintf(r->shared_buffers, sizeof r->shared_buffers, "%s", jstr(server, "shared_buffers", ""));
	/* The durability a run had: run.sync as resolved (native is the
	 * backend's own), results from before profiles were durable ones. */
	const json_t *opts = json_object_get(manifest, "options");
	snprintf(r->profile, sizeof r->profile, "%s", jstr(opts, "run.profile", "durable"));
	snprintf(r->sync, sizeof r->sync, "%s", jstr(opts, "run.sync", jstr(manifest, "sync", "?")));
	const json_t *labels = json_object_get(r->root, "labels");
	/* The main label is the first: jansson keeps the file's key order. */
	void *first = json_object_iter((json_t *)labels);
	const char *main_label = first ? json_object_iter_key(first) : NULL;
	r->have_results = main_label && json_is_object(json_object_get(r->root, "totals"));
	if (main_label)
		snprintf(r->main_label, sizeof r->main_label, "%s", main_label);
	const json_t *stop = json_object_get(r->root, "stop");
	const char *reason = jstr(stop, "reason", "none");
	const char *cls = jstr(stop, "class", NULL);
	/* A run's end writes its stop reason together with its totals and
	 * labels: a final reason without them is no run's result. */
	if (!r->have_results && strcmp(reason, "running") && strcmp(reason, "none")) {
		snprintf(msg, n, "%s: stop.reason = %s, but there are no %s (a run's end writes them "
			 "with its stop reason); give the results directory of an rpbench run", path,
			 reason, main_label ? "totals" : "labels");
		json_decref(r->root);
		r->root = NULL;
		return -1;
	}
	/* "running" is what result.json says until the run's end writes it:
	 * a run that never got there was killed (or crashed). */
	snprintf(r->stop, sizeof r->stop, "%s%s%s", strcmp(reason, "running") ? reason : "killed",
		 cls ? ":" : "", cls ? cls : "");
	if (exit_code >= 0)
		r->completed = exit_code == 0 && r->have_results;
	else
		r->completed = r->have_results &&
			       (!strcmp(reason, "completed") || !strcmp(reason, "duration") ||
				!strcmp(reason, "bytes"));
	if (r->have_results)
		read_figures(r);
	/* The registry's word for the pattern's operations, not a text of the
	 * result's own: "after N creates" (manifest.pattern is checked as a
	 * registered pattern's name). */
	const struct rpb_pattern *pat = rpb_pattern_find(jstr(manifest, "pattern", ""));
	rpb_run_end_read(r, pat ? pat->noun : "operations");
	rpb_cmp_rows_load(c, r);
	rpb_run_skips_read(r);
	if (!c->options) {
		c->options = json_object_get(manifest, "options");
		/* Text since seeds go up to 2^64-1; a number in older results. */
		c->have_seed = rpb_json_get_u64(json_object_get(manifest, "seed"), &c->seed);
		snprintf(c->pattern, sizeof c->pattern, "%s", jstr(manifest, "pattern", "?"));
		snprintf(c->sync, sizeof c->sync, "%s", r->sync);
		snprintf(c->profile, sizeof c->profile, "%s", r->profile);
		rpb_cmp_workload_name(r->root, c->workload, sizeof c->workload);
	}
	if (!c->main_label[0] && main_label)
		snprintf(c->main_label, sizeof c->main_label, "%s", main_label);
	c->nruns++;
	return 0;
}

static void add_diff(char *buf, size_t n, size_t *len, const char *key, const char *a,
		     const char *b)
{
	if (*len >= n)
		return;
	char sa[RPB_SHOWN_SIZE], sb[RPB_SHOWN_SIZE];
	int w = snprintf(buf + *len, n - *len, "%s%s differs (%s vs %s)", *len ? ", " : "", key,
			 a ? rpb_shown(sa, sizeof sa, a) : "absent", b ? rpb_shown(sb, sizeof sb, b) : "absent");
	*len += w > 0 ? (size_t)w : 0;
}

/* Whether run.txn_timeout is what the run's profile gives unasked: 0 under
 * durable, Narayana's default under fedora-4.5 (workload.c). */
static bool txn_timeout_default(const json_t *opts)
{
	const char *t = jstr(opts, "run.txn_timeout", "0");
	if (strcmp(jstr(opts, "run.profile", "durable"), "fedora-4.5") != 0)
		return !strcmp(t, "0");
	char dflt[16];
	snprintf(dflt, sizeof dflt, "%u", RPB_FEDORA45_TXN_TIMEOUT_MS);
	return !strcmp(t, dflt);
}

/* Options a durability matrix lets differ between runs. */
static bool matrix_axis(const char *key, const json_t *ropts, const json_t *opts)
{
	if (!strcmp(key, "run.sync") || !strcmp(key, "run.profile"))
		return true;
	return !strcmp(key, "run.txn_timeout") && txn_timeout_default(ropts) &&
	       txn_timeout_default(opts);
}

int rpb_cmp_check(const struct rpb_cmp *c, char *msg, size_t n)
{
	size_t first = 0;
	while (first < c->nruns && !c->runs[first].root)
		first++;
	if (first == c->nruns)
		return 0;
	const json_t *ref = json_object_get(c->runs[first].root, "manifest");
	const json_t *ropts = json_object_get(ref, "options");
	for (size_t i = first + 1; i < c->nruns; i++) {
		if (!c->runs[i].root)
			continue;
		const json_t *man = json_object_get(c->runs[i].root, "manifest");
		const json_t *opts = json_object_get(man, "options");
		char diffs[2048];
		size_t len = 0;
		diffs[0] = '\0';
		const char *key;
		const json_t *v;
		json_object_foreach((json_t *)ropts, key, v) {
			const char *a = json_string_value(v);
			const char *b = json_string_value(json_object_get(opts, key));
			if (matrix_axis(key, ropts, opts))
				continue;
			if (!a || !b || strcmp(a, b) != 0)
				add_diff(diffs, sizeof diffs, &len, key, a, b);
		}
		json_object_foreach((json_t *)opts, key, v)
			if (!json_object_get(ropts, key) && !matrix_axis(key, ropts, opts))
				add_diff(diffs, sizeof diffs, &len, key, NULL, json_string_value(v));
		if (len) {
			char d0[RPB_SHOWN_SIZE], d1[RPB_SHOWN_SIZE];
			snprintf(msg, n,
				 "cannot compare %s (%s) with %s (%s): %s; compare runs of one workload file and --set list",
				 rpb_shown(d0, sizeof d0, c->runs[first].dir), c->runs[first].backend,
				 rpb_shown(d1, sizeof d1, c->runs[i].dir), c->runs[i].backend, diffs);
			return -1;
		}
	}
	return 0;
}

/* Whether run r belongs to column b. */
static bool in_column(const struct rpb_cmp_run *r, const struct rpb_cmp_backend *b)
{
	return !strcmp(r->backend, b->name) && !strcmp(r->profile, b->profile) &&
	       !strcmp(r->sync, b->sync);
}

const char *rpb_cmp_run_column(const struct rpb_cmp *c, const struct rpb_cmp_run *r)
{
	for (size_t b = 0; b < c->nbackends; b++)
		if (in_column(r, &c->backends[b]))
			return c->backends[b].label;
	return r->backend;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of v[0..k-1] (sorted in place): the middle value, or the mean
 * of the two middle values when k is even. */
double rpb_cmp_median(double *v, size_t k)
{
	qsort(v, k, sizeof *v, cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* Median, min and max of the k values (sorted in place). */
static void fill_stat(struct rpb_cmp_stat *s, double *vals, size_t k)
{
	memset(s, 0, sizeof *s);
	if (!k)
		return;
	s->have = true;
	s->n = (unsigned)k;
	s->median = rpb_cmp_median(vals, k);
	s->min = vals[0];
	s->max = vals[k - 1];
}

static void backend_stats(struct rpb_cmp *c, struct rpb_cmp_backend *b)
{
	double vals[RPB_CMP_MAX_RUNS];
	for (int m = 0; m < RPB_M_COUNT; m++) {
		size_t k = 0;
		for (size_t i = 0; i < b->nruns; i++)
			if (c->runs[b->runs[i]].have[m])
				vals[k++] = c->runs[b->runs[i]].v[m];
		fill_stat(&b->stat[m], vals, k);
	}
	for (size_t w = 0; w < c->nrows; w++) {
		size_t k = 0;
		for (size_t i = 0; i < b->nruns; i++)
			if (c->runs[b->runs[i]].rhave[w])
				vals[k++] = c->runs[b->runs[i]].rv[w];
		fill_stat(&b->rstat[w], vals, k);
	}
	/* The run plotted: the lower middle by throughput, so a single run
	 * represents its backend in the figures. */
	size_t order[RPB_CMP_MAX_RUNS];
	for (size_t i = 0; i < b->nruns; i++)
		order[i] = b->runs[i];
	for (size_t i = 1; i < b->nruns; i++)
		for (size_t j = i; j > 0 && c->runs[order[j]].v[RPB_M_THROUGHPUT] <
						    c->runs[order[j - 1]].v[RPB_M_THROUGHPUT];
		     j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	b->rep = order[(b->nruns - 1) / 2];

	b->errors = json_object();
	json_t *stops = json_object();
	for (size_t i = 0; i < b->nruns; i++) {
		const struct rpb_cmp_run *r = &c->runs[b->runs[i]];
		const char *cls;
		const json_t *e;
		json_object_foreach(json_object_get(r->root, "errors"), cls, e) {
			json_int_t prev = json_integer_value(json_object_get(b->errors, cls));
			json_object_set_new(b->errors, cls,
					    json_integer(prev + json_integer_value(json_object_get(e, "count"))));
		}
	}
	/* The stops of every run of the backend, those left out of its figures too. */
	const struct rpb_cmp_run *last = NULL;
	size_t total = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rpb_cmp_run *r = &c->runs[i];
		if (!in_column(r, b))
			continue;
		json_int_t prev = json_integer_value(json_object_get(stops, r->stop));
		json_object_set_new(stops, r->stop, json_integer(prev + 1));
		last = r;
		total++;
	}
	const char *stop;
	const json_t *count;
	size_t len = 0;
	b->stops[0] = '\0';
	json_object_foreach(stops, stop, count) {
		if (total == 1 && last->end_mark[0]) /* one run that ended early: how, in words */
			snprintf(b->stops, sizeof b->stops, "%s%s%s", strcmp(stop, "killed") ? stop : "",
				 strcmp(stop, "killed") ? ": " : "", last->end_mark);
		else if (json_object_size(stops) == 1)
			snprintf(b->stops, sizeof b->stops, "%s", stop);
		else if (len < sizeof b->stops)
			len += (size_t)snprintf(b->stops + len, sizeof b->stops - len, "%s%s %lld",
						len ? ", " : "", stop,
						(long long)json_integer_value(count));
	}
	json_decref(stops);
}

/* Whether a's and b's [min, max] overlap. */
static bool overlap(const struct rpb_cmp_stat *a, const struct rpb_cmp_stat *b)
{
	return a->min <= b->max && b->min <= a->max;
}

/* Whether every run of the ranked columns acknowledged as many objects:
 * raw bytes on disk rank nothing otherwise (bytes per object do). */
static bool same_objects(const struct rpb_cmp *c, bool any_completed)
{
	bool first = true;
	uint64_t acked = 0;
	for (size_t i = 0; i < c->nbackends; i++) {
		const struct rpb_cmp_backend *b = &c->backends[i];
		if (any_completed && b->ended_early)
			continue;
		for (size_t k = 0; k < b->nruns; k++) {
			const struct rpb_cmp_run *r = &c->runs[b->runs[k]];
			if (!first && r->acked != acked)
				return false;
			acked = r->acked;
			first = false;
		}
	}
	return true;
}

/* Ratios to the top median among the columns that completed a run: a run
 * cut short by a fault is no measure of what its backend does to the end
 * (when none completed, the columns are ranked among themselves). "best"
 * only when the top and the runner-up have two runs or more each and their
 * [min, max] do not overlap; overlapping ranges are within noise. One
 * column ranks nothing. */
/* One row: row[i] is column i's figure, NULL for a column not ranked. */
static void rank(struct rpb_cmp_stat **row, size_t ncols, bool hb)
{
	struct rpb_cmp_stat *top = NULL, *second = NULL;
	size_t ranked = 0;
	for (size_t i = 0; i < ncols; i++) {
		struct rpb_cmp_stat *s = row[i];
		if (!s || !s->have)
			continue;
		ranked++;
		if (!top || (hb ? s->median > top->median : s->median < top->median)) {
			second = top;
			top = s;
		} else if (!second || (hb ? s->median > second->median : s->median < second->median)) {
			second = s;
		}
	}
	if (ranked < 2)
		return;
	double best = top->median;
	bool judged = top->n >= 2 && second->n >= 2;
	top->top = true;
	top->best = judged && !overlap(top, second);
	top->noise = judged && overlap(top, second);
	for (size_t i = 0; i < ncols; i++) {
		struct rpb_cmp_stat *s = row[i];
		if (!s || !s->have)
			continue;
		if (s != top)
			s->noise = s->n >= 2 && top->n >= 2 && overlap(s, top);
		/* Always "times worse than the top", so 1 is the top either way. */
		double num = hb ? best : s->median, den = hb ? s->median : best;
		if (s == top || num == den) {
			s->have_ratio = true;
			s->ratio = 1;
		} else if (den > 0) {
			s->have_ratio = true;
			s->ratio = num / den;
		}
	}
}

static void ratios(struct rpb_cmp *c)
{
	bool any_completed = false;
	for (size_t i = 0; i < c->nbackends; i++)
		any_completed |= !c->backends[i].ended_early;
	bool objects_agree = same_objects(c, any_completed);
	struct rpb_cmp_stat *row[RPB_CMP_MAX_BACKENDS];
	for (int m = 0; m < RPB_M_COUNT; m++) {
		if (!rpb_cmp_metrics[m].ratio || (m == RPB_M_DISK_BYTES && !objects_agree))
			continue;
		for (size_t i = 0; i < c->nbackends; i++)
			row[i] = any_completed && c->backends[i].ended_early ? NULL : &c->backends[i].stat[m];
		rank(row, c->nbackends, rpb_cmp_metrics[m].higher_better);
	}
	for (size_t w = 0; w < c->nrows; w++) {
		for (size_t i = 0; i < c->nbackends; i++)
			row[i] = any_completed && c->backends[i].ended_early ? NULL : &c->backends[i].rstat[w];
		rank(row, c->nbackends, c->rows[w].higher_better);
	}
}

/* A server's own version beside its client library's: "PostgreSQL 15.18
 * (libpq 15.18)"; the library alone for an embedded backend. */
static void column_version(struct rpb_cmp_backend *be, const struct rpb_cmp_run *r)
{
	if (!r->server || !r->server_version[0]) {
		snprintf(be->version, sizeof be->version, "%s", r->backend_version);
		return;
	}
	/* "15.18 (Debian 15.18-0+deb12u1)": the number, the build's words left out. */
	int len = (int)strcspn(r->server_version, " ");
	const char *product = !strcmp(r->backend, "postgres") ? "PostgreSQL" : r->backend;
	if (r->backend_version[0])
		snprintf(be->version, sizeof be->version, "%s %.*s (%s)", product, len,
			 r->server_version, r->backend_version);
	else
		snprintf(be->version, sizeof be->version, "%s %.*s", product, len, r->server_version);
}

void rpb_cmp_compute(struct rpb_cmp *c)
{
	for (size_t i = 0; i < c->nbackends; i++)
		json_decref(c->backends[i].errors);
	free(c->backends);
	c->nbackends = 0;
	c->backends = calloc(RPB_CMP_MAX_BACKENDS, sizeof *c->backends);
	if (!c->backends)
		return;
	for (size_t i = 0; i < c->nruns; i++) {
		struct rpb_cmp_run *r = &c->runs[i];
		r->included = r->root && (r->have_results || r->have_intervals);
		if (!r->included)
			continue; /* no results and no intervals: named apart */
		size_t b = 0;
		while (b < c->nbackends && !in_column(r, &c->backends[b]))
			b++;
		if (b == c->nbackends) {
			if (b == RPB_CMP_MAX_BACKENDS)
				continue;
			c->nbackends++;
			struct rpb_cmp_backend *be = &c->backends[b];
			snprintf(be->name, sizeof be->name, "%s", r->backend);
			snprintf(be->profile, sizeof be->profile, "%s", r->profile);
			snprintf(be->sync, sizeof be->sync, "%s", r->sync);
			column_version(be, r);
		}
	}
	/* A matrix: the columns differ in profile or sync, so each is named by
	 * all three (two columns of one backend need both in their names). */
	c->matrix = false;
	for (size_t b = 1; b < c->nbackends; b++)
		c->matrix |= strcmp(c->backends[b].profile, c->backends[0].profile) ||
			     strcmp(c->backends[b].sync, c->backends[0].sync);
	for (size_t b = 0; b < c->nbackends; b++) {
		struct rpb_cmp_backend *be = &c->backends[b];
		if (c->matrix) {
			snprintf(be->label, sizeof be->label, "%s / %s / %s", be->name, be->profile,
				 be->sync);
			snprintf(be->key, sizeof be->key, "%s-%s-%s", be->name, be->profile, be->sync);
		} else {
			snprintf(be->label, sizeof be->label, "%s", be->name);
			snprintf(be->key, sizeof be->key, "%s", be->name);
		}
	}
	/* A column's figures: its completed runs, else those that ended early. */
	for (size_t b = 0; b < c->nbackends; b++) {
		struct rpb_cmp_backend *be = &c->backends[b];
		bool any_completed = false;
		for (size_t i = 0; i < c->nruns; i++)
			any_completed |= c->runs[i].completed && in_column(&c->runs[i], be);
		be->ended_early = !any_completed;
		for (size_t i = 0; i < c->nruns; i++) {
			const struct rpb_cmp_run *r = &c->runs[i];
			if (!in_column(r, be))
				continue;
			if (!r->completed)
				be->nincomplete++;
			if (any_completed ? r->completed : r->included)
				be->runs[be->nruns++] = i;
		}
	}
	/* On disk per acknowledged object: runs that stored different numbers
	 * of objects compare by this, never by their raw bytes. */
	for (size_t i = 0; i < c->nruns; i++)
		disk_figures(&c->runs[i]);
	rpb_cmp_rows(c);
	for (size_t i = 0; i < c->nbackends; i++)
		backend_stats(c, &c->backends[i]);
	ratios(c);
	if (!c->main_label[0]) { /* only killed runs: no result.json names the labels */
		const struct rpb_pattern *pat = rpb_pattern_find(c->pattern);
		snprintf(c->main_label, sizeof c->main_label, "%s",
			 pat && pat->nlabels ? pat->labels[0] : "the pattern's first label");
	}
}
