/* What a run says while it goes on and when it ends: --quiet's one line,
 * which limit ended a run that had several, and the progress lines beside
 * JMeter's summariser. Null backend and small runs: every assertion reads
 * the printed lines and result files, none depends on speed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

/* A null-backend ci-ingest run into e->out with the extra --set values
 * (up to NULL); asserts exit 0 and an empty stderr, returns its stdout. */
static char *run_null(const struct e2e_env *e, bool quiet, ...)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, e->bin, "run", E2E_CI_INGEST, "--out", e->out, NULL);
	if (quiet)
		e2e_args_add(&a, "--quiet", NULL);
	va_list ap;
	va_start(ap, quiet);
	e2e_args_setv(&a, ap);
	va_end(ap);
	return e2e_exec_expect(e->cap, &a, 0);
}

static unsigned count_lines(const char *text)
{
	unsigned n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

Test(e2e_progress, quiet_prints_the_summary_line_alone, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char *out = run_null(&e, true, "ops=40", "interval=0.1", NULL);
	cr_assert_eq(count_lines(out), 1, "--quiet printed more than one line:\n%s", out);
	char *summary = e2e_slurp_in(e.out, "summary.txt");
	size_t first = strcspn(summary, "\n") + 1;
	cr_assert(strncmp(out, "summary = ", 10) == 0 && strlen(out) == first &&
			  strncmp(out, summary, first) == 0,
		  "--quiet printed \"%s\", not summary.txt's first line \"%.*s\"", out, (int)first,
		  summary);
	free(summary);
	free(out);
	e2e_env_fini(&e);
}

Test(e2e_progress, ops_reached_before_duration_says_so, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	/* ci-ingest's ops = 1500 with a duration no null run of 3,000 creates
	 * comes near. */
	char *out = run_null(&e, false, "duration=3600", NULL);
	const char *want = "ended: ops = 1500 reached before duration = 3600 s\n";
	cr_assert_not_null(strstr(out, want), "no \"%s\" in:\n%s", want, out);
	char *summary = e2e_slurp_in(e.out, "summary.txt");
	cr_assert_not_null(strstr(summary, want), "no \"%s\" in summary.txt:\n%s", want, summary);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "completed");
	cr_assert_str_eq(e2e_jstr(r, "stop.limit"), "ops");
	cr_assert_str_eq(e2e_jstr(r, "stop.ended"), "ops = 1500 reached before duration = 3600 s");
	json_decref(r);
	free(summary);
	free(out);
	e2e_env_fini(&e);
}

Test(e2e_progress, duration_reached_before_ops_and_bytes, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char *out = run_null(&e, true, "duration=0.2", "ops=1000000000000", "bytes=1000000000000000",
			     NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "duration");
	cr_assert_str_eq(e2e_jstr(r, "stop.limit"), "duration");
	cr_assert_str_eq(e2e_jstr(r, "stop.ended"),
			 "duration = 0.2 s reached before ops = 1000000000000 and bytes = "
			 "1000000000000000");
	json_decref(r);
	free(out);
	e2e_env_fini(&e);
}

Test(e2e_progress, one_limit_names_it_without_words, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char *out = run_null(&e, false, "ops=30", NULL);
	cr_assert_null(strstr(out, "\nended: "), "a run with one limit printed an ended line:\n%s", out);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "stop.limit"), "ops");
	cr_assert_null(json_object_get(json_object_get(r, "stop"), "ended"));
	json_decref(r);
	free(out);
	e2e_env_fini(&e);
}

/* A duration-bound run: every "progress:" line follows JMeter's pair, its
 * interval and elapsed time have decimals, and its share done and ETA are
 * what the elapsed time it prints makes of duration = 0.5 s. */
Test(e2e_progress, precise_line_share_and_eta_of_a_duration, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char *out = run_null(&e, false, "ops=0", "duration=0.5", "interval=0.1", NULL);
	unsigned lines = 0;
	const char *prev = NULL;
	for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strncmp(l, "progress: ", 10)) {
			prev = l;
			continue;
		}
		cr_assert(prev && !strncmp(prev, "summary = ", 10), "\"%s\" not after a summary = line", l);
		double dt, elapsed, avg, mn, mx, pct, eta;
		int got = sscanf(l, "progress: interval %lf s, elapsed %lf s; Avg: %lf Min: %lf Max: %lf "
				    "us; %lf%% done, ETA %lf s", &dt, &elapsed, &avg, &mn, &mx, &pct, &eta);
		cr_assert_eq(got, 7, "\"%s\" is not a progress line", l);
		cr_assert(strstr(l, "interval 0.") && strstr(l, "elapsed 0."), "no decimals: %s", l);
		cr_assert(mn <= avg && avg <= mx, "%s", l);
		/* A last tick may come just past the end: 100 %, 0 s to go. */
		double share = elapsed < 0.5 ? 100 * elapsed / 0.5 : 100, left = elapsed < 0.5 ? 0.5 - elapsed : 0;
		cr_assert(fabs(pct - share) <= 0.3, "%s: share of 0.5 s", l);
		cr_assert(fabs(eta - left) <= 0.06, "%s: ETA of 0.5 s", l);
		lines++;
	}
	cr_assert_geq(lines, 1, "no progress: line in a 0.5 s run with interval 0.1");
	free(out);
	e2e_env_fini(&e);
}

/* The open model falling behind: a stall of 500 ms in one thread's
 * operation 100 at rate = 1000 leaves whole 0.1 s intervals far under the
 * rate, whatever the machine's speed. */
Test(e2e_progress, behind_rate_warning_under_a_stall, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char *out = run_null(&e, false, "ops=300", "rate=1000", "interval=0.1",
			     "inject=stall:500@100", NULL);
	const char *w = strstr(out, "\nwarning: behind rate: ");
	cr_assert_not_null(w, "no behind-rate warning in:\n%s", out);
	unsigned got;
	cr_assert_eq(sscanf(w, "\nwarning: behind rate: %u/s of 1000/s asked; the backend cannot "
			       "keep up, latencies include queueing\n", &got), 1, "%s", w);
	cr_assert_lt(got, 900, "%s", w);
	free(out);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_SQLITE
/* An ingest on SQLite: the progress line counts the objects stored and
 * the store's size and free space; the disk-full estimate is "—" until
 * four readings. */
Test(e2e_progress, stored_objects_and_free_space, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "run", E2E_CI_INGEST, "--out", e.out, "--dir", e.store, "--set",
		     "ops=0", "--set", "duration=0.5", "--set", "interval=0.1", NULL);
	char *out = e2e_exec_expect(e.cap, &a, 0);
	unsigned lines = 0;
	unsigned long long prev = 0;
	for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strncmp(l, "progress: ", 10))
			continue;
		const char *st = strstr(l, "; stored ");
		cr_assert_not_null(st, "no store part: %s", l);
		char objs[32];
		cr_assert_eq(sscanf(st, "; stored %31s objects, store ", objs), 1, "%s", l);
		unsigned long long n = 0;
		for (const char *c = objs; *c; c++)
			if (*c != ',')
				n = n * 10 + (unsigned long long)(*c - '0');
		cr_assert_geq(n, prev, "objects stored went down: %s", l);
		prev = n;
		cr_assert(strstr(st, " free, disk full in "), "%s", l);
		if (++lines < 4)
			cr_assert(strstr(st, "disk full in \u2014"), "an estimate at reading %u: %s", lines, l);
	}
	cr_assert_geq(lines, 1);
	free(out);
	e2e_env_fini(&e);
}
#endif
