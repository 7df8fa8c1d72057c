/* Under rate (the open model) every label of a run is measured the same
 * way ([run] latency; the rule is the runner's, rpb_sample, for every
 * pattern): the null backend at a rate far above what it can do, so every
 * operation starts late and its latency from its intended start is its
 * lag, which grows through the run. Labels whose operations interleave
 * then have means within a few percent of each other, and the label of the
 * later operations has the larger mean; from the actual start (op) a label
 * holds only its own short latency. All comparisons are ratios within one
 * run. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "ycsb_output.h"

#define FAR_ABOVE "1000000000" /* operations per second: the most rate takes */

static double label_mean(json_t *r, const char *label)
{
	json_t *l = json_object_get(json_object_get(r, "labels"), label);
	cr_assert_not_null(l, "result.json has no label %s", label);
	return json_number_value(json_object_get(l, "mean_us"));
}

static void assert_close(double a, double b, const char *what)
{
	cr_assert(a > 0 && b > 0 && fabs(a / b - 1) < 0.05, "%s: %.1f against %.1f us (%.3f)", what,
		  a, b, a / b);
}

static json_t *run(const struct e2e_env *e, const char *name, const char *workload, ...)
	__attribute__((sentinel));
static json_t *run(const struct e2e_env *e, const char *name, const char *workload, ...)
{
	char out[E2E_PATH];
	e2e_path(e, out, name);
	struct e2e_args a;
	e2e_run_args(&a, e, workload, out);
	va_list ap;
	va_start(ap, workload);
	e2e_args_addv(&a, ap);
	va_end(ap);
	e2e_exec_ok(e->cap, &a);
	return e2e_result(out);
}

static double ycsb_avg(const struct e2e_env *e, const char *name, const char *metric)
{
	char out[E2E_PATH], why[256];
	e2e_path(e, out, name);
	char *text = e2e_slurp_in(out, "ycsb.txt");
	struct yo_out o;
	cr_assert_eq(yo_read_text(text, &o, why, sizeof why), 0, "%s", why);
	const struct yo_rec *r = yo_find(&o, metric, "AverageLatency(us)");
	cr_assert_not_null(r, "no [%s] in %s/ycsb.txt:\n%s", metric, out, text);
	double v = r->d;
	yo_free(&o);
	free(text);
	return v;
}

/* YCSB workload A, one thread, target far above capacity: READ and UPDATE
 * from the intended start within a few percent of each other, in
 * result.json and in ycsb.txt alike; with measurement.interval = both the
 * actual-start [READ] is a small part of [Intended-READ]; with YCSB's
 * default (op) both labels are far below the schedule's lag. */
Test(e2e_null, rate_ycsb_read_and_update_alike, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	const char *wl = E2E_WORKLOAD("ycsb/workloada");
	json_t *r = run(&e, "intended", wl, "-p", "operationcount=20000", "-p", "target=" FAR_ABOVE,
			"-p", "measurement.interval=intended", NULL);
	assert_close(label_mean(r, "READ"), label_mean(r, "UPDATE"), "result.json, intended");
	assert_close(ycsb_avg(&e, "intended", "READ"), ycsb_avg(&e, "intended", "UPDATE"),
		     "ycsb.txt, intended");
	json_decref(r);

	r = run(&e, "both", wl, "-p", "operationcount=20000", "-p", "target=" FAR_ABOVE, "-p",
		"measurement.interval=both", NULL);
	assert_close(label_mean(r, "READ"), label_mean(r, "UPDATE"), "result.json, both");
	assert_close(ycsb_avg(&e, "both", "Intended-READ"), ycsb_avg(&e, "both", "Intended-UPDATE"),
		     "ycsb.txt, both");
	double op = ycsb_avg(&e, "both", "READ"), intended = ycsb_avg(&e, "both", "Intended-READ");
	cr_assert_lt(op, intended / 20, "[READ] %.1f us is the read alone, [Intended-READ] %.1f us "
		     "its lag too", op, intended);
	json_decref(r);

	r = run(&e, "op", wl, "-p", "operationcount=20000", "-p", "target=" FAR_ABOVE, NULL);
	double lag = json_number_value(json_object_get(json_object_get(r, "rate"), "lag_mean_us"));
	cr_assert_lt(label_mean(r, "READ"), lag / 20, "op: READ without the lag of %.0f us", lag);
	cr_assert_lt(label_mean(r, "UPDATE"), lag / 20, "op: UPDATE without the lag of %.0f us", lag);
	json_decref(r);
	e2e_env_fini(&e);
}

/* The other patterns with several labels: metadata's four operations of
 * one cycle alike; ingest's probe steps (every 20th create's) alike with
 * the creates; raw's second benchmark (later operations) above its first,
 * where each of them was its own actual latency when only label 0 counted
 * from the intended start. */
Test(e2e_null, rate_every_label_of_every_pattern, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	json_t *r = run(&e, "md", E2E_WORKLOAD("ci-metadata.ini"), "--set", "rate=" FAR_ABOVE, NULL);
	static const char *const md[] = {"getFileId", "rename", "delete"};
	for (int i = 0; i < 3; i++)
		assert_close(label_mean(r, md[i]), label_mean(r, "mkdir"), md[i]);
	json_decref(r);
	r = run(&e, "ingest", E2E_CI_INGEST, "--set", "rate=" FAR_ABOVE, "--set", "ops=2000", "--set",
		"probe_every=20", "--set", "threads=1", NULL);
	static const char *const probes[] = {"probe-create", "probe-head", "probe-get", "probe-patch",
					     "probe-delete"};
	for (int i = 0; i < 5; i++)
		assert_close(label_mean(r, probes[i]), label_mean(r, "create"), probes[i]);
	json_decref(r);
	r = run(&e, "raw", E2E_WORKLOAD("raw-ci.ini"), "--set", "rate=" FAR_ABOVE, "--set",
		"benchmarks=fillseq,readrandom", NULL);
	cr_assert_gt(label_mean(r, "readrandom"), label_mean(r, "fillseq"),
		     "readrandom's operations come after fillseq's: more lag");
	json_decref(r);
	e2e_env_fini(&e);
}
