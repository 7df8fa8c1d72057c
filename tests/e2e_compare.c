/* End-to-end comparisons through the real rpbench binary: compare runs the
 * per-backend binaries, and its table (compare.md, compare.json) must give
 * the numbers of each run's result.json; the report's figures must be
 * well-formed SVG and PNG files and index.html must reference only files
 * that exist; runs of another workload or durability must be refused. */
#include <criterion/criterion.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "e2e_util.h"

/* compare runs the LevelDB and SQLite binaries. */
#if defined(RPB_HAVE_LEVELDB) && defined(RPB_HAVE_SQLITE)

#define MIB 1048576.0
#define PATHBUF 1024

enum { EXIT_USAGE = 1, EXIT_INCOMPLETE = 3 };

static const char *const figures[] = {"decision",           "throughput-time", "latency-time",
				      "latency-percentiles", "throughput-objects", "probe-objects",
				      "bytes-objects"};

/* Runs rpbench with the arguments up to NULL ("OUT" stands for dir). */
static void rpbench(struct e2e_proc *p, const struct e2e_env *e, const char *dir, ...)
	__attribute__((sentinel));
static void rpbench(struct e2e_proc *p, const struct e2e_env *e, const char *dir, ...)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, NULL);
	va_list ap;
	va_start(ap, dir);
	for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
		e2e_args_add(&a, !strcmp(s, "OUT") ? dir : s, NULL);
	va_end(ap);
	cr_assert_eq(e2e_spawn(p, e->cap, &a), 0, "cannot start %s", RPBENCH);
	e2e_wait(p);
}

static json_t *load_json(const char *path)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	cr_assert_not_null(root, "%s: %s (line %d)", path, jerr.text, jerr.line);
	return root;
}

static double number(const json_t *obj, const char *key, const char *where)
{
	json_t *v = json_object_get(obj, key);
	cr_assert(json_is_number(v), "%s has no number %s", where, key);
	return json_number_value(v);
}

/* ---- compare.md: the cell of a backend's column in the row whose
 * heading starts with row ---- */

static void md_cell(const char *md, const char *row, const char *backend, char *out, size_t n)
{
	int col = -1;
	const char *line = md;
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[2048];
		snprintf(buf, sizeof buf, "%.*s", (int)len, line);
		line = end ? end + 1 : NULL;
		if (buf[0] != '|')
			continue;
		char *cells[32];
		int nc = 0;
		for (char *save = NULL, *c = strtok_r(buf, "|", &save); c && nc < 32;
		     c = strtok_r(NULL, "|", &save)) {
			while (*c == ' ')
				c++;
			for (char *t = c + strlen(c); t > c && t[-1] == ' ';)
				*--t = '\0';
			cells[nc++] = c;
		}
		if (col < 0) { /* the first table's head row names the backends */
			for (int i = 1; i < nc; i++)
				if (!strcmp(cells[i], backend))
					col = i;
			cr_assert_geq(col, 1, "compare.md: the table has no column %s", backend);
			continue;
		}
		if (nc > col && !strncmp(cells[0], row, strlen(row))) {
			snprintf(out, n, "%s", cells[col]);
			return;
		}
	}
	cr_assert_fail("compare.md: no row \"%s\"", row);
}

/* The cell's first word equals want (the rounding documented for the table). */
static void assert_md_value(const char *md, const char *row, const char *backend, const char *want)
{
	char cell[256];
	md_cell(md, row, backend, cell, sizeof cell);
	cell[strcspn(cell, " ")] = '\0';
	cr_assert_str_eq(cell, want, "compare.md %s / %s: \"%s\", result.json gives \"%s\"", row,
			 backend, cell, want);
}

/* Every figure of the table equals that of the run's result.json: exactly
 * in compare.json, with the documented rounding in compare.md. */
static void assert_numbers(const char *out, const char *backend, const json_t *cmp,
			   const char *md)
{
	char dir[PATHBUF], where[128];
	snprintf(dir, sizeof dir, "%s/runs/%s", out, backend);
	json_t *r = e2e_result(dir);
	const char *main_label = json_object_iter_key(json_object_iter(json_object_get(r, "labels")));
	cr_assert_not_null(main_label, "%s/result.json has no labels", dir);
	const json_t *label = json_object_get(json_object_get(r, "labels"), main_label);
	const json_t *totals = json_object_get(r, "totals");

	const json_t *b = NULL;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(cmp, "backends"), i, v)
		if (!strcmp(json_string_value(json_object_get(v, "backend")), backend))
			b = v;
	cr_assert_not_null(b, "compare.json does not list %s", backend);
	cr_assert_str_eq(json_string_value(json_object_get(cmp, "main_label")), main_label);

	static const struct {
		const char *key, *row;
	} lat[] = {{"throughput_per_s", "throughput"}, {"p50_us", "latency p50"},
		   {"p99_us", "latency p99,"},          {"p99.9_us", "latency p99.9"},
		   {"max_us", "latency max"}};
	for (size_t k = 0; k < sizeof lat / sizeof lat[0]; k++) {
		snprintf(where, sizeof where, "%s result.json labels.%s", backend, main_label);
		double want = number(label, lat[k].key, where);
		snprintf(where, sizeof where, "compare.json %s.%s", backend, lat[k].key);
		const json_t *stat = json_object_get(b, lat[k].key);
		double got = number(stat, "median", where);
		cr_assert(got == want, "%s: median %.17g, result.json %.17g", where, got, want);
		cr_assert_eq(number(stat, "n", where), 1);
		char row[128], text[64];
		snprintf(row, sizeof row, "%s %s", main_label, lat[k].row);
		snprintf(text, sizeof text, "%.1f", want);
		assert_md_value(md, row, backend, text);
	}

	char text[64];
	double store = number(totals, "store_bytes", "result.json totals");
	double acked_bytes = number(totals, "acked_bytes", "result.json totals");
	double acked = number(totals, "acked", "result.json totals");
	snprintf(where, sizeof where, "compare.json %s", backend);
	cr_assert(number(json_object_get(b, "store_bytes"), "median", where) == store);
	/* An embedded store's log is in its directory: nothing to add; a
	 * server's WAL written during the run is (totals.wal_bytes), and a
	 * server run that does not say its WAL has no total. */
	const json_t *wal = json_object_get(totals, "wal_bytes");
	const struct rpb_backend *be = rpb_backend_find(backend);
	bool server = be && (be->flags & RPB_BF_SERVER);
	snprintf(text, sizeof text, "%.2f", store / MIB);
	assert_md_value(md, "bytes on disk", backend, text);
	cr_assert_gt(acked_bytes, 0);
	if (server && !wal) {
		cr_assert(json_is_null(json_object_get(b, "store_wal_bytes")), "%s: no WAL, no total",
			  where);
		cr_assert(json_is_null(json_object_get(b, "space_amplification")), "%s", where);
	} else {
		double with_wal = store + (wal ? json_number_value(wal) : 0);
		cr_assert(number(json_object_get(b, "store_wal_bytes"), "median", where) == with_wal,
			  "%s: tables + WAL", where);
		cr_assert(number(json_object_get(b, "space_amplification"), "median", where) ==
			  with_wal / acked_bytes);
		snprintf(text, sizeof text, "%.2f", with_wal / acked_bytes);
		assert_md_value(md, "space amplification", backend, text);
	}
	cr_assert(number(json_object_get(b, "acked"), "median", where) == acked);
	snprintf(text, sizeof text, "%.0f", acked);
	assert_md_value(md, "acked operations", backend, text);
	assert_md_value(md, "errors", backend, "none");
	assert_md_value(md, "stop reason", backend, "completed");
	json_decref(r);
}

/* ---- the report's files ---- */

static void assert_svg(const struct e2e_env *e, const char *path)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, "xmllint", "--noout", path, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
	cr_assert_neq(p.code, 127, "xmllint is missing: install libxml2-utils (scripts/deps.sh)");
	cr_assert_neq(p.code, -1, "xmllint cannot start (%s): install libxml2-utils", p.err);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
}

static void assert_png(const char *path)
{
	size_t len = 0;
	char *data = e2e_slurp(path, &len);
	cr_assert_not_null(data, "cannot read %s", path);
	cr_assert(len > 1024, "%s has only %zu bytes", path, len);
	cr_assert(!memcmp(data, "\x89PNG\r\n\x1a\n", 8), "%s lacks the PNG signature", path);
	free(data);
}

/* Every src="..." and href="..." of index.html names a file beside it. */
static void assert_links(const char *report)
{
	char path[PATHBUF];
	snprintf(path, sizeof path, "%s/index.html", report);
	char *html = e2e_slurp(path, NULL);
	cr_assert_not_null(html, "cannot read %s", path);
	regex_t rx;
	cr_assert_eq(regcomp(&rx, "(src|href)=\"([^\"]*)\"", REG_EXTENDED), 0);
	regmatch_t m[3];
	size_t links = 0, svgs = 0;
	for (const char *p = html; regexec(&rx, p, 3, m, 0) == 0; p += m[0].rm_eo) {
		char ref[1024], file[PATHBUF + 1100];
		snprintf(ref, sizeof ref, "%.*s", (int)(m[2].rm_eo - m[2].rm_so), p + m[2].rm_so);
		cr_assert(!strstr(ref, "://") && strncmp(ref, "//", 2) != 0,
			  "index.html refers to %s, which is not offline", ref);
		snprintf(file, sizeof file, "%s/%s", report, ref);
		cr_assert(e2e_exists(file), "index.html refers to %s, which does not exist", ref);
		links++;
		svgs += strstr(ref, ".svg") != NULL;
	}
	regfree(&rx);
	cr_assert_geq(svgs, sizeof figures / sizeof figures[0], "index.html shows %zu SVG figures", svgs);
	cr_assert_gt(links, svgs);
	cr_assert_null(strstr(html, "<script"), "index.html has a script");
	free(html);
}

static void assert_report(const struct e2e_env *e, const char *report)
{
	char path[PATHBUF];
	for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
		snprintf(path, sizeof path, "%s/figures/%s.svg", report, figures[i]);
		cr_assert(e2e_exists(path), "%s was not drawn", path);
		assert_svg(e, path);
		snprintf(path, sizeof path, "%s/figures/%s.png", report, figures[i]);
		cr_assert(e2e_exists(path), "%s was not drawn", path);
		assert_png(path);
	}
	assert_links(report);
}

/* ---- 1. compare: files, numbers, figures ---- */

static void t_compare(const char *const *backends, size_t nb, const char *list)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	/* Paced to 1000 creates/s with 100 ms intervals: each run spans 6
	 * intervals or more, so the figures over time have lines to draw. */
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", E2E_CI_INGEST, "--backends", list, "--set", "ops=300",
		     "--set", "rate=1000", "--set", "interval=0.1", "--out", e.out, "--quiet", NULL);
	/* Each server backend's test server, named: --dsn NAME=DSN. */
	static char named[8][PATHBUF];
	for (size_t i = 0; i < nb && i < 8; i++) {
		const struct rpb_backend *b = rpb_backend_find(backends[i]);
		if (!b || !(b->flags & RPB_BF_SERVER))
			continue;
		snprintf(named[i], sizeof named[i], "%s=%s", backends[i], rpbt_server_dsn(backends[i]));
		e2e_args_add(&a, "--dsn", named[i], NULL);
	}
	cr_assert_eq(e2e_spawn(&p, e.cap, &a), 0, "cannot start %s", RPBENCH);
	e2e_wait(&p);
	e2e_assert_code(&p, 0);
	e2e_assert_quiet(&p);
	for (size_t i = 0; i < nb; i++)
		cr_assert(strstr(p.out, backends[i]), "the table on stdout does not name %s:\n%s",
			  backends[i], p.out);

	char path[PATHBUF];
	const char *files[] = {"compare.md", "compare.json", "report/index.html"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", e.out, files[i]);
		cr_assert(e2e_exists(path), "compare wrote no %s", path);
	}
	for (size_t i = 0; i < nb; i++) {
		snprintf(path, sizeof path, "%s/runs/%s/result.json", e.out, backends[i]);
		cr_assert(e2e_exists(path), "compare wrote no %s", path);
	}
	snprintf(path, sizeof path, "%s/compare.md", e.out);
	char *md = e2e_slurp(path, NULL);
	cr_assert_not_null(md);
	/* The terminal shows the table of compare.md, line for line. */
	size_t rows = 0;
	for (const char *l = p.out; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != '\0')) {
		char line[2048];
		snprintf(line, sizeof line, "%.*s\n", (int)strcspn(l, "\n"), l);
		if (line[0] != '|')
			continue;
		rows++;
		cr_assert(strstr(md, line), "compare.md lacks the terminal's row %s", line);
	}
	cr_assert_gt(rows, 10, "the terminal shows no table:\n%s", p.out);
	snprintf(path, sizeof path, "%s/compare.json", e.out);
	json_t *cmp = load_json(path);
	cr_assert_eq(json_array_size(json_object_get(cmp, "backends")), nb);
	cr_assert_eq(json_array_size(json_object_get(cmp, "incomplete")), 0);
	for (size_t i = 0; i < nb; i++)
		assert_numbers(e.out, backends[i], cmp, md);
	json_decref(cmp);
	free(md);

	char report[400];
	snprintf(report, sizeof report, "%s/report", e.out);
	assert_report(&e, report);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(e2e_compare, embedded, .fini = e2e_cleanup)
{
	static const char *const b[] = {"leveldb", "sqlite"};
	t_compare(b, 2, "leveldb,sqlite");
}

#ifdef RPB_HAVE_POSTGRES
Test(e2e_compare, with_postgres, .fini = e2e_cleanup)
{
	const char *dsn = getenv("RPB_TEST_PG_DSN");
	if (!dsn || !*dsn)
		cr_skip_test("RPB_TEST_PG_DSN is not set (scripts/pg-throwaway run starts a server)");
	static const char *const b[] = {"leveldb", "sqlite", "postgres"};
	t_compare(b, 3, "leveldb,sqlite,postgres");
}
#endif

/* Every server backend beside an embedded one, each with its test server. */
#define WITH_SERVER(b) \
	Test(e2e_compare, with_server_##b, .fini = e2e_cleanup) \
	{ \
		static const char *const names[] = {"sqlite", #b}; \
		t_compare(names, 2, "sqlite," #b); \
	}
RPBT_EACH_SERVER(WITH_SERVER)

/* ---- 2. refusals ---- */

static void run_ci(const struct e2e_env *e, const char *backend, const char *out, ...)
	__attribute__((sentinel));
static void run_ci(const struct e2e_env *e, const char *backend, const char *out, ...)
{
	char bin[E2E_PATH];
	snprintf(bin, sizeof bin, "%s/bin/rpbench-%s", RPB_BINARY_DIR, backend);
	struct e2e_args a = {0};
	e2e_args_add(&a, bin, "run", E2E_CI_INGEST, "--quiet", "--out", out, "--set", "ops=40", NULL);
	va_list ap;
	va_start(ap, out);
	e2e_args_addv(&a, ap);
	va_end(ap);
	e2e_exec_ok(e->cap, &a);
}

Test(e2e_compare, refuses_other_workload_options, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char a[E2E_PATH], c[E2E_PATH], o[E2E_PATH];
	e2e_path(&e, a, "a");
	e2e_path(&e, c, "c");
	e2e_path(&e, o, "o");
	run_ci(&e, "sqlite", a, NULL);
	run_ci(&e, "leveldb", c, "--set", "size_max=100", "--set", "sync=commit", NULL);
	struct e2e_proc p;
	/* The sync differs too, but only the workload option is named. */
	rpbench(&p, &e, o, "compare", "--results", a, c, "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "ingest.size_max", "4096", "100", NULL);
	cr_assert_null(strstr(p.err, "run.sync"), "the refusal names the sync: %s", p.err);
	cr_assert(!e2e_exists(o), "a refused comparison created %s", o);
	e2e_proc_free(&p);
	rpbench(&p, &e, o, "report", a, c, "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "ingest.size_max", "4096", "100", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* ---- 2b. the durability matrix: a column per (backend, profile, sync) ---- */

/* The compare.json column of backend / profile / sync. */
static const json_t *column(const json_t *cmp, const char *backend, const char *profile,
			    const char *sync)
{
	size_t i;
	const json_t *v;
	json_array_foreach(json_object_get(cmp, "backends"), i, v)
		if (!strcmp(json_string_value(json_object_get(v, "backend")), backend) &&
		    !strcmp(json_string_value(json_object_get(v, "profile")), profile) &&
		    !strcmp(json_string_value(json_object_get(v, "sync")), sync))
			return v;
	cr_assert_fail("compare.json has no column %s / %s / %s", backend, profile, sync);
	return NULL;
}

/* Repeats pool within a column, never across: two runs of leveldb at sync
 * none are one column of two runs, the one at commit a column of its own. */
Test(e2e_compare, results_pool_within_a_column_only, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char a[E2E_PATH], b[E2E_PATH], c[E2E_PATH];
	e2e_path(&e, a, "a");
	e2e_path(&e, b, "b");
	e2e_path(&e, c, "c");
	run_ci(&e, "leveldb", a, "--set", "sync=none", NULL);
	run_ci(&e, "leveldb", b, "--set", "sync=commit", NULL);
	run_ci(&e, "leveldb", c, "--set", "sync=none", NULL);
	struct e2e_proc p;
	rpbench(&p, &e, e.out, "compare", "--results", a, b, c, "--out", "OUT", "--quiet", NULL);
	e2e_assert_code(&p, 0);
	cr_assert(strstr(p.out, "| leveldb / durable / none |") || strstr(p.out, "leveldb / durable / none "),
		  "no column leveldb / durable / none:\n%s", p.out);
	cr_assert(strstr(p.out, "leveldb / durable / commit"), "no commit column:\n%s", p.out);
	char path[PATHBUF];
	snprintf(path, sizeof path, "%s/compare.json", e.out);
	json_t *cmp = load_json(path);
	cr_assert_eq(json_array_size(json_object_get(cmp, "backends")), 2);
	cr_assert(json_is_null(json_object_get(cmp, "sync")), "a matrix has no one sync");
	cr_assert(json_is_true(json_object_get(cmp, "matrix")));
	const json_t *none = column(cmp, "leveldb", "durable", "none");
	const json_t *commit = column(cmp, "leveldb", "durable", "commit");
	cr_assert_eq(json_array_size(json_object_get(none, "runs")), 2);
	cr_assert_eq(json_array_size(json_object_get(commit, "runs")), 1);
	cr_assert_eq(number(json_object_get(none, "acked"), "n", "none column"), 2);
	cr_assert_str_eq(json_string_value(json_object_get(commit, "column")),
			 "leveldb / durable / commit");
	json_decref(cmp);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* leveldb and sqlite x {fedora-4.5, durable} on the Fedora model: one
 * table of four columns, one report, exit 0. */
static void t_matrix(const char *backends, size_t nb, const char *dsn)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	if (dsn)
		rpbench(&p, &e, e.out, "compare", E2E_WORKLOAD("fedora-test2.ini"), "--backends",
			backends, "--profiles", "fedora-4.5,durable", "--set", "ops=30", "--set",
			"size_max=512", "--set", "probe_every=10", "--out", "OUT", "--quiet", "--dsn",
			dsn, NULL);
	else
		rpbench(&p, &e, e.out, "compare", E2E_WORKLOAD("fedora-test2.ini"), "--backends",
			backends, "--profiles", "fedora-4.5,durable", "--set", "ops=30", "--set",
			"size_max=512", "--set", "probe_every=10", "--out", "OUT", "--quiet", NULL);
	e2e_assert_code(&p, 0);
	char path[PATHBUF];
	snprintf(path, sizeof path, "%s/compare.json", e.out);
	json_t *cmp = load_json(path);
	cr_assert_eq(json_array_size(json_object_get(cmp, "backends")), 2 * nb);
	/* No sync in the workload (sync = auto): under fedora-4.5 the store's
	 * own, as each backend resolves native; under durable, commit. */
	static const struct {
		const char *backend, *sync;
	} native[] = {{"leveldb", "none"}, {"sqlite", "commit"}, {"postgres", "commit"}};
	for (size_t i = 0; i < nb; i++) {
		static const char *const profiles[] = {"fedora-4.5", "durable"};
		for (size_t k = 0; k < 2; k++) {
			const char *sync = k ? "commit" : native[i].sync;
			const json_t *col = column(cmp, native[i].backend, profiles[k], sync);
			cr_assert_eq(json_array_size(json_object_get(col, "runs")), 1);
			char label[128];
			snprintf(label, sizeof label, "%s / %s / %s", native[i].backend, profiles[k],
				 sync);
			cr_assert(strstr(p.out, label), "the table has no column %s:\n%s", label, p.out);
			snprintf(path, sizeof path, "%s/runs/%s-%s/result.json", e.out, native[i].backend,
				 profiles[k]);
			cr_assert(e2e_exists(path), "compare wrote no %s", path);
		}
	}
	json_decref(cmp);
	/* One table: a single head row of every column. */
	size_t heads = 0;
	for (const char *l = strstr(p.out, "| version "); l; l = strstr(l + 1, "| version "))
		heads++;
	cr_assert_eq(heads, 1, "%zu tables:\n%s", heads, p.out);
	snprintf(path, sizeof path, "%s/report/index.html", e.out);
	cr_assert(e2e_exists(path), "no report");
	char report[400];
	snprintf(report, sizeof report, "%s/report", e.out);
	assert_links(report);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(e2e_compare, durability_matrix, .fini = e2e_cleanup)
{
	t_matrix("leveldb,sqlite", 2, NULL);
}

#ifdef RPB_HAVE_POSTGRES
Test(e2e_compare, durability_matrix_with_postgres, .fini = e2e_cleanup)
{
	const char *dsn = getenv("RPB_TEST_PG_DSN");
	if (!dsn || !*dsn)
		cr_skip_test("RPB_TEST_PG_DSN is not set (scripts/pg-throwaway run starts a server)");
	/* The DSN named for its backend: --dsn postgres=DSN. */
	char named[PATHBUF];
	snprintf(named, sizeof named, "postgres=%s", dsn);
	t_matrix("leveldb,sqlite,postgres", 3, named);
}
#endif

Test(e2e_compare, matrix_options_refused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "leveldb", "--syncs",
		"none,always", "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "always", "--syncs", "none, commit, native", NULL);
	e2e_proc_free(&p);
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "leveldb", "--profiles",
		"durable", "--set", "profile=fedora-4.5", "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "--profiles", "profile=fedora-4.5", NULL);
	e2e_proc_free(&p);
	cr_assert(!e2e_exists(e.out), "a refused comparison created %s", e.out);
	e2e_env_fini(&e);
}

Test(e2e_compare, postgres_needs_a_server, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "sqlite,postgres", "--out",
		"OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "the postgres backend needs a server", "--dsn",
			   "--start-servers", NULL);
	cr_assert(!e2e_exists(e.out), "a refused comparison created %s", e.out);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* --dsn NAME=DSN names a server backend of this build, once; a refusal
 * says which and never shows the DSN. */
Test(e2e_compare, dsn_options_refused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "sqlite", "--dsn",
		"sqlite=host=/tmp password=hunter2", "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "--dsn sqlite=...", "sqlite is not a server backend", NULL);
	cr_assert(!strstr(p.err, "hunter2"), "the refusal shows the DSN: %s", p.err);
	e2e_proc_free(&p);
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "sqlite", "--dsn",
		"nosuch=host=/tmp password=hunter2", "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "nosuch is not a backend of this build", NULL);
	cr_assert(!strstr(p.err, "hunter2"), "the refusal shows the DSN: %s", p.err);
	e2e_proc_free(&p);
#ifdef RPB_HAVE_POSTGRES
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "sqlite,postgres", "--dsn",
		"postgres=dbname=a", "--dsn", "postgres=dbname=b", "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "--dsn postgres=... is given twice", NULL);
	e2e_proc_free(&p);
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "sqlite,postgres", "--dsn",
		"dbname=a", "--dsn", "postgres=dbname=b", "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "both name postgres's server", NULL);
	e2e_proc_free(&p);
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "sqlite", "--dsn",
		"postgres=dbname=a", "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "--dsn postgres=... names a backend that is not listed", NULL);
	e2e_proc_free(&p);
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "postgres", "--dsn",
		"dbname=a", "--start-postgres", "--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "give --dsn or --start-postgres, not both", NULL);
	e2e_proc_free(&p);
#endif
	cr_assert(!e2e_exists(e.out), "a refused comparison created %s", e.out);
	e2e_env_fini(&e);
}

/* A bare --dsn serves one server backend: with two listed it is refused,
 * naming the fix. Needs two server backends in the build. */
Test(e2e_compare, bare_dsn_with_two_servers_refused, .fini = e2e_cleanup)
{
	char list[256] = "";
	size_t servers = 0;
	for (size_t i = 0; rpb_backends[i] && servers < 2; i++)
		if (rpb_backends[i]->flags & RPB_BF_SERVER) {
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", servers ? "," : "",
				 rpb_backends[i]->name);
			servers++;
		}
	if (servers < 2)
		cr_skip_test("fewer than two server backends in this build (the rule is also "
			     "servers_plan/bare_dsn_needs_one_server)");
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", list, "--dsn", "dbname=a",
		"--out", "OUT", NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "a bare --dsn DSN serves one server backend", "--dsn NAME=DSN",
			   NULL);
	e2e_proc_free(&p);
	cr_assert(!e2e_exists(e.out), "a refused comparison created %s", e.out);
	e2e_env_fini(&e);
}

/* ---- 3. a run that does not complete is named; the others are reported ---- */

Test(e2e_compare, incomplete_run_named, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	/* A lock injection is refused by LevelDB alone (its writers never wait). */
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "leveldb,sqlite", "--set",
		"ops=100", "--set", "inject=lock:1@50", "--out", "OUT", "--quiet", NULL);
	e2e_assert_code(&p, EXIT_INCOMPLETE);
	cr_assert(strstr(p.err, "the leveldb run did not complete"), "stderr: %s", p.err);
	char path[PATHBUF];
	snprintf(path, sizeof path, "%s/compare.json", e.out);
	json_t *cmp = load_json(path);
	json_t *backends = json_object_get(cmp, "backends"), *bad = json_object_get(cmp, "incomplete");
	cr_assert_eq(json_array_size(backends), 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(backends, 0), "backend")),
			 "sqlite");
	cr_assert_eq(json_array_size(bad), 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(bad, 0), "backend")),
			 "leveldb");
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(bad, 0), "exit_code")), 1);
	json_decref(cmp);
	snprintf(path, sizeof path, "%s/report/index.html", e.out);
	cr_assert(e2e_exists(path), "no report for the run that completed");
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* The report of two columns of two runs each: the decision figure above
 * the tables, one point per column at its median throughput, labelled with
 * its name; the gauges one figure per column, both runs overlaid. */
static void assert_answer_first(const char *out, const double *tp)
{
	char rep[PATHBUF];
	snprintf(rep, sizeof rep, "%s/report", out);
	char *html = e2e_slurp_in(rep, "index.html");
	const char *fig = strstr(html, "<img src=\"figures/decision.svg\"");
	const char *table = strstr(html, "<h2>Comparison</h2>");
	cr_assert(fig && table && fig < table, "the decision figure is not above the tables");
	free(html);
	char *gp = e2e_slurp_in(rep, "figures/decision.gp");
	for (const char *const *t = (const char *const[]){"every ::0::0 using 1:2:4 with points ls 1 ps variable title 'leveldb'",
							  "every ::1::1 using 1:2:4 with points ls 2 ps variable title 'sqlite'",
							  "set label 1 'leveldb, ", "set label 2 'sqlite, ",
							  "set logscale y", NULL};
	     *t; t++)
		cr_assert(strstr(gp, *t), "decision.gp lacks %s:\n%s", *t, gp);
	free(gp);
	char *dat = e2e_slurp_in(rep, "data/decision.dat");
	const char *row = strchr(dat, '\n');
	for (size_t b = 0; b < 2; b++) {
		cr_assert_not_null(row);
		double x = strtod(row + 1, NULL);
		double want = (tp[b] + tp[b + 2]) / 2;
		cr_assert(fabs(x - want) <= want * 1e-5, "decision.dat row %zu: x %g, median %g", b, x, want);
		row = strchr(row + 1, '\n');
	}
	free(dat);
	/* sqlite's gauges: one figure, its two runs overlaid; none per run. */
	gp = e2e_slurp_in(rep, "figures/gauges-2.gp");
	cr_assert(strstr(gp, "'data/gauges-2.dat' using 1:2 ") && strstr(gp, "'data/gauges-2-2.dat' using 1:2 "),
		  "gauges-2.gp does not overlay both sqlite runs:\n%s", gp);
	cr_assert(strstr(gp, "title 'sqlite-1'") && strstr(gp, "title 'sqlite-2'"), "no run in the key:\n%s", gp);
	free(gp);
	char path[PATHBUF + 32];
	snprintf(path, sizeof path, "%s/figures/gauges-3.gp", rep);
	cr_assert(!e2e_exists(path), "a gauge figure per run: %s", path);
}

/* ---- 4. repeats interleave and give the median ---- */

Test(e2e_compare, repeat_interleaves, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	rpbench(&p, &e, e.out, "compare", E2E_CI_INGEST, "--backends", "leveldb,sqlite", "--repeat",
		"2", "--set", "ops=60", "--out", "OUT", "--quiet", NULL);
	e2e_assert_code(&p, 0);
	/* Run order: leveldb-1, sqlite-1, leveldb-2, sqlite-2. */
	static const char *const order[] = {"leveldb-1", "sqlite-1", "leveldb-2", "sqlite-2"};
	uint64_t prev_end = 0;
	double tp[4];
	for (size_t i = 0; i < 4; i++) {
		char dir[PATHBUF];
		snprintf(dir, sizeof dir, "%s/runs/%s", e.out, order[i]);
		json_t *r = e2e_result(dir);
		uint64_t start = e2e_jtime_ms(r, "manifest.start");
		cr_assert_geq(start, prev_end, "%s started before the run before it ended", order[i]);
		prev_end = e2e_jtime_ms(r, "manifest.end");
		tp[i] = number(json_object_get(json_object_get(r, "labels"), "create"), "throughput_per_s",
			       dir);
		json_decref(r);
	}
	char path[PATHBUF];
	snprintf(path, sizeof path, "%s/compare.json", e.out);
	json_t *cmp = load_json(path);
	for (size_t b = 0; b < 2; b++) {
		const json_t *stat =
			json_object_get(json_array_get(json_object_get(cmp, "backends"), b), "throughput_per_s");
		double lo = tp[b] < tp[b + 2] ? tp[b] : tp[b + 2], hi = tp[b] < tp[b + 2] ? tp[b + 2] : tp[b];
		cr_assert(number(stat, "median", "compare.json") == (tp[b] + tp[b + 2]) / 2);
		cr_assert(number(stat, "min", "compare.json") == lo);
		cr_assert(number(stat, "max", "compare.json") == hi);
		cr_assert_eq(number(stat, "n", "compare.json"), 2);
	}
	json_decref(cmp);
	e2e_proc_free(&p);
	assert_answer_first(e.out, tp);
	e2e_env_fini(&e);
}

#endif
