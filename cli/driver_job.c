/* A run's job from the command line: the workload and its --set, -p and
 * -P, the store's location flags and paths, and the ranks' agreement on
 * what they run (docs/distributed.md). */
#include <errno.h>
#include <string.h>

#include "dist.h"
#include "dist_check.h"
#include "driver_preload.h"
#include "dsn.h"
#include "paths.h"
#include "results.h"
#include "shown.h"
#include "driver_job.h"
#include "driver_outdir.h"

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

int drv_load_job(struct rpb_job *job, struct cli *c, const char *prog)
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

void drv_store_cfg(struct rpb_store_cfg *cfg, const struct rpb_backend *b,
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

int drv_check_location_flags(const struct rpb_backend *b, const struct cli *c, const char *prog)
{
	if ((b->flags & RPB_BF_SERVER) && c->dir)
		return drv_usage_error(prog, "--dir is for embedded backends; %s takes --dsn and --schema",
				       b->name);
	if (!(b->flags & RPB_BF_SERVER) && (c->dsn || c->schema))
		return drv_usage_error(prog, "--dsn and --schema are for server backends; %s takes --dir",
				       b->name);
	if (c->dsn && rpb_dsn_control_at(c->dsn) >= 0)
		return drv_usage_error(prog, "--dsn holds a control character (a newline, a tab, an escape), "
				       "which libpq would take as text; write the connection string on one "
				       "line of printable text%s", "");
	return 0;
}

/* Every path given: short enough, whole and absolute, for what rpbench
 * builds from it (result files, the store's files, OUT/store). verify has
 * no --out. */
int drv_check_paths(const struct cli *c, bool run, const char *prog)
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
int drv_ranks_agree(const struct rpb_backend *b, const struct cli *c, const struct rpb_job *job,
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
			drv_absolute_or_given(c->out, path, sizeof path);
		rpb_fields_add(&l, "--out", c->out ? path : "(none: rank 0's default)");
		if (c->dir)
			drv_absolute_or_given(c->dir, path, sizeof path);
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
