/* Every program's --help (and each command's), the man pages written from
 * the same source, and the command line's short options and workload names. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_util.h"

static const char *const programs[] = {"rpbench-null", "rpbench-leveldb", "rpbench-sqlite",
				       "rpbench-postgres", "rpbench", "calibrate-leveldb",
				       "calibrate-sqlite", "calibrate-postgres"};

/* Runs BIN/program with the arguments; asserts exit 0, text on stdout
 * and no line wider than 100 columns. */
static void help_fits(const char *cap, const char *program, const char *a1, const char *a2)
{
	char bin[E2E_PATH];
	snprintf(bin, sizeof bin, "%s/bin/%s", RPB_BINARY_DIR, program);
	if (access(bin, X_OK) != 0)
		return; /* switched off in this build */
	struct e2e_args a = {0};
	e2e_args_add(&a, bin, a1, a2, NULL);
	struct e2e_proc p;
	e2e_exec(&p, cap, &a);
	e2e_assert_code(&p, 0);
	cr_assert(strlen(p.out) > 200, "%s: help too short: %s", p.cmd, p.out);
	cr_assert(strstr(p.out, "usage: "), "%s: no usage line: %s", p.cmd, p.out);
	int lineno = 1;
	for (const char *line = p.out; *line; lineno++) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		cr_assert_leq(n, 100, "%s: line %d is %zu columns: %.*s", p.cmd, lineno, n, (int)n, line);
		line += n + (nl != NULL);
	}
	e2e_proc_free(&p);
}

Test(e2e_help, every_help_fits_100_columns, .fini = e2e_cleanup)
{
	setenv("COLUMNS", "100", 1); /* the widest terminal this layout is checked for */
	struct e2e_env e;
	e2e_env_init(&e, "null");
	for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
		help_fits(e.cap, programs[i], "--help", NULL);
		help_fits(e.cap, programs[i], "-h", NULL);
	}
	help_fits(e.cap, "rpbench-sqlite", "run", "--help");
	help_fits(e.cap, "rpbench", "compare", "--help");
	help_fits(e.cap, "rpbench", "report", "-h");
	help_fits(e.cap, "rpbench", "help", "compare");
	help_fits(e.cap, "rpbench", "help", "report");
	e2e_env_fini(&e);
}

/* The longest line of a help's prose: rpbench compare's has no table. */
static size_t widest(const char *cap, const char *columns, const char *a1, const char *a2)
{
	if (columns)
		setenv("COLUMNS", columns, 1);
	else
		unsetenv("COLUMNS");
	e2e_need_rpbench();
	struct e2e_args a = {0};
	e2e_args_add(&a, RPB_BINARY_DIR "/bin/rpbench", a1, a2, NULL);
	char *out = e2e_exec_expect(cap, &a, 0);
	size_t most = 0;
	for (const char *line = out; *line;) {
		size_t n = strcspn(line, "\n");
		/* The usage lines and the examples are commands, shown whole. */
		if (n > most && strncmp(line, "  rpbench ", 10) && strncmp(line, "usage: ", 7) &&
		    strncmp(line, "       rpbench", 14) && strncmp(line, "                ", 16))
			most = n;
		line += n + (line[n] == '\n');
	}
	free(out);
	return most;
}

/* Text is wrapped to COLUMNS, clamped to 40..200, else to 80. */
Test(e2e_help, width_follows_columns, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	size_t dflt = widest(e.cap, NULL, "compare", "--help");
	cr_assert(dflt <= 80 && dflt > 70, "without COLUMNS the widest line is %zu", dflt);
	cr_assert_eq(widest(e.cap, "abc", "compare", "--help"), dflt, "COLUMNS=abc is not 80");
	size_t narrow = widest(e.cap, "60", "compare", "--help");
	cr_assert(narrow <= 60 && narrow > 50, "COLUMNS=60: widest line %zu", narrow);
	size_t least = widest(e.cap, "5", "compare", "--help");
	cr_assert(least <= 40 && least > 30, "COLUMNS=5 is not clamped to 40: %zu", least);
	size_t wide = widest(e.cap, "1000", "compare", "--help");
	cr_assert(wide <= 200 && wide > 100, "COLUMNS=1000 is not clamped to 200: %zu", wide);
	unsetenv("COLUMNS");
	e2e_env_fini(&e);
}

/* --help SECTION: [run], a pattern's section, a backend's tuning options;
 * an unknown section is one line naming the known ones, exit 1. */
Test(e2e_help, help_sections, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "--help", "ingest", NULL);
	char *out = e2e_exec_expect(e.cap, &a, 0);
	cr_assert(strstr(out, "[ingest]  (the section selects the ingest pattern)"), "%s", out);
	cr_assert(!strstr(out, "[run]") && !strstr(out, "usage:"), "more than [ingest]: %s", out);
	free(out);
	a.n = 0;
	e2e_args_add(&a, e.bin, "--help", "run", NULL);
	out = e2e_exec_expect(e.cap, &a, 0);
	cr_assert(strstr(out, "[run]") && strstr(out, "threads") && !strstr(out, "[ingest]"), "%s", out);
	free(out);
	a.n = 0;
	e2e_args_add(&a, e.bin, "--help", "sqlite", NULL);
	out = e2e_exec_expect(e.cap, &a, 0);
	cr_assert(strstr(out, "[sqlite] tuning options"), "%s", out);
	free(out);
	a.n = 0;
	e2e_args_add(&a, e.bin, "--help", "nope", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 1, "no help section 'nope'; the sections: run, ingest, metadata", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* The man pages: EXAMPLES, and an EXIT STATUS block per command. */
Test(e2e_help, man_pages_have_examples_and_exit_status, .fini = e2e_cleanup)
{
	e2e_need_rpbench();
	char *page = e2e_slurp(RPB_BINARY_DIR "/man/rpbench.1", NULL);
	cr_assert_not_null(page);
	cr_assert(strstr(page, ".SH EXAMPLES") && strstr(page, "rpbench compare ci\\-ingest"), "%s", page);
	const char *st = strstr(page, ".SH EXIT STATUS");
	cr_assert(st && strstr(st, "\\fBcompare\\fR") && strstr(st, "\\fBreport\\fR") &&
		  strstr(st, "\\fBsweep\\fR"), "%s", page);
	free(page);
	if (!e2e_exists(RPB_BINARY_DIR "/man/rpbench-sqlite.1"))
		return;
	page = e2e_slurp(RPB_BINARY_DIR "/man/rpbench-sqlite.1", NULL);
	cr_assert(strstr(page, ".SH EXAMPLES") && strstr(page, "rpbench\\-sqlite verify res"), "%s", page);
	st = strstr(page, ".SH EXIT STATUS");
	cr_assert(st && strstr(st, "\\fBrun, load\\fR") && strstr(st, "\\fBverify\\fR"), "%s", page);
	free(page);
}

/* The usage lines name only the store options the backend takes. */
Test(e2e_help, usage_shows_the_backends_location_options, .fini = e2e_cleanup)
{
	static const struct {
		const char *program, *has, *lacks;
	} cases[] = {
		{"rpbench-sqlite", "[--dir PATH]", "--dsn"},
		{"rpbench-leveldb", "[--dir PATH]", "--schema"},
		{"rpbench-postgres", "[--dsn DSN] [--schema NAME]", "--dir"},
		{"rpbench-null", "run WORKLOAD", "--dir"},
	};
	struct e2e_env e;
	e2e_env_init(&e, "null");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char bin[E2E_PATH];
		snprintf(bin, sizeof bin, "%s/bin/%s", RPB_BINARY_DIR, cases[i].program);
		if (access(bin, X_OK) != 0)
			continue;
		struct e2e_args a = {0};
		e2e_args_add(&a, bin, "--help", NULL);
		struct e2e_proc p;
		e2e_exec(&p, e.cap, &a);
		e2e_assert_code(&p, 0);
		char *usage = strstr(p.out, "usage: "), *usage_end = usage ? strstr(usage, "\n\n") : NULL;
		cr_assert_not_null(usage_end, "%s: no usage lines: %s", bin, p.out);
		*usage_end = '\0';
		cr_assert(strstr(usage, cases[i].has), "%s usage lacks %s:\n%s", bin, cases[i].has, usage);
		cr_assert_null(strstr(usage, cases[i].lacks), "%s usage names %s:\n%s", bin,
			       cases[i].lacks, usage);
		e2e_proc_free(&p);
	}
	e2e_env_fini(&e);
}

/* build/man holds a page per program and rpbench-workload(5), each a man
 * page that lists the options --help lists. */
Test(e2e_help, man_pages_come_from_the_help)
{
	static const char *const pages[] = {"rpbench-null.1", "rpbench-sqlite.1", "rpbench.1",
					    "rpbench-workload.5"};
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
		char path[E2E_PATH];
		snprintf(path, sizeof path, "%s/man/%s", RPB_BINARY_DIR, pages[i]);
		if (strstr(pages[i], "sqlite") && access(RPB_BINARY_DIR "/bin/rpbench-sqlite", X_OK) != 0)
			continue;
		if (!strcmp(pages[i], "rpbench.1") && access(RPB_BINARY_DIR "/bin/rpbench", X_OK) != 0)
			continue;
		size_t len;
		char *text = e2e_slurp(path, &len);
		cr_assert_not_null(text, "%s is missing", path);
		cr_assert(!strncmp(text, ".TH \"", 5), "%s does not start with .TH", path);
		cr_assert(strstr(text, "\n.SH NAME\n"), "%s has no NAME", path);
		if (!strcmp(pages[i], "rpbench-workload.5")) {
			cr_assert(strstr(text, "\\fBthreads = 1\\fR"), "the [run] table: %s", path);
			cr_assert(strstr(text, "\\fBsize_max = 4096\\fR"), "a pattern's table: %s", path);
		} else {
			cr_assert(strstr(text, "\n.SH SYNOPSIS\n"), "%s has no SYNOPSIS", path);
			cr_assert(strstr(text, "\\-\\-help"), "%s lacks --help", path);
		}
		free(text);
	}
}

/* -j, -s, -o and -q do what --set run.threads=, --set, --out and --quiet
 * do, and a workload is found by its name in share/rpbench/workloads. */
Test(e2e_help, short_options_and_workload_by_name, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "run", "bench-null", "-j", "3", "-s", "ops=50", "-s", "interval=1",
		      "-o", e.out, "-q", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	cr_assert(!strncmp(p.out, "summary = ", 10) && strchr(p.out, '\n') == p.out + strlen(p.out) - 1,
		  "-q prints the final summary line alone: %s", p.out);
	json_t *r = e2e_result(e.out);
	json_t *opts = json_object_get(json_object_get(r, "manifest"), "options");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "run.threads")), "3");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "run.ops")), "50");
	const char *workload = e2e_jstr(r, "manifest.workload");
	cr_assert(strstr(workload, "/data/workloads/bench-null.ini"), "resolved to %s", workload);
	json_decref(r);
	e2e_proc_free(&p);

	struct e2e_args bad = {0};
	e2e_args_add(&bad, e.bin, "run", "bench-null", "-j", "0", "-o", e.out, NULL);
	e2e_exec(&p, e.cap, &bad);
	e2e_assert_refusal(&p, 1, "[run] threads = 0 is out of range", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* compare --start-postgres starts share/rpbench/scripts/pg-throwaway beside
 * the program (build/share/rpbench in a build tree; no source path is
 * compiled in). Needs PostgreSQL's server programs, as the script does. */
Test(e2e_help, start_postgres_finds_pg_throwaway_beside_the_program, .fini = e2e_cleanup)
{
	glob_t g;
	bool initdb = glob("/usr/lib/postgresql/*/bin/initdb", 0, NULL, &g) == 0;
	globfree(&g);
	if (!initdb || access(RPB_BINARY_DIR "/bin/rpbench-postgres", X_OK) != 0)
		cr_skip_test("no PostgreSQL server programs or no postgres backend in this build");
	cr_assert(e2e_exists(RPB_BINARY_DIR "/share/rpbench/scripts/pg-throwaway"));
	unsetenv("RPB_PG_THROWAWAY"); /* the lookup, not the override */
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char out[E2E_PATH], run[E2E_PATH];
	e2e_path(&e, out, "cmp");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPB_BINARY_DIR "/bin/rpbench", "compare", E2E_CI_INGEST, "-b", "postgres",
		      "--start-postgres", "-s", "ops=20", "-o", out, "-q", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	snprintf(run, sizeof run, "%s/runs/postgres/result.json", out);
	cr_assert(e2e_exists(run), "no postgres run in %s", out);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* --out as --help describes it: a directory that holds other files is
 * used and they stay; one that holds a result file is refused. */
Test(e2e_help, out_is_what_the_help_says, .fini = e2e_cleanup)
{
	setenv("COLUMNS", "200", 1); /* the phrase on one line */
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "run", "--help", NULL);
	char *help = e2e_exec_expect(e.cap, &a, 0);
	cr_assert(strstr(help, "results directory: new, or one that holds none of rpbench's"),
		  "%s", help);
	free(help);
	char path[E2E_PATH];
	cr_assert_eq(mkdir(e.out, 0777), 0);
	FILE *f = fopen(e2e_path(&e, path, "out/notes.txt"), "w");
	cr_assert_not_null(f);
	fputs("mine\n", f);
	fclose(f);
	a.n = 0;
	e2e_args_add(&a, e.bin, "run", "bench-null", "-s", "ops=5", "-o", e.out, "-q", NULL);
	e2e_exec_ok(e.cap, &a);
	char *kept = e2e_slurp(path, NULL);
	cr_assert_str_eq(kept, "mine\n");
	free(kept);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 2, "result.json", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* compare's --backends and sweep's --backend name every backend of the
 * build (build/backends.txt), from the registry, not a list in the help. */
Test(e2e_help, compare_and_sweep_name_every_backend, .fini = e2e_cleanup)
{
	/* A build of the null backend alone has no rpbench (nothing to compare). */
	if (access(RPBENCH, X_OK) != 0)
		cr_skip_test("%s is not built: this build has only the null backend", RPBENCH);
	char *list = e2e_slurp(RPB_BINARY_DIR "/backends.txt", NULL);
	cr_assert_not_null(list, "no backends.txt in the build");
	struct e2e_env e;
	e2e_env_init(&e, "null");
	static const char *const verbs[][2] = {{"compare", "  -b, --backends LIST"}, {"sweep", "  --backend B  "}};
	for (size_t v = 0; v < 2; v++) {
		struct e2e_args a = {0};
		e2e_args_add(&a, RPB_BINARY_DIR "/bin/rpbench", verbs[v][0], "--help", NULL);
		struct e2e_proc p;
		e2e_exec(&p, e.cap, &a);
		e2e_assert_code(&p, 0);
		char *item = strstr(p.out, verbs[v][1]);
		cr_assert_not_null(item, "rpbench %s --help has no %s:\n%s", verbs[v][0], verbs[v][1], p.out);
		char *end = strstr(item, "\n  -");
		if (end)
			*end = '\0';
		for (const char *line = list; *line;) {
			char name[64];
			snprintf(name, sizeof name, "%.*s", (int)strcspn(line, " \n"), line);
			line += strcspn(line, "\n");
			line += *line == '\n';
			cr_assert(strstr(item, name), "rpbench %s --help: %s does not name %s: %s", verbs[v][0],
				  verbs[v][1], name, item);
		}
		e2e_proc_free(&p);
	}
	free(list);
	e2e_env_fini(&e);
}
