/* The comparison table in its text forms, compare.md and compare.json. */
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "plot.h"
#include "report.h"

#define MIB 1048576.0

static void fmt_number(char *buf, size_t n, enum rpb_cmp_metric m, double v)
{
	switch (m) {
	case RPB_M_STORE_BYTES:
		snprintf(buf, n, "%.2f", v / MIB);
		break;
	case RPB_M_SPACE_AMP:
		snprintf(buf, n, "%.2f", v);
		break;
	case RPB_M_ACKED:
		snprintf(buf, n, "%.0f", v);
		break;
	default:
		snprintf(buf, n, "%.1f", v);
	}
}

void rpb_report_value(char *buf, size_t n, enum rpb_cmp_metric m, const struct rpb_cmp_stat *s)
{
	if (!s->have) {
		snprintf(buf, n, "n/a");
		return;
	}
	char med[64], lo[64], hi[64];
	fmt_number(med, sizeof med, m, s->median);
	fmt_number(lo, sizeof lo, m, s->min);
	fmt_number(hi, sizeof hi, m, s->max);
	if (s->n < 2 || (!strcmp(lo, med) && !strcmp(hi, med))) {
		snprintf(buf, n, "%s", med);
		return;
	}
	snprintf(buf, n, "%s [%s–%s]", med, lo, hi);
}

void rpb_report_ratio(char *buf, size_t n, enum rpb_cmp_metric m, const struct rpb_cmp_stat *s)
{
	if (!rpb_cmp_metrics[m].ratio || !s->have || !s->have_ratio)
		snprintf(buf, n, "%s", "");
	else if (s->best)
		snprintf(buf, n, "best");
	else
		snprintf(buf, n, "×%.2f", s->ratio);
}

/* ---- the table ---- */

static int table_alloc(struct rpb_grid *t, size_t rows, size_t cols)
{
	t->rows = rows;
	t->cols = cols;
	t->cell = calloc(rows, sizeof *t->cell);
	t->numeric_row = calloc(rows, sizeof *t->numeric_row);
	if (!t->cell || !t->numeric_row)
		return -1;
	for (size_t r = 0; r < rows; r++)
		if (!(t->cell[r] = calloc(cols, sizeof **t->cell)))
			return -1;
	return 0;
}

void rpb_grid_free(struct rpb_grid *t)
{
	for (size_t r = 0; t->cell && r < t->rows; r++) {
		for (size_t c = 0; t->cell[r] && c < t->cols; c++)
			free(t->cell[r][c]);
		free(t->cell[r]);
	}
	free(t->cell);
	free(t->numeric_row);
	memset(t, 0, sizeof *t);
}

static void set_cell(struct rpb_grid *t, size_t r, size_t c, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void set_cell(struct rpb_grid *t, size_t r, size_t c, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	free(t->cell[r][c]);
	t->cell[r][c] = strdup(buf);
}

static void errors_text(char *buf, size_t n, const json_t *errors)
{
	size_t len = 0;
	const char *cls;
	const json_t *count;
	buf[0] = '\0';
	json_object_foreach((json_t *)errors, cls, count)
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s %lld", len ? ", " : "", cls,
						(long long)json_integer_value(count));
	if (!len)
		snprintf(buf, n, "none");
}

int rpb_report_table(const struct rpb_cmp *c, struct rpb_grid *t)
{
	enum { R_HEAD, R_VERSION, R_RUNS, R_METRICS, R_ERRORS = R_METRICS + RPB_M_COUNT, R_STOP,
	       R_COUNT };
	if (table_alloc(t, R_COUNT, c->nbackends + 1) != 0)
		return -1;
	set_cell(t, R_HEAD, 0, "%s", "");
	set_cell(t, R_VERSION, 0, "version");
	set_cell(t, R_RUNS, 0, "runs");
	set_cell(t, R_ERRORS, 0, "errors (class count)");
	set_cell(t, R_STOP, 0, "stop reason");
	for (int m = 0; m < RPB_M_COUNT; m++) {
		set_cell(t, R_METRICS + (size_t)m, 0, rpb_cmp_metrics[m].title, c->main_label);
		t->numeric_row[R_METRICS + m] = true;
	}
	t->numeric_row[R_RUNS] = true;
	for (size_t i = 0; i < c->nbackends; i++) {
		const struct rpb_cmp_backend *b = &c->backends[i];
		size_t col = i + 1;
		set_cell(t, R_HEAD, col, "%s", b->name);
		set_cell(t, R_VERSION, col, "%s", b->version);
		if (b->nincomplete)
			set_cell(t, R_RUNS, col, "%zu of %zu", b->nruns, b->nruns + b->nincomplete);
		else
			set_cell(t, R_RUNS, col, "%zu", b->nruns);
		for (int m = 0; m < RPB_M_COUNT; m++) {
			char v[160], r[32];
			rpb_report_value(v, sizeof v, (enum rpb_cmp_metric)m, &b->stat[m]);
			rpb_report_ratio(r, sizeof r, (enum rpb_cmp_metric)m, &b->stat[m]);
			set_cell(t, R_METRICS + (size_t)m, col, "%s%s%s", v, *r ? " " : "", r);
		}
		char errs[512];
		errors_text(errs, sizeof errs, b->errors);
		set_cell(t, R_ERRORS, col, "%s", errs);
		set_cell(t, R_STOP, col, "%s", b->stops);
	}
	for (size_t r = 0; r < t->rows; r++)
		for (size_t k = 0; k < t->cols; k++)
			if (!t->cell[r][k])
				return -1;
	return 0;
}

int rpb_report_label_table(const struct rpb_cmp *c, struct rpb_grid *t)
{
	/* The labels in order of first appearance over the plotted runs. */
	json_t *labels = json_object();
	for (size_t i = 0; i < c->nbackends; i++) {
		const char *l;
		const json_t *v;
		json_object_foreach(json_object_get(c->runs[c->backends[i].rep].root, "labels"), l, v)
			json_object_set(labels, l, json_true());
	}
	if (table_alloc(t, json_object_size(labels) + 1, 1 + 3 * c->nbackends) != 0) {
		json_decref(labels);
		return -1;
	}
	set_cell(t, 0, 0, "label");
	for (size_t i = 0; i < c->nbackends; i++) {
		set_cell(t, 0, 1 + 3 * i, "%s ops/s", c->backends[i].name);
		set_cell(t, 0, 2 + 3 * i, "%s p50 µs", c->backends[i].name);
		set_cell(t, 0, 3 + 3 * i, "%s p99 µs", c->backends[i].name);
	}
	size_t row = 1;
	const char *l;
	const json_t *v;
	json_object_foreach(labels, l, v) {
		set_cell(t, row, 0, "%s", l);
		t->numeric_row[row] = true;
		for (size_t i = 0; i < c->nbackends; i++) {
			const json_t *lab =
				json_object_get(json_object_get(c->runs[c->backends[i].rep].root, "labels"), l);
			static const char *const keys[] = {"throughput_per_s", "p50_us", "p99_us"};
			for (size_t k = 0; k < 3; k++) {
				double x;
				if (rpb_cmp_number(lab, keys[k], &x))
					set_cell(t, row, 1 + 3 * i + k, "%.1f", x);
				else
					set_cell(t, row, 1 + 3 * i + k, "n/a");
			}
		}
		row++;
	}
	json_decref(labels);
	return 0;
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

void rpb_grid_markdown(const struct rpb_grid *t, FILE *f)
{
	size_t *w = calloc(t->cols, sizeof *w);
	if (!w)
		return;
	for (size_t r = 0; r < t->rows; r++)
		for (size_t c = 0; c < t->cols; c++)
			if (width(t->cell[r][c]) > w[c])
				w[c] = width(t->cell[r][c]);
	for (size_t r = 0; r < t->rows; r++) {
		for (size_t c = 0; c < t->cols; c++) {
			size_t pad = w[c] - width(t->cell[r][c]);
			bool right = c > 0 && t->numeric_row[r];
			fprintf(f, "| %*s%s%*s ", right ? (int)pad : 0, "", t->cell[r][c],
				right ? 0 : (int)pad, "");
		}
		fprintf(f, "|\n");
		if (r == 0) {
			for (size_t c = 0; c < t->cols; c++) {
				fprintf(f, "|%s", c ? "" : ":");
				for (size_t k = 0; k < w[c] + 1; k++)
					fputc('-', f);
				fprintf(f, "%s", c ? ":" : "");
			}
			fprintf(f, "|\n");
		}
	}
	free(w);
}

void rpb_report_headline(const struct rpb_cmp *c, char *buf, size_t n)
{
	const char *threads = json_string_value(json_object_get(c->options, "run.threads"));
	const char *clients = json_string_value(json_object_get(c->options, "run.clients"));
	const char *seed = json_string_value(json_object_get(c->options, "run.seed"));
	snprintf(buf, n, "%s%s%s%s, sync = %s, %s thread(s) x %s client(s), seed %s", c->pattern,
		 c->workload[0] ? " (" : "", c->workload, c->workload[0] ? ")" : "", c->sync,
		 threads ? threads : "?", clients ? clients : "?", seed ? seed : "?");
}

static const char legend[] =
	"Median over the runs, [min–max] with repeats. \"best\" marks the best backend for a row; "
	"×N means N times worse than the best (throughput: best ÷ value; latency and bytes: "
	"value ÷ best). Rounding: ops/s and µs to 0.1, MiB to 0.01, ratios to 0.01; compare.json "
	"holds the exact values.";

static const char no_runs[] = "No run completed: nothing to compare.";

void rpb_report_print(const struct rpb_cmp *c, FILE *f)
{
	char head[512];
	struct rpb_grid t = {0};
	rpb_report_headline(c, head, sizeof head);
	fprintf(f, "%s\n", head);
	if (!c->nbackends)
		fprintf(f, "%s\n", no_runs);
	else if (rpb_report_table(c, &t) == 0)
		rpb_grid_markdown(&t, f);
	rpb_grid_free(&t);
	fprintf(f, "\n%s\n", legend);
}

/* ---- files ---- */

void rpb_relpath(const char *base, const char *target, char *buf, size_t n)
{
	char b[PATH_MAX], t[PATH_MAX];
	if (!realpath(base, b) || !realpath(target, t)) {
		snprintf(buf, n, "%s", target);
		return;
	}
	/* The longest common prefix ending at a path separator. */
	size_t common = 0;
	for (size_t i = 0; b[i] && b[i] == t[i]; i++)
		if (b[i] == '/')
			common = i;
	size_t bl = strlen(b), tl = strlen(t);
	if (strncmp(b, t, bl) == 0 && (t[bl] == '/' || t[bl] == '\0'))
		common = bl; /* target inside base */
	else if (strncmp(b, t, tl) == 0 && b[tl] == '/')
		common = tl; /* base inside target */
	size_t len = 0;
	buf[0] = '\0';
	for (const char *p = b + common; *p; p++)
		if (*p == '/' && len + 4 < n)
			len += (size_t)snprintf(buf + len, n - len, "../");
	const char *rest = t + common + (t[common] == '/');
	if (*rest)
		snprintf(buf + len, n - len, "%s", rest);
	else if (len)
		buf[len - 1] = '\0'; /* drop the trailing '/' */
	else
		snprintf(buf, n, ".");
}

int rpb_report_new_dir(const char *dir, const char *flag, char *msg, size_t n)
{
	struct rpb_err err;
	if (rpb_dir_prepare(dir, true, &err) != RPB_OK) {
		snprintf(msg, n, "%s cannot be used (%s); choose a writable %s", dir, err.msg, flag);
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(msg, n, "cannot read %s: %s; choose a writable %s", dir, strerror(errno), flag);
		return -1;
	}
	struct dirent *e;
	bool empty = true;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty) {
		snprintf(msg, n, "%s is not empty; choose a new or empty %s", dir, flag);
		return -1;
	}
	return 0;
}

static int close_file(FILE *f, const char *path, char *msg, size_t n)
{
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(msg, n, "cannot write %s: %s; check the output directory", path, strerror(errno));
		return -1;
	}
	return 0;
}

static json_t *stat_json(const struct rpb_cmp_stat *s, enum rpb_cmp_metric m)
{
	if (!s->have)
		return json_null();
	json_t *o = json_pack("{s:f, s:f, s:f, s:i}", "median", s->median, "min", s->min, "max",
			      s->max, "n", (int)s->n);
	if (rpb_cmp_metrics[m].ratio) {
		json_object_set_new(o, "ratio_to_best", s->have_ratio ? json_real(s->ratio) : json_null());
		json_object_set_new(o, "best", json_boolean(s->best));
	}
	return o;
}

static json_t *run_json(const struct rpb_cmp_run *r, const char *dir)
{
	char rel[RPB_CMP_PATH];
	rpb_relpath(dir, r->dir, rel, sizeof rel);
	json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:b, s:s}", "name", r->name, "backend",
			      r->backend, "dir", rel, "results", r->have_results, "completed",
			      r->completed, "stop", r->stop);
	json_object_set_new(o, "exit_code", r->exit_code >= 0 ? json_integer(r->exit_code) : json_null());
	for (int m = 0; m < RPB_M_COUNT; m++)
		json_object_set_new(o, rpb_cmp_metrics[m].key,
				    r->have[m] ? json_real(r->v[m]) : json_null());
	json_object_set_new(o, "acked_bytes", json_integer((json_int_t)r->acked_bytes));
	return o;
}

static json_t *compare_json(const struct rpb_cmp *c, const char *dir, const char *command)
{
	json_t *backends = json_array(), *incomplete = json_array();
	for (size_t i = 0; i < c->nbackends; i++) {
		const struct rpb_cmp_backend *b = &c->backends[i];
		json_t *runs = json_array();
		for (size_t k = 0; k < b->nruns; k++)
			json_array_append_new(runs, run_json(&c->runs[b->runs[k]], dir));
		char rep[RPB_CMP_PATH];
		rpb_relpath(dir, c->runs[b->rep].dir, rep, sizeof rep);
		json_t *o = json_pack("{s:s, s:s, s:o, s:s}", "backend", b->name, "backend_version",
				      b->version, "runs", runs, "plotted_run", rep);
		for (int m = 0; m < RPB_M_COUNT; m++)
			json_object_set_new(o, rpb_cmp_metrics[m].key,
					    stat_json(&b->stat[m], (enum rpb_cmp_metric)m));
		json_object_set(o, "errors", b->errors);
		json_object_set_new(o, "stop", json_string(b->stops));
		json_array_append_new(backends, o);
	}
	for (size_t k = 0; k < c->nruns; k++)
		if (!c->runs[k].completed)
			json_array_append_new(incomplete, run_json(&c->runs[k], dir));
	json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:s}", "rpbench_version", RPB_VERSION,
				 "pattern", c->pattern, "workload", c->workload, "main_label",
				 c->main_label, "sync", c->sync);
	if (command)
		json_object_set_new(root, "command", json_string(command));
	json_object_set_new(root, "rounding",
			    json_string("text tables: ops/s and µs to 0.1, MiB (2^20 bytes) to 0.01, "
					"ratios and space amplification to 0.01; this file keeps exact values"));
	json_object_set(root, "options", c->options);
	json_object_set_new(root, "backends", backends);
	json_object_set_new(root, "incomplete", incomplete);
	return root;
}

int rpb_report_compare_files(const struct rpb_cmp *c, const char *dir, const char *command,
			     char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 32];
	snprintf(path, sizeof path, "%s/compare.md", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
		return -1;
	}
	char head[512];
	struct rpb_grid t = {0};
	rpb_report_headline(c, head, sizeof head);
	fprintf(f, "# rpbench compare: %s\n\n", head);
	if (command)
		fprintf(f, "```\n%s\n```\n\n", command);
	if (!c->nbackends)
		fprintf(f, "%s\n", no_runs);
	else if (rpb_report_table(c, &t) == 0)
		rpb_grid_markdown(&t, f);
	rpb_grid_free(&t);
	fprintf(f, "\n%s\n", legend);
	if (rpb_report_label_table(c, &t) == 0) {
		fprintf(f, "\n## Every label (the plotted run of each backend)\n\n");
		rpb_grid_markdown(&t, f);
	}
	rpb_grid_free(&t);
	fprintf(f, "\n## Runs\n\n");
	for (size_t k = 0; k < c->nruns; k++) {
		char rel[RPB_CMP_PATH];
		const struct rpb_cmp_run *r = &c->runs[k];
		rpb_relpath(dir, r->dir, rel, sizeof rel);
		fprintf(f, "- %s: `%s`, stop %s", r->backend, rel, r->stop);
		if (r->exit_code >= 0)
			fprintf(f, ", exit %d", r->exit_code);
		fprintf(f, "%s\n", r->completed ? "" : r->have_results ? " (did not complete)"
								     : " (no results)");
	}
	if (close_file(f, path, msg, n) != 0)
		return -1;

	snprintf(path, sizeof path, "%s/compare.json", dir);
	json_t *root = compare_json(c, dir, command);
	if (!root || json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
							 JSON_REAL_PRECISION(17)) != 0) {
		snprintf(msg, n, "cannot write %s; choose a writable --out", path);
		json_decref(root);
		return -1;
	}
	json_decref(root);
	return 0;
}

int rpb_report_write(const struct rpb_cmp *c, const char *dir, char *msg, size_t n)
{
	if (rpb_report_new_dir(dir, "--out", msg, n) != 0)
		return -1;
	struct rpb_figure figs[RPB_PLOT_MAX_FIGURES];
	size_t nfigs = 0;
	if (rpb_plot_all(c, dir, figs, &nfigs, msg, n) != 0)
		return -1;
	return rpb_report_html(c, dir, figs, nfigs, msg, n);
}
