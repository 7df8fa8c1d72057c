/* The comparison's tables (report_table.h): cells with the documented
 * rounding, the Markdown/terminal form, the headline; and relative paths
 * for the files that link to each other. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report_table.h"

#define MIB 1048576.0

static void fmt_number(char *buf, size_t n, enum rpb_cmp_metric m, double v)
{
	switch (m) {
	case RPB_M_STORE_BYTES:
	case RPB_M_DISK_BYTES:
		snprintf(buf, n, "%.2f", v / MIB);
		break;
	case RPB_M_SPACE_AMP:
		snprintf(buf, n, "%.2f", v);
		break;
	case RPB_M_BYTES_PER_OBJECT:
		snprintf(buf, n, "%.0f", v);
		break;
	case RPB_M_ACKED:
		snprintf(buf, n, "%.0f", v);
		break;
	default:
		snprintf(buf, n, "%.1f", v);
	}
}

/* A figure's median with [min–max] when repeats differ once rounded; m is
 * its metric, or RPB_M_COUNT for a row of digits decimals. */
static void value_text(char *buf, size_t n, enum rpb_cmp_metric m, int digits,
		       const struct rpb_cmp_stat *s)
{
	if (!s->have) {
		snprintf(buf, n, "n/a");
		return;
	}
	char med[64], lo[64], hi[64];
	if (m == RPB_M_COUNT) {
		snprintf(med, sizeof med, "%.*f", digits, s->median);
		snprintf(lo, sizeof lo, "%.*f", digits, s->min);
		snprintf(hi, sizeof hi, "%.*f", digits, s->max);
	} else {
		fmt_number(med, sizeof med, m, s->median);
		fmt_number(lo, sizeof lo, m, s->min);
		fmt_number(hi, sizeof hi, m, s->max);
	}
	if (s->n < 2 || (!strcmp(lo, med) && !strcmp(hi, med))) {
		snprintf(buf, n, "%s", med);
		return;
	}
	snprintf(buf, n, "%s [%s–%s]", med, lo, hi);
}

void rpb_report_value(char *buf, size_t n, enum rpb_cmp_metric m, const struct rpb_cmp_stat *s)
{
	value_text(buf, n, m, 0, s);
}

static void ratio_text(char *buf, size_t n, bool ranked, const struct rpb_cmp_stat *s)
{
	if (!ranked || !s->have || !s->have_ratio)
		snprintf(buf, n, "%s", "");
	else if (s->best)
		snprintf(buf, n, "best");
	else if (s->top && s->noise)
		snprintf(buf, n, "within noise");
	else if (s->noise)
		snprintf(buf, n, "×%.2f within noise", s->ratio);
	else
		snprintf(buf, n, "×%.2f", s->ratio);
}

void rpb_report_ratio(char *buf, size_t n, enum rpb_cmp_metric m, const struct rpb_cmp_stat *s)
{
	ratio_text(buf, n, rpb_cmp_metrics[m].ratio, s);
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

/* The table's row of metric m: the main label's figures, then the further
 * rows (compare_rows.h), then the totals'. */
static size_t metric_row(const struct rpb_cmp *c, int m)
{
	return 3 + (size_t)m + (m > RPB_M_MAX ? c->nrows : 0);
}

int rpb_report_table(const struct rpb_cmp *c, struct rpb_grid *t)
{
	enum { R_HEAD, R_VERSION, R_RUNS };
	const size_t R_EXTRA = metric_row(c, RPB_M_MAX) + 1, R_ERRORS = metric_row(c, RPB_M_COUNT),
		     R_STOP = R_ERRORS + 1;
	if (table_alloc(t, R_STOP + 1, c->nbackends + 1) != 0)
		return -1;
	set_cell(t, R_HEAD, 0, "%s", "");
	set_cell(t, R_VERSION, 0, "version");
	set_cell(t, R_RUNS, 0, "runs");
	set_cell(t, R_ERRORS, 0, "errors (class count)");
	set_cell(t, R_STOP, 0, "stop reason");
	for (int m = 0; m < RPB_M_COUNT; m++) {
		set_cell(t, metric_row(c, m), 0, rpb_cmp_metrics[m].title, c->main_label);
		t->numeric_row[metric_row(c, m)] = true;
	}
	for (size_t w = 0; w < c->nrows; w++) {
		set_cell(t, R_EXTRA + w, 0, "%s", c->rows[w].title);
		t->numeric_row[R_EXTRA + w] = true;
	}
	t->numeric_row[R_RUNS] = true;
	for (size_t i = 0; i < c->nbackends; i++) {
		const struct rpb_cmp_backend *b = &c->backends[i];
		size_t col = i + 1;
		set_cell(t, R_HEAD, col, "%s", b->label);
		set_cell(t, R_VERSION, col, "%s", b->version);
		size_t done = b->ended_early ? 0 : b->nruns;
		if (b->nincomplete)
			set_cell(t, R_RUNS, col, "%zu of %zu", done, done + b->nincomplete);
		else
			set_cell(t, R_RUNS, col, "%zu", b->nruns);
		for (int m = 0; m < RPB_M_COUNT; m++) {
			char v[160], r[32];
			rpb_report_value(v, sizeof v, (enum rpb_cmp_metric)m, &b->stat[m]);
			rpb_report_ratio(r, sizeof r, (enum rpb_cmp_metric)m, &b->stat[m]);
			set_cell(t, metric_row(c, m), col, "%s%s%s", v, *r ? " " : "", r);
		}
		for (size_t w = 0; w < c->nrows; w++) {
			char v[160], r[32];
			value_text(v, sizeof v, RPB_M_COUNT, c->rows[w].digits, &b->rstat[w]);
			ratio_text(r, sizeof r, true, &b->rstat[w]);
			set_cell(t, R_EXTRA + w, col, "%s%s%s", v, *r ? " " : "", r);
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
		set_cell(t, 0, 1 + 3 * i, "%s ops/s", c->backends[i].label);
		set_cell(t, 0, 2 + 3 * i, "%s p50 µs", c->backends[i].label);
		set_cell(t, 0, 3 + 3 * i, "%s p99 µs", c->backends[i].label);
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
	char seed[24] = "?";
	if (c->have_seed)
		snprintf(seed, sizeof seed, "%" PRIu64, c->seed);
	char durability[64];
	if (c->matrix)
		snprintf(durability, sizeof durability, "profile and sync per column");
	else
		snprintf(durability, sizeof durability, "profile = %s, sync = %s", c->profile, c->sync);
	snprintf(buf, n, "%s%s%s%s, %s, %s thread(s) x %s client(s), seed %s", c->pattern,
		 c->workload[0] ? " (" : "", c->workload, c->workload[0] ? ")" : "", durability,
		 threads ? threads : "?", clients ? clients : "?", seed);
}

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
