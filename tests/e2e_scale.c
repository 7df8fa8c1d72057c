/* rpbench scale end to end: null, sqlite and leveldb grown to 10^2 and
 * 10^3 objects with a window of 20 creates at each; scale.json holds every
 * size of every backend with the numbers of that size's window run's own
 * result.json, a fit per metric whose residuals are the points' distance
 * from it, and a projection marked projected; index.html links every
 * figure it drew; bad sizes and a workload without a preload are refused
 * in one line. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_util.h"

#if defined(RPB_HAVE_SQLITE) && defined(RPB_HAVE_LEVELDB)

static double jnum(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	cr_assert(json_is_number(v), "%s is not a number", k);
	return json_number_value(v);
}

static void same(double a, double b, const char *what)
{
	cr_assert(a == b || fabs(a - b) <= 1e-9 * fabs(b), "%s: scale.json %.17g, result.json %.17g",
		  what, a, b);
}

Test(e2e_scale, grows_and_projects, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "scale", E2E_WORKLOAD("fedora-test2.ini"), "--backends",
		     "null,sqlite,leveldb", "--objects", "1e2,1e3", "--window", "20", "--quiet",
		     "--out", e.out, NULL);
	e2e_exec_ok(e.cap, &a);
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/scale.json", e.out);
	json_t *s = json_load_file(path, 0, NULL);
	cr_assert(s, "no scale.json");
	static const char *const names[] = {"null", "sqlite", "leveldb"};
	static const char *const metrics[] = {"throughput_per_s", "p50_us", "p99_us", "p99.9_us",
					      "bytes_per_object"};
	for (size_t b = 0; b < 3; b++) {
		const json_t *bk = json_object_get(json_object_get(s, "backends"), names[b]);
		const json_t *pts = json_object_get(bk, "points");
		cr_assert_eq(json_array_size(pts), 2, "%s: not every size", names[b]);
		double x[2], y[5][2];
		for (size_t i = 0; i < 2; i++) {
			const json_t *pt = json_array_get(pts, i);
			x[i] = jnum(pt, "objects");
			cr_assert_eq(x[i], i ? 1000 : 100);
			char dir[E2E_PATH + 64];
			snprintf(dir, sizeof dir, "%s/%s", e.out,
				 json_string_value(json_object_get(pt, "run")));
			json_t *r = e2e_result(dir);
			/* The window continued the store at exactly this size. */
			cr_assert_eq(e2e_jint(r, "pattern.continues.objects_before"), (long long)x[i]);
			cr_assert_eq(e2e_jint(r, "totals.acked"), 20);
			const json_t *tot = json_object_get(r, "totals");
			const json_t *cr = json_object_get(json_object_get(r, "labels"), "create");
			same(jnum(pt, "throughput_per_s"), jnum(tot, "throughput_per_s"), "throughput");
			same(jnum(pt, "p50_us"), jnum(cr, "p50_us"), "p50");
			same(jnum(pt, "p99_us"), jnum(cr, "p99_us"), "p99");
			same(jnum(pt, "p99.9_us"), jnum(cr, "p99.9_us"), "p99.9");
			if (b == 0) {
				cr_assert(json_is_null(json_object_get(pt, "bytes_per_object")),
					  "null stores nothing, so it has no bytes per object");
			} else {
				same(jnum(pt, "bytes_per_object"),
				     jnum(tot, "store_bytes") / (x[i] + 20), "bytes per object");
				cr_assert(json_equal(json_object_get(pt, "backend_gauges"),
						     json_object_get(r, "backend_gauges")),
					  "%s: the gauges are not the window's", names[b]);
			}
			for (size_t m = 0; m < 5; m++) {
				const json_t *v = json_object_get(pt, metrics[m]);
				y[m][i] = json_is_number(v) ? json_number_value(v) : NAN;
			}
			json_decref(r);
		}
		/* Two points: the line through both, residuals zero. */
		for (size_t m = 0; m < 5; m++) {
			const json_t *f = json_object_get(json_object_get(bk, "fit"), metrics[m]);
			if (!isfinite(y[m][0])) {
				cr_assert(json_is_null(f), "%s %s: a fit of nothing", names[b], metrics[m]);
				continue;
			}
			double fa = jnum(f, "a"), fb = jnum(f, "b");
			same(fb, (y[m][1] - y[m][0]) / (log10(x[1]) - log10(x[0])), "slope");
			same(fa + fb * 2, y[m][0], "the fit at 10^2");
			for (size_t i = 0; i < 2; i++)
				cr_assert(fabs(json_number_value(json_array_get(
						  json_object_get(f, "residuals"), i))) <=
						  1e-6 * (fabs(y[m][i]) + 1),
					  "%s %s: residual", names[b], metrics[m]);
			const json_t *pj = json_object_get(f, "projection");
			cr_assert(json_is_true(json_object_get(pj, "projected")));
			cr_assert_eq(jnum(pj, "objects"), 1e7);
			same(jnum(pj, "value"), fa + fb * 7, "the projection");
		}
		const json_t *proj = json_object_get(bk, "projection");
		cr_assert(json_is_true(json_object_get(proj, "projected")));
		same(jnum(proj, "throughput_per_s"),
		     jnum(json_object_get(json_object_get(bk, "fit"), "throughput_per_s"), "a") +
			     7 * jnum(json_object_get(json_object_get(bk, "fit"), "throughput_per_s"), "b"),
		     "projected throughput");
	}
	json_decref(s);
	char *txt = e2e_slurp_in(e.out, "scale.txt");
	for (size_t b = 0; b < 3; b++) {
		char line[128];
		snprintf(line, sizeof line, "%s: projected at 10^7 objects: ", names[b]);
		cr_assert(strstr(txt, line), "scale.txt lacks %s", line);
	}
	cr_assert(strstr(txt, "a 70 GB volume fills at"));
	free(txt);
	char *html = e2e_slurp_in(e.out, "index.html");
	for (int m = 0; m < 5; m++) {
		char img[64], name[64];
		snprintf(img, sizeof img, "<img src=\"figures/scale-%d.svg\"", m);
		cr_assert(strstr(html, img), "index.html does not show figure %d", m);
		snprintf(name, sizeof name, "figures/scale-%d.svg", m);
		free(e2e_slurp_in(e.out, name));
		snprintf(name, sizeof name, "figures/scale-%d.gp", m);
		char *gp = e2e_slurp_in(e.out, name);
		cr_assert(strstr(gp, "set logscale x"), "figure %d: no log x axis", m);
		cr_assert(strstr(gp, "dt 2"), "figure %d: no dashed projection", m);
		free(gp);
	}
	free(html);
	e2e_env_fini(&e);
}

static void refused(const char *workload, const char *objects, const char *needle)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "scale", workload, "--backends", "sqlite", "--objects", objects,
		     "--window", "20", "--out", e.out, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 1, needle, NULL);
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/scale.json", e.out);
	cr_assert(access(path, F_OK) != 0, "a refused scale wrote scale.json");
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(e2e_scale, refuses_sizes_not_increasing, .fini = e2e_cleanup)
{
	refused(E2E_WORKLOAD("fedora-test2.ini"), "1e3,1e2", "must increase");
	refused(E2E_WORKLOAD("fedora-test2.ini"), "1e3,1e3", "must increase");
	refused(E2E_WORKLOAD("fedora-test2.ini"), "1e3", "at least two sizes");
	refused(E2E_WORKLOAD("fedora-test2.ini"), "100,110", "does not exceed");
}

Test(e2e_scale, refuses_a_workload_without_fedora, .fini = e2e_cleanup)
{
	refused(E2E_CI_INGEST, "1e2,1e3", "model = flat has no preload");
	refused(E2E_WORKLOAD("ci-metadata.ini"), "1e2,1e3", "has none");
}

#endif
