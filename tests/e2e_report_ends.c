/* rpbench report and compare on runs that ended early: a real disk full
 * (bench/quota-run, a size-limited file system), SIGINT and SIGKILL. Each
 * gets its figures up to its end, and every figure over time (or over
 * acknowledged operations) marks the end with how the run ended. Runs are
 * paced (rate) so each spans several 100 ms intervals whatever the
 * machine's speed; nothing here depends on how long anything takes.
 * Checked on the scripts, the SVGs, compare.md and index.html. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

#ifdef RPB_HAVE_SQLITE

#define QUOTA_RUN RPB_SOURCE_DIR "/bench/quota-run"

enum { EXIT_STOPPED = 3, EXIT_SIGNAL = 5, EXIT_QUOTA_SETUP = 125 };

/* The figures over time or over acknowledged operations: each marks the
 * end of a run that ended early with a line and label 100. */
static const char *const marked[] = {"throughput-time", "latency-time", "throughput-objects",
				     "bytes-objects"};

static void report(const struct e2e_env *e, const char *run, const char *out)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "report", run, "--out", out, NULL);
	e2e_exec_ok(e->cap, &a); /* a report was written, however the run ended */
}

/* The figures drawn: as many SVGs as index.html shows, each with its PNG. */
static size_t count_figures(const char *rep)
{
	char *html = e2e_slurp_in(rep, "index.html");
	size_t n = 0;
	for (const char *s = html; (s = strstr(s, "<img src=\"figures/")); s++) {
		char name[64], path[E2E_PATH];
		cr_assert_eq(sscanf(s, "<img src=\"figures/%63[^.].svg\"", name), 1);
		snprintf(path, sizeof path, "figures/%s.svg", name);
		free(e2e_slurp_in(rep, path));
		snprintf(path, sizeof path, "figures/%s.png", name);
		free(e2e_slurp_in(rep, path));
		n++;
	}
	free(html);
	return n;
}

/* Every marked figure's script draws the end line at x with the label
 * want, and its SVG shows the words; labels-time names it in a title; the
 * gauge figure labels its end with it; index.html says it too. */
static void assert_marks(const char *rep, const char *want, bool labels_time)
{
	char needle[256];
	for (size_t i = 0; i < sizeof marked / sizeof marked[0]; i++) {
		char path[E2E_PATH];
		snprintf(path, sizeof path, "figures/%s.gp", marked[i]);
		char *gp = e2e_slurp_in(rep, path);
		snprintf(needle, sizeof needle, "set label 100 '%s' at ", want);
		cr_assert(strstr(gp, needle), "%s lacks the end mark \"%s\":\n%s", path, want, gp);
		cr_assert(strstr(gp, "set arrow 100 from "), "%s draws no end line", path);
		free(gp);
		snprintf(path, sizeof path, "figures/%s.svg", marked[i]);
		char *svg = e2e_slurp_in(rep, path);
		cr_assert(strstr(svg, want), "%s does not show \"%s\"", path, want);
		free(svg);
	}
	char *gp = e2e_slurp_in(rep, "figures/gauges-1.gp");
	snprintf(needle, sizeof needle, "(end: %s)' noenhanced tc rgb ", want);
	cr_assert(strstr(gp, needle), "gauges-1.gp lacks \"%s\"", needle);
	free(gp);
	if (labels_time) {
		gp = e2e_slurp_in(rep, "figures/labels-time.gp");
		snprintf(needle, sizeof needle, "samples per second (%s)", want);
		cr_assert(strstr(gp, needle), "labels-time.gp lacks \"%s\"", needle);
		cr_assert(strstr(gp, "set arrow 100 from "), "labels-time draws no end line");
		free(gp);
	}
	char *html = e2e_slurp_in(rep, "index.html");
	cr_assert(strstr(html, want), "index.html does not say \"%s\"", want);
	cr_assert(!strstr(html, "No run left results"), "index.html compares nothing");
	free(html);
}

/* "1,258" */
static void thousands(char *buf, size_t n, json_int_t v)
{
	char d[32];
	int len = snprintf(d, sizeof d, "%lld", (long long)v);
	size_t k = 0;
	for (int i = 0; i < len && k + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = d[i];
	}
	buf[k] = '\0';
}

/* "<how> after 1,258 creates", the count being the run's totals.acked. */
static void after_creates(char *buf, size_t n, const char *out, const char *how)
{
	json_t *r = e2e_result(out);
	char count[32];
	thousands(count, sizeof count, e2e_jint(r, "totals.acked"));
	snprintf(buf, n, "%s after %s creates", how, count);
	json_decref(r);
}

/* Reports the run of e->out into rep (the test directory's "rep"): it
 * draws `figures` figures, each figure over time marked with want. */
static void report_marked(const struct e2e_env *e, char *rep, size_t figures, const char *want,
			  bool labels_time)
{
	report(e, e->out, e2e_path(e, rep, "rep"));
	cr_assert_eq(count_figures(rep), figures);
	assert_marks(rep, want, labels_time);
}

/* The table's row that starts with head holds cell. */
static void assert_row(const char *table, const char *head, const char *cell)
{
	const char *row = strstr(table, head);
	cr_assert_not_null(row, "no row %s in\n%s", head, table);
	size_t len = strcspn(row, "\n");
	const char *at = strstr(row, cell);
	cr_assert(at && at < row + len, "row %.*s lacks %s", (int)len, row, cell);
}

/* The last elapsed_s of a run's intervals.csv, as the kill mark gives it. */
static void last_elapsed(const char *out, char *buf, size_t n)
{
	char *csv = e2e_slurp_in(out, "intervals.csv");
	char *last = NULL;
	for (char *line = strtok(csv, "\n"); line; line = strtok(NULL, "\n"))
		last = line;
	cr_assert_not_null(last);
	double t = strtod(last, NULL);
	cr_assert_gt(t, 0, "intervals.csv's last row: %s", last);
	snprintf(buf, n, "%.*f", t < 10 ? 1 : 0, t);
	free(csv);
}

Test(report_ends, disk_full, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	/* Fill a 24 MiB file system at 400 creates/s of up to 64 KiB: a
	 * second or more, however fast the machine. */
	struct e2e_args a = {0};
	e2e_args_add(&a, QUOTA_RUN, "--size", "24M", "--", e.bin, "run", E2E_CI_INGEST, "--quiet",
		     "--out", e.out, "--set", "ops=0", "--set", "size_max=64k", "--set", "rate=400",
		     "--set", "interval=0.1", "--set", "probe_every=0", "--set", "jtl=on", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	if (p.code == EXIT_QUOTA_SETUP)
		cr_skip_test("bench/quota-run cannot mount a file system here: %s", p.err);
	e2e_assert_code(&p, EXIT_STOPPED);
	e2e_proc_free(&p);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "stop.class"), "disk-full");
	json_decref(r);
	char want[128];
	after_creates(want, sizeof want, e.out, "disk full");

	char rep[E2E_PATH];
	/* Decision, over time, over objects, percentiles, bytes, each label,
	 * gauges. */
	report_marked(&e, rep, 8, want, true);
	/* Every percentile drawn has its tick labelled, p95 too. */
	char *pgp = e2e_slurp_in(rep, "figures/latency-percentiles.gp");
	cr_assert(strstr(pgp, "'90%%' 10, '95%%' 20, '99%%' 100"), "no p95 tick:\n%s", pgp);
	free(pgp);
	/* A log axis reads at 1-2-5 steps, over a range of such steps. */
	char *gp = e2e_slurp_in(rep, "figures/latency-time.gp");
	cr_assert(strstr(gp, "'100' 100, '200' 200, '500' 500, '1k' 1000, '2k' 2000, '5k' 5000"),
		  "latency-time.gp has no 1-2-5 tics:\n%s", gp);
	double lo = 0, hi = 0;
	const char *range = strstr(gp, "set yrange [");
	cr_assert(range && sscanf(range, "set yrange [%lf:%lf]", &lo, &hi) == 2, "no y range:\n%s", gp);
	double step = lo / pow(10, floor(log10(lo) + 1e-9));
	cr_assert(lo > 0 && hi > lo && (fabs(step - 1) < 1e-6 || fabs(step - 2) < 1e-6 || fabs(step - 5) < 1e-6),
		  "y range [%g:%g] is not of 1-2-5 steps", lo, hi);
	free(gp);

	/* compare takes it in, with how it ended in the table. */
	char cmp[E2E_PATH];
	struct e2e_args c = {0};
	e2e_args_add(&c, RPBENCH, "compare", "--results", e.out, "--out", e2e_path(&e, cmp, "cmp"),
		     NULL);
	e2e_exec(&p, e.cap, &c);
	e2e_assert_code(&p, EXIT_STOPPED);
	cr_assert(strstr(p.err, "the table and figures show it up to its end"), "stderr: %s", p.err);
	char cell[256];
	snprintf(cell, sizeof cell, "| error:disk-full: %s", want);
	assert_row(p.out, "| stop reason ", cell);
	e2e_proc_free(&p);
	char *md = e2e_slurp_in(cmp, "compare.md");
	assert_row(md, "| stop reason ", cell);
	assert_row(md, "| runs ", " 0 of 1 |");
	free(md);
	cr_assert_eq(count_figures(e2e_path(&e, rep, "cmp/report")), 8);
	e2e_env_fini(&e);
}

/* A paced run stopped by sig once 400 creates were acknowledged (a
 * second at least, so several intervals). */
static void stopped_run(struct e2e_env *e, int sig, int want)
{
	struct e2e_proc p;
	e2e_spawn_ingest_until(&p, e, 400, "rate=400", "interval=0.1", "probe_every=0", NULL);
	if (sig == SIGKILL)
		e2e_kill_run(&p);
	else {
		cr_assert_eq(kill(p.pid, sig), 0);
		e2e_wait(&p);
	}
	e2e_assert_code(&p, want);
	e2e_proc_free(&p);
}

Test(report_ends, sigint, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	stopped_run(&e, SIGINT, EXIT_SIGNAL);
	char want[128];
	after_creates(want, sizeof want, e.out, "stopped by SIGINT");
	char rep[E2E_PATH];
	/* No samples.jtl: all but labels-time. */
	report_marked(&e, rep, 7, want, false);
	e2e_env_fini(&e);
}

Test(report_ends, sigkill, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	stopped_run(&e, SIGKILL, 128 + SIGKILL);
	char t[32], want[128];
	last_elapsed(e.out, t, sizeof t);
	snprintf(want, sizeof want, "killed: results up to t = %s s", t);
	char rep[E2E_PATH];
	/* From intervals.csv alone: no percentiles and no decision figure,
	 * which result.json would have held, and no probes. */
	report_marked(&e, rep, 5, want, false);
	char *html = e2e_slurp_in(rep, "index.html");
	cr_assert(strstr(html, "a killed run has none"), "index.html does not say why percentiles are missing");
	/* No result.json names the labels: the pattern's own main label. */
	cr_assert(strstr(html, "Main label: <code>create</code>"), "index.html names no main label");
	free(html);
	e2e_env_fini(&e);
}

#endif

/* rpbench itself is built only beside a real backend. */
#if defined(RPB_HAVE_LEVELDB) || defined(RPB_HAVE_SQLITE) || defined(RPB_HAVE_POSTGRES)

/* The null backend stores nothing and its latencies round to 0 µs: an
 * all-zero series is drawn or named, never a gnuplot failure; and a run
 * of fewer than 3 intervals gets a note, never a line of one dot. */
Test(report_ends, null_compare, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", E2E_CI_INGEST, "--backends", "null", "--out", e.out,
		     "--quiet", NULL);
	e2e_exec_ok(e.cap, &a);
	char rep[E2E_PATH], path[E2E_PATH];
	e2e_path(&e, rep, "out/report");
	char *html = e2e_slurp_in(rep, "index.html");
	snprintf(path, sizeof path, "%s/data/throughput-time-null.dat", rep);
	char *dat = e2e_slurp(path, NULL);
	size_t rows = 0;
	for (const char *s = dat; s && *s; s++)
		rows += *s == '\n';
	rows -= rows ? 1 : 0; /* the header */
	const char *img = "<img src=\"figures/throughput-time.svg\"";
	if (rows >= 3)
		cr_assert(strstr(html, img), "throughput-time has %zu rows but no figure", rows);
	else
		cr_assert(!strstr(html, img) && strstr(html, "</b>: too few points, under 3 intervals.csv rows a run"),
			  "throughput-time: %zu rows, drawn or without a note", rows);
	/* What has nothing to draw says so in one line, not a block each:
	 * no run wrote samples.jtl, so labels-time is in it. */
	cr_assert_null(strstr(html, "not drawn"), "index.html still says \"not drawn\"");
	const char *line = strstr(html, "<p class=\"note skipped\">Nothing to draw: ");
	const char *why = line ? strstr(line, "no plotted run has samples.jtl") : NULL;
	cr_assert(why && why < strstr(line, "</p>"),
		  "no one line names the figures with nothing to draw");
	free(dat);
	free(html);
	e2e_env_fini(&e);
}

#endif
