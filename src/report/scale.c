/* rpbench scale (scale.h): each backend's chain of runs, read back into
 * scale.json and scale.txt; the figures are scale_figure.c's. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_args.h"
#include "compare_exec.h"
#include "dsn.h"
#include "fsutil.h"
#include "plot_value.h"
#include "runs_dir.h"
#include "scale.h"
#include "scale_figure.h"

extern char **environ;


/* Runs rpbench-<backend> VERB WORKLOAD args... --quiet, the store's place
 * and the --set list (and DSN) after; its output into log. */
static int child(const struct rpb_scale_plan *p, const char *backend, const char *verb,
		 const char *const *args, size_t nargs, const char *store, const char *log,
		 int *exit_code, char *msg, size_t n)
{
	char bin[PATH_MAX];
	snprintf(bin, sizeof bin, "%s/rpbench-%s", p->bindir, backend);
	const char *argv[32 + 2 * 256];
	size_t a = 0;
	argv[a++] = bin;
	argv[a++] = verb;
	argv[a++] = p->workload;
	for (size_t i = 0; i < nargs; i++)
		argv[a++] = args[i];
	argv[a++] = "--quiet";
	bool pg = rpb_exec_is_server(backend);
	if (pg) {
		argv[a++] = "--schema";
		argv[a++] = "rpbench_scale";
	} else if (!rpb_exec_stores_nothing(backend)) {
		argv[a++] = "--dir";
		argv[a++] = store;
	}
	struct rpb_child_args secrets;
	if (rpb_child_args_add(&secrets, argv, &a, p->sets, p->nsets < 250 ? p->nsets : 250,
			       rpb_servers_dsn(p->servers, backend), msg, n) != 0)
		return -1;
	argv[a] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	pid_t pid;
	int rc = posix_spawn(&pid, bin, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		rpb_child_args_remove(&secrets);
		snprintf(msg, n, "cannot start %s: %s", bin, strerror(rc));
		return -1;
	}
	int status, forwarded = 0;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			rpb_child_args_remove(&secrets);
			snprintf(msg, n, "cannot wait for %s: %s", bin, strerror(errno));
			return -1;
		}
		if (rpb_exec_signal() && !forwarded) /* passed on once */
			kill(pid, forwarded = rpb_exec_signal());
	}
	rpb_child_args_remove(&secrets);
	*exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}

/* A number of result.json at a path of keys, NAN when absent or not a
 * number a figure can take (a result directory is untrusted input). */
static double num(const json_t *root, const char *k1, const char *k2, const char *k3)
{
	const json_t *v = json_object_get(json_object_get(root, k1), k2);
	if (k3)
		v = json_object_get(v, k3);
	double x = json_is_number(v) ? json_number_value(v) : NAN;
	return isfinite(x) && rpb_plot_fit(x) ? x : NAN;
}

/* The window's figures from its result.json; false when it has none. */
static bool read_window(const char *out, struct rpb_scale_point *pt)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s/result.json", out, pt->run);
	json_t *root = json_load_file(path, 0, NULL);
	const json_t *labels = json_object_get(root, "labels");
	const char *label = NULL;
	json_t *v;
	json_object_foreach((json_t *)labels, label, v)
		break; /* label 0: the pattern's main operation, ingest's create */
	pt->v[0] = num(root, "totals", "throughput_per_s", NULL);
	pt->v[1] = label ? num(root, "labels", label, "p50_us") : NAN;
	pt->v[2] = label ? num(root, "labels", label, "p99_us") : NAN;
	pt->v[3] = label ? num(root, "labels", label, "p99.9_us") : NAN;
	pt->store_bytes = num(root, "totals", "store_bytes", NULL);
	pt->wal_bytes = num(root, "totals", "wal_bytes", NULL);
	double before = num(root, "pattern", "continues", "objects_before");
	double acked = num(root, "totals", "acked", NULL);
	pt->objects_after = before + acked;
	pt->v[4] = pt->store_bytes > 0 && pt->objects_after > 0 ? pt->store_bytes / pt->objects_after
								  : NAN;
	pt->gauges = json_incref(json_object_get(root, "backend_gauges"));
	bool ok = isfinite(pt->v[0]) && isfinite(pt->v[2]) && isfinite(pt->objects_after);
	json_decref(root);
	return ok;
}

/* The first line of a log that is its binary's error, shown; else "". */
static void log_reason(const char *log, const char *backend, char *buf, size_t n)
{
	char line[1024], prefix[64];
	snprintf(prefix, sizeof prefix, "rpbench-%s: ", backend);
	buf[0] = '\0';
	FILE *f = fopen(log, "r");
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, prefix, strlen(prefix))) {
			line[strcspn(line, "\r\n")] = '\0';
			rpb_text_shown(buf, n, line + strlen(prefix));
			break;
		}
	if (f)
		fclose(f);
}

/* One backend's chain: preload to the first size; at each size a window
 * (run --continue), then preload --continue to the next. Stops at the
 * first run that fails, naming it in failed. */
static int run_backend(const struct rpb_scale_plan *p, struct rpb_scale_backend *sb,
		       char *failed, size_t fn, char *msg, size_t n)
{
	const char *b = sb->name;
	char store[PATH_MAX], grow[PATH_MAX], prev[PATH_MAX] = "", log[PATH_MAX], objects[32],
		ops[64], outdir[PATH_MAX];
	snprintf(store, sizeof store, "%s/stores/%s", p->out, b);
	snprintf(outdir, sizeof outdir, "%s/runs/%s", p->out, b);
	if (mkdir(outdir, 0755) != 0 && errno != EEXIST) {
		snprintf(msg, n, "cannot create %s: %s", outdir, strerror(errno));
		return -1;
	}
	snprintf(ops, sizeof ops, "run.ops=%" PRIu64, p->window / p->threads);
	for (size_t i = 0; i < p->nsizes && !rpb_exec_signal(); i++) {
		struct rpb_scale_point *pt = &sb->pts[i];
		pt->objects = p->sizes[i];
		int code = 0;
		/* Grow: a new store, or the last window's store to this size. */
		snprintf(objects, sizeof objects, "%" PRIu64, p->sizes[i]);
		snprintf(grow, sizeof grow, "%s/grow-%s", outdir, objects);
		snprintf(log, sizeof log, "%s/logs/%s-grow-%s.log", p->out, b, objects);
		const char *g[] = {"--objects", objects, "--out", grow, "--continue", prev};
		if (child(p, b, "preload", g, i ? 6 : 4, store, log, &code, msg, n) != 0)
			return -1;
		if (code == 0) {
			snprintf(pt->run, sizeof pt->run, "runs/%s/window-%s", b, objects);
			snprintf(prev, sizeof prev, "%s/%s", p->out, pt->run);
			snprintf(log, sizeof log, "%s/logs/%s-window-%s.log", p->out, b, objects);
			const char *w[] = {"--continue", grow, "--out", prev, "--set", ops};
			if (child(p, b, "run", w, 6, store, log, &code, msg, n) != 0)
				return -1;
		}
		if (code == 0 && (pt->read = read_window(p->out, pt)))
			sb->npts = i + 1;
		if (code || !pt->read) {
			char why[512];
			log_reason(log, b, why, sizeof why);
			snprintf(failed, fn, "%s at %s objects (exit %d%s%s), logged in %s", b, objects,
				 code, why[0] ? ": " : "", why, log);
			return 3;
		}
		if (!p->quiet)
			printf("  %-10s %12" PRIu64 " objects  %10.1f creates/s  p99 %.2f ms\n", b,
			       pt->objects, pt->v[0], pt->v[2] / 1000);
	}
	return 0;
}

static void fit_backend(struct rpb_scale_backend *sb)
{
	double x[RPB_SCALE_MAX_SIZES], y[RPB_SCALE_MAX_SIZES];
	for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++) {
		for (size_t i = 0; i < sb->npts; i++) {
			x[i] = (double)sb->pts[i].objects;
			y[i] = sb->pts[i].v[m];
		}
		sb->fit[m] = rpb_scale_fit(x, y, sb->npts, sb->resid[m]);
	}
}

/* A number, or null for one not measured. */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *backend_json(const struct rpb_scale_backend *sb)
{
	json_t *pts = json_array(), *fits = json_object();
	for (size_t i = 0; i < sb->npts; i++) {
		const struct rpb_scale_point *pt = &sb->pts[i];
		json_t *o = json_pack("{s:I, s:s, s:o, s:o, s:o}", "objects", (json_int_t)pt->objects,
				      "run", pt->run, "objects_after", jnum(pt->objects_after),
				      "store_bytes", jnum(pt->store_bytes), "wal_bytes",
				      jnum(pt->wal_bytes));
		for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++)
			json_object_set_new(o, rpb_scale_metrics[m].key, jnum(pt->v[m]));
		json_object_set_new(o, "backend_gauges", pt->gauges ? json_incref(pt->gauges)
								    : json_null());
		json_array_append_new(pts, o);
	}
	for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++) {
		const struct rpb_scale_fit *f = &sb->fit[m];
		if (!f->ok) {
			json_object_set_new(fits, rpb_scale_metrics[m].key, json_null());
			continue;
		}
		json_t *res = json_array();
		for (size_t i = 0; i < sb->npts; i++)
			json_array_append_new(res, jnum(sb->resid[m][i]));
		json_object_set_new(fits, rpb_scale_metrics[m].key,
				    json_pack("{s:s, s:f, s:f, s:o, s:f, s:f, s:{s:f, s:f, s:b}}",
					      "model", "a + b * log10(objects)", "a", f->a, "b", f->b,
					      "residuals", res, "rms_error", f->rms, "max_abs_error",
					      f->max_abs, "projection", "objects", RPB_SCALE_PROJECT_AT,
					      "value", rpb_scale_fit_at(f, RPB_SCALE_PROJECT_AT),
					      "projected", 1));
	}
	struct rpb_scale_projection pj = rpb_scale_project(sb);
	json_t *proj = json_pack("{s:f, s:b, s:o, s:o, s:o, s:o, s:f, s:o}", "objects",
				 RPB_SCALE_PROJECT_AT, "projected", 1, "throughput_per_s",
				 jnum(pj.tput), "p99_us", jnum(pj.p99_us), "bytes", jnum(pj.bytes),
				 "gib", jnum(pj.bytes / 1073741824.0), "volume_bytes",
				 RPB_SCALE_VOLUME_BYTES, "volume_fills_at_objects",
				 pj.fills > 0 ? json_real(pj.fills) : json_null());
	return json_pack("{s:o, s:o, s:o}", "points", pts, "fit", fits, "projection", proj);
}


static int write_json(const struct rpb_scale_plan *p, const struct rpb_scale_backend *sbs,
		      size_t nb, char *msg, size_t n)
{
	json_t *sizes = json_array(), *bk = json_object();
	for (size_t i = 0; i < p->nsizes; i++)
		json_array_append_new(sizes, json_integer((json_int_t)p->sizes[i]));
	for (size_t b = 0; b < nb; b++)
		json_object_set_new(bk, sbs[b].name, backend_json(&sbs[b]));
	json_t *root = json_pack("{s:s, s:o, s:I, s:I, s:o}", "workload", p->workload, "sizes",
				 sizes, "window", (json_int_t)p->window, "threads",
				 (json_int_t)p->threads, "backends", bk);
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/scale.json", p->out);
	int rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	json_decref(root);
	if (rc != 0)
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
	return rc ? -1 : 0;
}

/* "1.2e+07" as 12,000,000-style text for the table's counts. */
static void count_text(char *buf, size_t n, double v)
{
	if (!(v > 0)) {
		snprintf(buf, n, "never below 10^15");
		return;
	}
	snprintf(buf, n, "%.3g", v);
}

static int write_text(const struct rpb_scale_plan *p, const struct rpb_scale_backend *sbs,
		      size_t nb, char *msg, size_t n)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/scale.txt", p->out);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "%-10s %12s", "backend", "objects");
	for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++)
		fprintf(f, " %13s", rpb_scale_metrics[m].unit);
	fputc('\n', f);
	for (size_t b = 0; b < nb; b++) {
		for (size_t i = 0; i < sbs[b].npts; i++) {
			fprintf(f, "%-10s %12" PRIu64, sbs[b].name, sbs[b].pts[i].objects);
			for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++)
				if (isfinite(sbs[b].pts[i].v[m]))
					fprintf(f, " %13.2f", sbs[b].pts[i].v[m] * rpb_scale_metrics[m].scale);
				else
					fprintf(f, " %13s", "n/a");
			fputc('\n', f);
		}
	}
	fputc('\n', f);
	for (size_t b = 0; b < nb; b++) {
		struct rpb_scale_projection pj = rpb_scale_project(&sbs[b]);
		char fills[32];
		count_text(fills, sizeof fills, pj.fills);
		if (!sbs[b].fit[0].ok) {
			fprintf(f, "%s: fewer than two sizes measured, no projection\n", sbs[b].name);
			continue;
		}
		/* A straight line on log10(objects) may cross zero beyond the sizes
		 * measured: said so, not printed as a figure. */
		fprintf(f, "%s: projected at 10^7 objects: ", sbs[b].name);
		fprintf(f, pj.tput > 0 ? "%.1f creates/s, " : "%.1f creates/s (the trend falls below "
			"zero: measure larger sizes), ", pj.tput);
		fprintf(f, pj.p99_us > 0 ? "p99 %.2f ms, " : "p99 %.2f ms (below zero: measure larger "
			"sizes), ", pj.p99_us / 1000);
		if (isfinite(pj.bytes))
			fprintf(f, pj.bytes > 0 ? "%.2f GiB; a 70 GB volume fills at %s objects\n"
						: "%.2f GiB (below zero: measure larger sizes); a 70 GB "
						  "volume fills at %s objects\n",
				pj.bytes / 1073741824.0, fills);
		else
			fprintf(f, "n/a GiB (the backend tells no size); a 70 GB volume fills at "
				"n/a objects\n");
	}
	if (fclose(f) != 0) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (!p->quiet)
		rpb_print_file(path);
	return 0;
}

int rpb_scale_run(const struct rpb_scale_plan *p, char *msg, size_t n)
{
	if (rpb_runs_dir_prepare(p->out, "scale", "scale.json", msg, n) != 0)
		return -1;
	static struct rpb_scale_backend sbs[RPB_SCALE_MAX_BACKENDS];
	memset(sbs, 0, sizeof sbs);
	char failed[1024] = "";
	size_t nfailed = 0;
	int rc = 0;
	for (size_t b = 0; b < p->nbackends && rc >= 0 && !rpb_exec_signal(); b++) {
		sbs[b].name = p->backends[b];
		char one[1024];
		rc = run_backend(p, &sbs[b], one, sizeof one, msg, n);
		if (rc == 3 && !nfailed++)
			snprintf(failed, sizeof failed, "%s", one);
		fit_backend(&sbs[b]);
	}
	if (rc >= 0 && (write_json(p, sbs, p->nbackends, msg, n) != 0 ||
			write_text(p, sbs, p->nbackends, msg, n) != 0 ||
			rpb_scale_figures(p, sbs, p->nbackends, msg, n) != 0))
		rc = -1;
	for (size_t b = 0; b < p->nbackends; b++)
		for (size_t i = 0; i < RPB_SCALE_MAX_SIZES; i++)
			json_decref(sbs[b].pts[i].gauges);
	if (rc < 0)
		return -1;
	if (!p->quiet)
		printf("Scale: %s/scale.txt, %s/scale.json, %s/index.html\n", p->out, p->out, p->out);
	if (nfailed) {
		snprintf(msg, n, "%zu backend(s) stopped before their last size; the first, %s; "
			 "scale.json holds the sizes that ran", nfailed, failed);
		return 3;
	}
	return 0;
}
