/* The comparison with a baseline written out: the table (terminal and
 * compare.md), compare.json's "baseline", the markdown summary and the
 * JUnit XML for CI. Every text in the markdown and XML files is escaped:
 * column names, labels and paths come from result files and the command
 * line. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "report_table.h"
#include "shown.h"

const char rpb_bl_noise_rule[] =
	"Change = (new − baseline) ÷ baseline, of the medians. Noise: with two runs or more on "
	"both sides, [min–max] ranges that overlap are within noise and ranges apart are not; with "
	"one run on either side the noise is unknown. A gated figure regresses when it is worse "
	"(throughput lower; latency and bytes higher) by more than its --max-regress threshold and "
	"not within noise.";

static const char *const noise_words[] = {
	[RPB_BL_NOISE_UNKNOWN] = "one run", [RPB_BL_NOISE_WITHIN] = "ranges overlap",
	[RPB_BL_NOISE_APART] = "ranges apart"};
static const char *const noise_json[] = {
	[RPB_BL_NOISE_UNKNOWN] = "unknown", [RPB_BL_NOISE_WITHIN] = "within",
	[RPB_BL_NOISE_APART] = "apart"};

/* "create latency p99, µs", "bytes on disk per acked object". */
static void figure_name(char *buf, size_t n, const struct rpb_bl_row *r)
{
	const struct rpb_bl_keydef *k = &rpb_bl_keys[r->key];
	if (r->key == RPB_BL_BYTES)
		snprintf(buf, n, "%s", k->title);
	else
		snprintf(buf, n, "%s %s, %s", r->label, k->title, k->unit);
}

/* "create.p99", "bytes": the gate's key, the JUnit test's name. */
static void gate_name(char *buf, size_t n, const struct rpb_bl_row *r)
{
	snprintf(buf, n, "%s%s%s", r->label, r->label[0] ? "." : "", rpb_bl_keys[r->key].gate);
}

static void side_text(char *buf, size_t n, const struct rpb_bl_row *r, const struct rpb_bl_side *s)
{
	int d = rpb_bl_keys[r->key].decimals;
	char lo[64], hi[64];
	snprintf(lo, sizeof lo, "%.*f", d, s->min);
	snprintf(hi, sizeof hi, "%.*f", d, s->max);
	if (s->n > 1 && strcmp(lo, hi))
		snprintf(buf, n, "%.*f [%s–%s]", d, s->median, lo, hi);
	else
		snprintf(buf, n, "%.*f", d, s->median);
}

static void change_text(char *buf, size_t n, const struct rpb_bl_row *r)
{
	if (r->have_change)
		snprintf(buf, n, "%+.1f%%", r->change_pct);
	else
		snprintf(buf, n, "n/a");
}

static void gate_text(char *buf, size_t n, const struct rpb_bl_row *r)
{
	if (!r->gated)
		snprintf(buf, n, "-");
	else if (r->regressed)
		snprintf(buf, n, "REGRESSED (limit %g%%)", r->threshold_pct);
	else if (r->noise == RPB_BL_NOISE_WITHIN &&
		 (!r->have_change || r->worse_pct > r->threshold_pct))
		snprintf(buf, n, "within noise (limit %g%%)", r->threshold_pct);
	else
		snprintf(buf, n, "ok (limit %g%%)", r->threshold_pct);
}

typedef void (*escape_fn)(char *out, size_t n, const char *in);

static void no_escape(char *out, size_t n, const char *in)
{
	snprintf(out, n, "%s", in);
}

/* Appends s to out (of size n, used *len), cut where it does not fit. */
static void put(char *out, size_t n, size_t *len, const char *s)
{
	size_t l = strlen(s);
	if (*len + l >= n)
		return;
	memcpy(out + *len, s, l + 1);
	*len += l;
}

/* Markdown text: HTML's specials as entities, markdown's and the table's
 * specials behind a backslash, control characters as ?. */
static void md_escape(char *out, size_t n, const char *in)
{
	size_t len = 0;
	out[0] = '\0';
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		char one[3] = {(char)*p, 0, 0};
		if (*p == '<')
			put(out, n, &len, "&lt;");
		else if (*p == '>')
			put(out, n, &len, "&gt;");
		else if (*p == '&')
			put(out, n, &len, "&amp;");
		else if (*p < 0x20 || *p == 0x7f)
			put(out, n, &len, "?");
		else {
			if (strchr("\\`*_[]|#!~", *p))
				one[0] = '\\', one[1] = (char)*p;
			put(out, n, &len, one);
		}
	}
}

/* The length of a well-formed UTF-8 sequence at p, or 0. */
static size_t utf8_len(const unsigned char *p)
{
	size_t k = *p >= 0xF0 && *p <= 0xF4 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC2 ? 2 : 0;
	if (*p >= 0xF5 || *p < 0xC2)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return k;
}

/* XML text and attribute values: the five specials as entities; control
 * characters XML 1.0 does not allow and bytes that are not UTF-8 as ?. */
static void xml_escape(char *out, size_t n, const char *in)
{
	size_t len = 0;
	out[0] = '\0';
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		char one[5] = {(char)*p, 0, 0, 0, 0};
		if (*p == '<')
			put(out, n, &len, "&lt;");
		else if (*p == '>')
			put(out, n, &len, "&gt;");
		else if (*p == '&')
			put(out, n, &len, "&amp;");
		else if (*p == '"')
			put(out, n, &len, "&quot;");
		else if (*p == '\'')
			put(out, n, &len, "&apos;");
		else if ((*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 0x7f)
			put(out, n, &len, "?");
		else if (*p < 0x80)
			put(out, n, &len, one);
		else {
			size_t k = utf8_len(p);
			if (!k) {
				put(out, n, &len, "?");
				continue;
			}
			memcpy(one, p, k);
			put(out, n, &len, one);
			p += k - 1;
		}
	}
}

static int grid(const struct rpb_baseline *b, struct rpb_grid *t, escape_fn esc)
{
	static const char *const heads[] = {"column", "figure", "baseline", "new", "change",
					    "noise", "gate"};
	const size_t cols = sizeof heads / sizeof heads[0];
	memset(t, 0, sizeof *t);
	t->rows = b->nrows + 1;
	t->cols = cols;
	t->cell = calloc(t->rows, sizeof *t->cell);
	t->numeric_row = calloc(t->rows, sizeof *t->numeric_row);
	if (!t->cell || !t->numeric_row)
		return -1;
	for (size_t r = 0; r < t->rows; r++) {
		char text[7][512], esc_text[1024];
		if (!(t->cell[r] = calloc(cols, sizeof **t->cell)))
			return -1;
		if (r == 0) {
			for (size_t c = 0; c < cols; c++)
				snprintf(text[c], sizeof text[c], "%s", heads[c]);
		} else {
			const struct rpb_bl_row *row = &b->rows[r - 1];
			snprintf(text[0], sizeof text[0], "%s", row->column);
			figure_name(text[1], sizeof text[1], row);
			side_text(text[2], sizeof text[2], row, &row->base);
			side_text(text[3], sizeof text[3], row, &row->now);
			change_text(text[4], sizeof text[4], row);
			snprintf(text[5], sizeof text[5], "%s", noise_words[row->noise]);
			gate_text(text[6], sizeof text[6], row);
		}
		for (size_t c = 0; c < cols; c++) {
			esc(esc_text, sizeof esc_text, text[c]);
			if (!(t->cell[r][c] = strdup(esc_text)))
				return -1;
		}
	}
	return 0;
}

static void print_table(const struct rpb_baseline *b, FILE *f, escape_fn esc)
{
	struct rpb_grid t;
	if (!b->nrows)
		fprintf(f, "No completed column to compare with the baseline.\n");
	else if (grid(b, &t, esc) == 0)
		rpb_grid_markdown(&t, f);
	rpb_grid_free(&t);
}

/* "a run's results" or "a compare directory of 3 runs". */
static void kind_text(char *buf, size_t n, const struct rpb_baseline *b)
{
	if (b->from_compare)
		snprintf(buf, n, "a compare directory of %zu run%s", b->cmp.nruns,
			 b->cmp.nruns == 1 ? "" : "s");
	else
		snprintf(buf, n, "a run's results");
}

void rpb_bl_print(const struct rpb_baseline *b, FILE *f)
{
	char shown[RPB_SHOWN_SIZE];
	char kind[64];
	kind_text(kind, sizeof kind, b);
	fprintf(f, "\nAgainst the baseline %s (%s):\n", rpb_shown(shown, sizeof shown, b->dir), kind);
	print_table(b, f, no_escape);
	fprintf(f, "\n%s\n", rpb_bl_noise_rule);
}

/* "sqlite create latency p99 112.0 µs against 100.0 µs in the baseline,
 * +12.0% (limit 10%)". */
static void regression_text(char *buf, size_t n, const struct rpb_bl_row *r)
{
	char fig[256], a[128], z[128];
	figure_name(fig, sizeof fig, r);
	side_text(a, sizeof a, r, &r->base);
	side_text(z, sizeof z, r, &r->now);
	if (r->have_change)
		snprintf(buf, n, "%s %s: %s against %s in the baseline, %+.1f%% (limit %g%%)", r->column,
			 fig, z, a, r->change_pct, r->threshold_pct);
	else
		snprintf(buf, n, "%s %s: %s against %s in the baseline (limit %g%%)", r->column, fig, z, a,
			 r->threshold_pct);
}

void rpb_bl_print_regressions(const struct rpb_baseline *b, FILE *f)
{
	for (size_t i = 0; i < b->nrows; i++)
		if (b->rows[i].regressed) {
			char text[1024];
			regression_text(text, sizeof text, &b->rows[i]);
			fprintf(f, "rpbench: regression: %s\n", text);
		}
}

static json_t *side_json(const struct rpb_bl_side *s)
{
	return json_pack("{s:f, s:f, s:f, s:i}", "median", s->median, "min", s->min, "max", s->max,
			 "n", (int)s->n);
}

static json_t *baseline_json(const struct rpb_baseline *b)
{
	json_t *figs = json_array(), *runs = json_array();
	for (size_t i = 0; i < b->cmp.nruns; i++)
		json_array_append_new(runs, json_string(b->cmp.runs[i].dir));
	for (size_t i = 0; i < b->nrows; i++) {
		const struct rpb_bl_row *r = &b->rows[i];
		char key[128];
		gate_name(key, sizeof key, r);
		json_t *o = json_pack("{s:s, s:o, s:s, s:s, s:o, s:o}", "column", r->column, "label",
				      r->label[0] ? json_string(r->label) : json_null(), "figure",
				      rpb_bl_keys[r->key].gate, "key", key, "baseline",
				      side_json(&r->base), "new", side_json(&r->now));
		json_object_set_new(o, "change_pct", r->have_change ? json_real(r->change_pct) : json_null());
		json_object_set_new(o, "noise", json_string(noise_json[r->noise]));
		json_object_set_new(o, "threshold_pct", r->gated ? json_real(r->threshold_pct) : json_null());
		json_object_set_new(o, "regressed", json_boolean(r->regressed));
		json_array_append_new(figs, o);
	}
	return json_pack("{s:s, s:s, s:o, s:s, s:i, s:i, s:o}", "dir", b->dir, "kind",
			 b->from_compare ? "compare" : "run", "runs", runs, "rule", rpb_bl_noise_rule,
			 "gated", (int)b->ngated, "regressions", (int)b->nregressed, "figures", figs);
}

int rpb_bl_add_to_compare(const struct rpb_baseline *b, const char *dir, char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 32];
	snprintf(path, sizeof path, "%s/compare.json", dir);
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root || json_object_set_new(root, "baseline", baseline_json(b)) != 0 ||
	    json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					       JSON_REAL_PRECISION(17)) != 0) {
		snprintf(msg, n, "cannot add the baseline to %s; choose a writable --out", path);
		json_decref(root);
		return -1;
	}
	json_decref(root);
	snprintf(path, sizeof path, "%s/compare.md", dir);
	FILE *f = fopen(path, "a");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
		return -1;
	}
	char esc[RPB_CMP_PATH * 6];
	md_escape(esc, sizeof esc, b->dir);
	fprintf(f, "\n## Against the baseline %s\n\n", esc);
	print_table(b, f, md_escape);
	fprintf(f, "\n%s\n", rpb_bl_noise_rule);
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(msg, n, "cannot write %s: %s; check the output directory", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* A new file (never one rpbench did not create), for writing. */
static FILE *new_file(const char *path, const char *flag, char *msg, size_t n)
{
	char shown[RPB_SHOWN_SIZE];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		snprintf(msg, n, "cannot create %s %s: %s; give a new file in a writable directory", flag,
			 rpb_shown(shown, sizeof shown, path), strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

static int end_file(FILE *f, const char *path, char *msg, size_t n)
{
	char shown[RPB_SHOWN_SIZE];
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(msg, n, "cannot write %s: %s", rpb_shown(shown, sizeof shown, path),
			 strerror(errno));
		return -1;
	}
	return 0;
}

int rpb_bl_write_summary(const struct rpb_baseline *b, const struct rpb_cmp *now,
			 const char *path, char *msg, size_t n)
{
	FILE *f = new_file(path, "--summary", msg, n);
	if (!f)
		return -1;
	char esc[RPB_CMP_PATH * 6];
	fprintf(f, "# rpbench compare against a baseline: %s\n\n",
		b->nregressed ? "FAIL" : "PASS");
	md_escape(esc, sizeof esc, now->pattern);
	fprintf(f, "- pattern: %s", esc);
	md_escape(esc, sizeof esc, now->workload);
	fprintf(f, " (%s)\n", esc);
	md_escape(esc, sizeof esc, b->dir);
	char kind[64];
	kind_text(kind, sizeof kind, b);
	fprintf(f, "- baseline: %s (%s)\n", esc, kind);
	fprintf(f, "- gated figures: %zu, regressions: %zu\n\n", b->ngated, b->nregressed);
	print_table(b, f, md_escape);
	if (b->nregressed) {
		fprintf(f, "\n## Regressions\n\n");
		for (size_t i = 0; i < b->nrows; i++)
			if (b->rows[i].regressed) {
				char text[1024];
				regression_text(text, sizeof text, &b->rows[i]);
				md_escape(esc, sizeof esc, text);
				fprintf(f, "- %s\n", esc);
			}
	}
	fprintf(f, "\n%s\n", rpb_bl_noise_rule);
	return end_file(f, path, msg, n);
}

int rpb_bl_write_junit(const struct rpb_baseline *b, const struct rpb_cmp *now, const char *path,
		       char *msg, size_t n)
{
	FILE *f = new_file(path, "--junit", msg, n);
	if (!f)
		return -1;
	char e1[RPB_CMP_PATH * 6], e2[RPB_CMP_PATH * 6], text[1024];
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"rpbench compare --baseline\" tests=\"%zu\" failures=\"%zu\">\n",
		b->ngated, b->nregressed);
	snprintf(text, sizeof text, "%s (%s)", now->pattern, now->workload);
	xml_escape(e1, sizeof e1, text);
	fprintf(f, "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
		e1, b->ngated, b->nregressed);
	xml_escape(e1, sizeof e1, b->dir);
	fprintf(f, "    <properties>\n      <property name=\"baseline\" value=\"%s\"/>\n", e1);
	xml_escape(e1, sizeof e1, now->workload);
	fprintf(f, "      <property name=\"workload\" value=\"%s\"/>\n    </properties>\n", e1);
	for (size_t i = 0; i < b->nrows; i++) {
		const struct rpb_bl_row *r = &b->rows[i];
		if (!r->gated)
			continue;
		gate_name(text, sizeof text, r);
		xml_escape(e1, sizeof e1, r->column);
		xml_escape(e2, sizeof e2, text);
		fprintf(f, "    <testcase classname=\"%s\" name=\"%s\"", e1, e2);
		if (!r->regressed) {
			fprintf(f, "/>\n");
			continue;
		}
		regression_text(text, sizeof text, r);
		xml_escape(e1, sizeof e1, text);
		fprintf(f, ">\n      <failure type=\"regression\" message=\"%s\">%s</failure>\n    </testcase>\n",
			e1, e1);
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
	return end_file(f, path, msg, n);
}
