/* Text from a results directory on its way into the report: the one
 * gnuplot escape (checked by its form and by gnuplot itself, which must
 * print the text back and run nothing), and the vocabularies a result's
 * strings are checked against. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_util.h"
#include "gnuplot_text.h"
#include "result_check.h"
#include "text.h"

/* Texts that would be code in a gnuplot script if they were not quoted:
 * quotes of both kinds, a backslash (also at the end, where it would
 * continue the line), line breaks, system(), backquotes, @macros and a
 * comment. */
static const char *const hostile[] = {
	"plain",
	"it's",
	"'';system(\"touch PWNED\")#",
	"\";system(\"touch PWNED\")#",
	"back\\slash\\",
	"line\nsystem(\"touch PWNED\")",
	"cr\rlf",
	"`touch PWNED`",
	"@PWNED @macro",
	"x' . system('touch PWNED') . '",
	"tab\tand \x1b[31mescape",
	"",
};

/* What the quoted text must print as: quotes shown as U+2019, other bytes
 * outside printable ASCII as '?'. */
static void printed_form(const char *s, char *out, size_t n)
{
	size_t k = 0;
	for (; *s && k + 4 < n; s++)
		if (*s == '\'')
			k += (size_t)snprintf(out + k, n - k, "\u2019");
		else
			out[k++] = *s >= ' ' && *s <= '~' ? *s : '?';
	out[k] = '\0';
}

Test(report_text, gp_quote_form)
{
	char buf[256];
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		const char *q = rpb_gp_quote(buf, sizeof buf, hostile[i]);
		size_t len = strlen(q);
		cr_assert_geq(len, 2);
		cr_assert_eq(q[0], '\'');
		cr_assert_eq(q[len - 1], '\'');
		/* Inside: no quote, and nothing but printable ASCII and U+2019. */
		for (size_t k = 1; k + 1 < len; k++) {
			if (!memcmp(q + k, "\u2019", 3)) {
				k += 2;
				continue;
			}
			cr_assert(q[k] >= ' ' && q[k] <= '~' && q[k] != '\'', "byte %zu of %s", k, q);
		}
	}
	cr_assert_str_eq(rpb_gp_quote(buf, sizeof buf, "it's"), "'it\u2019s'");
	cr_assert_str_eq(rpb_gp_quote(buf, sizeof buf, NULL), "''");
}

Test(report_text, gp_quote_cuts_but_closes)
{
	char buf[8];
	/* A quote that does not fit whole is left out, the closing one never. */
	cr_assert_str_eq(rpb_gp_quote(buf, sizeof buf, "abc'efgh"), "'abc'");
	cr_assert_str_eq(rpb_gp_quote(buf, sizeof buf, "abcdefgh"), "'abcde'");
	char tiny[3];
	cr_assert_str_eq(rpb_gp_quote(tiny, sizeof tiny, "abc"), "''");
}

/* gnuplot itself reads each quoted text back as the same text and runs
 * nothing: no PWNED file appears in its working directory. */
Test(report_text, gp_quote_is_inert_in_gnuplot, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char script[E2E_PATH], want[E2E_PATH], path[E2E_PATH];
	e2e_path(&e, script, "t.gp");
	e2e_path(&e, want, "want.txt");
	FILE *f = fopen(script, "w"), *w = fopen(want, "w");
	cr_assert(f && w);
	fputs("PWNED = 'macro expanded'\nset print '-'\n", f);
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		char q[256], p[256];
		fprintf(f, "print %s\n", rpb_gp_quote(q, sizeof q, hostile[i]));
		printed_form(hostile[i], p, sizeof p);
		fprintf(w, "%s\n", p);
	}
	fclose(f);
	fclose(w);
	struct e2e_args a = {0};
	e2e_args_add(&a, "sh", "-c", "cd \"$0\" && exec gnuplot t.gp", e.tmp, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	char *expected = e2e_slurp(want, NULL);
	cr_assert_str_eq(p.out, expected, "gnuplot printed the quoted texts as:\n%s", p.out);
	cr_assert_not(e2e_exists(e2e_path(&e, path, "PWNED")), "gnuplot ran a quoted command");
	free(expected);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(report_text, names_and_text)
{
	cr_assert(rpb_cmp_name_ok("probe-create"));
	cr_assert(rpb_cmp_name_ok("getFileId"));
	cr_assert(rpb_cmp_name_ok("p99.9_x-1"));
	cr_assert_not(rpb_cmp_name_ok(""));
	cr_assert_not(rpb_cmp_name_ok(NULL));
	cr_assert_not(rpb_cmp_name_ok("a b"));
	cr_assert_not(rpb_cmp_name_ok("a/b"));
	cr_assert_not(rpb_cmp_name_ok("';system(\"x\")#"));
	char long_name[66];
	memset(long_name, 'a', 65);
	long_name[65] = '\0';
	cr_assert_not(rpb_cmp_name_ok(long_name));
	long_name[64] = '\0';
	cr_assert(rpb_cmp_name_ok(long_name));

	cr_assert(rpb_text_printable("PostgreSQL 15.4 (Debian 15.4-1)", 127));
	cr_assert(rpb_text_printable("données µs ✓", 64));
	cr_assert_not(rpb_text_printable("a\nb", 64));
	cr_assert_not(rpb_text_printable("\x1b[2J", 64));
	cr_assert_not(rpb_text_printable("c1 \xc2\x9b control", 64));
	cr_assert_not(rpb_text_printable("bad \xff utf-8", 64));
	cr_assert_not(rpb_text_printable("overlong \xc0\xaf", 64));
	cr_assert_not(rpb_text_printable("cut \xe2\x9c", 64));
	cr_assert_not(rpb_text_printable("", 64));
	cr_assert_not(rpb_text_printable("toolong", 3));

	cr_assert(rpb_cmp_text_ok("ci-ingest.ini", 128));
	cr_assert(rpb_cmp_text_ok("x';system(\"id\")#", 128), "quotes are text; gnuplot gets them quoted");
	cr_assert_not(rpb_cmp_text_ok("a | b", 128), "| would split a Markdown table cell");
	cr_assert_not(rpb_cmp_text_ok("<script>", 128));
	cr_assert_not(rpb_cmp_text_ok("`code`", 128));
}

/* End to end: a workload file whose name is plain text but gnuplot code
 * (quotes, system(), a comment) reaches the figures' titles quoted: the
 * report is drawn and nothing runs. */
#ifdef RPB_HAVE_SQLITE
Test(report_text, workload_name_drawn_inert, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char workload[E2E_PATH], report[E2E_PATH], script[E2E_PATH], pwned[E2E_PATH];
	e2e_path(&e, workload, "x';system(\"touch${IFS}PWNED\")#.ini");
	char *ini = e2e_slurp(E2E_CI_INGEST, NULL);
	cr_assert_not_null(ini);
	e2e_write_file(workload, ini);
	free(ini);
	struct e2e_args a;
	e2e_run_args(&a, &e, workload, e.out);
	e2e_args_add(&a, "--set", "ops=50", "--set", "probe_every=10", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);

	e2e_path(&e, report, "report");
	struct e2e_args r = {0};
	e2e_args_add(&r, RPB_BINARY_DIR "/bin/rpbench", "report", e.out, "--out", report, NULL);
	e2e_exec(&p, e.cap, &r);
	e2e_assert_code(&p, 0);
	e2e_assert_quiet(&p);
	e2e_proc_free(&p);
	e2e_path(&e, script, "report/figures/latency-percentiles.gp");
	char *gp = e2e_slurp(script, NULL);
	cr_assert_not_null(gp);
	cr_assert(strstr(gp, "set title 'Latency by percentile: ingest (x\u2019;system(\"touch${IFS}PWNED\")#.ini), profile durable, sync none' noenhanced"),
		  "the title, quoted:\n%s", gp);
	free(gp);
	e2e_path(&e, pwned, "report/PWNED");
	cr_assert_not(e2e_exists(pwned), "gnuplot ran the workload's name");
	e2e_env_fini(&e);
}
#endif
