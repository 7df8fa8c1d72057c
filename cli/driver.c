/* The shared driver behind every rpbench-<backend> binary: command line,
 * store location, the run, the result files, and verify. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dist.h"
#include "dist_check.h"
#include "backends.h"
#include "clock.h"
#include "cmdline.h"
#include "driver.h"
#include "driver_help.h"
#include "driver_preload.h"
#include "driver_argsfile.h"
#include "driver_ycsb.h"
#include "dsn.h"
#include "fsutil.h"
#include "hostinfo.h"
#include "ledger.h"
#include "paths.h"
#include "pattern.h"
#include "powercut.h"
#include "progress.h"
#include "results.h"
#include "runner.h"
#include "shown.h"
#include "storeloc.h"
#include "storelock.h"
#include "workload.h"

#define MAX_SETS 256
#define MAX_PROPS 16

struct cli {
	const char *command;
	const char *target; /* the workload file or the results directory */
	const char *given;  /* the workload as the command line named it */
	bool load;	    /* the verb load: the pattern's load phase */
	bool preload;	    /* the verb preload: --objects N at the pattern's fast path */
	const char *objects; /* --objects N as given */
	uint64_t nobjects;
	const char *cont;   /* run --continue DIR: the preload's results directory */
	uint64_t before;    /* the objects the store of --continue DIR holds */
	const char *sets[MAX_SETS];
	bool foreign[MAX_SETS]; /* -p: the pattern's own property (YCSB's), else --set */
	size_t nsets;
	const char *props[MAX_PROPS]; /* -P files after the first: more of its properties */
	size_t nprops;
	const char *dir, *dsn, *schema, *out;
	bool fresh, quiet;
};

static int usage_error(const char *prog, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "; see %s --help\n", prog);
	return RPB_EXIT_USAGE;
}

/* Short options as pgbench and fio users expect them: -s, -j, -o, -q, -h,
 * -V. --help-man[=workload] writes the man page (man/CMakeLists.txt). */
static const struct option longopts[] = {
	{"set", required_argument, NULL, 's'},	   {"threads", required_argument, NULL, 'j'},
	{"dir", required_argument, NULL, 'd'},	   {"dsn", required_argument, NULL, 'D'},
	{"schema", required_argument, NULL, 'S'},  {"out", required_argument, NULL, 'o'},
	{"fresh", no_argument, NULL, 'f'},	   {"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},	   {"version", no_argument, NULL, 'V'},
	{"help-man", optional_argument, NULL, 'M'}, {"args-file", required_argument, NULL, 'A'},
	{"objects", required_argument, NULL, 'N'}, {"continue", required_argument, NULL, 'C'},
	{NULL, 0, NULL, 0},
};

/* -j N is --set run.threads=N: the workload parser checks N (a longer
 * text than any count is refused here, never cut). */
static const char *threads_set(const char *n)
{
	static char text[64];
	if (strlen(n) > 20)
		return NULL;
	snprintf(text, sizeof text, "run.threads=%s", n);
	return text;
}

#define OPTSTRING "+:s:j:o:qhVP:p:"

static int parse_cli(struct cli *c, const char *prog, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	opterr = 0;
	optind = 0; /* a fresh getopt: rpb_args_file_argv has read argv before */
	int ch;
	char why[512], shown[RPB_SHOWN_SIZE];
	for (;;) {
		const char *elem = optind < argc ? argv[optind] : NULL;
		if ((ch = getopt_long(argc, argv, OPTSTRING, longopts, NULL)) == -1 && optind >= argc)
			break;
		if (ch == -1) { /* a positional argument: the command and its target */
			if (!c->command)
				c->command = argv[optind];
			else if (!c->target)
				c->target = argv[optind];
			else
				return usage_error(prog, "unexpected argument '%s'",
						   rpb_text_shown(shown, sizeof shown, argv[optind]));
			optind++;
			continue;
		}
		switch (ch) {
		case 'P': /* YCSB's -P FILE: the workload file, then more of its properties */
			if (!c->target) {
				c->target = optarg;
				break;
			}
			if (c->nprops == MAX_PROPS)
				return usage_error(prog, "too many -P files (at most %s)", "16");
			c->props[c->nprops++] = optarg;
			break;
		case 'p': /* YCSB's -p key=value: --set */
		case 's':
		case 'j':
			if (c->nsets == MAX_SETS)
				return usage_error(prog, "too many --set options (at most %s)", "256");
			if (ch == 'j' && !threads_set(optarg))
				return usage_error(prog, "-j takes a thread count from 1 to 1024, not '%s'",
						   rpb_text_shown(shown, sizeof shown, optarg));
			c->foreign[c->nsets] = ch == 'p';
			c->sets[c->nsets++] = ch == 'j' ? threads_set(optarg) : optarg;
			break;
		case 'A': /* the first is read in its place (rpb_args_file_argv) */
			return usage_error(prog, "%s", "--args-file may be given once, and not in its "
					   "own file");
		case 'M': c->command = "--help-man"; c->target = optarg; return 0;
		case 'N': c->objects = optarg; break;
		case 'C': c->cont = optarg; break;
		case 'd': c->dir = optarg; break;
		case 'D': c->dsn = optarg; break;
		case 'S': c->schema = optarg; break;
		case 'o': c->out = optarg; break;
		case 'f': c->fresh = true; break;
		case 'q': c->quiet = true; break;
		case 'h': /* --help [SECTION] */
			c->command = "--help";
			c->target = optind < argc && argv[optind][0] != '-' ? argv[optind] : NULL;
			return 0;
		case 'V': c->command = "--version"; return 0;
		default:
			rpb_cli_problem(why, sizeof why, longopts, ch, elem);
			return usage_error(prog, "%s", why);
		}
	}
	if (!c->command)
		return usage_error(prog, "no command given%s", "");
	return 0;
}

/* The command line as result.json records it: rebuilt from what was
 * parsed, in canonical spelling, every connection string redacted. */
static char *recorded_command(const struct cli *c, const char *argv0)
{
	struct rpb_cmd cmd;
	if (!rpb_cmd_open(&cmd))
		return NULL;
	FILE *f = cmd.f;
	rpb_cmd_word(f, argv0);
	rpb_cmd_word(f, c->command);
	if (c->target)
		rpb_cmd_word(f, c->target);
	for (size_t i = 0; i < c->nprops; i++)
		rpb_cmd_opt(f, "-P", c->props[i]);
	for (size_t i = 0; i < c->nsets; i++)
		rpb_cmd_set(f, c->foreign[i] ? "-p" : "--set", c->sets[i]);
	if (c->dir)
		rpb_cmd_opt(f, "--dir", c->dir);
	if (c->dsn)
		rpb_cmd_dsn(f, "--dsn", c->dsn);
	if (c->schema)
		rpb_cmd_opt(f, "--schema", c->schema);
	if (c->out)
		rpb_cmd_opt(f, "--out", c->out);
	if (c->fresh)
		rpb_cmd_word(f, "--fresh");
	if (c->quiet)
		rpb_cmd_word(f, "--quiet");
	return rpb_cmd_close(&cmd);
}

/* Refuses a results directory that holds one of names (NULL-terminated). */
static int refuse_held(const char *out, const char *const *names, char *msg, size_t mn)
{
	char path[PATH_MAX];
	for (size_t i = 0; names && names[i]; i++) {
		if (rpb_path_join(path, sizeof path, out, names[i]) != 0) {
			snprintf(msg, mn, "results directory %.256s... is too long; choose a shorter --out", out);
			return -1;
		}
		if (access(path, F_OK) == 0) {
			snprintf(msg, mn, "results directory %s already holds %s; choose a new --out", out,
				 names[i]);
			return -1;
		}
	}
	return 0;
}

/* The results directory: --out, or results/<pattern>-<backend>-<UTC time>,
 * with -2, -3, ... when a run of the same second already took that name
 * (a YCSB load and its run, a script's quick runs). */
static void out_name(char *out, size_t n, const struct cli *c, const struct rpb_job *job,
		     const struct rpb_backend *b)
{
	if (c->out) {
		snprintf(out, n, "%s", c->out); /* checked by check_paths */
		return;
	}
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	snprintf(out, n, "results/%s-%s-%s", rpb_job_pattern_name(job), b->name, stamp);
	size_t base = strlen(out);
	struct stat st;
	for (int k = 2; k < 1000 && lstat(out, &st) == 0; k++)
		snprintf(out + base, n - base, "-%d", k);
}

/* The directories make_out created, each the prefix of path up to end[i]. */
struct made_dirs {
	char path[PATH_MAX];
	size_t end[64];
	int n;
};

/* Makes the results directory and any missing parent, and notes which it
 * made, so a start that fails removes only those. Errors are left to
 * prepare_out. */
static void make_out(const char *out, struct made_dirs *m)
{
	m->n = 0;
	if (snprintf(m->path, sizeof m->path, "%s", out) >= (int)sizeof m->path)
		return;
	for (char *p = m->path + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(m->path, 0755) == 0 && m->n < (int)(sizeof m->end / sizeof *m->end))
			m->end[m->n++] = (size_t)(p - m->path);
		*p = c;
		if (!c)
			return;
	}
}

/* A start that failed leaves no directory behind that rpbench made for it
 * (the results directory, a new --dir): the store directory dir, when
 * own_store says this start made it, while it holds nothing but the mark
 * (call with the store's lock held), then every directory make_out made,
 * innermost first, each only while empty (rmdir), so nothing another
 * program put there goes. */
static void unmake_out(struct made_dirs *m, const char *dir, bool own_store)
{
	if (m->n && own_store)
		rpb_storedir_unclaim(dir);
	for (int i = m->n - 1; i >= 0; i--) {
		char c = m->path[m->end[i]];
		m->path[m->end[i]] = '\0';
		rmdir(m->path);
		m->path[m->end[i]] = c;
	}
}

/* The result files of the core; each pattern lists its own. */
static const char *const core_result_files[] = {"result.json", "summary.txt",   "intervals.csv",
						"samples.jtl", "report.txt",    "histograms.hlog", RPB_LEDGER_FILE,
						RPB_FAILURES_FILE, NULL};

/* After a start that failed before any operation: removes every result
 * file in out. Each is this run's: prepare_out refused a directory that held
 * any of them. */
static void remove_result_files(const char *out)
{
	char path[PATH_MAX];
	for (size_t p = 0; p <= rpb_pattern_count(); p++) {
		const char *const *names = p == 0 ? core_result_files : rpb_pattern_at(p - 1)->files;
		for (size_t i = 0; names && names[i]; i++)
			if (rpb_path_join(path, sizeof path, out, names[i]) == 0)
				unlink(path);
	}
}

/* Creates the results directory; refuses one that holds a result file. */
static int prepare_out(const char *out, char *msg, size_t mn)
{
	struct rpb_err err;
	if (rpb_dir_prepare(out, true, &err) != RPB_OK) {
		snprintf(msg, mn, "results directory %s cannot be used (%s); choose a writable --out",
			 out, err.native ? strerror(err.native) : "not a directory");
		return -1;
	}
	/* The core's files, then every pattern's own: a directory of any run
	 * is refused, whichever pattern made it. */
	if (refuse_held(out, core_result_files, msg, mn))
		return -1;
	for (size_t i = 0; i < rpb_pattern_count(); i++)
		if (refuse_held(out, rpb_pattern_at(i)->files, msg, mn))
			return -1;
	return 0;
}

/* The absolute form of a path for the record; the path as given when it
 * cannot be resolved (rpb_path_check has ruled out a too long one). */
static void absolute_or_given(const char *path, char *abs, size_t n)
{
	if (rpb_path_absolute(path, abs, n) != 0)
		snprintf(abs, n, "%s", path);
}

/* --out and --dir never nest (but for OUT/store, which rpbench makes there
 * itself): --fresh empties a store, so results kept in it would go, and a
 * store kept in results would be written as results are. Canonical paths,
 * symlinks resolved. */
static int check_nesting(const char *abs_out, const char *abs_dir, char *msg, size_t n)
{
	char own[PATH_MAX];
	bool own_store = rpb_path_join(own, sizeof own, abs_out, "store") == 0 && !strcmp(own, abs_dir);
	if (rpb_path_within(abs_out, abs_dir))
		snprintf(msg, n, "--out %s is inside the store %s, which --fresh empties; "
			 "choose an --out outside --dir", abs_out, abs_dir);
	else if (rpb_path_within(abs_dir, abs_out) && !own_store)
		snprintf(msg, n, "--dir %s is inside the results directory %s; choose a --dir outside "
			 "--out (or leave --dir out: OUT/store is rpbench's own)", abs_dir, abs_out);
	else
		return 0;
	return -1;
}

/* Every directory an option names for rpbench to write into (binary_dir)
 * stays apart from --out, as --dir does. */
static int check_option_dirs(const struct rpb_job *job, const char *abs_out, char *msg, size_t n)
{
	const struct rpb_optdef *d = job->pattern && job->config ? job->pattern->options : NULL;
	for (; d && d->key; d++) {
		const char *v = (const char *)job->config + d->off;
		if (d->path != RPB_PATH_WRITTEN || !*v)
			continue;
		if (rpb_path_within(v, abs_out) || rpb_path_within(abs_out, v)) {
			snprintf(msg, n, "%s.%s = %s and --out %s nest; choose a %s outside --out "
				 "(and an --out outside it)", job->pattern->name, d->key, v, abs_out,
				 d->key);
			return -1;
		}
	}
	return 0;
}

static FILE *open_output(const char *dir, const char *name, const char *header)
{
	char path[PATH_MAX];
	if (rpb_path_join(path, sizeof path, dir, name) != 0)
		return NULL;
	FILE *f = fopen(path, "w");
	if (f && header)
		fprintf(f, "%s\n", header);
	return f;
}

/* Which patterns have a load phase, for a message: "only ycsb workloads
 * have one". */
static void load_patterns(char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "only ");
	for (size_t i = 0, k = 0; i < rpb_pattern_count() && len < n; i++)
		if (rpb_pattern_at(i)->load_phase)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", k++ ? ", " : "",
						rpb_pattern_at(i)->name);
	if (len == strlen("only "))
		snprintf(buf, n, "no pattern has one");
	else if (len < n)
		snprintf(buf + len, n - len, " workloads have one");
}

/* The verb load: the pattern's own load phase, applied as the last --set
 * (so the recorded command line and every message show it as such); a
 * pattern without one is refused. The pattern is known once the workload
 * and the command line's --set are read; with none, finish says so. */
static int add_load_phase(struct cli *c, const struct rpb_job *job, char *msg, size_t n)
{
	static char set[256];
	const struct rpb_pattern *p = job->pattern;
	if (!p)
		return 0;
	if (!p->load_phase) {
		char shown[RPB_SHOWN_SIZE], with[160];
		load_patterns(with, sizeof with);
		snprintf(msg, n, "load: pattern '%s' (%s) has no load phase; use 'run' (%s)", p->name,
			 rpb_text_shown(shown, sizeof shown, c->given), with);
		return -1;
	}
	if (c->nsets == MAX_SETS) {
		snprintf(msg, n, "too many --set options for load (at most %d); give fewer",
			 MAX_SETS - 1);
		return -1;
	}
	snprintf(set, sizeof set, "%s.%s", p->name, p->load_phase);
	c->foreign[c->nsets] = false;
	c->sets[c->nsets++] = set;
	return 0;
}

/* The -P files after the first: more of the pattern's own properties. */
static int load_props(struct rpb_job *job, const struct cli *c, char *msg, size_t n)
{
	for (size_t i = 0; i < c->nprops; i++) {
		char shown[RPB_SHOWN_SIZE];
		rpb_text_shown(shown, sizeof shown, c->props[i]);
		if (!job->pattern || !job->pattern->load_foreign) {
			snprintf(msg, n, "-P %s: more property files are YCSB's, for its workloads; give "
				 "one workload file", shown);
			return -1;
		}
		FILE *f = fopen(c->props[i], "r");
		if (!f) {
			snprintf(msg, n, "-P %s: cannot read it (%s); give a YCSB property file", shown,
				 strerror(errno));
			return -1;
		}
		int rc = job->pattern->load_foreign(job, f, shown, rpb_job_set, msg, n);
		fclose(f);
		if (rc)
			return -1;
	}
	return 0;
}

/* One -p KEY=VALUE: the pattern's property as its source reads it (YCSB
 * takes any; those rpbench has no use for are named in *ignored), else
 * --set. */
static int apply_set(struct rpb_job *job, const struct cli *c, size_t i, char *ignored,
		     size_t in, char *msg, size_t n)
{
	const struct rpb_pattern *p = job->pattern;
	if (!c->foreign[i] || !p || !p->property)
		return rpb_job_set(job, c->sets[i], msg, n);
	char key[RPB_JOB_NAME_MAX + 1], shown[RPB_SHOWN_SIZE];
	const char *eq = strchr(c->sets[i], '=');
	if (!eq || (size_t)(eq - c->sets[i]) > RPB_JOB_NAME_MAX) {
		snprintf(msg, n, "-p '%s': write key=value (YCSB's -p)",
			 rpb_text_shown(shown, sizeof shown, c->sets[i]));
		return -1;
	}
	snprintf(key, sizeof key, "%.*s", (int)(eq - c->sets[i]), c->sets[i]);
	int rc = p->property(job, key, eq + 1, rpb_job_set, msg, n);
	if (rc == 1)
		rpb_cat(ignored, in, "%s%s", *ignored ? ", " : "", rpb_text_shown(shown, 64, key));
	return rc == 1 ? 0 : rc;
}

static int load_job(struct rpb_job *job, struct cli *c, const char *prog)
{
	char msg[2048];
	rpb_job_defaults(job);
	if (!c->target) {
		fprintf(stderr, "%s: %s needs a workload: a file, or the name of one in "
			"share/rpbench/workloads (ci-ingest, ...); see %s --help\n", prog, c->command,
			prog);
		return RPB_EXIT_USAGE;
	}
	char ignored[512] = "";
	if (rpb_path_check(c->target, "the workload file", 0, msg, sizeof msg) != 0 ||
	    rpb_path_workload_unknown(c->target, msg, sizeof msg) ||
	    rpb_job_load(job, c->target, msg, sizeof msg) != 0 ||
	    load_props(job, c, msg, sizeof msg) != 0)
		goto bad;
	size_t i = 0;
	for (; i < c->nsets; i++)
		if (apply_set(job, c, i, ignored, sizeof ignored, msg, sizeof msg) != 0)
			goto bad;
	/* The load phase comes after the command line's own --set. */
	if (c->load && add_load_phase(c, job, msg, sizeof msg) != 0)
		goto bad;
	for (; i < c->nsets; i++)
		if (apply_set(job, c, i, ignored, sizeof ignored, msg, sizeof msg) != 0)
			goto bad;
	if (c->preload && rpb_preload_sets(job, c->nobjects, c->before, c->given, msg, sizeof msg) != 0)
		goto bad;
	if (rpb_job_finish(job, msg, sizeof msg) != 0)
		goto bad;
	if (c->preload && rpb_preload_ready(job, c->nobjects, c->before, msg, sizeof msg) != 0)
		goto bad;
	if (*ignored)
		fprintf(stderr, "warning: -p: YCSB properties rpbench does not use, ignored: %s\n",
			ignored);
	return 0;
bad:
	fprintf(stderr, "%s: %s\n", prog, msg);
	return RPB_EXIT_USAGE;
}

static void store_cfg(struct rpb_store_cfg *cfg, const struct rpb_backend *b,
		      const struct rpb_job *job, const char *dir, const char *dsn, const char *schema)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->sync = job->run.sync;
	cfg->profile = rpb_profile_names[job->run.profile];
	cfg->dir = dir;
	cfg->dsn = dsn;
	cfg->name = schema ? schema : ((b->flags & RPB_BF_SERVER) ? "rpbench" : NULL);
	const struct rpb_backend_section *sec = rpb_job_backend(job, b->name);
	if (sec) {
		cfg->opts = sec->kv;
		cfg->nopts = sec->n;
	}
}

static int check_location_flags(const struct rpb_backend *b, const struct cli *c, const char *prog)
{
	if ((b->flags & RPB_BF_SERVER) && c->dir)
		return usage_error(prog, "--dir is for embedded backends; %s takes --dsn and --schema",
				   b->name);
	if (!(b->flags & RPB_BF_SERVER) && (c->dsn || c->schema))
		return usage_error(prog, "--dsn and --schema are for server backends; %s takes --dir",
				   b->name);
	if (c->dsn && rpb_dsn_control_at(c->dsn) >= 0)
		return usage_error(prog, "--dsn holds a control character (a newline, a tab, an escape), "
				   "which libpq would take as text; write the connection string on one "
				   "line of printable text%s", "");
	return 0;
}

/* Every path given: short enough, whole and absolute, for what rpbench
 * builds from it (result files, the store's files, OUT/store). verify has
 * no --out. */
static int check_paths(const struct cli *c, bool run, const char *prog)
{
	char msg[1024];
	if ((run && c->out && rpb_path_check(c->out, "--out", RPB_PATH_ROOM * 2, msg, sizeof msg) != 0) ||
	    (c->dir && rpb_path_check(c->dir, "--dir", RPB_PATH_ROOM, msg, sizeof msg) != 0)) {
		fprintf(stderr, "%s: %s\n", prog, msg);
		return RPB_EXIT_USAGE;
	}
	return 0;
}

/* What every rank must share (docs/distributed.md): the program, the verb,
 * the workload's contents, the resolved options but inject, the locations.
 * Paths absolute, the DSN redacted (no secret leaves the process). */
static int ranks_agree(const struct rpb_backend *b, const struct cli *c, const struct rpb_job *job,
		       const char *prog)
{
	struct rpb_fields l = {0};
	char digest[32], path[PATH_MAX], name[64];
	json_t *opts = rpb_job_to_json(job);
	char *dsn = c->dsn ? rpb_dsn_redacted(c->dsn) : NULL;
	bool ok = opts && (!c->dsn || dsn) && rpb_fields_open(&l);
	if (ok) {
		rpb_fields_add(&l, "the backend", b->name);
		rpb_fields_add(&l, "the command", c->command);
		rpb_file_digest(c->target, digest);
		rpb_fields_add(&l, "the workload's contents (digest)", digest);
		for (size_t i = 0; i < c->nprops; i++) {
			snprintf(name, sizeof name, "the contents of -P file %zu (digest)", i + 2);
			rpb_file_digest(c->props[i], digest);
			rpb_fields_add(&l, name, digest);
		}
		/* A fault is injected where it is set: one rank alone may have one. */
		json_object_del(opts, "run.inject");
		rpb_fields_add_json(&l, "option", opts);
		if (c->out)
			absolute_or_given(c->out, path, sizeof path);
		rpb_fields_add(&l, "--out", c->out ? path : "(none: rank 0's default)");
		if (c->dir)
			absolute_or_given(c->dir, path, sizeof path);
		rpb_fields_add(&l, "--dir", c->dir ? path : "(none)");
		rpb_fields_add(&l, "--dsn", c->dsn ? dsn : "(none)");
		rpb_fields_add(&l, "--schema", c->schema ? c->schema : "(none)");
		rpb_fields_add(&l, "--fresh", c->fresh ? "given" : "(none)");
		ok = rpb_fields_close(&l);
	}
	json_decref(opts);
	free(dsn);
	/* Out of memory on one rank: it says so, and every rank ends. */
	if (!rpb_dist_agree(ok)) {
		if (!ok)
			fprintf(stderr, "%s: out of memory comparing this rank's settings with rank 0's\n",
				prog);
		rpb_fields_free(&l);
		return ok ? RPB_EXIT_USAGE : RPB_EXIT_ENV;
	}
	char msg[2 * RPB_SHOWN_SIZE + 512];
	int rc = rpb_dist_check(&l, msg, sizeof msg);
	rpb_fields_free(&l);
	if (rc == 0)
		return 0;
	if (msg[0]) /* one line, from the first rank that differs */
		fprintf(stderr, "%s: %s\n", prog, msg);
	return RPB_EXIT_USAGE;
}

static int cmd_run(const struct rpb_backend *b, struct cli *c, const char *prog,
		   const char *argv0)
{
	struct rpb_job job;
	char cont_tag[16] = "";
	uint64_t cont_seed = 0, cont_threads = 0;
	if (c->cont) {
		/* After the command line's --set: the preload's own start. */
		const char *sets[RPB_CONTINUE_SETS];
		size_t ns = 0;
		char cmsg[2048];
		if (rpb_continue_read(c->cont, b, cont_tag, sets, &ns, &cont_seed, &cont_threads,
				      &c->before, cmsg, sizeof cmsg) != 0) {
			fprintf(stderr, "%s: %s\n", prog, cmsg);
			return RPB_EXIT_USAGE;
		}
		for (size_t k = 0; k < ns && c->nsets < MAX_SETS; k++) {
			c->foreign[c->nsets] = false;
			c->sets[c->nsets++] = sets[k];
		}
	}
	int rc = load_job(&job, c, prog);
	if (!rc && c->cont && (job.run.seed != cont_seed || job.run.threads != cont_threads)) {
		fprintf(stderr, "%s: --continue: the preload ran seed %" PRIu64 " on %" PRIu64
			" thread(s), this run seed %" PRIu64 " on %" PRIu64 "; run with the preload's "
			"seed and threads\n", prog, cont_seed, cont_threads, job.run.seed, job.run.threads);
		rc = RPB_EXIT_USAGE;
	}
	/* sync = native: what this store does unasked; result.json records
	 * the resolved level, so a comparison shows what really ran. */
	if (!rc && job.run.sync == RPB_SYNC_NATIVE)
		job.run.sync = (b->flags & (RPB_BF_NATIVE_UNSYNCED | RPB_BF_STORES_NOTHING))
				       ? RPB_SYNC_NONE
				       : RPB_SYNC_COMMIT;
	if (!rc && !(rc = check_location_flags(b, c, prog)) && !(rc = check_paths(c, true, prog)) &&
	    job.run.inject.kind == RPB_INJECT_LOCK && !(b->flags & RPB_BF_LOCKS))
		rc = usage_error(prog, "inject = lock needs a backend whose writers wait for another "
				 "session's lock (sqlite, postgres); on %s use inject = stall:MS@N", b->name);
	/* Under mpirun a rank whose workload or command line fails says so,
	 * and every rank ends: none waits for it in the next collective. */
	if (!rpb_dist_agree(!rc) && !rc) {
		fprintf(stderr, "%s: another rank refused its workload or command line (its own "
			"message says why)\n", prog);
		rc = RPB_EXIT_USAGE;
	}
	/* Under mpirun every rank runs what rank 0 runs, or none runs. */
	if (!rc && rpb_dist_on())
		rc = ranks_agree(b, c, &job, prog);
	if (rc) {
		rpb_job_free(&job);
		return rc;
	}
	bool embedded = !(b->flags & RPB_BF_SERVER);
	char msg[8192], out[PATH_MAX], dir[PATH_MAX], *command = NULL, *dsn_shown = NULL;
	char abs_out[PATH_MAX], abs_dir[PATH_MAX], abs_workload[PATH_MAX];
	struct rpb_runner rn = {0};
	struct rpb_live_ledger live = {.failfd = -1};
	struct rpb_store_cfg cfg;
	struct rpb_err err = {0};
	int lock_fd = -1;
	bool agreed = false; /* under mpirun: every rank is ready to run */
	char rank_schema[128];
	uint32_t tag = (uint32_t)((rpb_now_ns() ^ rpb_wall_ms() * 2654435761u) ^ ((uint64_t)getpid() << 16));
	char top_out[PATH_MAX];
	char own_dir[PATH_MAX];
	struct made_dirs made = {.n = 0}, made_store = {.n = 0};
	bool prepared = false, ran = false, own_store = false;
	out_name(out, sizeof out, c, &job, b);
	if (rpb_dist_on()) {
		/* One load node per rank: rank 0's results directory, each rank's
		 * files in OUT/rank-N, its store in DIR/rank-N, its own seed and
		 * run tag, so no two ranks write the same key. */
		rpb_dist_bcast(out, sizeof out);
		rpb_dist_bcast(&tag, sizeof tag);
		snprintf(top_out, sizeof top_out, "%s", out);
		char rank_dir[32];
		snprintf(rank_dir, sizeof rank_dir, "rank-%d", rpb_dist_rank());
		rpb_path_join(out, sizeof out, top_out, rank_dir);
		if (c->dir)
			rpb_path_join(dir, sizeof dir, c->dir, rank_dir);
		job.run.seed += (uint64_t)rpb_dist_rank();
	}
	if (!c->out && rpb_path_check(out, "the default results directory", RPB_PATH_ROOM * 2, msg,
				      sizeof msg) != 0) {
		rc = RPB_EXIT_ENV;
		goto fail;
	}
	if (c->dir && !rpb_dist_on())
		snprintf(dir, sizeof dir, "%s", c->dir);
	else if (!c->dir)
		rpb_path_join(dir, sizeof dir, out, "store"); /* fits: check_paths left room */
	absolute_or_given(out, abs_out, sizeof abs_out);
	absolute_or_given(dir, abs_dir, sizeof abs_dir);
	absolute_or_given(c->target, abs_workload, sizeof abs_workload);
	if ((embedded && !(b->flags & RPB_BF_STORES_NOTHING) &&
	     check_nesting(abs_out, abs_dir, msg, sizeof msg) != 0) ||
	    check_option_dirs(&job, abs_out, msg, sizeof msg) != 0) {
		rc = RPB_EXIT_USAGE;
		goto fail;
	}
	rc = RPB_EXIT_ENV;
	make_out(out, &made);
	if ((rpb_dist_on() && rpb_dist_rank() == 0 && prepare_out(top_out, msg, sizeof msg) != 0) ||
	    prepare_out(out, msg, sizeof msg) != 0)
		goto fail;
	prepared = true; /* from here, every result file in out is this run's */
	if (embedded && !(b->flags & RPB_BF_STORES_NOTHING))
		make_out(dir, &made_store); /* --dir elsewhere: its new directories */
	if (embedded && !(b->flags & RPB_BF_STORES_NOTHING) &&
	    rpb_storedir_claim(dir, c->fresh, b->own_files, &lock_fd, msg, sizeof msg) != 0)
		goto fail;
	own_store = lock_fd >= 0 && rpb_path_join(own_dir, sizeof own_dir, out, "store") == 0 &&
		    !strcmp(own_dir, dir);
	/* Now that they exist: what the result records. */
	absolute_or_given(out, abs_out, sizeof abs_out);
	absolute_or_given(dir, abs_dir, sizeof abs_dir);
	store_cfg(&cfg, b, &job, embedded ? dir : NULL, c->dsn, c->schema);
	if (rpb_dist_on() && cfg.name) {
		/* One server for all ranks, a schema of its own for each. */
		snprintf(rank_schema, sizeof rank_schema, "%s_rank%d", cfg.name, rpb_dist_rank());
		cfg.name = rank_schema;
	}
	cfg.sessions = (unsigned long)job.run.threads * job.run.clients;
	cfg.create = true;
	cfg.lock = RPB_LOCK_RUN;
	if (b->open(&cfg, &rn.store, &err) != RPB_OK) {
		snprintf(msg, sizeof msg, "%s", err.msg);
		rc = err.status == RPB_INVALID && err.user_input ? RPB_EXIT_USAGE : RPB_EXIT_ENV;
		goto fail;
	}
	if (rpb_store_claim(b, rn.store, c->fresh, msg, sizeof msg) != 0)
		goto fail;

	rn.backend = b;
	rn.job = &job;
	rn.pattern = job.pattern;
	rn.out_dir = out;
	rn.store_dir = embedded ? abs_dir : NULL;
	rn.quiet = c->quiet;
	snprintf(rn.run_tag, sizeof rn.run_tag, "%08" PRIx32, tag + (uint32_t)rpb_dist_rank());
	if (cont_tag[0]) /* the preload's keys, which this run goes on adding to */
		snprintf(rn.run_tag, sizeof rn.run_tag, "%s", cont_tag);
	rn.summary_only = c->quiet;
	if (rpb_dist_rank() > 0)
		rn.quiet = true, rn.summary_only = false; /* rank 0 speaks for the run */
	/* Several ranks: each writes its own samples.jtl, with the Hostname. */
	char host[256] = "";
	rn.rank = (unsigned)rpb_dist_rank();
	if (rpb_dist_on() && gethostname(host, sizeof host - 1) == 0)
		rn.jtl_host = host;
	char jtl_head[512];
	snprintf(jtl_head, sizeof jtl_head, "%s%s",
		 rn.jtl_host ? rpb_jtl_header_host(job.run.jtl_columns)
			     : rpb_jtl_header(job.run.jtl_columns),
		 job.run.jtl_us ? RPB_JTL_US_COLUMN : "");
	if (job.run.jtl && !(rn.jtl = open_output(out, "samples.jtl", jtl_head))) {
		snprintf(msg, sizeof msg, "cannot write %s/samples.jtl: %s", out, strerror(errno));
		goto fail;
	}
	if (!(dsn_shown = rpb_dsn_redacted(c->dsn)) || !(command = recorded_command(c, argv0))) {
		snprintf(msg, sizeof msg, "out of memory recording the command line");
		goto fail;
	}
	/* What the marks of directories the store owns (a binary_dir) name. */
	char store_id[PATH_MAX + 512];
	if (embedded)
		snprintf(store_id, sizeof store_id, "%s", abs_dir);
	else
		snprintf(store_id, sizeof store_id, "schema %s at %.*s", cfg.name ? cfg.name : "",
			 PATH_MAX, *dsn_shown ? dsn_shown : "(PG* environment)");
	rn.store_id = store_id;
	/* When stdout is the pattern's own (YCSB's exporter), the lines for
	 * people at the end go to stderr, and none are printed here: a start
	 * that then fails still says one line. */
	rn.say = rn.pattern->stdout_output ? stderr : stdout;
	if (!rn.quiet && !rn.pattern->stdout_output) {
		printf("rpbench %s: %s on %s (%s), profile = %s, sync = %s, %" PRIu64 " thread(s) x %" PRIu64
		       " client(s), seed %" PRIu64 "\n",
		       RPB_VERSION, rn.pattern->name, b->name, b->version(),
		       rpb_profile_names[job.run.profile],
		       job.run.sync == RPB_SYNC_COMMIT ? "commit" : "none", job.run.threads,
		       job.run.clients, job.run.seed);
		if (!embedded)
			printf("store: schema %s at %s\n", cfg.name, *dsn_shown ? dsn_shown : "(PG* environment)");
		else
			printf("store: %s\n", abs_dir);
		char until[256];
		rpb_run_until(until, sizeof until, &job.run);
		printf("%s; results: %s\n", until, abs_out);
		if (rpb_dist_on())
			printf("load nodes: %d ranks, each with its own threads, store and results in "
			       "rank-N; merged lines below, merged results in %s\n",
			       rpb_dist_size(), top_out);
		rn.quiet = rpb_stdout_lost();
	}
	struct rpb_quota quota;
	char warn[256];
	if (!rpb_quota_env(&quota, warn, sizeof warn))
		fprintf(stderr, "%s: %s\n", prog, warn);
	struct rpb_store_where where = {
		.dir = embedded ? abs_dir : NULL,
		.dsn = embedded ? NULL : dsn_shown,
		.name = cfg.name,
		.command = command,
		.out = abs_out,
		.workload = abs_workload,
		.quota = &quota,
	};
	/* Before the first operation: what verify needs if the run dies. */
	rn.wall_start_ms = rpb_wall_ms();
	if (rpb_live_ledger_open(&live, out, rpb_job_workers(&job), msg, sizeof msg) != 0 ||
	    rpb_results_begin(&rn, &where, msg, sizeof msg) != 0)
		goto fail;
	rn.live = &live;
	agreed = true;
	if (!rpb_dist_agree(true)) {
		snprintf(msg, sizeof msg, "another rank could not start (its own message says why), "
			 "so no rank ran");
		goto fail;
	}
	if (rpb_run(&rn, &err) != RPB_OK) { /* before the first operation */
		snprintf(msg, sizeof msg, "%s", err.msg);
		goto fail;
	}
	ran = true;
	/* Several ranks: rank 0 prints the merged result, not its own. */
	bool quiet = rn.quiet, summary_only = rn.summary_only;
	rn.quiet |= rpb_dist_on();
	rn.summary_only &= !rpb_dist_on();
	bool written = rpb_results_write(&rn, &where, msg, sizeof msg) == 0;
	rn.quiet = quiet;
	rn.summary_only = summary_only;
	char merge_msg[1024];
	if (rpb_dist_merge(&rn, written, top_out, merge_msg, sizeof merge_msg) != 0)
		fprintf(stderr, "%s: %s\n", prog, merge_msg);
	if (!written)
		goto fail;
	rc = (int)rpb_exit_code(&rn);
	goto done;
fail:
	fprintf(stderr, "%s: %s\n", prog, msg);
	if (!agreed)
		rpb_dist_agree(false);
done:
	if (rn.jtl)
		fclose(rn.jtl);
	rpb_runner_free(&rn);
	/* The pattern's files, closed now, reach the disk too. */
	if (ran && job.pattern)
		rpb_results_sync_files(out, job.pattern->files);
	rpb_live_ledger_close(&live);
	b->close(rn.store);
	/* A preload's one sync, once the store is closed (its binary store's
	 * is the pattern's, at its end). */
	if (c->preload && ran && embedded && !(b->flags & RPB_BF_STORES_NOTHING) &&
	    rpb_preload_sync(dir, msg, sizeof msg) != 0) {
		fprintf(stderr, "%s: %s\n", prog, msg);
		rc = rc ? rc : RPB_EXIT_ENV;
	}
	/* A start that failed leaves nothing behind: nothing ran, so there is
	 * nothing for verify or a report to read (samples.jtl, the ledger or
	 * result.json may have been written before the failure). */
	if (prepared && !ran)
		remove_result_files(out);
	if (!ran) { /* the store's directories first: they may lie inside out */
		unmake_out(&made_store, dir, lock_fd >= 0 && made_store.n &&
					      made_store.end[made_store.n - 1] == strlen(made_store.path));
		unmake_out(&made, dir, own_store);
	}
	if (lock_fd >= 0)
		close(lock_fd); /* after the store: nobody may empty it while it is open */
	free(command);
	free(dsn_shown);
	rpb_job_free(&job);
	return rc;
}

/* The store directory verify checks: --dir, else what result.json records
 * (resolved for an older, relative record). */
static int verify_dir(const struct cli *c, const struct rpb_result_file *rf, char *dir, size_t n,
		      char *msg, size_t mn)
{
	if (c->dir) {
		snprintf(dir, n, "%s", c->dir); /* checked by check_paths */
		return 0;
	}
	return rpb_result_store_dir(rf, c->target, dir, n, msg, mn);
}

/* A result.json may name any directory: an existing embedded store
 * directory is reopened only when it carries rpbench's mark (a missing one
 * is left to the backend, which then finds no store). */
static bool store_is_ours(const char *dir)
{
	char mark[PATH_MAX];
	struct stat sb;
	if (lstat(dir, &sb) != 0)
		return true;
	return rpb_path_join(mark, sizeof mark, dir, RPB_DIR_MARK) == 0 && lstat(mark, &sb) == 0 &&
	       S_ISREG(sb.st_mode);
}

/* A live ledger read as it reached the disk (a power cut): what it cannot
 * prove, in one line. */
static void print_unprovable(const struct rpb_verify_result *res, const struct rpb_ledger *l)
{
	uint64_t durable = 0, untrusted = 0;
	for (unsigned t = 0; t < l->nworkers; t++) {
		durable += l->workers[t].durable;
		untrusted += l->workers[t].issued - l->workers[t].trusted;
	}
	char when[32] = "before the first operation";
	if (l->durable_ms)
		rpb_iso_time(when, sizeof when, l->durable_ms);
	printf("note: the ledger on disk was last made durable at op %" PRIu64 " (%s)", durable, when);
	if (untrusted)
		printf(" and %s: %" PRIu64 " later operations it records cannot be checked",
		       l->torn ? l->torn : "its later part is not whole", untrusted);
	if (res->unprovable)
		printf("%s %" PRIu64 " operations it does not record left records in the store, "
		       "accepted whole but not checked", untrusted ? ", and" : ";", res->unprovable);
	if (!untrusted && !res->unprovable)
		printf("; operations after what it records, if any, cannot be checked");
	printf("\n");
}

static void print_verified(const struct rpb_verify_result *res, const struct rpb_ledger *l)
{
	printf("verified %" PRIu64 " objects: %" PRIu64 " missing, %" PRIu64 " corrupt, %" PRIu64
	       " unexpected",
	       res->checked, res->missing, res->corrupt, res->unexpected);
	if (res->in_doubt)
		printf(" (%" PRIu64 " in doubt: %s, accepted whole or absent)", res->in_doubt,
		       l->interrupted ? "failed inside commit or running when the run died"
				      : "failed inside commit");
	if (res->left)
		printf("; %" PRIu64 " records left by %s (expected)", res->left, res->left_by);
	printf("\n");
	if (res->note[0])
		printf("%s\n", res->note);
	if (l->interrupted)
		printf("note: the run did not finish; checked against its live ledger (%s)\n",
		       RPB_LEDGER_FILE);
	if (l->stale)
		print_unprovable(res, l);
}

static int cmd_verify(const struct rpb_backend *b, const struct cli *c, const char *prog)
{
	if (!c->target) {
		fprintf(stderr, "%s: verify needs the results directory of a run; see %s --help\n", prog, prog);
		return RPB_EXIT_USAGE;
	}
	int rc = check_location_flags(b, c, prog);
	if (rc || (rc = check_paths(c, false, prog)))
		return rc;
	char msg[1024], dir[PATH_MAX] = "";
	if (rpb_path_check(c->target, "the results directory", RPB_PATH_ROOM, msg, sizeof msg) != 0) {
		fprintf(stderr, "%s: %s\n", prog, msg);
		return RPB_EXIT_USAGE;
	}
	struct rpb_result_file rf;
	if (rpb_result_read(&rf, c->target, msg, sizeof msg) != 0) {
		fprintf(stderr, "%s: %s\n", prog, msg);
		rc = rf.lost ? RPB_EXIT_ENV : RPB_EXIT_USAGE; /* a power cut, not bad input */
		rpb_result_free(&rf);
		return rc;
	}
	rc = RPB_EXIT_ENV;
	struct rpb_verify_result res = {0};
	bool counted = false;
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	int lock_fd = -1;
	const struct rpb_pattern *pat = rf.job.pattern;
	if (!rpb_backend_find(rf.backend)) {
		fprintf(stderr, "%s: %s/result.json: manifest.backend names no backend of this build; "
			"give the results directory of an rpbench run\n", prog, c->target);
		rc = RPB_EXIT_USAGE;
		goto out;
	}
	if (strcmp(rf.backend, b->name) != 0) {
		fprintf(stderr, "%s: %s is a result of a %s run; use rpbench-%s verify\n", prog, c->target,
			rf.backend, rf.backend);
		rc = RPB_EXIT_USAGE;
		goto out;
	}
	const char *dsn = c->dsn ? c->dsn : rf.dsn;
	if (!c->dsn && dsn && strstr(dsn, "***")) {
		fprintf(stderr, "%s: the run's DSN had a password, which results never keep; pass --dsn\n",
			prog);
		rc = RPB_EXIT_USAGE;
		goto out;
	}
	if (b->flags & RPB_BF_STORES_NOTHING) {
		fprintf(stderr, "%s: the null backend keeps nothing; verify needs a real backend\n", prog);
		goto out;
	}
	if (!(b->flags & RPB_BF_SERVER)) {
		if (verify_dir(c, &rf, dir, sizeof dir, msg, sizeof msg) != 0) {
			fprintf(stderr, "%s: %s\n", prog, msg);
			rc = RPB_EXIT_USAGE;
			goto out;
		}
		/* A result.json may name any directory: one that exists is reopened
		 * only when it carries rpbench's mark. */
		if (!store_is_ours(dir)) {
			if (c->dir)
				fprintf(stderr, "%s: --dir %s is not a store rpbench made (no %s mark), so "
					"verify leaves it alone; give the store directory of an rpbench run\n",
					prog, dir, RPB_DIR_MARK);
			else
				fprintf(stderr, "%s: %s/result.json: manifest.store.dir %s is not a store "
					"rpbench made (no %s mark), so verify leaves it alone; give the results "
					"directory of an rpbench run or --dir\n", prog, c->target, dir, RPB_DIR_MARK);
			goto out;
		}
		char mark[PATH_MAX];
		if (rpb_path_join(mark, sizeof mark, dir, RPB_DIR_MARK) == 0 && access(mark, F_OK) == 0 &&
		    (lock_fd = rpb_storelock_take(dir, RPB_LOCK_VERIFY, msg, sizeof msg)) < 0) {
			fprintf(stderr, "%s: %s\n", prog, msg);
			goto out;
		}
	}
	struct rpb_store_cfg cfg;
	store_cfg(&cfg, b, &rf.job, *dir ? dir : NULL, dsn && *dsn ? dsn : NULL,
		  c->schema ? c->schema : rf.name);
	cfg.primary_only = true; /* the store of record, not a replica's copy */
	cfg.dsn_untrusted = !c->dsn && dsn && *dsn; /* result.json named a server */
	cfg.lock = RPB_LOCK_VERIFY;
	if (b->open(&cfg, &st, &err) != RPB_OK) {
		if (err.status == RPB_CONFLICT) /* the store's lock: a run is writing it */
			fprintf(stderr, "%s: %s\n", prog, err.msg);
		else
			fprintf(stderr, "%s: cannot reopen the store of %s: %s\n", prog, c->target, err.msg);
		goto out;
	}
	rf.ledger.store_dir = *dir ? dir : NULL;
	rf.ledger.results_dir = c->target;
	if (!pat->verify) {
		fprintf(stderr, "%s: the %s pattern has no verify\n", prog, pat->name);
		goto out;
	}
	if (rf.ledger.stale && !pat->verify_stale) {
		fprintf(stderr, "%s: %s/%s was read from a file system mounted again since the run (a "
			"power cut or a crash), so the store may hold operations it does not record, and "
			"the %s pattern's verify cannot tell which; keep its results off the file system "
			"whose power is cut\n", prog, c->target, RPB_LEDGER_FILE, pat->name);
		goto out;
	}
	if (pat->verify(b, st, &rf.job, &rf.ledger, &res, &err) != RPB_OK) {
		if (res.damaged)
			fprintf(stderr, "%s: %s/%s: %s; give the results directory of an rpbench run\n",
				prog, c->target,
				res.damaged_in          ? res.damaged_in
				: rf.ledger.interrupted ? RPB_LEDGER_FILE
							: "result.json",
				err.msg);
		else
			fprintf(stderr, "%s: verify could not run: %s\n", prog, err.msg);
		rc = res.damaged ? RPB_EXIT_USAGE : RPB_EXIT_ENV;
		goto out;
	}
	print_verified(&res, &rf.ledger);
	if (res.missing || res.corrupt || res.unexpected) {
		printf("first problem: %s\n", res.first_problem);
		rc = RPB_EXIT_VERIFY;
	} else
		rc = RPB_EXIT_OK;
	counted = true;
out:
	/* After bench/quota-run's power cut: the cut and what verify found, in
	 * result.json. */
	if (getenv(RPB_POWER_CUT_ENV) && rf.root &&
	    rpb_power_cut_record(c->target, getenv(RPB_POWER_CUT_ENV), rc, counted ? &res : NULL,
				 &rf.ledger, msg, sizeof msg) != 0)
		fprintf(stderr, "%s: %s\n", prog, msg);
	b->close(st);
	if (lock_fd >= 0)
		close(lock_fd);
	rpb_result_free(&rf);
	return rc;
}

/* A run of several ranks (docs/distributed.md) keeps each rank's ledger in
 * OUT/rank-N: verify checks every rank's store against its own ledger, in
 * rank order, and answers with the worst outcome. No MPI needed. */
static int verify_ranks(const struct rpb_backend *b, const struct cli *c, const char *prog)
{
	char path[PATH_MAX];
	struct stat sb;
	if (rpb_path_join(path, sizeof path, c->target, "rank-0") != 0 || stat(path, &sb) != 0 ||
	    !S_ISDIR(sb.st_mode) || c->dir)
		return cmd_verify(b, c, prog);
	int worst = RPB_EXIT_OK;
	for (int r = 0;; r++) {
		char name[32];
		snprintf(name, sizeof name, "rank-%d", r);
		if (rpb_path_join(path, sizeof path, c->target, name) != 0 || stat(path, &sb) != 0)
			break;
		struct cli one = *c;
		one.target = path;
		printf("rank %d: %s\n", r, path);
		fflush(stdout);
		int rc = cmd_verify(b, &one, prog);
		/* The worst: a discrepancy, then bad input, then the environment. */
		if (rc == RPB_EXIT_VERIFY || (worst != RPB_EXIT_VERIFY && rc > worst))
			worst = rc;
	}
	return worst;
}

static int driver_main(const struct rpb_backend *b, int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	/* A closed stdout (| head) must not kill a run before it writes its
	 * results: writes fail with EPIPE instead, and rpb_stdout_lost() notices. */
	signal(SIGPIPE, SIG_IGN);
	struct rpb_err err;
	if (rpb_backend_validate(b, &err) != RPB_OK) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return RPB_EXIT_ENV;
	}
	/* YCSB's own flags (-threads, -target, -s, -load, ...) in the driver's words. */
	char ymsg[512];
	if (rpb_ycsb_argv(&argc, &argv, ymsg, sizeof ymsg) != 0)
		return usage_error(prog, "%s", ymsg);
	if (rpb_args_file_argv(&argc, &argv, OPTSTRING, longopts, ymsg, sizeof ymsg) != 0)
		return usage_error(prog, "%s", ymsg);
	struct cli c;
	int rc = parse_cli(&c, prog, argc, argv);
	if (rc)
		return rc;
	if (strcmp(c.command, "--help") == 0 || strcmp(c.command, "help") == 0) {
		struct rpb_help h = {.f = stdout, .format = RPB_HELP_TEXT};
		char msg[1024];
		if (!c.target)
			rpb_driver_help(&h, b, prog);
		else if (rpb_driver_help_section(&h, c.target, prog, msg, sizeof msg) != 0) {
			fprintf(stderr, "%s\n", msg);
			return RPB_EXIT_USAGE;
		}
		return 0;
	}
	if (strcmp(c.command, "--help-man") == 0) {
		struct rpb_help h = {.f = stdout, .format = RPB_HELP_MAN};
		if (c.target && strcmp(c.target, "workload") == 0)
			rpb_workload_man(&h);
		else if (!c.target)
			rpb_driver_help(&h, b, prog);
		else {
			char shown[RPB_SHOWN_SIZE];
			return usage_error(prog, "--help-man takes no value or 'workload', not '%s'",
					   rpb_text_shown(shown, sizeof shown, c.target));
		}
		return 0;
	}
	if (strcmp(c.command, "--version") == 0) {
		printf("rpbench %s (%s backend: %s)\n", RPB_VERSION, b->name, b->version());
		return 0;
	}
	if (strcmp(c.command, "run") == 0 || strcmp(c.command, "load") == 0 ||
	    strcmp(c.command, "preload") == 0) {
		static char workload[PATH_MAX];
		c.given = c.target;
		if (c.target)
			c.target = rpb_path_workload(workload, sizeof workload, c.target);
		c.load = strcmp(c.command, "load") == 0;
		c.preload = strcmp(c.command, "preload") == 0;
		char pmsg[256];
		if (c.preload && rpb_preload_objects(c.objects, &c.nobjects, pmsg, sizeof pmsg) != 0)
			return usage_error(prog, "%s", pmsg);
		if (!c.preload && c.objects)
			return usage_error(prog, "--objects is for the verb preload%s", "");
		if (c.cont && c.load)
			return usage_error(prog, "--continue is for the verbs run and preload%s", "");
		return cmd_run(b, &c, prog, argv[0]);
	}
	if (c.objects || c.cont)
		return usage_error(prog, "%s", c.objects ? "--objects is for the verb preload"
							 : "--continue is for the verbs run and preload");
	if (strcmp(c.command, "verify") == 0)
		return c.target ? verify_ranks(b, &c, prog) : cmd_verify(b, &c, prog);
	static const char *const commands[] = {"run", "load", "preload", "verify", NULL};
	char msg[RPB_SHOWN_SIZE + 128];
	rpb_cli_unknown_command(msg, sizeof msg, c.command, commands);
	return usage_error(prog, "%s", msg);
}

int rpb_main(const struct rpb_backend *b, int argc, char **argv)
{
	char msg[256];
	if (rpb_dist_init(&argc, &argv, msg, sizeof msg) != 0) {
		fprintf(stderr, "%s: %s\n", argv[0], msg);
		return RPB_EXIT_ENV;
	}
	int rc = driver_main(b, argc, argv);
	rpb_dist_finalize();
	return rc;
}
