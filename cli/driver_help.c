/* Help of the per-backend binaries and the workload file page (driver_help.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "backends.h"
#include "driver_help.h"
#include "opthelp.h"
#include "paths.h"
#include "workload.h"

void rpb_driver_usage(struct rpb_help *h, const struct rpb_backend *b, const char *prog)
{
	const char *where = (b->flags & RPB_BF_SERVER) ? " [--dsn DSN] [--schema NAME]"
			    : (b->flags & RPB_BF_STORES_NOTHING) ? ""
								  : " [--dir PATH]";
	char run[512], more[256], load[512], preload[512], verify[512], info[256];
	snprintf(run, sizeof run, "%s run WORKLOAD [-s KEY=VALUE]... [-j N]%s", prog, where);
	snprintf(more, sizeof more, "%*s [-o DIR] [--fresh] [-q]", (int)strlen(prog) + 4, "");
	snprintf(load, sizeof load, "%s load WORKLOAD [...]   (-P FILE, -p KEY=VALUE as YCSB)", prog);
	snprintf(preload, sizeof preload, "%s preload WORKLOAD --objects N [...]", prog);
	snprintf(verify, sizeof verify, "%s verify RESULT_DIR%s", prog, where);
	snprintf(info, sizeof info, "%s -h | --help | -V | --version", prog);
	const char *lines[] = {run, more, load, preload, verify, info, NULL};
	if (b->flags & RPB_BF_STORES_NOTHING) /* nothing to verify */
		lines[4] = info, lines[5] = NULL;
	rpb_help_usage(h, lines);
}

static void location_options(struct rpb_help *h, const struct rpb_backend *b)
{
	if (b->flags & RPB_BF_SERVER) {
		rpb_help_item(h, "--dsn DSN", "libpq connection string (default: PGHOST, PGPORT, "
			      "PGDATABASE, ...); verify: the run's, as result.json records it, unless given");
		rpb_help_item(h, "--schema NAME", "schema that holds the store (default: rpbench); "
			      "verify: the run's, unless given");
	} else if (!(b->flags & RPB_BF_STORES_NOTHING)) {
		rpb_help_item(h, "--dir PATH", "store directory (default: OUT/store); rpbench marks "
			      "directories it creates and refuses non-empty unmarked ones; verify: the "
			      "run's, as result.json records it, unless given");
	}
}

static void workloads_para(struct rpb_help *h)
{
	char dir[PATH_MAX], text[PATH_MAX + 512];
	int n = snprintf(text, sizeof text, "WORKLOAD is the path of a workload file, or the name "
			 "of one in share/rpbench/workloads beside the program's directory "
			 "(/usr/share/rpbench/workloads when installed under /usr), such as "
			 "ci-ingest or folio-harvest.ini.");
	/* The page is the same wherever it is built; the text names the
	 * directory this copy reads. */
	if (h->format == RPB_HELP_TEXT && n > 0 && rpb_path_share(dir, sizeof dir, "workloads") == 0)
		snprintf(text + n, sizeof text - (size_t)n, " Here: %s", dir);
	rpb_help_para(h, 2, text);
}

static void tuning_options(struct rpb_help *h, const struct rpb_backend *b)
{
	char title[256];
	snprintf(title, sizeof title, "[%s] tuning options (workload section [%s] or --set "
		 "%s.KEY=VALUE)", b->name, b->name, b->name);
	rpb_opt_help_table(h, title, b->options);
}

/* The verb load, from the patterns that have a load phase (pattern.h's
 * load_phase). */
static const char *load_help(char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "the load phase of a workload whose pattern has one (");
	for (size_t i = 0, k = 0; i < rpb_pattern_count() && len < n; i++) {
		const struct rpb_pattern *p = rpb_pattern_at(i);
		if (p->load_phase)
			len += (size_t)snprintf(buf + len, n - len, "%s%s: the same as run with --set "
						"%s.%s", k++ ? "; " : "", p->name, p->name,
						p->load_phase);
	}
	if (len < n)
		snprintf(buf + len, n - len, "); run then runs its operations on the loaded store; "
			 "other patterns are refused");
	return buf;
}

/* One block per command: what each exit code means for it. */
static void exit_status(struct rpb_help *h, const struct rpb_backend *b)
{
	rpb_help_section(h, "Exit status");
	rpb_help_item(h, "run, load", "0 completed (ops, duration or bytes limit), 1 usage or "
		      "workload error, 2 environment error (store, server, results directory), 3 "
		      "ended by a stop condition (an error whose policy is stop, e.g. disk full or "
		      "transaction timeout, or max_slow), 5 stopped by SIGINT/SIGTERM (results "
		      "complete)");
	if (!(b->flags & RPB_BF_STORES_NOTHING))
		rpb_help_item(h, "verify", "0 no discrepancy, 1 usage or an unreadable or damaged "
			      "result.json or ledger, 2 the store cannot be reopened or a run still "
			      "writes it, 4 missing, corrupt or unexpected data");
	rpb_help_item(h, "--help, --version", "0 (1 for an unknown help section)");
}

/* Commands that run as written (the workload files come with rpbench). */
static void examples(struct rpb_help *h, const struct rpb_backend *b, const char *prog)
{
	char text[2048];
	const char *where = (b->flags & RPB_BF_SERVER) ? " --dsn 'host=/tmp dbname=postgres'" : "";
	size_t len = (size_t)snprintf(text, sizeof text,
				      "  %s run ci-ingest%s --out res\n"
				      "  %s run ci-ingest --set ops=500 -j 4 --out res2 --quiet\n",
				      prog, where, prog);
	if (!(b->flags & RPB_BF_STORES_NOTHING))
		len += (size_t)snprintf(text + len, sizeof text - len, "  %s verify res%s\n", prog,
					where);
	snprintf(text + len, sizeof text - len, "  %s --help ingest\n  %s --help %s\n", prog, prog,
		 b->options && b->options->key ? b->name : "run");
	rpb_help_section(h, "Examples");
	rpb_help_verbatim(h, text);
}

int rpb_driver_help_section(struct rpb_help *h, const char *section, const char *prog, char *msg,
			    size_t n)
{
	h->term = 19;
	if (rpb_job_print_help_section(h, section))
		return 0;
	for (const struct rpb_backend *const *b = rpb_backends; *b; b++)
		if ((*b)->options && (*b)->options->key && !strcmp((*b)->name, section)) {
			tuning_options(h, *b);
			return 0;
		}
	size_t len = (size_t)snprintf(msg, n, "%s: no help section '%.64s'; the sections: run", prog,
				      section);
	for (size_t i = 0; i < rpb_pattern_count() && len < n; i++)
		if (rpb_pattern_at(i)->options)
			len += (size_t)snprintf(msg + len, n - len, ", %s", rpb_pattern_at(i)->name);
	for (const struct rpb_backend *const *b = rpb_backends; *b && len < n; b++)
		if ((*b)->options && (*b)->options->key)
			len += (size_t)snprintf(msg + len, n - len, ", %s", (*b)->name);
	return -1;
}

void rpb_driver_help(struct rpb_help *h, const struct rpb_backend *b, const char *prog)
{
	char summary[256], load[1024];
	snprintf(summary, sizeof summary, "rpbench storage benchmark against %s (%s)", b->name,
		 b->version());
	rpb_help_title(h, prog, 1, summary);
	rpb_driver_usage(h, b, prog);
	h->term = 19;
	rpb_help_section(h, "Commands");
	rpb_help_item(h, "run WORKLOAD", "run the workload file's pattern against the store");
	rpb_help_item(h, "load WORKLOAD", load_help(load, sizeof load));
	rpb_help_item(h, "preload WORKLOAD", "--objects N: fill the store with what a run of N "
		      "creates (N / threads per thread) of the workload and seed would leave, at the "
		      "store's fastest path (about 1000 creates per transaction, sync none, one sync "
		      "at the end); ingest with model = fedora only; verify checks it like a run, "
		      "and run --continue goes on from it; with --continue DIR it grows that store to N");
	if (!(b->flags & RPB_BF_STORES_NOTHING))
		rpb_help_item(h, "verify RESULT_DIR", "reopen the store of a run (finished, stopped or "
			      "killed) and check every acknowledged operation (prints: verified N "
			      "objects: M missing, C corrupt, U unexpected)");
	rpb_help_section(h, "Options");
	rpb_help_item(h, "-s, --set KEY=VALUE", "override a workload option: section.key=value, or "
		      "key=value when the key is unique among [run] and the pattern (repeatable)");
	rpb_help_item(h, "-j, --threads N", "worker threads: the same as --set run.threads=N");
	rpb_help_item(h, "-P FILE, -p KEY=VALUE", "YCSB's: the workload file (more -P: more of its "
		      "properties) and a property as YCSB reads it (any is accepted; the unused are "
		      "named), else as --set");
	rpb_help_item(h, "-threads N, -target N", "YCSB's: -p threadcount=N, -p target=N");
	rpb_help_item(h, "-load, -t", "YCSB's: the verbs load and run (no verb: run)");
	rpb_help_item(h, "-s (no KEY=VALUE)", "YCSB's: its status lines on stderr (-p status=true)");
	rpb_help_item(h, "-db CLASS, -l LABEL", "YCSB's: -p db=CLASS (unused), -p label=LABEL");
	location_options(h, b);
	char out[256];
	snprintf(out, sizeof out, "results directory: new, or one that holds none of rpbench's "
		 "result files (other files there stay), never inside --dir nor around it (default: "
		 "results/<pattern>-%s-<YYYYmmddTHHMMSSZ>, UTC)", b->name);
	rpb_help_item(h, "-o, --out DIR", out);
	rpb_help_item(h, "--objects N", "preload: the creates the store is to hold, a multiple "
		      "of run.threads (beyond those it holds, with --continue)");
	rpb_help_item(h, "--continue DIR", "run: go on from the preload whose results directory "
		      "is DIR, on its store (the same --dir or --dsn and --schema, seed and threads): "
		      "its run tag, and each thread's creates from the next object "
		      "(--set ingest.start_at=N); DIR may be a run that continued one; preload: grow "
		      "that store to --objects N");
	rpb_help_item(h, "--fresh", "empty the store first (only a store rpbench marked as its own, "
		      "holding nothing but its own files, and no other process is using)");
	rpb_help_item(h, "--args-file FILE", "more arguments, each ended by a NUL byte, read "
		      "where this option stands from FILE (the user's own, mode 0600): how rpbench "
		      "compare and sweep hand a run a --set list or DSN that holds a password, off "
		      "the command line every user can read");
	rpb_help_item(h, "-q, --quiet", "print only the final summary line (and errors)");
	rpb_help_item(h, "-V, --version", "the versions of rpbench and of the backend's library");
	rpb_help_item(h, "-h, --help [SECTION]", "this help; with SECTION only [run], a "
		      "pattern's section (ingest, metadata, ...) or a backend's tuning options");
	rpb_help_section(h, "Workload files");
	workloads_para(h);
	exit_status(h, b);
	examples(h, b, prog);
	rpb_help_section(h, "Workload options");
	rpb_job_print_help(h);
	if (b->options && b->options->key)
		tuning_options(h, b);
	rpb_help_section(h, "See also");
	rpb_help_para(h, 2, "rpbench(1), rpbench-workload(5), rpbench-quota-run --help, "
		      "rpbench-pg-throwaway; the documentation in /usr/share/doc/rpbench or docs/.");
}

void rpb_workload_man(struct rpb_help *h)
{
	rpb_help_title(h, "rpbench-workload", 5, "workload files of the rpbench storage benchmarks");
	rpb_help_section(h, "Description");
	rpb_help_para(h, 0, "A workload file is an INI file: a [run] section for the runner, one "
		      "pattern section ([ingest], [metadata], [harvest] or [raw]) that selects the "
		      "pattern and holds its options, and optional backend sections of tuning "
		      "options, each read only by that backend. Lines are key = value; # and ; start "
		      "comments. A key missing from the file keeps its default; --set "
		      "section.key=value on the command line overrides the file.");
	rpb_help_para(h, 0, "An unknown section or key is refused with the valid ones listed and the "
		      "nearest named (did you mean threads?).");
	rpb_help_section(h, "Options");
	rpb_job_print_help(h);
	for (const struct rpb_backend *const *b = rpb_backends; *b; b++)
		if ((*b)->options && (*b)->options->key)
			tuning_options(h, *b);
	rpb_help_section(h, "Files");
	rpb_help_para(h, 0, "/usr/share/rpbench/workloads: the workload files that come with "
		      "rpbench (ci-*.ini for seconds-long runs, the seed reports' fedora-*, "
		      "tachyon-*, folio-* and demo-*); a run records the file's options in "
		      "result.json.");
	rpb_help_section(h, "See also");
	rpb_help_para(h, 0, "rpbench(1), rpbench-sqlite(1), rpbench-leveldb(1), rpbench-postgres(1), "
		      "rpbench-null(1); docs/workloads.md.");
}
