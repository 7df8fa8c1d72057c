/* The results directory's lifecycle: its name, making it (and removing
 * only what a failed start made), refusing one that holds results, the
 * nesting of --out and --dir, and the output files opened in it. */
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fsutil.h"
#include "ledger.h"
#include "paths.h"
#include "storeloc.h"
#include "driver_outdir.h"

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
void drv_out_name(char *out, size_t n, const struct cli *c, const struct rpb_job *job,
		  const struct rpb_backend *b)
{
	if (c->out) {
		snprintf(out, n, "%s", c->out); /* checked by drv_check_paths */
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


/* Makes the results directory and any missing parent, and notes which it
 * made, so a start that fails removes only those. Errors are left to
 * drv_prepare_out. */
void drv_make_out(const char *out, struct made_dirs *m)
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
 * (call with the store's lock held), then every directory drv_make_out made,
 * innermost first, each only while empty (rmdir), so nothing another
 * program put there goes. */
void drv_unmake_out(struct made_dirs *m, const char *dir, bool own_store)
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
 * file in out. Each is this run's: drv_prepare_out refused a directory that held
 * any of them. */
void drv_remove_result_files(const char *out)
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
int drv_prepare_out(const char *out, char *msg, size_t mn)
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
void drv_absolute_or_given(const char *path, char *abs, size_t n)
{
	if (rpb_path_absolute(path, abs, n) != 0)
		snprintf(abs, n, "%s", path);
}

/* --out and --dir never nest (but for OUT/store, which rpbench makes there
 * itself): --fresh empties a store, so results kept in it would go, and a
 * store kept in results would be written as results are. Canonical paths,
 * symlinks resolved. */
int drv_check_nesting(const char *abs_out, const char *abs_dir, char *msg, size_t n)
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
int drv_check_option_dirs(const struct rpb_job *job, const char *abs_out, char *msg, size_t n)
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

FILE *drv_open_output(const char *dir, const char *name, const char *header)
{
	char path[PATH_MAX];
	if (rpb_path_join(path, sizeof path, dir, name) != 0)
		return NULL;
	FILE *f = fopen(path, "w");
	if (f && header)
		fprintf(f, "%s\n", header);
	return f;
}
