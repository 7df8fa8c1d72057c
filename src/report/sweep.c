/* rpbench sweep (sweep.h). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
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
#include "fsutil.h"
#include "gnuplot_text.h"
#include "dsn.h"
#include "paths.h"
#include "plot_value.h"
#include "runs_dir.h"
#include "sweep.h"
#include "sweep_figure.h"

extern char **environ;

int rpb_sweep_list(const char *text, unsigned *v, size_t *n, unsigned max, const char *what,
		   char *msg, size_t mn)
{
	*n = 0;
	const char *p = text;
	while (*p) {
		char *end;
		errno = 0;
		unsigned long x = strtoul(p, &end, 10);
		if (end == p || errno || x < 1 || x > max || (*end && *end != ',') || *p == '-' ||
		    *p == '+') {
			snprintf(msg, mn, "%s takes counts from 1 to %u separated by commas (1,2,4,8)",
				 what, max);
			return -1;
		}
		for (size_t i = 0; i < *n; i++)
			if (v[i] == x) {
				snprintf(msg, mn, "%s names %lu twice; give each count once", what, x);
				return -1;
			}
		if (*n == RPB_SWEEP_MAX) {
			snprintf(msg, mn, "%s has more than %d counts", what, RPB_SWEEP_MAX);
			return -1;
		}
		v[(*n)++] = (unsigned)x;
		p = *end ? end + 1 : end;
		if (*end && !*p) {
			snprintf(msg, mn, "%s ends with a comma; give counts like 1,2,4,8", what);
			return -1;
		}
	}
	if (!*n) {
		snprintf(msg, mn, "%s needs at least one count (1,2,4,8)", what);
		return -1;
	}
	return 0;
}

/* One run's figures, from its result.json (a merged one for ranks > 1). */
struct point_run {
	unsigned threads, ranks, k;
	int exit;
	bool read;
	double tput, p99_us, elapsed_s;
	char name[64];
};

/* The run's throughput and the first label's p99, each checked for its
 * type: a result directory is untrusted input. */
static bool read_result(const char *out, struct point_run *r)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/runs/%s/result.json", out, r->name);
	json_t *root = json_load_file(path, 0, NULL);
	const json_t *tput = json_object_get(json_object_get(root, "totals"), "throughput_per_s");
	const json_t *labels = json_object_get(root, "labels");
	const json_t *first = NULL;
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)labels, key, v) {
		first = v;
		break;
	}
	const json_t *p99 = json_object_get(first, "p99_us");
	bool ok = json_is_number(tput) && json_is_number(p99) && json_number_value(tput) >= 0 &&
		  rpb_plot_fit(json_number_value(tput)) && rpb_plot_fit(json_number_value(p99));
	if (ok) {
		r->tput = json_number_value(tput);
		r->p99_us = json_number_value(p99);
		/* How long it measured: the warning of points too short to tell. */
		const json_t *el = json_object_get(json_object_get(root, "totals"), "elapsed_s");
		r->elapsed_s = json_is_number(el) && rpb_plot_fit(json_number_value(el))
				       ? json_number_value(el) : 0;
	}
	json_decref(root);
	return ok;
}

static int run_one(const struct rpb_sweep_plan *p, struct point_run *r, char *msg, size_t n)
{
	char bin[PATH_MAX], outdir[PATH_MAX], store[PATH_MAX], log[PATH_MAX], threads[32], np[16],
		schema[64];
	snprintf(bin, sizeof bin, "%s/rpbench-%s", p->bindir, p->backend);
	snprintf(outdir, sizeof outdir, "%s/runs/%s", p->out, r->name);
	snprintf(store, sizeof store, "%s/stores/%s", p->out, r->name);
	snprintf(log, sizeof log, "%s/logs/%s.log", p->out, r->name);
	snprintf(threads, sizeof threads, "threads=%u", r->threads);
	snprintf(np, sizeof np, "%u", r->ranks);
	snprintf(schema, sizeof schema, "sweep_t%u_r%u_%u", r->threads, r->ranks, r->k);
	const char *argv[32 + 2 * RPB_SWEEP_MAX + 2 * 256];
	size_t a = 0;
	if (p->nranks) {
		argv[a++] = "mpirun";
		argv[a++] = "--oversubscribe";
		if (geteuid() == 0)
			argv[a++] = "--allow-run-as-root";
		argv[a++] = "-np";
		argv[a++] = np;
	}
	argv[a++] = bin;
	argv[a++] = "run";
	argv[a++] = p->workload;
	argv[a++] = "--out";
	argv[a++] = outdir;
	argv[a++] = "--quiet";
	argv[a++] = "--set";
	argv[a++] = threads;
	/* The --set list and the DSN, or the file that holds them when one
	 * holds a secret: removed once the run has ended. */
	struct rpb_child_args secrets;
	bool pg = rpb_exec_is_server(p->backend);
	if (rpb_child_args_add(&secrets, argv, &a, p->sets, p->nsets < 256 ? p->nsets : 256,
			       rpb_servers_dsn(p->servers, p->backend), msg, n) != 0)
		return -1;
	if (pg) {
		argv[a++] = "--schema";
		argv[a++] = schema;
	} else if (!rpb_exec_stores_nothing(p->backend)) {
		argv[a++] = "--dir";
		argv[a++] = store;
	}
	argv[a] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		rpb_child_args_remove(&secrets);
		snprintf(msg, n, "cannot start %s: %s%s", argv[0], strerror(rc),
			 p->nranks ? "; install openmpi-bin (scripts/deps.sh)" : "");
		return -1;
	}
	int status, forwarded = 0;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			rpb_child_args_remove(&secrets);
			snprintf(msg, n, "cannot wait for %s: %s", argv[0], strerror(errno));
			return -1;
		}
		/* SIGINT or SIGTERM: passed on once, the run ends as it would alone. */
		if (rpb_exec_signal() && !forwarded)
			kill(pid, forwarded = rpb_exec_signal());
	}
	rpb_child_args_remove(&secrets);
	r->exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	r->read = read_result(p->out, r);
	if (!p->quiet)
		printf("  %-24s exit %d%s\n", r->name, r->exit, r->read ? "" : " (no result.json)");
	return 0;
}

/* The first line of a run's log that is its binary's error
 * ("rpbench-sqlite: ..."), shown as printable text; else "". */
static void log_reason(const struct rpb_sweep_plan *p, const struct point_run *r, char *buf,
		       size_t n)
{
	char path[PATH_MAX], line[1024], prefix[64];
	snprintf(path, sizeof path, "%s/logs/%s.log", p->out, r->name);
	snprintf(prefix, sizeof prefix, "rpbench-%s: ", p->backend);
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, prefix, strlen(prefix))) {
			line[strcspn(line, "\r\n")] = '\0';
			rpb_text_shown(buf, n, line + strlen(prefix));
			break;
		}
	if (f)
		fclose(f);
}

/* The one line for a sweep whose runs failed: the first, why, its log, and
 * what the outputs hold. */
static void failure(const struct rpb_sweep_plan *p, const struct point_run *r, size_t failed,
		    size_t runs, size_t ran, size_t points, char *msg, size_t n)
{
	char why[512];
	log_reason(p, r, why, sizeof why);
	char code[64];
	snprintf(code, sizeof code, r->exit ? "exit %d" : "exit 0 but no readable result.json",
		 r->exit);
	snprintf(msg, n, "%zu of %zu sweep runs failed; the first, %s (%s%s%s), logged in %s/logs/%s.log; %s",
		 failed, runs, r->name, code, why[0] ? ": " : "", why, p->out, r->name,
		 !ran ? "no point ran, so there is no sweep.svg"
		 : ran < points ? "sweep.txt and sweep.svg hold only the points that ran"
				: "every point has a run that completed");
}

/* A point: every repeat of one (threads, ranks). */
struct point {
	unsigned threads, ranks, conc;
	double tput, p99_us, elapsed_s; /* means over the repeats that wrote results */
	unsigned runs;
};

static int by_conc(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	return x->conc != y->conc ? (x->conc < y->conc ? -1 : 1)
				  : (x->ranks < y->ranks ? -1 : x->ranks > y->ranks);
}

static int write_outputs(const struct rpb_sweep_plan *p, const struct point_run *runs, size_t nr,
			 struct point *pts, size_t np, struct rpb_sweep_point *fig, size_t *nfig,
			 char *msg, size_t n)
{
	*nfig = 0;
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/sweep.csv", p->out);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "threads,ranks,concurrency,repeat,exit,throughput_per_s,p99_us,result\n");
	/* A run without results has no figures: empty fields, never zeros. */
	for (size_t i = 0; i < nr; i++) {
		char tput[32] = "", p99[32] = "";
		if (runs[i].read) {
			snprintf(tput, sizeof tput, "%.3f", runs[i].tput);
			snprintf(p99, sizeof p99, "%.3f", runs[i].p99_us);
		}
		fprintf(f, "%u,%u,%u,%u,%d,%s,%s,runs/%s\n", runs[i].threads, runs[i].ranks,
			runs[i].threads * runs[i].ranks, runs[i].k + 1, runs[i].exit, tput, p99,
			runs[i].name);
	}
	fclose(f);
	qsort(pts, np, sizeof *pts, by_conc);
	/* The ideal: the smallest point that ran, its throughput per unit of
	 * concurrency. */
	size_t first = 0;
	while (first < np && !pts[first].runs)
		first++;
	double per = first < np && pts[first].conc ? pts[first].tput / pts[first].conc : 0;
	snprintf(path, sizeof path, "%s/sweep-points.csv", p->out);
	FILE *d = fopen(path, "w");
	snprintf(path, sizeof path, "%s/sweep.txt", p->out);
	FILE *t = fopen(path, "w");
	if (!d || !t) {
		if (d)
			fclose(d);
		if (t)
			fclose(t);
		snprintf(msg, n, "cannot write in %s: %s", p->out, strerror(errno));
		return -1;
	}
	fprintf(d, "concurrency,threads,ranks,throughput_per_s,ideal_per_s,efficiency,p99_us\n");
	fprintf(t, "%-11s %7s %5s %14s %14s %10s %12s %5s\n", "concurrency", "threads", "ranks",
		"ops/s", "ideal ops/s", "efficiency", "p99 us", "runs");
	for (size_t i = 0; i < np; i++) {
		double ideal = per * pts[i].conc;
		double eff = ideal > 0 && pts[i].runs ? pts[i].tput / ideal : 0;
		if (!pts[i].runs) { /* in the table as such; not in the figure's data */
			fprintf(t, "%-11u %7u %5u %14s %14s %10s %12s %5u\n", pts[i].conc, pts[i].threads,
				pts[i].ranks, "no results", "-", "-", "-", 0u);
			continue;
		}
		fprintf(d, "%u,%u,%u,%.3f,%.3f,%.4f,%.3f\n", pts[i].conc, pts[i].threads, pts[i].ranks,
			pts[i].tput, ideal, eff, pts[i].p99_us);
		fig[(*nfig)++] = (struct rpb_sweep_point){
			.conc = pts[i].conc, .threads = pts[i].threads, .ranks = pts[i].ranks,
			.runs = pts[i].runs, .tput = pts[i].tput, .ideal = ideal, .eff = eff,
			.p99_us = pts[i].p99_us, .elapsed_s = pts[i].elapsed_s};
		fprintf(t, "%-11u %7u %5u %14.1f %14.1f %9.1f%% %12.1f %5u\n", pts[i].conc,
			pts[i].threads, pts[i].ranks, pts[i].tput, ideal, 100 * eff, pts[i].p99_us,
			pts[i].runs);
	}
	fclose(d);
	fclose(t);
	if (!p->quiet) {
		snprintf(path, sizeof path, "%s/sweep.txt", p->out);
		rpb_print_file(path);
	}
	return 0;
}

int rpb_sweep_run(const struct rpb_sweep_plan *p, char *msg, size_t n)
{
	if (rpb_runs_dir_prepare(p->out, "sweep", "sweep.csv", msg, n) != 0)
		return -1;
	size_t nrk = p->nranks ? p->nranks : 1;
	size_t np = p->nthreads * nrk, nr = np * p->repeat;
	struct point_run *runs = calloc(nr, sizeof *runs);
	struct point *pts = calloc(np, sizeof *pts);
	if (!runs || !pts) {
		free(runs), free(pts);
		snprintf(msg, n, "out of memory for %zu runs", nr);
		return -1;
	}
	int rc = 0;
	size_t i = 0, failed = 0, first_failed = 0;
	/* Interleaved: every point once, then every point again. */
	/* A caught SIGINT or SIGTERM ends the sweep after the run it stopped. */
	for (unsigned k = 0; k < p->repeat && !rc && !rpb_exec_signal(); k++)
		for (size_t r = 0; r < nrk && !rc && !rpb_exec_signal(); r++)
			for (size_t t = 0; t < p->nthreads && !rc && !rpb_exec_signal(); t++, i++) {
				struct point_run *pr = &runs[i];
				pr->threads = p->threads[t];
				pr->ranks = p->nranks ? p->ranks[r] : 1;
				pr->k = k;
				snprintf(pr->name, sizeof pr->name, "t%u-r%u-%u", pr->threads, pr->ranks, k + 1);
				rc = run_one(p, pr, msg, n);
				if (!rc && !(pr->exit == 0 && pr->read) && !failed++)
					first_failed = i;
			}
	for (size_t j = 0; j < i; j++) {
		struct point *pt = &pts[(runs[j].k ? j - runs[j].k * np : j)];
		pt->threads = runs[j].threads;
		pt->ranks = runs[j].ranks;
		pt->conc = runs[j].threads * runs[j].ranks;
		if (!runs[j].read)
			continue;
		pt->tput += runs[j].tput;
		pt->p99_us += runs[j].p99_us;
		pt->elapsed_s += runs[j].elapsed_s;
		pt->runs++;
	}
	for (size_t j = 0; j < np; j++)
		if (pts[j].runs) {
			pts[j].tput /= pts[j].runs;
			pts[j].p99_us /= pts[j].runs;
			pts[j].elapsed_s /= pts[j].runs;
		}
	size_t ran = 0;
	for (size_t j = 0; j < np; j++)
		ran += pts[j].runs > 0;
	struct rpb_sweep_point *fig = calloc(np ? np : 1, sizeof *fig);
	size_t nfig = 0;
	if (!rc && !fig) {
		snprintf(msg, n, "out of memory for %zu points", np);
		rc = -1;
	}
	if (!rc)
		rc = write_outputs(p, runs, i, pts, np, fig, &nfig, msg, n);
	if (!rc && ran) /* a figure of the points that ran, never of zeros */
		rc = rpb_sweep_figure(p, fig, nfig, msg, n);
	free(fig);
	if (!rc && !p->quiet)
		printf("Sweep: %s/sweep.txt, %s/sweep.csv%s%s%s\n", p->out, p->out,
		       ran ? ", " : " (no sweep.svg: no point ran)", ran ? p->out : "",
		       ran ? "/index.html (sweep.svg, sweep.png)" : "");
	if (!rc && failed)
		failure(p, &runs[first_failed], failed, i, ran, np, msg, n);
	free(runs);
	free(pts);
	return rc ? -1 : failed ? 3 : 0;
}
