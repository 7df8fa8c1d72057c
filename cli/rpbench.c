/* rpbench: the side-by-side answer. `compare` runs the per-backend binaries
 * on one workload and tabulates them; `report` draws the figures and the
 * HTML page of result directories. */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backends.h"
#include "baseline.h"
#include "cmdline.h"
#include "compare.h"
#include "compare_exec.h"
#include "compare_stores.h"
#include "data_skips.h"
#include "dsn.h"
#include "help.h"
#include "paths.h"
#include "report.h"
#include "scale.h"
#include "servers_plan.h"
#include "shown.h"
#include "sweep.h"
#include "workload.h"

/* The exit codes, as the per-backend binaries use them. */
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_ENV = 2, EXIT_INCOMPLETE = 3, EXIT_DATA = 4, EXIT_SIGNAL = 5 };
/* compare --baseline only: a gated figure regressed (no binary uses 6). */
enum { EXIT_REGRESSED = 6 };
/* compare --verify only: a run's store failed its verify (no binary uses 7). */
enum { EXIT_VERIFY = 7 };

#define MAX_ITEMS 256
#define MAX_BACKENDS 16

/* The backends a results directory may name: those of this build. */
static bool backend_known(const char *name)
{
	return rpb_backend_kind_find(name) != NULL;
}

struct cli {
	const char *command;
	const char *pos[MAX_ITEMS]; /* the workload, or result directories */
	size_t npos;
	const char *sets[MAX_ITEMS];
	size_t nsets;
	const char *backends[MAX_BACKENDS];
	size_t nbackends;
	char backend_list[1024];
	/* The durability matrix: --profiles and --syncs. */
	const char *profiles[MAX_BACKENDS], *syncs[MAX_BACKENDS];
	size_t nprofiles, nsyncs;
	char profile_list[256], sync_list[256];
	const char *profiles_text, *syncs_text;
	unsigned repeat;
	const char *out, *repeat_text;
	const char *dsns[MAX_BACKENDS]; /* --dsn DSN or NAME=DSN, as given */
	size_t ndsns;
	const char *help_for; /* --help after a command: that command's help */
	const char *backend, *ranks; /* sweep: --backend B, --ranks LIST */
	const unsigned *threads;     /* sweep: the thread counts, each checked as a run */
	size_t nthreads;
	bool start_pg, start_servers, results, quiet; /* --start-postgres, --start-servers */
	bool verify, clean_stores; /* compare --verify, --clean-stores */
	/* compare --baseline DIR [--max-regress LIST] [--summary F] [--junit F] */
	const char *baseline, *max_regress, *summary, *junit;
	struct rpb_bl_gates gates;
	const char *objects, *window; /* scale: --objects LIST, --window OPS */
};

static const char *const usage_compare[] = {
	"rpbench compare WORKLOAD -b B1,B2,... [--profiles P1,P2] [--syncs S1,S2]",
	"                [-r N] [-s KEY=VALUE]... [-o DIR] [--dsn [NAME=]DSN]...",
	"                [--start-servers] [-q] [--verify] [--clean-stores]",
	"rpbench compare --results RESULT_DIR RESULT_DIR... [-o DIR] [-q]",
	"rpbench compare ... --baseline DIR [--max-regress KEY=PCT,...] [--summary FILE.md]",
	"                [--junit FILE.xml]",
	NULL,
};
static const char *const usage_report[] = {"rpbench report RESULT_DIR... [-o DIR] [-q]", NULL};
static const char *const usage_sweep[] = {
	"rpbench sweep WORKLOAD --backend B -s threads=1,2,4,8 [--ranks 1,2,4] [-r N]",
	"              [-s KEY=VALUE]... [-o DIR] [--dsn [NAME=]DSN]... [--start-servers]",
	"              [-q]",
	NULL,
};
static const char *const usage_scale[] = {
	"rpbench scale WORKLOAD -b B1,B2,... --objects 1e3,1e4,... [--window OPS]",
	"              [-s KEY=VALUE]... [-o DIR] [--dsn [NAME=]DSN]... [--start-servers]",
	"              [-q]",
	NULL,
};
static const char *const usage_all[] = {
	"rpbench compare WORKLOAD -b B1,B2,... [--profiles P1,P2] [--syncs S1,S2]",
	"                [-r N] [-s KEY=VALUE]... [-o DIR] [--dsn [NAME=]DSN]...",
	"                [--start-servers] [-q]",
	"rpbench compare --results RESULT_DIR RESULT_DIR... [-o DIR] [-q]",
	"rpbench report RESULT_DIR... [-o DIR] [-q]",
	"rpbench sweep WORKLOAD --backend B -s threads=1,2,4,8 [--ranks 1,2,4] [-r N] ...",
	"rpbench scale WORKLOAD -b B1,B2,... --objects 1e3,1e4,... [--window OPS] ...",
	"rpbench [COMMAND] -h | --help | -V | --version",
	NULL,
};

/* One block per command (command NULL: every command's). */
static void help_exit_status(struct rpb_help *h, const char *command)
{
	rpb_help_section(h, "Exit status");
	if (!command || !strcmp(command, "compare"))
		rpb_help_item(h, "compare", "0 every run completed, 1 usage (or runs that cannot be "
			      "compared), 2 environment (binary missing, output directory, server, "
			      "gnuplot), 3 a run did not complete (named; the report shows it up to its "
			      "end), 4 the outputs were written, but rows of the runs' data files held "
			      "values no figure can use (left out, counted on stderr and in index.html), 5 "
			      "stopped by SIGINT/SIGTERM, 6 (--baseline) the runs completed and a figure "
			      "regressed beyond its --max-regress threshold (each named on stderr), 7 "
			      "(--verify) a run's store failed its verify (each named; 7 before 6)");
	if (!command || !strcmp(command, "report"))
		rpb_help_item(h, "report", "0 the report was written, however the runs ended, 1 "
			      "usage or a directory that is no run's, 2 environment (output directory, "
			      "gnuplot), 4 rows left out (counted)");
	if (!command || !strcmp(command, "sweep"))
		rpb_help_item(h, "sweep", "0 every run completed, 1 usage, 2 a binary missing, a run "
			      "that could not start or gnuplot failing, 3 a run did not complete (the "
			      "first named with its log)");
	if (!command || !strcmp(command, "scale"))
		rpb_help_item(h, "scale", "0 every run completed, 1 usage (sizes, window, a workload "
			      "without a preload), 2 a binary missing, a run that could not start, the "
			      "output directory or gnuplot, 3 a run did not complete (the first named "
			      "with its log; that backend's later sizes left out)");
}

/* Commands that run as written, each workload file one that comes with rpbench. */
static void help_examples(struct rpb_help *h, const char *command)
{
	rpb_help_section(h, "Examples");
	if (!command || !strcmp(command, "compare"))
		rpb_help_verbatim(h, "  rpbench compare ci-ingest -b leveldb,sqlite --out cmp\n"
				  "  rpbench compare ci-ingest -b sqlite,postgres --start-servers --verify "
				  "--out cmp2\n"
				  "  rpbench compare ci-ingest -b sqlite --syncs none,commit -r 3 --out cmp3\n"
				  "  rpbench compare --results cmp/runs/leveldb cmp/runs/sqlite --out cmp4\n");
	if (!command || !strcmp(command, "report"))
		rpb_help_verbatim(h, "  rpbench report cmp/runs/leveldb cmp/runs/sqlite --out figures\n");
	if (!command || !strcmp(command, "sweep"))
		rpb_help_verbatim(h, "  rpbench sweep ci-ingest --backend sqlite -s threads=1,2,4 --out sw\n");
	if (!command || !strcmp(command, "scale"))
		rpb_help_verbatim(h, "  rpbench scale fedora-test2 -b leveldb,sqlite --objects 1e3,1e4 "
				  "--out sc\n");
}

/* --dsn and --start-servers, alike for compare, sweep and scale. */
static void help_server_options(struct rpb_help *h, const char *how)
{
	rpb_help_item(h, "--dsn [NAME=]DSN", "the server of the server backend NAME (repeatable, "
		      "one per server backend); a bare DSN serves the one server backend listed");
	char text[512];
	snprintf(text, sizeof text, "start a throwaway server for every server backend listed "
		 "without a --dsn, %s", how);
	rpb_help_item(h, "--start-servers", text);
	rpb_help_item(h, "--start-postgres", "the same for the postgres backend alone");
}

static void help_scale_options(struct rpb_help *h)
{
	rpb_help_item(h, "-b, --backends LIST", "backends to grow a store on, comma-separated");
	rpb_help_item(h, "--objects LIST", "the sizes, increasing, comma-separated, 1e3 or 1000 "
		      "(at least two; each a multiple of run.threads)");
	rpb_help_item(h, "--window OPS", "the creates measured at each size, a multiple of "
		      "run.threads (default 500); each size must exceed the one before by more");
	rpb_help_item(h, "-s, --set KEY=VALUE", "a workload option for every run");
	rpb_help_item(h, "-o, --out DIR", "output directory (default: results/scale-<YYYYmmddTHHMMSSZ>)");
	help_server_options(h, "as compare does");
	rpb_help_item(h, "-q, --quiet", "print nothing but errors");
}

static void help_scale_text(struct rpb_help *h)
{
	rpb_help_para(h, 2, "Grows one store per backend through the sizes: rpbench-<backend> "
		      "preload to the first, then at each size a measured run --continue of "
		      "--window creates and a preload --continue to the next (DIR/runs/<backend>/"
		      "grow-N and window-N). Writes DIR/scale.json (every size's throughput, create "
		      "p50/p99/p99.9, bytes per object and backend gauges, from the window's "
		      "result.json; per metric a least-squares fit on log10(objects), its errors at "
		      "the sizes and its projection to 10^7 objects, marked projected), DIR/scale.txt "
		      "(the table and a projection line per backend) and DIR/index.html (a figure per "
		      "metric; docs/scaling.md). The workload needs ingest with model = fedora.");
}

/* The built-in backends' names, "a<sep>b<last>c", for the help texts: the
 * catalogue, so help names every backend of the build. */
static const char *backend_list(char *buf, size_t n, const char *sep, const char *last)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; rpb_backend_kinds[i].name && len < n; i++) {
		const char *join = i == 0 ? "" : rpb_backend_kinds[i + 1].name ? sep : last;
		int w = snprintf(buf + len, n - len, "%s%s", join, rpb_backend_kinds[i].name);
		len += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

static void help_compare_options(struct rpb_help *h)
{
	static char text[512];
	char names[256];
	snprintf(text, sizeof text, "backends to run, comma-separated: %s",
		 backend_list(names, sizeof names, ",", ","));
	rpb_help_item(h, "-b, --backends LIST", text);
	rpb_help_item(h, "--profiles LIST", "the durability matrix: run each backend once per "
		      "profile, comma-separated: durable,fedora-4.5 (default: the workload's)");
	rpb_help_item(h, "--syncs LIST", "and once per sync: none,commit,native (default: the "
		      "workload's); each (backend, profile, sync) is a column of its own");
	rpb_help_item(h, "-r, --repeat N", "run each column N times, interleaved (A B C A B C ...); "
		      "the table gives medians with [min-max] (default 1)");
	rpb_help_item(h, "-s, --set KEY=VALUE", "override a workload option in every run (repeatable)");
	rpb_help_item(h, "-o, --out DIR", "output directory, new or empty (default: "
		      "results/compare-<pattern>-<YYYYmmddTHHMMSSZ>; with --results: no files unless "
		      "given)");
	help_server_options(h, "each by its backend's script in share/rpbench/scripts (postgres: "
			    "pg-throwaway), or by the program the variable of the script's name names "
			    "(RPB_PG_THROWAWAY); always stopped and removed at the end, also on error or signal");
	rpb_help_item(h, "--verify", "after the runs, run rpbench-<backend> verify on every run's "
		      "store (before a --start-servers server is removed); its line per run in the "
		      "output, compare.md and compare.json; exit 7 when one fails");
	rpb_help_item(h, "--clean-stores", "remove each run's store (DIR/stores/<name>, only those "
		      "carrying rpbench's mark) once the compare is written; without it the stores' "
		      "size and place are told");
	rpb_help_item(h, "--results", "compare existing result directories instead of running");
	rpb_help_item(h, "-q, --quiet", "print nothing but the final table");
	rpb_help_item(h, "--baseline DIR", "compare each column with a saved run of the same "
		      "workload and backend: DIR is a run's results directory or a compare output "
		      "directory (its runs are the baseline's repeats); prints each label's "
		      "throughput, p50, p99, p99.9 and the bytes per object: baseline, new, change "
		      "in % and noise (ranges overlap or apart, with two runs or more on both sides)");
	rpb_help_item(h, "--max-regress LIST", "with --baseline: fail (exit 6) when a figure is "
		      "worse than the baseline by more than its threshold and not within noise, e.g. "
		      "throughput=5%,p99=10%,create.p99.9=20% (keys throughput, p50, p99, p99.9, "
		      "bytes; LABEL.KEY for one label)");
	rpb_help_item(h, "--summary FILE", "with --baseline: write the comparison as markdown to "
		      "FILE (new)");
	rpb_help_item(h, "--junit FILE", "with --baseline: write JUnit XML to FILE (new), one "
		      "testcase per gated figure, a failure for each regression");
}

static void help_compare_text(struct rpb_help *h)
{
	rpb_help_para(h, 2, "Runs rpbench-<backend> (beside this binary) for each backend on the "
		      "same workload file, --set list and seed; each run goes to DIR/runs/<backend>[-K] "
		      "with its store in DIR/stores/ (PostgreSQL: a new schema per run). Prints the "
		      "table and writes DIR/compare.md, DIR/compare.json and DIR/report/. With "
		      "--results: no runs, compares existing result directories. Runs that differ in "
		      "profile or sync (run.profile, run.sync as each run resolved it) are columns of "
		      "their own, headed \"backend / profile / sync\"; repeats are pooled within a "
		      "column only. Runs of other workload options are refused (exit 1) with the "
		      "differing options named. WORKLOAD is a path or the name of a file in "
		      "share/rpbench/workloads, as for rpbench-<backend> run.");
}

static void help_report_options(struct rpb_help *h)
{
	rpb_help_item(h, "-o, --out DIR", "output directory, new or empty (default: "
		      "results/report-<YYYYmmddTHHMMSSZ>)");
	rpb_help_item(h, "-q, --quiet", "print nothing but errors");
}

static void help_sweep_options(struct rpb_help *h)
{
	static char text[512];
	char names[256];
	snprintf(text, sizeof text, "the backend to sweep: %s",
		 backend_list(names, sizeof names, ", ", " or "));
	rpb_help_item(h, "--backend B", text);
	rpb_help_item(h, "-s, --set threads=LIST", "the thread counts, comma-separated (each 1 to "
		      "1024); any other --set KEY=VALUE goes to every run");
	rpb_help_item(h, "--ranks LIST", "also sweep load nodes: each point runs under mpirun "
		      "--oversubscribe -np R (Open MPI, docs/distributed.md)");
	rpb_help_item(h, "-r, --repeat N", "run each point N times, interleaved; the table gives "
		      "means (default 1)");
	rpb_help_item(h, "-o, --out DIR", "output directory (default: "
		      "results/sweep-<backend>-<YYYYmmddTHHMMSSZ>)");
	help_server_options(h, "as compare does");
	rpb_help_item(h, "-q, --quiet", "print nothing but errors");
}

static void help_sweep_text(struct rpb_help *h)
{
	rpb_help_para(h, 2, "Runs rpbench-<backend> on WORKLOAD at every thread count (times every "
		      "rank count), interleaved over the repeats, each in DIR/runs/tT-rR-K. Writes "
		      "DIR/sweep.csv (a row per run), DIR/sweep.txt (a row per point: total "
		      "concurrency = threads x ranks, ops/s, the ideal linear ops/s from the smallest "
		      "point, the efficiency = ops/s / ideal, p99 of the first label) and "
		      "DIR/sweep.svg (gnuplot). The workload and --set list are checked for every "
		      "thread count before the first run, as compare checks them (exit 1). A run that "
		      "fails is named on stderr with its first error and its log; the table and the "
		      "figure hold only the points that ran (no figure when none did); exit 3.");
}

static void help_report_text(struct rpb_help *h)
{
	rpb_help_para(h, 2, "Draws gnuplot figures (SVG and PNG) and writes index.html of result "
		      "directories of rpbench runs (gnuplot must be installed).");
}

/* rpbench --help, rpbench COMMAND --help, or the man page (man). */
static void print_help(enum rpb_help_format format, const char *command)
{
	struct rpb_help h = {.f = stdout, .format = format, .term = 19};
	char title[64];
	snprintf(title, sizeof title, "rpbench%s%s", command ? " " : "", command ? command : "");
	rpb_help_title(&h, title, 1, "which backend, for this pattern, at what cost");
	if (command && !strcmp(command, "compare")) {
		rpb_help_usage(&h, usage_compare);
		rpb_help_section(&h, "Description");
		help_compare_text(&h);
		rpb_help_section(&h, "Options");
		help_compare_options(&h);
		help_exit_status(&h, command);
		help_examples(&h, command);
		return;
	}
	if (command && !strcmp(command, "sweep")) {
		rpb_help_usage(&h, usage_sweep);
		rpb_help_section(&h, "Description");
		help_sweep_text(&h);
		rpb_help_section(&h, "Options");
		help_sweep_options(&h);
		help_exit_status(&h, command);
		help_examples(&h, command);
		return;
	}
	if (command && !strcmp(command, "scale")) {
		rpb_help_usage(&h, usage_scale);
		rpb_help_section(&h, "Description");
		help_scale_text(&h);
		rpb_help_section(&h, "Options");
		help_scale_options(&h);
		help_exit_status(&h, command);
		help_examples(&h, command);
		return;
	}
	if (command && !strcmp(command, "report")) {
		rpb_help_usage(&h, usage_report);
		rpb_help_section(&h, "Description");
		help_report_text(&h);
		rpb_help_section(&h, "Options");
		help_report_options(&h);
		help_exit_status(&h, command);
		help_examples(&h, command);
		return;
	}
	rpb_help_usage(&h, usage_all);
	rpb_help_section(&h, "Commands");
	rpb_help_item(&h, "compare", "run backends side by side on one workload, or compare "
		      "existing result directories (rpbench compare --help)");
	rpb_help_item(&h, "report", "figures and index.html of result directories "
		      "(rpbench report --help)");
	rpb_help_item(&h, "sweep", "one backend at growing threads (and ranks): throughput and "
		      "p99 against concurrency, efficiency (rpbench sweep --help)");
	rpb_help_item(&h, "scale", "backends' stores grown through sizes: throughput, latency and "
		      "bytes against objects, projected to 10^7 (rpbench scale --help)");
	if (format == RPB_HELP_MAN) { /* the page holds every command's help */
		rpb_help_section(&h, "Compare");
		help_compare_text(&h);
		help_compare_options(&h);
		rpb_help_section(&h, "Report");
		help_report_text(&h);
		help_report_options(&h);
		rpb_help_section(&h, "Sweep");
		help_sweep_text(&h);
		help_sweep_options(&h);
		rpb_help_section(&h, "Scale");
		help_scale_text(&h);
		help_scale_options(&h);
	}
	rpb_help_section(&h, "Options");
	rpb_help_item(&h, "-h, --help", "this help; after a command, that command's");
	rpb_help_item(&h, "-V, --version", "the version");
	help_exit_status(&h, NULL);
	help_examples(&h, NULL);
	rpb_help_section(&h, "See also");
	rpb_help_para(&h, 2, "rpbench-sqlite(1), rpbench-leveldb(1), rpbench-postgres(1), "
		      "rpbench-null(1), rpbench-workload(5); docs/results.md for every output file.");
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "rpbench: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "; see rpbench --help\n");
	return EXIT_USAGE;
}

static int unknown_command(const char *word)
{
	static const char *const commands[] = {"compare", "report", "sweep", "scale", NULL};
	char msg[RPB_SHOWN_SIZE + 128];
	rpb_cli_unknown_command(msg, sizeof msg, word, commands);
	return usage_error("%s", msg);
}

static int parse_backends(struct cli *c, const char *list)
{
	snprintf(c->backend_list, sizeof c->backend_list, "%s", list);
	c->nbackends = 0;
	for (char *save = NULL, *b = strtok_r(c->backend_list, ",", &save); b;
	     b = strtok_r(NULL, ",", &save)) {
		bool known = false;
		char shown[RPB_SHOWN_SIZE], names[256] = "";
		for (size_t i = 0; rpb_backend_names[i]; i++) {
			known |= !strcmp(b, rpb_backend_names[i]);
			rpb_cat(names, sizeof names, "%s%s", i ? ", " : "", rpb_backend_names[i]);
		}
		if (!known) {
			char what[RPB_SHOWN_SIZE + 300];
			snprintf(what, sizeof what, "'%s' in --backends (backends: %s)",
				 rpb_text_shown(shown, sizeof shown, b), names);
			return usage_error("unknown backend %s", what);
		}
		for (size_t i = 0; i < c->nbackends; i++)
			if (!strcmp(c->backends[i], b))
				return usage_error("backend '%s' is named twice in --backends; use --repeat to run it again", b);
		if (c->nbackends == MAX_BACKENDS)
			return usage_error("too many backends in --backends%s", "");
		c->backends[c->nbackends++] = b;
	}
	if (!c->nbackends)
		return usage_error("--backends needs at least one backend%s", "");
	return 0;
}

/* The values of [run] sync (workload.c), for --syncs. */
static const char *const sync_values[] = {"none", "commit", "native", NULL};

/* A --profiles or --syncs list: values of the workload option, each once
 * (check_plan has the workload parser judge each run's options whole). */
static int parse_axis(const char *flag, const char *list, const char *const *choices, char *buf,
		      size_t bn, const char **items, size_t *nitems)
{
	char shown[RPB_SHOWN_SIZE];
	if (snprintf(buf, bn, "%s", list) >= (int)bn)
		return usage_error("%s is too long", flag);
	*nitems = 0;
	for (char *save = NULL, *v = strtok_r(buf, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		size_t c = 0;
		while (choices[c] && strcmp(choices[c], v))
			c++;
		if (!choices[c]) {
			char known[128];
			size_t len = 0;
			for (size_t i = 0; choices[i] && len < sizeof known; i++)
				len += (size_t)snprintf(known + len, sizeof known - len, "%s%s",
							i ? ", " : "", choices[i]);
			fprintf(stderr, "rpbench: unknown value '%s' in %s; give some of: %s\n",
				rpb_text_shown(shown, sizeof shown, v), flag, known);
			return EXIT_USAGE;
		}
		for (size_t i = 0; i < *nitems; i++)
			if (!strcmp(items[i], v)) {
				fprintf(stderr, "rpbench: '%s' is named twice in %s; use --repeat to run it again\n",
					rpb_text_shown(shown, sizeof shown, v), flag);
				return EXIT_USAGE;
			}
		if (*nitems == MAX_BACKENDS)
			return usage_error("too many values in %s", flag);
		items[(*nitems)++] = v;
	}
	if (!*nitems)
		return usage_error("%s needs at least one value", flag);
	return 0;
}

/* --help-man writes the man page (man/CMakeLists.txt). */
static const struct option longopts[] = {
	{"backends", required_argument, NULL, 'b'}, {"repeat", required_argument, NULL, 'r'},
	{"set", required_argument, NULL, 's'},      {"out", required_argument, NULL, 'o'},
	{"dsn", required_argument, NULL, 'D'},      {"start-postgres", no_argument, NULL, 'P'},
	{"start-servers", no_argument, NULL, 'G'},
	{"results", no_argument, NULL, 'R'},        {"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},           {"version", no_argument, NULL, 'V'},
	{"help-man", no_argument, NULL, 'M'},       {"backend", required_argument, NULL, 'k'},
	{"ranks", required_argument, NULL, 'N'},    {"profiles", required_argument, NULL, 'F'},
	{"syncs", required_argument, NULL, 'Y'},    {"baseline", required_argument, NULL, 'B'},
	{"max-regress", required_argument, NULL, 'X'}, {"summary", required_argument, NULL, 'U'},
	{"junit", required_argument, NULL, 'J'},    {"verify", no_argument, NULL, 'E'},
	{"clean-stores", no_argument, NULL, 'C'},   {"objects", required_argument, NULL, 'O'},
	{"window", required_argument, NULL, 'W'},   {NULL, 0, NULL, 0},
};

/* Every path given fits, whole, with room for what compare and report
 * write under it (runs/, stores/, report/figures/...). */
static int check_paths(const struct cli *c, bool runs)
{
	char msg[1024];
	int bad = c->out && rpb_path_check(c->out, "--out", 2 * RPB_PATH_ROOM, msg, sizeof msg);
	for (size_t i = 0; !bad && i < c->npos; i++)
		bad = rpb_path_check(c->pos[i], runs ? "the workload file" : "a results directory",
				     runs ? 0 : RPB_PATH_ROOM, msg, sizeof msg);
	bad = bad || (c->baseline && rpb_path_check(c->baseline, "--baseline", RPB_PATH_ROOM, msg,
						      sizeof msg));
	bad = bad || (c->summary && rpb_path_check(c->summary, "--summary", 0, msg, sizeof msg));
	bad = bad || (c->junit && rpb_path_check(c->junit, "--junit", 0, msg, sizeof msg));
	if (!bad)
		return 0;
	fprintf(stderr, "rpbench: %s\n", msg);
	return EXIT_USAGE;
}

/* --baseline and what goes with it: compare only; --max-regress, --summary
 * and --junit need it; the files are new (none that rpbench did not write
 * is overwritten). */
static int check_baseline_options(const struct cli *c)
{
	if (c->baseline && strcmp(c->command, "compare") != 0)
		return usage_error("--baseline is an option of compare, not %s", c->command);
	if (!c->baseline && (c->max_regress || c->summary || c->junit))
		return usage_error("--max-regress, --summary and --junit need --baseline DIR%s", "");
	const char *files[] = {c->summary, c->junit}, *flags[] = {"--summary", "--junit"};
	char shown[RPB_SHOWN_SIZE];
	for (int i = 0; i < 2; i++)
		if (files[i] && access(files[i], F_OK) == 0) {
			fprintf(stderr, "rpbench: %s %s exists; give a new file (rpbench overwrites no file it did not create)\n",
				flags[i], rpb_text_shown(shown, sizeof shown, files[i]));
			return EXIT_USAGE;
		}
	if (c->summary && c->junit && !strcmp(c->summary, c->junit))
		return usage_error("--summary and --junit name the same file%s", "");
	return 0;
}

static int parse_cli(struct cli *c, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	c->repeat = 1;
	opterr = 0;
	int ch, rc;
	char why[512], shown[RPB_SHOWN_SIZE];
	for (;;) {
		const char *elem = optind < argc ? argv[optind] : NULL;
		if ((ch = getopt_long(argc, argv, "+:b:r:s:o:qhV", longopts, NULL)) == -1 &&
		    optind >= argc)
			break;
		if (ch == -1) {
			if (!c->command)
				c->command = argv[optind];
			else if (c->npos < MAX_ITEMS)
				c->pos[c->npos++] = argv[optind];
			else
				return usage_error("too many arguments (at most %s)", "256");
			optind++;
			continue;
		}
		switch (ch) {
		case 'b':
			if ((rc = parse_backends(c, optarg)))
				return rc;
			break;
		case 'r': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 100)
				return usage_error("--repeat takes a count from 1 to 100, not '%s'",
						   rpb_text_shown(shown, sizeof shown, optarg));
			c->repeat = (unsigned)v;
			c->repeat_text = optarg;
			break;
		}
		case 's':
			if (c->nsets == MAX_ITEMS)
				return usage_error("too many --set options (at most %s)", "256");
			c->sets[c->nsets++] = optarg;
			break;
		case 'F':
			if ((rc = parse_axis("--profiles", optarg, rpb_profile_names, c->profile_list,
					     sizeof c->profile_list, c->profiles, &c->nprofiles)))
				return rc;
			c->profiles_text = optarg;
			break;
		case 'Y':
			if ((rc = parse_axis("--syncs", optarg, sync_values, c->sync_list, sizeof c->sync_list,
					     c->syncs, &c->nsyncs)))
				return rc;
			c->syncs_text = optarg;
			break;
		case 'o': c->out = optarg; break;
		case 'D':
			if (c->ndsns == MAX_BACKENDS)
				return usage_error("too many --dsn options (one per server backend)%s", "");
			c->dsns[c->ndsns++] = optarg;
			break;
		case 'G': c->start_servers = true; break;
		case 'k': c->backend = optarg; break;
		case 'N': c->ranks = optarg; break;
		case 'P': c->start_pg = true; break;
		case 'R': c->results = true; break;
		case 'q': c->quiet = true; break;
		case 'B': c->baseline = optarg; break;
		case 'X':
			if (rpb_bl_parse_gates(optarg, &c->gates, why, sizeof why) != 0)
				return usage_error("%s", why);
			c->max_regress = optarg;
			break;
		case 'U': c->summary = optarg; break;
		case 'J': c->junit = optarg; break;
		case 'E': c->verify = true; break;
		case 'C': c->clean_stores = true; break;
		case 'O': c->objects = optarg; break;
		case 'W': c->window = optarg; break;
		case 'h':
			c->help_for = c->command;
			c->command = "--help";
			return 0;
		case 'V': c->command = "--version"; return 0;
		case 'M': c->command = "--help-man"; return 0;
		default:
			rpb_cli_problem(why, sizeof why, longopts, ch, elem);
			return usage_error("%s", why);
		}
	}
	if (c->command && !strcmp(c->command, "help")) { /* rpbench help [COMMAND] */
		c->help_for = c->npos ? c->pos[0] : NULL;
		c->command = "--help";
		return 0;
	}
	if (!c->command)
		return usage_error("no command given (commands: compare, report, sweep, scale)%s", "");
	bool sweep = !strcmp(c->command, "sweep"), scale = !strcmp(c->command, "scale");
	if (!scale && (c->objects || c->window))
		return usage_error("--objects and --window are options of scale, not %s", c->command);
	if (scale && (c->repeat != 1 || c->nprofiles || c->nsyncs || c->results))
		return usage_error("--repeat, --profiles, --syncs and --results are options of compare, "
				   "not scale%s", "");
	if (!sweep && (c->backend || c->ranks))
		return usage_error("--backend and --ranks are options of sweep, not %s", c->command);
	/* Options that only running backends takes. */
	bool runs = (!strcmp(c->command, "compare") && !c->results) || sweep || scale;
	static char workload[PATH_MAX];
	if (runs && c->npos) {
		c->pos[0] = rpb_path_workload(workload, sizeof workload, c->pos[0]);
	}
	if (!runs && (c->nbackends || c->nsets || c->ndsns || c->start_pg || c->start_servers ||
		      c->repeat != 1 || c->nprofiles || c->nsyncs))
		return usage_error("--backends, --profiles, --syncs, --set, --repeat, --dsn and "
				   "--start-servers are for compare WORKLOAD.ini, not %s with result "
				   "directories", c->command);
	if ((c->verify || c->clean_stores) && (sweep || scale || !runs))
		return usage_error("--verify and --clean-stores are for compare WORKLOAD.ini, which "
				   "makes the stores, not %s", c->results ? "compare --results" : c->command);
	if (sweep && (c->nprofiles || c->nsyncs))
		return usage_error("--profiles and --syncs are options of compare, not %s", c->command);
	if (c->results && strcmp(c->command, "compare") != 0)
		return usage_error("--results is an option of compare, not %s", c->command);
	if ((rc = check_baseline_options(c)))
		return rc;
	return check_paths(c, runs);
}

/* --dsn DSN, or --dsn NAME=DSN, the DSN redacted. */
static void record_dsn(FILE *f, const char *arg)
{
	size_t k = rpb_servers_dsn_named(arg);
	if (!k) {
		rpb_cmd_dsn(f, "--dsn", arg);
		return;
	}
	char *r = rpb_dsn_redacted(arg + k + 1), named[2048];
	snprintf(named, sizeof named, "%.*s=%s", (int)k, arg, r ? r : "***");
	free(r);
	rpb_cmd_opt(f, "--dsn", named);
}

/* The command line as compare.json and compare.md record it: rebuilt from
 * what was parsed, every connection string redacted. */
static char *recorded_command(const struct cli *c, const char *argv0)
{
	struct rpb_cmd cmd;
	if (!rpb_cmd_open(&cmd))
		return NULL;
	FILE *f = cmd.f;
	rpb_cmd_word(f, argv0);
	rpb_cmd_word(f, c->command);
	for (size_t i = 0; i < c->npos; i++)
		rpb_cmd_word(f, c->pos[i]);
	if (c->results)
		rpb_cmd_word(f, "--results");
	if (c->nbackends) {
		rpb_cmd_word(f, "--backends");
		for (size_t i = 0; i < c->nbackends; i++)
			fprintf(f, "%s%s", i ? "," : " ", c->backends[i]);
	}
	if (c->profiles_text)
		rpb_cmd_opt(f, "--profiles", c->profiles_text);
	if (c->syncs_text)
		rpb_cmd_opt(f, "--syncs", c->syncs_text);
	if (c->repeat_text)
		rpb_cmd_opt(f, "--repeat", c->repeat_text);
	for (size_t i = 0; i < c->nsets; i++)
		rpb_cmd_set(f, "--set", c->sets[i]);
	if (c->out)
		rpb_cmd_opt(f, "--out", c->out);
	for (size_t i = 0; i < c->ndsns; i++)
		record_dsn(f, c->dsns[i]);
	if (c->start_servers)
		rpb_cmd_word(f, "--start-servers");
	if (c->start_pg)
		rpb_cmd_word(f, "--start-postgres");
	if (c->quiet)
		rpb_cmd_word(f, "--quiet");
	if (c->verify)
		rpb_cmd_word(f, "--verify");
	if (c->clean_stores)
		rpb_cmd_word(f, "--clean-stores");
	if (c->baseline)
		rpb_cmd_opt(f, "--baseline", c->baseline);
	if (c->max_regress)
		rpb_cmd_opt(f, "--max-regress", c->max_regress);
	if (c->summary)
		rpb_cmd_opt(f, "--summary", c->summary);
	if (c->junit)
		rpb_cmd_opt(f, "--junit", c->junit);
	return rpb_cmd_close(&cmd);
}

static void default_out(char *buf, size_t n, const char *what)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf, n, "results/%s-%s", what, stamp);
}

/* One line per run that did not complete; the count. */
static size_t name_incomplete(const struct rpb_cmp *c, const char *logs)
{
	size_t bad = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rpb_cmp_run *r = &c->runs[i];
		if (r->completed)
			continue;
		bad++;
		const char *shown = r->included ? "the table and figures show it up to its end"
						: "the table leaves it out";
		if (r->exit_code >= 0)
			fprintf(stderr, "rpbench: the %s run did not complete (exit %d, %s; %s%s), so %s; its output is in %s/%s.log\n",
				r->name, r->exit_code, rpb_exec_exit_meaning(r->exit_code),
				r->included ? "stop " : "no results", r->included ? r->stop : "",
				shown, logs, r->name);
		else
			fprintf(stderr, "rpbench: the %s run in %s did not complete (stop %s), so %s\n",
				r->backend, r->dir, r->stop, shown);
	}
	return bad;
}

/* One line for the rows of data files no figure could use (data_skips.h),
 * once the outputs are written: exit 4 says the data, not the machine. */
static int name_skipped(const struct rpb_cmp *c, const char *report)
{
	char text[4096];
	size_t rows = rpb_cmp_skips_text(c, text, sizeof text);
	if (!rows)
		return EXIT_OK;
	fprintf(stderr, "rpbench: %zu row%s of the runs' data could not be plotted and %s left out "
		"(%s); %s/index.html counts them, the rest is drawn\n",
		rows, rows == 1 ? "" : "s", rows == 1 ? "was" : "were", text, report);
	return EXIT_DATA;
}

/* Writes compare.md, compare.json, runs.csv and report/ into out. */
static int write_outputs(const struct rpb_cmp *c, const char *out, const char *command)
{
	char msg[8192], report[RPB_CMP_PATH + 16];
	if (rpb_report_compare_files(c, out, command, msg, sizeof msg) != 0) {
		fprintf(stderr, "rpbench: %s\n", msg);
		return EXIT_ENV;
	}
	snprintf(report, sizeof report, "%s/report", out);
	if (rpb_report_write(c, report, msg, sizeof msg) != 0) {
		fprintf(stderr, "rpbench: %s\n", msg);
		return EXIT_ENV;
	}
	return EXIT_OK;
}

static int load_dirs(struct rpb_cmp *c, const struct cli *cl)
{
	char msg[8192];
	if (!cl->npos)
		return usage_error("%s needs result directories", cl->command);
	for (size_t i = 0; i < cl->npos; i++)
		if (rpb_cmp_add(c, cl->pos[i], NULL, -1, msg, sizeof msg) != 0) {
			fprintf(stderr, "rpbench: %s\n", msg);
			return EXIT_USAGE;
		}
	if (rpb_cmp_check(c, msg, sizeof msg) != 0) {
		fprintf(stderr, "rpbench: %s\n", msg);
		return EXIT_USAGE;
	}
	rpb_cmp_compute(c);
	return 0;
}

/* --baseline: the baseline read (when not yet) and held against the runs;
 * a refusal is a usage error. */
static int baseline_judge(struct rpb_baseline *bl, const struct rpb_cmp *c, const struct cli *cl)
{
	char msg[8192];
	if ((bl->dir[0] || rpb_bl_load(bl, cl->baseline, backend_known, msg, sizeof msg) == 0) &&
	    rpb_bl_judge(bl, c, &cl->gates, msg, sizeof msg) == 0)
		return EXIT_OK;
	fprintf(stderr, "rpbench: %s\n", msg);
	return EXIT_USAGE;
}

/* After the tables: each regression named on stderr, --summary and
 * --junit written; rc, or EXIT_REGRESSED when it is EXIT_OK and a gated
 * figure regressed. */
static int baseline_end(const struct rpb_baseline *bl, const struct rpb_cmp *c,
			const struct cli *cl, int rc)
{
	char msg[8192];
	rpb_bl_print_regressions(bl, stderr);
	if ((cl->summary && rpb_bl_write_summary(bl, c, cl->summary, msg, sizeof msg) != 0) ||
	    (cl->junit && rpb_bl_write_junit(bl, c, cl->junit, msg, sizeof msg) != 0)) {
		fprintf(stderr, "rpbench: %s\n", msg);
		return rc ? rc : EXIT_ENV;
	}
	return !rc && bl->nregressed ? EXIT_REGRESSED : rc;
}

/* compare.json's "baseline" and compare.md's section. */
static int baseline_files(const struct rpb_baseline *bl, const char *out)
{
	char msg[8192];
	if (rpb_bl_add_to_compare(bl, out, msg, sizeof msg) == 0)
		return EXIT_OK;
	fprintf(stderr, "rpbench: %s\n", msg);
	return EXIT_ENV;
}

static int cmd_compare_results(const struct cli *cl, const char *command)
{
	struct rpb_cmp c;
	struct rpb_baseline bl = {0};
	rpb_cmp_init(&c, backend_known);
	int rc = load_dirs(&c, cl);
	if (!rc && cl->baseline)
		rc = baseline_judge(&bl, &c, cl);
	if (!rc && cl->out) {
		char msg[8192];
		if (rpb_report_new_dir(cl->out, "--out", msg, sizeof msg) != 0) {
			fprintf(stderr, "rpbench: %s\n", msg);
			rc = EXIT_ENV;
		} else
			rc = write_outputs(&c, cl->out, command);
		if (!rc && cl->baseline)
			rc = baseline_files(&bl, cl->out);
	}
	if (!rc) {
		rpb_report_print(&c, stdout);
		if (cl->baseline)
			rpb_bl_print(&bl, stdout);
		fflush(stdout);
		if (name_incomplete(&c, "."))
			rc = EXIT_INCOMPLETE;
		else if (cl->out) {
			char report[RPB_CMP_PATH + 16];
			snprintf(report, sizeof report, "%s/report", cl->out);
			rc = name_skipped(&c, report);
		}
		if (cl->baseline)
			rc = baseline_end(&bl, &c, cl, rc);
	}
	rpb_bl_free(&bl);
	rpb_cmp_free(&c);
	return rc;
}

/* Refuses what can be found out before any run, for compare and sweep
 * alike: a bad workload or --set (judged whole for every run: each profile,
 * sync and thread count), a missing binary, postgres without a server.
 * bindir gets the binaries' directory. */
static int check_runs(const struct cli *cl, struct rpb_job *job, char *bindir, size_t bn,
		      struct rpb_servers *sv)
{
	char msg[8192];
	rpb_job_defaults(job); /* first: every return leaves a job to free */
	char shown[RPB_SHOWN_SIZE];
	if (cl->npos != 1) {
		fprintf(stderr, cl->npos ? "rpbench: %s takes one workload file, not '%s' as well%s; see rpbench --help\n"
					 : "rpbench: %s needs a workload file%s%s; see data/workloads/; see rpbench --help\n",
			cl->command, cl->npos ? rpb_text_shown(shown, sizeof shown, cl->pos[1]) : "",
			cl->npos && !cl->nthreads ? " (or --results DIR...)" : "");
		return EXIT_USAGE;
	}
	if (!cl->nbackends)
		return usage_error("compare needs --backends, e.g. --backends leveldb,sqlite%s", "");
	memset(sv, 0, sizeof *sv);
	for (size_t i = 0; i < cl->ndsns; i++)
		if (rpb_servers_dsn_option(sv, cl->dsns[i], msg, sizeof msg) != 0)
			return usage_error("%s", msg);
	/* --start-postgres: the older spelling of --start-servers, for postgres alone. */
	if (rpb_servers_plan(sv, cl->backends, cl->nbackends, cl->start_servers,
			     cl->start_pg ? "postgres" : NULL, msg, sizeof msg) != 0)
		return usage_error("%s", msg);
	size_t np = cl->nprofiles ? cl->nprofiles : 1, ns = cl->nsyncs ? cl->nsyncs : 1;
	if (cl->nbackends * np * ns > RPB_CMP_MAX_BACKENDS ||
	    cl->nbackends * np * ns * cl->repeat > RPB_CMP_MAX_RUNS) {
		fprintf(stderr, "rpbench: %zu backend(s) x %zu profile(s) x %zu sync(s) x %u repeat(s) is more than compare runs (at most %d columns, %d runs); name fewer\n",
			cl->nbackends, np, ns, cl->repeat, RPB_CMP_MAX_BACKENDS, RPB_CMP_MAX_RUNS);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < cl->nsets; i++) {
		size_t klen = strcspn(cl->sets[i], "=");
		const char *key = cl->sets[i];
		if (klen > 4 && !strncmp(key, "run.", 4))
			key += 4, klen -= 4;
		if ((cl->nprofiles && klen == 7 && !strncmp(key, "profile", 7)) ||
		    (cl->nsyncs && klen == 4 && !strncmp(key, "sync", 4))) {
			fprintf(stderr, "rpbench: --set %s and --%ss both set %.*s; give the values in --%ss alone\n",
				rpb_text_shown(shown, sizeof shown, cl->sets[i]), klen == 4 ? "sync" : "profile",
				(int)klen, key, klen == 4 ? "sync" : "profile");
			return EXIT_USAGE;
		}
	}
	/* Every run of the matrix (or the sweep) as its binary will read it:
	 * the workload, the --set list, the run's profile, sync and threads. */
	size_t nt = cl->nthreads ? cl->nthreads : 1;
	for (size_t i = 0; i < np; i++)
		for (size_t j = 0; j < ns * nt; j++) {
			char set[64];
			rpb_job_free(job);
			rpb_job_defaults(job);
			if (rpb_job_load(job, cl->pos[0], msg, sizeof msg) != 0)
				goto bad;
			for (size_t k = 0; k < cl->nsets; k++)
				if (rpb_job_set(job, cl->sets[k], msg, sizeof msg) != 0)
					goto bad;
			snprintf(set, sizeof set, "profile=%s", cl->nprofiles ? cl->profiles[i] : "");
			if (cl->nprofiles && rpb_job_set(job, set, msg, sizeof msg) != 0)
				goto bad;
			snprintf(set, sizeof set, "sync=%s", cl->nsyncs ? cl->syncs[j / nt] : "");
			if (cl->nsyncs && rpb_job_set(job, set, msg, sizeof msg) != 0)
				goto bad;
			snprintf(set, sizeof set, "threads=%u", cl->nthreads ? cl->threads[j % nt] : 0);
			if (cl->nthreads && rpb_job_set(job, set, msg, sizeof msg) != 0)
				goto bad;
			if (rpb_job_finish(job, msg, sizeof msg) != 0)
				goto bad;
		}
	if (rpb_exec_bindir(bindir, bn, msg, sizeof msg) != 0) {
		fprintf(stderr, "rpbench: %s\n", msg);
		return EXIT_ENV;
	}
	for (size_t i = 0; i < cl->nbackends; i++) {
		char bin[RPB_CMP_PATH + 64];
		snprintf(bin, sizeof bin, "%s/rpbench-%s", bindir, cl->backends[i]);
		if (access(bin, X_OK) != 0) {
			fprintf(stderr, "rpbench: %s is not built; build it beside rpbench (cmake option RPB_WITH_%s=ON) or leave %s out of --backends\n",
				bin, cl->backends[i], cl->backends[i]);
			return EXIT_ENV;
		}
	}
	return 0;
bad:
	fprintf(stderr, "rpbench: %s\n", msg);
	return EXIT_USAGE;
}

/* compare's plan, once check_runs passed. */
static int check_plan(const struct cli *cl, struct rpb_cmp_plan *p, struct rpb_job *job,
		      struct rpb_servers *sv)
{
	int rc = check_runs(cl, job, p->bindir, sizeof p->bindir, sv);
	if (rc)
		return rc;
	p->workload = cl->pos[0];
	p->sets = cl->sets;
	p->nsets = cl->nsets;
	p->backends = cl->backends;
	p->nbackends = cl->nbackends;
	p->profiles = cl->profiles;
	p->nprofiles = cl->nprofiles;
	p->syncs = cl->syncs;
	p->nsyncs = cl->nsyncs;
	p->repeat = cl->repeat;
	p->quiet = cl->quiet;
	p->servers = sv;
	p->load_first = job->pattern->loads_first;
	return 0;
}

/* --start-servers: a throwaway server for each server backend sv plans one for. */
static int start_servers(bool quiet, struct rpb_servers *sv)
{
	char msg[8192];
	if (rpb_servers_start(sv, quiet, msg, sizeof msg) == 0)
		return 0;
	fprintf(stderr, "rpbench: %s\n", msg);
	return EXIT_ENV;
}

/* Stops every server start_servers started. */
static int stop_servers(bool quiet, struct rpb_servers *sv)
{
	char msg[8192];
	if (rpb_servers_stop(sv, quiet, msg, sizeof msg) == 0)
		return 0;
	fprintf(stderr, "rpbench: %s\n", msg);
	return EXIT_ENV;
}

/* 1.1 GiB, 340.0 KiB: binary units, as the runs' text lines. */
static void human_bytes(char *buf, size_t n, uint64_t b)
{
	static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)b;
	size_t u = 0;
	while (v >= 1024 && u < 4)
		v /= 1024, u++;
	if (u)
		snprintf(buf, n, "%.1f %s", v, unit[u]);
	else
		snprintf(buf, n, "%" PRIu64 " bytes", b);
}

/* --verify, once the runs are done and before the server goes: each run's
 * line kept in v. */
static int verify_stores(const struct cli *cl, const struct rpb_cmp *c, const struct rpb_cmp_plan *p,
			 struct rpb_cmp_verified *v)
{
	char msg[8192];
	if (!cl->quiet) {
		printf("== verifying every run's store\n");
		fflush(stdout);
	}
	if (rpb_cmp_verify_runs(c, p->bindir, p->servers, v, msg, sizeof msg) == 0)
		return EXIT_OK;
	fprintf(stderr, "rpbench: %s\n", msg);
	return EXIT_ENV;
}

/* After everything is written: each failed verify named; rc, or
 * EXIT_VERIFY when it is EXIT_OK or EXIT_REGRESSED (lost data outranks a
 * slower figure). */
static int verify_end(const struct rpb_cmp_verified *v, const char *out, int rc)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->runs[i].exit != 0 && v->runs[i].exit != RPB_VERIFY_SKIPPED)
			fprintf(stderr, "rpbench: the store of the %s run failed its verify (exit %d: %s); its store and results are kept in %s\n",
				v->runs[i].name, v->runs[i].exit, v->runs[i].result, out);
	return rpb_cmp_verify_failures(v) && (rc == EXIT_OK || rc == EXIT_REGRESSED) ? EXIT_VERIFY : rc;
}

/* --clean-stores removes the stores compare made; without it, where they
 * are and what they take. */
static int stores_end(const struct cli *cl, const struct rpb_cmp_verified *v, const char *out, int rc)
{
	char msg[8192], size[32];
	size_t count, kept;
	uint64_t bytes;
	if (!cl->clean_stores) {
		bytes = rpb_cmp_stores_usage(out, &count);
		human_bytes(size, sizeof size, bytes);
		if (count && !cl->quiet)
			printf("stores kept: %s under %s/stores/*; --clean-stores removes them\n", size, out);
		return rc;
	}
	int bad = rpb_cmp_stores_clean(out, cl->verify ? v : NULL, &count, &bytes, &kept, msg, sizeof msg);
	human_bytes(size, sizeof size, bytes);
	if (!cl->quiet)
		printf("stores removed: %zu (%s)%s\n", count, size,
		       kept ? "; the stores of runs that failed their verify are kept" : "");
	if (bad) {
		fprintf(stderr, "rpbench: %s\n", msg);
		return rc ? rc : EXIT_ENV;
	}
	return rc;
}

static int cmd_compare_run(const struct cli *cl, const char *command)
{
	struct rpb_cmp_plan p = {0};
	struct rpb_job job;
	static struct rpb_servers servers;
	int rc = check_plan(cl, &p, &job, &servers);
	char out[RPB_CMP_PATH], msg[8192];
	struct rpb_baseline bl = {0};
	/* The baseline before any run: readable, of this pattern and these backends. */
	if (!rc && cl->baseline &&
	    (rpb_bl_load(&bl, cl->baseline, backend_known, msg, sizeof msg) != 0 ||
	     rpb_bl_precheck(&bl, rpb_job_pattern_name(&job), cl->backends, cl->nbackends, msg,
			     sizeof msg) != 0)) {
		fprintf(stderr, "rpbench: %s\n", msg);
		rc = EXIT_USAGE;
	}
	if (rc) {
		rpb_bl_free(&bl);
		rpb_job_free(&job);
		return rc;
	}
	if (cl->out)
		snprintf(out, sizeof out, "%s", cl->out);
	else {
		char what[64];
		snprintf(what, sizeof what, "compare-%s", rpb_job_pattern_name(&job));
		default_out(out, sizeof out, what);
	}
	rpb_job_free(&job);
	if (rpb_report_new_dir(out, "--out", msg, sizeof msg) != 0) {
		fprintf(stderr, "rpbench: %s\n", msg);
		rpb_bl_free(&bl);
		return EXIT_ENV;
	}
	p.out = out;
	rpb_exec_catch_signals();
	if (start_servers(cl->quiet, &servers) != 0) {
		rpb_bl_free(&bl);
		return EXIT_ENV;
	}

	struct rpb_cmp c;
	rpb_cmp_init(&c, backend_known);
	rc = rpb_exec_runs(&p, &c, msg, sizeof msg) != 0 ? EXIT_ENV : EXIT_OK;
	if (rc)
		fprintf(stderr, "rpbench: %s\n", msg);
	static struct rpb_cmp_verified verified; /* large: a line per run */
	verified.n = 0;
	if (!rc && cl->verify && !rpb_exec_signal())
		rc = verify_stores(cl, &c, &p, &verified);
	if (stop_servers(cl->quiet, &servers) != 0)
		rc = rc ? rc : EXIT_ENV;
	if (!rc && rpb_cmp_check(&c, msg, sizeof msg) != 0) {
		fprintf(stderr, "rpbench: %s\n", msg);
		rc = EXIT_USAGE;
	}
	if (!rc) {
		rpb_cmp_compute(&c);
		rc = write_outputs(&c, out, command);
	}
	/* The runs are done and written: a baseline refused now leaves them. */
	if (!rc && cl->baseline && !(rc = baseline_judge(&bl, &c, cl)))
		rc = baseline_files(&bl, out);
	if (!rc && cl->verify && rpb_cmp_verify_add(&verified, out, msg, sizeof msg) != 0) {
		fprintf(stderr, "rpbench: %s\n", msg);
		rc = EXIT_ENV;
	}
	bool written = !rc;
	if (!rc) {
		if (!cl->quiet)
			printf("\n");
		rpb_report_print(&c, stdout);
		if (cl->baseline)
			rpb_bl_print(&bl, stdout);
		if (cl->verify) {
			printf("\n");
			rpb_cmp_verify_print(&verified, stdout);
		}
		if (!cl->quiet)
			printf("\nTable: %s/compare.md, compare.json; report: %s/report/index.html\n", out, out);
		fflush(stdout);
		char logs[RPB_CMP_PATH + 8];
		snprintf(logs, sizeof logs, "%s/logs", out);
		if (name_incomplete(&c, logs))
			rc = EXIT_INCOMPLETE;
		else {
			char report[RPB_CMP_PATH + 16];
			snprintf(report, sizeof report, "%s/report", out);
			rc = name_skipped(&c, report);
		}
		if (cl->baseline)
			rc = baseline_end(&bl, &c, cl, rc);
		if (cl->verify)
			rc = verify_end(&verified, out, rc);
	}
	if (rpb_exec_signal()) {
		fprintf(stderr, "rpbench: stopped by %s; no further run was started\n",
			rpb_exec_signal() == SIGINT ? "SIGINT" : "SIGTERM");
		rc = EXIT_SIGNAL;
	} else if (written) /* the stores go only once the compare is written */
		rc = stores_end(cl, &verified, out, rc);
	rpb_bl_free(&bl);
	rpb_cmp_free(&c);
	return rc;
}

static int cmd_report(const struct cli *cl)
{
	struct rpb_cmp c;
	rpb_cmp_init(&c, backend_known);
	int rc = load_dirs(&c, cl);
	char out[RPB_CMP_PATH], msg[8192];
	if (cl->out)
		snprintf(out, sizeof out, "%s", cl->out);
	else
		default_out(out, sizeof out, "report");
	if (!rc && rpb_report_write(&c, out, msg, sizeof msg) != 0) {
		fprintf(stderr, "rpbench: %s\n", msg);
		rc = EXIT_ENV;
	}
	if (!rc && !cl->quiet)
		printf("Report: %s/index.html\n", out);
	if (!rc)
		rc = name_skipped(&c, out);
	rpb_cmp_free(&c);
	return rc;
}

/* rpbench sweep: the thread list from --set threads=LIST, the rest of the
 * --set list handed on to every run. */
static int cmd_sweep(const struct cli *cl)
{
	static struct rpb_sweep_plan p;
	char msg[1024], out[PATH_MAX];
	if (cl->npos != 1)
		return usage_error("sweep takes one workload file%s", "");
	if (!cl->backend || !backend_known(cl->backend))
		return usage_error("sweep needs --backend B, a backend of this build (leveldb, sqlite, "
				   "postgres, null)%s", "");
	const char *sets[MAX_ITEMS];
	size_t nsets = 0;
	for (size_t i = 0; i < cl->nsets; i++) {
		if (!strncmp(cl->sets[i], "threads=", 8)) {
			if (rpb_sweep_list(cl->sets[i] + 8, p.threads, &p.nthreads, 1024,
					   "--set threads=", msg, sizeof msg) != 0)
				return usage_error("%s", msg);
		} else {
			sets[nsets++] = cl->sets[i];
		}
	}
	if (!p.nthreads)
		return usage_error("sweep needs the thread counts: --set threads=1,2,4,8%s", "");
#ifndef RPB_WITH_MPI
	if (cl->ranks)
		return usage_error("--ranks needs a build with Open MPI (RPB_WITH_MPI); this one has "
				   "none, so sweep threads only%s", "");
#endif
	if (cl->ranks && rpb_sweep_list(cl->ranks, p.ranks, &p.nranks, 4096, "--ranks", msg,
					sizeof msg) != 0)
		return usage_error("%s", msg);
	/* compare's checks, on the one backend at each thread count. */
	static struct cli v;
	v = *cl;
	v.backends[0] = cl->backend;
	v.nbackends = 1;
	memcpy(v.sets, sets, nsets * sizeof *sets);
	v.nsets = nsets;
	v.threads = p.threads;
	v.nthreads = p.nthreads;
	struct rpb_job job;
	static struct rpb_servers servers;
	int rc = check_runs(&v, &job, p.bindir, sizeof p.bindir, &servers);
	rpb_job_free(&job);
	if (rc)
		return rc;
	if (cl->out) {
		snprintf(out, sizeof out, "%s", cl->out);
	} else {
		char stamp[32];
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
		snprintf(out, sizeof out, "results/sweep-%s-%s", cl->backend, stamp);
		if (mkdir("results", 0755) != 0 && errno != EEXIST) {
			fprintf(stderr, "rpbench: cannot create results: %s; give --out DIR\n", strerror(errno));
			return EXIT_ENV;
		}
	}
	p.workload = cl->pos[0];
	p.backend = cl->backend;
	p.sets = sets;
	p.nsets = nsets;
	p.repeat = cl->repeat;
	p.out = out;
	p.servers = &servers;
	p.quiet = cl->quiet;
	rpb_exec_catch_signals(); /* a run stopped, its secrets' file removed, then the sweep ends */
	if (start_servers(cl->quiet, &servers) != 0)
		return EXIT_ENV;
	rc = rpb_sweep_run(&p, msg, sizeof msg);
	if (rc) /* a run that failed: the first, its reason and its log */
		fprintf(stderr, "rpbench: %s\n", msg);
	int stopped = stop_servers(cl->quiet, &servers);
	return rc < 0 ? EXIT_ENV : rc ? EXIT_INCOMPLETE : stopped;
}

/* scale's own checks, after compare's: a pattern whose store a preload
 * fills, sizes and window the threads divide, room for each window. */
static int check_scale(const struct rpb_job *job, struct rpb_scale_plan *p)
{
	char msg[1024], shown[RPB_SHOWN_SIZE];
	const struct rpb_pattern *pat = job->pattern;
	if (!pat->preload) {
		fprintf(stderr, "rpbench: scale grows a store with preload, and pattern '%s' (%s) has "
			"none; give a workload of ingest with model = fedora (fedora-test2)\n", pat->name,
			rpb_text_shown(shown, sizeof shown, p->workload));
		return EXIT_USAGE;
	}
	/* The pattern's own refusals (ingest's flat model), on a copy's config. */
	if (pat->preload(job->config, job, p->sizes[0], 0, msg, sizeof msg) != 0)
		return usage_error("scale: %s", msg);
	p->threads = job->run.threads;
	if (p->window % p->threads)
		return usage_error("--window %s is not a multiple of run.threads; give a multiple or "
				   "--set run.threads=1", rpb_text_shown(shown, sizeof shown, p->window_text));
	for (size_t i = 0; i < p->nsizes; i++) {
		if (p->sizes[i] % p->threads) {
			fprintf(stderr, "rpbench: --objects size %" PRIu64 " is not a multiple of "
				"run.threads = %" PRIu64 "; give multiples\n", p->sizes[i], p->threads);
			return EXIT_USAGE;
		}
		if (i && p->sizes[i] <= p->sizes[i - 1] + p->window) {
			fprintf(stderr, "rpbench: --objects size %" PRIu64 " does not exceed %" PRIu64
				" + the window of %" PRIu64 " creates measured there; give sizes further "
				"apart or a smaller --window\n", p->sizes[i], p->sizes[i - 1], p->window);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static int cmd_scale(const struct cli *cl)
{
	static struct rpb_scale_plan p;
	char msg[1024], out[PATH_MAX], shown[RPB_SHOWN_SIZE];
	if (!cl->objects)
		return usage_error("scale needs the sizes: --objects 1e3,1e4,1e5%s", "");
	if (rpb_scale_sizes(cl->objects, p.sizes, &p.nsizes, msg, sizeof msg) != 0)
		return usage_error("%s", msg);
	p.window_text = cl->window ? cl->window : "500";
	char *end = NULL;
	errno = 0;
	unsigned long long w = *p.window_text >= '0' && *p.window_text <= '9'
				       ? strtoull(p.window_text, &end, 10) : 0;
	if (!end || *end || errno || w == 0 || w > (1ULL << 62))
		return usage_error("--window takes a count of creates from 1, not '%s'",
				   rpb_text_shown(shown, sizeof shown, p.window_text));
	p.window = w;
	if (cl->npos && !cl->nbackends)
		return usage_error("scale needs --backends, e.g. --backends leveldb,sqlite%s", "");
	struct rpb_job job;
	static struct rpb_servers servers;
	int rc = check_runs(cl, &job, p.bindir, sizeof p.bindir, &servers);
	p.workload = cl->npos ? cl->pos[0] : "";
	if (!rc)
		rc = check_scale(&job, &p);
	rpb_job_free(&job);
	if (rc)
		return rc;
	if (cl->out)
		snprintf(out, sizeof out, "%s", cl->out);
	else if (default_out(out, sizeof out, "scale"), mkdir("results", 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "rpbench: cannot create results: %s; give --out DIR\n", strerror(errno));
		return EXIT_ENV;
	}
	p.sets = cl->sets;
	p.nsets = cl->nsets;
	p.backends = cl->backends;
	p.nbackends = cl->nbackends;
	p.out = out;
	p.servers = &servers;
	p.quiet = cl->quiet;
	rpb_exec_catch_signals();
	if (start_servers(cl->quiet, &servers) != 0)
		return EXIT_ENV;
	rc = rpb_scale_run(&p, msg, sizeof msg);
	if (rc)
		fprintf(stderr, "rpbench: %s\n", msg);
	int stopped = stop_servers(cl->quiet, &servers);
	if (rpb_exec_signal())
		return EXIT_SIGNAL;
	return rc < 0 ? EXIT_ENV : rc ? EXIT_INCOMPLETE : stopped;
}

int main(int argc, char **argv)
{
	rpb_exec_backends(rpb_backend_kinds, rpb_backend_server_script);
	struct cli cl;
	int rc = parse_cli(&cl, argc, argv);
	if (rc)
		return rc;
	if (!strcmp(cl.command, "--help")) {
		if (cl.help_for && strcmp(cl.help_for, "compare") && strcmp(cl.help_for, "report") &&
		    strcmp(cl.help_for, "sweep") && strcmp(cl.help_for, "scale"))
			return unknown_command(cl.help_for);
		print_help(RPB_HELP_TEXT, cl.help_for);
		return EXIT_OK;
	}
	if (!strcmp(cl.command, "--help-man")) {
		print_help(RPB_HELP_MAN, NULL);
		return EXIT_OK;
	}
	if (!strcmp(cl.command, "--version")) {
		printf("rpbench %s\n", RPB_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(cl.command, "compare")) {
		char *command = recorded_command(&cl, argv[0]);
		if (!command) {
			fprintf(stderr, "rpbench: out of memory recording the command line\n");
			return EXIT_ENV;
		}
		rc = cl.results ? cmd_compare_results(&cl, command) : cmd_compare_run(&cl, command);
		free(command);
		return rc;
	}
	if (!strcmp(cl.command, "report"))
		return cmd_report(&cl);
	if (!strcmp(cl.command, "sweep"))
		return cmd_sweep(&cl);
	if (!strcmp(cl.command, "scale"))
		return cmd_scale(&cl);
	return unknown_command(cl.command);
}
