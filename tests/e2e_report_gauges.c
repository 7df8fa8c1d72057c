/* rpbench report draws each run's backend gauges (intervals.csv gauge_
 * columns) with the end of the run and, for a run that ended on an error,
 * its stop reason; and a gauge column named to run a command is refused
 * before anything is written. Checked on the scripts, data files and
 * index.html, not on pixels. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_util.h"

#ifdef RPB_HAVE_SQLITE


/* A sqlite ingest run into out with 100 ms intervals (extra --set up to
 * NULL), asserting exit code want. */
static void gauge_run(const struct e2e_env *e, const char *out, int want, ...)
	__attribute__((sentinel));
static void gauge_run(const struct e2e_env *e, const char *out, int want, ...)
{
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, out);
	e2e_args_add(&a, "--set", "threads=1", "--set", "ops=3000", "--set", "interval=100ms", NULL);
	va_list ap;
	va_start(ap, want);
	e2e_args_setv(&a, ap);
	va_end(ap);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
	e2e_assert_code(&p, want);
	e2e_proc_free(&p);
}

static void report(struct e2e_proc *p, const struct e2e_env *e, const char *run, const char *out)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "report", run, "--out", out, NULL);
	e2e_exec(p, e->cap, &a);
}

/* The gauge figure of the report's only run: its files, its panels, the
 * end mark (with want in its label) and index.html's reference. */
static void assert_gauge_figure(const char *rep, const char *want)
{
	char *gp = e2e_slurp_in(rep, "figures/gauges-1.gp");
	char *dat = e2e_slurp_in(rep, "data/gauges-1.dat");
	char *html = e2e_slurp_in(rep, "index.html");
	free(e2e_slurp_in(rep, "figures/gauges-1.svg"));
	free(e2e_slurp_in(rep, "figures/gauges-1.png"));
	cr_assert(strstr(dat, "# elapsed_s, then each gauge (in its unit): wal_bytes (MiB) "
			      "checkpoints checkpoint_s (s)\n"),
		  "data header: %.200s", dat);
	for (const char *const *t = (const char *const[]){"set ylabel 'MiB'\nplot 'data/gauges-1.dat' using 1:2 ",
							  "set title 'checkpoint_s' noenhanced tc default\nset ylabel 's'",
							  "'data/gauges-1.dat' using 1:4", "set arrow 1 from ",
							  want, NULL};
	     *t; t++)
		cr_assert(strstr(gp, *t), "gauges-1.gp lacks %s:\n%s", *t, gp);
	cr_assert(strstr(html, "<img src=\"figures/gauges-1.svg\""), "index.html has no gauge figure");
	free(gp), free(dat), free(html);
}

Test(report_gauges, figure, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char run[E2E_PATH], rep[E2E_PATH];
	gauge_run(&e, e2e_path(&e, run, "ok"), 0, NULL);
	struct e2e_proc p;
	report(&p, &e, run, e2e_path(&e, rep, "rep-ok"));
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	assert_gauge_figure(rep, "set title 'wal_bytes (end: completed)' noenhanced tc default\n");

	/* A run the reaper stopped: its gauges are drawn up to its end,
	 * marked with its stop. */
	char reap[64];
	snprintf(reap, sizeof reap, "txn_timeout=%u", (unsigned)rpbt_limit_s(1000));
	gauge_run(&e, e2e_path(&e, run, "stopped"), 3, reap, "inject=stall:3600000@2000", NULL);
	report(&p, &e, run, e2e_path(&e, rep, "rep-stopped"));
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	assert_gauge_figure(rep, "set title 'wal_bytes (end: transaction timeout after ");
	char *html = e2e_slurp_in(rep, "index.html");
	cr_assert(strstr(html, "which stopped: error txn-timeout"), "index.html names no stop reason");
	free(html);
	e2e_env_fini(&e);
}

Test(report_gauges, hostile_column_refused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char run[E2E_PATH], rep[E2E_PATH], pwned[E2E_PATH];
	gauge_run(&e, e2e_path(&e, run, "r"), 0, "ops=200", NULL);
	char path[E2E_PATH * 2];
	snprintf(path, sizeof path, "%s/intervals.csv", run);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text);
	char *nl = strchr(text, '\n');
	cr_assert_not_null(nl);
	char *bad = malloc(strlen(text) + 64);
	snprintf(bad, strlen(text) + 64, "%.*s,gauge_';system(\"touch PWNED\")#%s", (int)(nl - text),
		 text, nl);
	e2e_write_file(path, bad);
	free(bad), free(text);

	/* gnuplot would run in the report directory; rpbench in the test's. */
	cr_assert_eq(chdir(e.tmp), 0);
	struct e2e_proc p;
	report(&p, &e, run, e2e_path(&e, rep, "rep"));
	e2e_assert_refusal(&p, 1, "r/intervals.csv line 1: column 15 is not a gauge",
			   "give the results directory of an rpbench run", NULL);
	e2e_proc_free(&p);
	cr_assert(!e2e_exists(rep), "a refused report created %s", rep);
	cr_assert(!e2e_exists(e2e_path(&e, pwned, "PWNED")), "the gauge name ran a command");
	e2e_env_fini(&e);
}

#endif
