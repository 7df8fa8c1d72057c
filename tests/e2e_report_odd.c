/* rpbench report on odd but harmless data: a row of intervals.csv,
 * probe.csv or samples.jtl that holds a value no figure can use (NaN, inf,
 * 1e308, a timestamp of -1e20, a label the run does not have, a quoted
 * label with a line break) is left out of every figure and counted; the
 * report is written whole and rpbench exits 4 (data), not 2 (environment). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

#ifdef RPB_HAVE_SQLITE

struct odd_case {
	const char *name, *file;
	int line, col;       /* 1-based; line 1 is the header */
	const char *value;   /* what the field becomes */
	const char *reason;  /* as the report counts it */
};

static const struct odd_case cases[] = {
	{"jtl-label-not-in-result", "samples.jtl", 4, 3, "bogus", "label not in result.json"},
	{"jtl-label-with-newline", "samples.jtl", 4, 3, "\"cre\nate\"", "label not in result.json"},
	{"jtl-elapsed-nan", "samples.jtl", 4, 2, "NaN", "not finite"},
	{"jtl-elapsed-inf", "samples.jtl", 4, 2, "inf", "not finite"},
	{"jtl-elapsed-1e308", "samples.jtl", 4, 2, "1e308", "out of range"},
	{"jtl-timestamp-minus-1e20", "samples.jtl", 2, 1, "-1e20", "out of range"},
	{"intervals-nan", "intervals.csv", 3, 6, "nan", "not finite"},
	{"intervals-inf", "intervals.csv", 3, 3, "inf", "not finite"},
	{"intervals-1e308", "intervals.csv", 3, 6, "1e308", "out of range"},
	{"intervals-elapsed-minus-1e20", "intervals.csv", 3, 1, "-1e20", "out of range"},
	{"intervals-not-a-number", "intervals.csv", 3, 2, "12abc", "not a number"},
	{"probe-latency-1e308", "probe.csv", 3, 5, "1e308", "out of range"},
	{"probe-count-nan", "probe.csv", 3, 7, "nan", "not finite"},
	{"probe-elapsed-minus-1e20", "probe.csv", 3, 1, "-1e20", "out of range"},
};

#define NCASES (sizeof cases / sizeof cases[0])

static void free_params(struct criterion_test_params *crp)
{
	cr_free(crp->params);
}

/* Indexes into cases: the test runs in a process of its own, where the
 * strings' addresses may differ. */
ParameterizedTestParameters(report_odd, skipped_and_counted)
{
	size_t *idx = cr_malloc(NCASES * sizeof *idx);
	for (size_t i = 0; i < NCASES; i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, NCASES, free_params);
}

/* Replaces field col of line n of path (a plain comma split: these lines
 * hold no quoted comma before the field). */
static void set_field(const char *path, int n, int col, const char *value)
{
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "%s", path);
	size_t cap = strlen(text) + strlen(value) + 1;
	char *out = malloc(cap), *line = text;
	size_t len = 0;
	for (int i = 1; line && *line; i++) {
		char *nl = strchr(line, '\n');
		size_t ll = nl ? (size_t)(nl - line) + 1 : strlen(line);
		if (i != n) {
			memcpy(out + len, line, ll);
			len += ll;
		} else {
			char *start = line;
			for (int c = 1; c < col; c++)
				start = strchr(start, ',') + 1;
			char *end = start + strcspn(start, ",\n");
			len += (size_t)snprintf(out + len, cap - len, "%.*s%s", (int)(start - line), line,
						value);
			memcpy(out + len, end, (size_t)(line + ll - end));
			len += (size_t)(line + ll - end);
		}
		line += ll;
	}
	out[len] = '\0';
	e2e_write_file(path, out);
	free(out), free(text);
}

ParameterizedTest(size_t *i, report_odd, skipped_and_counted, .fini = e2e_cleanup)
{
	const struct odd_case *c = &cases[*i];
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	/* Rows enough for every figure: jtl on, probes, about ten intervals. */
	e2e_run_ci(&e, "--set", "ops=0", "--set", "duration=1s", "--set", "jtl=on", "--set", "probe_every=5", "--set",
		   "interval=0.1", NULL);
	char path[E2E_PATH * 2], rep[E2E_PATH];
	snprintf(path, sizeof path, "%s/%s", e.out, c->file);
	set_field(path, c->line, c->col, c->value);

	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "report", e.out, "--out", e2e_path(&e, rep, "rep"), "--quiet",
		     NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	char want[256];
	snprintf(want, sizeof want, "%s 1 row skipped: %s", c->file, c->reason);
	e2e_assert_refusal(&p, 4, "1 row of the runs' data could not be plotted", want,
			   "index.html counts them", NULL);
	e2e_proc_free(&p);
	char *html = e2e_slurp_in(rep, "index.html");
	cr_assert(strstr(html, want), "%s: index.html does not count the row (%s)", c->name, want);
	cr_assert(strstr(html, "<img src=\"figures/throughput-time.svg\""), "%s: no figure: %.3000s", c->name, strstr(html, "<h2>Figures"));
	free(html);
	free(e2e_slurp_in(rep, "figures/throughput-time.svg"));
	free(e2e_slurp_in(rep, !strcmp(c->file, "probe.csv") ? "figures/probe-objects.svg"
			  : !strcmp(c->file, "samples.jtl") ? "figures/labels-time.svg"
							     : "figures/latency-time.svg"));
	e2e_env_fini(&e);
}

/* The same run untouched: nothing counted, exit 0. */
Test(report_odd, clean_run_counts_nothing, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	e2e_run_ci(&e, "--set", "ops=0", "--set", "duration=1s", "--set", "jtl=on", "--set", "probe_every=5", "--set",
		   "interval=0.1", NULL);
	char rep[E2E_PATH];
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "report", e.out, "--out", e2e_path(&e, rep, "rep"), "--quiet",
		     NULL);
	e2e_exec_ok(e.cap, &a);
	char *html = e2e_slurp_in(rep, "index.html");
	cr_assert_null(strstr(html, "row skipped"));
	free(html);
	e2e_env_fini(&e);
}

#endif
