/* Backend gauge statistics: accumulation, failures, result.json's
 * "backend_gauges" object and the text lines. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "null_backend.h"
#include "gauges.h"
#include "runner.h"

static void add2(struct rpb_gauge_stats *s, double bytes, double secs)
{
	struct rpb_gauge g[2] = {{"replica_lag_bytes", bytes}, {"replica_lag_s", secs}};
	rpb_gauges_add(s, g, 2);
}

static double jreal(const json_t *o, const char *gauge, const char *field)
{
	json_t *v = json_object_get(json_object_get(o, gauge), field);
	cr_assert(json_is_number(v), "%s.%s is missing or not a number", gauge, field);
	return json_number_value(v);
}

Test(gauges, add_keeps_samples_mean_min_max_last)
{
	struct rpb_gauge_stats s;
	rpb_gauges_init(&s);
	add2(&s, 100, 0.5);
	add2(&s, 4000, 0.25);
	add2(&s, 0, 0);
	cr_assert_eq(s.n, 2);
	cr_assert_str_eq(s.g[0].name, "replica_lag_bytes");
	cr_assert_str_eq(s.g[1].name, "replica_lag_s");
	cr_assert_eq(s.g[0].samples, 3);
	cr_assert_float_eq(s.g[0].sum / 3, 4100.0 / 3, 1e-9);
	cr_assert_float_eq(s.g[0].min, 0, 1e-12);
	cr_assert_float_eq(s.g[0].max, 4000, 1e-12);
	cr_assert_float_eq(s.g[0].last, 0, 1e-12);
	cr_assert_float_eq(s.g[1].min, 0, 1e-12);
	cr_assert_float_eq(s.g[1].max, 0.5, 1e-12);
	cr_assert_float_eq(s.g[1].sum, 0.75, 1e-12);
	cr_assert_eq(s.failed, 0);
}

Test(gauges, min_is_the_first_value_not_zero)
{
	struct rpb_gauge_stats s;
	rpb_gauges_init(&s);
	add2(&s, 700, 2);
	add2(&s, 900, 3);
	cr_assert_float_eq(s.g[0].min, 700, 1e-12, "min %g", s.g[0].min);
	cr_assert_float_eq(s.g[1].min, 2, 1e-12);
}

Test(gauges, matched_by_name_bounded_and_finite_only)
{
	struct rpb_gauge_stats s;
	rpb_gauges_init(&s);
	add2(&s, 10, 1);
	/* Another order: still matched by name, not by position. */
	struct rpb_gauge swapped[2] = {{"replica_lag_s", 3}, {"replica_lag_bytes", 30}};
	rpb_gauges_add(&s, swapped, 2);
	cr_assert_float_eq(s.g[0].last, 30, 1e-12);
	cr_assert_float_eq(s.g[1].last, 3, 1e-12);
	/* Not finite: skipped, the others of the reading still count. */
	struct rpb_gauge odd[2] = {{"replica_lag_bytes", NAN}, {"replica_lag_s", INFINITY}};
	rpb_gauges_add(&s, odd, 2);
	cr_assert_eq(s.g[0].samples, 2);
	cr_assert_eq(s.g[1].samples, 2);
	/* More names than RPB_GAUGES_MAX: the extra ones are dropped. */
	struct rpb_gauge many[RPB_GAUGES_MAX + 2];
	static const char *const names[] = {"a_s", "b_s", "c_s", "d_s", "e_s",
					    "f_s", "g_s", "h_s", "i_s", "j_s"};
	_Static_assert(sizeof names / sizeof names[0] >= RPB_GAUGES_MAX + 2, "enough names");
	for (size_t k = 0; k < RPB_GAUGES_MAX + 2; k++)
		many[k] = (struct rpb_gauge){names[k], (double)k};
	rpb_gauges_add(&s, many, RPB_GAUGES_MAX + 2);
	cr_assert_eq(s.n, RPB_GAUGES_MAX);
	cr_assert_str_eq(s.g[2].name, "a_s");
	cr_assert_str_eq(s.g[RPB_GAUGES_MAX - 1].name, names[RPB_GAUGES_MAX - 3]);
}

Test(gauges, failures_count_and_keep_the_first_message)
{
	struct rpb_gauge_stats s;
	rpb_gauges_init(&s);
	struct rpb_err e1, e2;
	rpb_err_set(&e1, RPB_CONN_LOST, 0, "08006", "replica went away");
	rpb_err_set(&e2, RPB_IO, 0, NULL, "second problem");
	rpb_gauges_fail(&s, &e1);
	rpb_gauges_fail(&s, &e2);
	cr_assert_eq(s.failed, 2);
	cr_assert_str_eq(s.first_failure.msg, "replica went away");
	cr_assert_eq(s.first_failure.status, RPB_CONN_LOST);
	/* Failures alone still show: a replica unreachable all along. */
	cr_assert(rpb_gauges_any(&s));
	json_t *o = rpb_gauges_json(&s);
	cr_assert_not_null(o);
	cr_assert_eq(json_integer_value(json_object_get(o, "failed_readings")), 2);
	cr_assert_str_eq(json_string_value(json_object_get(o, "first_failure")), "replica went away");
	cr_assert_eq(json_object_size(o), 2);
	json_decref(o);
	char line[128];
	rpb_gauges_summary(&s, line, sizeof line);
	cr_assert_str_eq(line, "failed readings 2 (first: replica went away)");
}

Test(gauges, json_absent_without_readings)
{
	struct rpb_gauge_stats s;
	rpb_gauges_init(&s);
	cr_assert_null(rpb_gauges_json(&s));
	/* A store without gauges answers n = 0: still nothing to report. */
	rpb_gauges_add(&s, NULL, 0);
	cr_assert_null(rpb_gauges_json(&s));
	char line[128] = "x";
	rpb_gauges_summary(&s, line, sizeof line);
	cr_assert_str_eq(line, "");
	rpb_gauges_latest(&s, line, sizeof line);
	cr_assert_str_eq(line, "");
}

Test(gauges, json_values_and_failures)
{
	struct rpb_gauge_stats s;
	rpb_gauges_init(&s);
	add2(&s, 2000, 0.05);
	add2(&s, 6000, 0.01);
	json_t *o = rpb_gauges_json(&s);
	cr_assert_not_null(o);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(o, "replica_lag_bytes"),
							  "samples")), 2);
	cr_assert_float_eq(jreal(o, "replica_lag_bytes", "mean"), 4000, 1e-9);
	cr_assert_float_eq(jreal(o, "replica_lag_bytes", "min"), 2000, 1e-9);
	cr_assert_float_eq(jreal(o, "replica_lag_bytes", "max"), 6000, 1e-9);
	cr_assert_float_eq(jreal(o, "replica_lag_bytes", "last"), 6000, 1e-9);
	cr_assert_float_eq(jreal(o, "replica_lag_s", "mean"), 0.03, 1e-12);
	cr_assert_float_eq(jreal(o, "replica_lag_s", "max"), 0.05, 1e-12);
	cr_assert_eq(json_integer_value(json_object_get(o, "failed_readings")), 0);
	cr_assert_null(json_object_get(o, "first_failure"), "first_failure only after a failure");
	json_decref(o);

	struct rpb_err e;
	rpb_err_set(&e, RPB_CONN_LOST, 0, NULL, "lost the replica");
	rpb_gauges_fail(&s, &e);
	o = rpb_gauges_json(&s);
	cr_assert_not_null(o);
	cr_assert_eq(json_integer_value(json_object_get(o, "failed_readings")), 1);
	cr_assert_str_eq(json_string_value(json_object_get(o, "first_failure")), "lost the replica");
	/* The gauges come first, in the backend's order, then the failure count. */
	const char *want[] = {"replica_lag_bytes", "replica_lag_s", "failed_readings", "first_failure"};
	char *text = json_dumps(o, JSON_PRESERVE_ORDER);
	const char *at = text;
	for (size_t i = 0; i < 4; i++) {
		const char *p = strstr(at, want[i]);
		cr_assert_not_null(p, "\"%s\" missing or out of order in %s", want[i], text);
		at = p;
	}
	free(text);
	json_decref(o);
}

Test(gauges, text_lines_format_by_unit)
{
	struct rpb_gauge_stats s;
	rpb_gauges_init(&s);
	add2(&s, 123456, 0.052);
	add2(&s, 2048, 0.0045);
	add2(&s, 0, 0);
	struct rpb_gauge other = {"queue_depth", 2.5};
	rpb_gauges_add(&s, &other, 1);
	char line[256];
	rpb_gauges_summary(&s, line, sizeof line);
	cr_assert_str_eq(line, "replica_lag_bytes max 123456 mean 41835 last 0; "
			       "replica_lag_s max 0.052 mean 0.019 last 0; "
			       "queue_depth max 2.5 mean 2.5 last 2.5");
	rpb_gauges_latest(&s, line, sizeof line);
	cr_assert_str_eq(line, "replica_lag_bytes 0, replica_lag_s 0, queue_depth 2.5");
	add2(&s, 1234, 0.012);
	rpb_gauges_latest(&s, line, sizeof line);
	cr_assert_str_eq(line, "replica_lag_bytes 1234, replica_lag_s 0.012, queue_depth 2.5");
	struct rpb_err e;
	rpb_err_set(&e, RPB_IO, 0, NULL, "x");
	rpb_gauges_fail(&s, &e);
	rpb_gauges_summary(&s, line, sizeof line);
	cr_assert(strstr(line, "; failed readings 1"), "%s", line);
	cr_assert_str_eq(s.first_failure.msg, "x");
	/* Values older than a failed reading are marked stale, until the next
	 * reading succeeds. */
	rpb_gauges_fail(&s, &e);
	rpb_gauges_latest(&s, line, sizeof line);
	cr_assert_str_eq(line, "replica_lag_bytes 1234, replica_lag_s 0.012, queue_depth 2.5 "
			       "(last 2 readings failed)");
	add2(&s, 5, 0.001);
	rpb_gauges_latest(&s, line, sizeof line);
	cr_assert_str_eq(line, "replica_lag_bytes 5, replica_lag_s 0.001, queue_depth 2.5");
	/* A short buffer is cut, never overrun. */
	char tiny[12];
	rpb_gauges_summary(&s, tiny, sizeof tiny);
	cr_assert_eq(strlen(tiny), sizeof tiny - 1);
}

Test(gauges, sample_skips_a_backend_without_the_hook)
{
	cr_assert_null(rpb_backend_null.gauges, "the null backend has no gauges");
	struct rpb_runner rn = {.backend = &rpb_backend_null};
	rpb_gauges_init(&rn.gauges);
	rpb_gauges_sample(&rn);
	cr_assert_eq(rn.gauges.n, 0);
	cr_assert_eq(rn.gauges.failed, 0);
}
