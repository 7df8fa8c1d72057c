/* compare --baseline on result.json files written here from one real null
 * run with the figures set by the test (so nothing depends on how fast the
 * machine was): a regression beyond its --max-regress threshold exits 6
 * and is named on stderr, one within it exits 0, overlapping repeats are
 * within noise and fail no gate, a baseline of another workload or backend
 * is refused, and the markdown and JUnit files are written and well-formed
 * with every text from the result files escaped. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e_util.h"

/* A baseline directory's name holding XML's and markdown's specials,
 * which the files must escape (result.json's own texts cannot hold them:
 * compare refuses such labels and workload names). */
#define HOSTILE "base<&\"x'"

/* One crafted run: the main label's throughput and p99. */
struct fixture {
	double throughput, p99;
};

static json_t *template_result(const struct e2e_env *e)
{
	char out[E2E_PATH];
	e2e_path(e, out, "template");
	struct e2e_args a = {0};
	e2e_args_add(&a, e->bin, "run", E2E_CI_INGEST, "--quiet", "--out", out, "--set", "ops=20",
		     "--set", "sync=none", NULL);
	e2e_exec_ok(e->cap, &a);
	return e2e_result(out);
}

/* DIR/result.json: the template with f's figures; option, when not NULL,
 * a manifest.options entry "KEY=VALUE" changed. */
static void write_fixture(const json_t *tmpl, const struct fixture *f, const char *dir,
			  const char *option)
{
	cr_assert_eq(mkdir(dir, 0755), 0, "mkdir %s", dir);
	json_t *r = json_deep_copy(tmpl);
	json_t *man = json_object_get(r, "manifest");
	if (option) {
		char key[128];
		snprintf(key, sizeof key, "%.*s", (int)strcspn(option, "="), option);
		json_object_set_new(json_object_get(man, "options"), key,
				    json_string(strchr(option, '=') + 1));
	}
	json_t *main_label = json_object_iter_value(json_object_iter(json_object_get(r, "labels")));
	json_object_set_new(main_label, "throughput_per_s", json_real(f->throughput));
	json_object_set_new(main_label, "p99_us", json_real(f->p99));
	char path[E2E_PATH + 16];
	snprintf(path, sizeof path, "%s/result.json", dir);
	cr_assert_eq(json_dump_file(r, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
	json_decref(r);
}

/* A test's fixtures: the template run and the directories written. */
struct bench {
	struct e2e_env e;
	json_t *tmpl;
};

static void bench_init(struct bench *b)
{
	e2e_need_rpbench();
	e2e_env_init(&b->e, "null");
	b->tmpl = template_result(&b->e);
}

static void bench_fini(struct bench *b)
{
	json_decref(b->tmpl);
	e2e_env_fini(&b->e);
}

static const char *fixture_dir(struct bench *b, char *dir, const char *name,
			       const struct fixture *f, const char *option)
{
	e2e_path(&b->e, dir, name);
	write_fixture(b->tmpl, f, dir, option);
	return dir;
}

/* rpbench compare --results NEW --baseline BASE and the extra args. */
static void compare(struct bench *b, struct e2e_proc *p, const char *now, const char *base, ...)
	__attribute__((sentinel));
static void compare(struct bench *b, struct e2e_proc *p, const char *now, const char *base, ...)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", "--results", now, "--baseline", base, "--quiet", NULL);
	va_list ap;
	va_start(ap, base);
	e2e_args_addv(&a, ap);
	va_end(ap);
	cr_assert_eq(e2e_spawn(p, b->e.cap, &a), 0);
	e2e_wait(p);
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;
	for (const char *q = s; (q = strstr(q, needle)); q += strlen(needle))
		n++;
	return n;
}

Test(e2e_baseline, regression_beyond_threshold_exits_6_and_is_named, .fini = e2e_cleanup)
{
	struct bench b;
	bench_init(&b);
	char base[E2E_PATH], now[E2E_PATH];
	fixture_dir(&b, base, "base", &(struct fixture){1000, 100}, NULL);
	/* Throughput 10 % lower (gate 5 %), p99 5 % higher (gate 10 %). */
	fixture_dir(&b, now, "now", &(struct fixture){900, 105}, NULL);
	struct e2e_proc p;
	compare(&b, &p, now, base, "--max-regress", "throughput=5%,p99=10%", NULL);
	e2e_assert_code(&p, 6);
	cr_assert_eq(count(p.err, "\n"), 1, "one regression, one line:\n%s", p.err);
	cr_assert(strstr(p.err, "rpbench: regression: null create throughput, ops/s: 900.0 against "
				"1000.0 in the baseline, -10.0% (limit 5%)"), "%s", p.err);
	cr_assert(strstr(p.out, "REGRESSED (limit 5%)") && strstr(p.out, "+5.0%"), "%s", p.out);
	e2e_proc_free(&p);
	/* A label's own threshold replaces the key's: create.p99 at 2 % fails too. */
	compare(&b, &p, now, base, "--max-regress", "p99=10%,create.p99=2%", NULL);
	e2e_assert_code(&p, 6);
	cr_assert(strstr(p.err, "create latency p99, µs: 105.0 against 100.0") && count(p.err, "\n") == 1,
		  "%s", p.err);
	e2e_proc_free(&p);
	bench_fini(&b);
}

Test(e2e_baseline, within_threshold_exits_0, .fini = e2e_cleanup)
{
	struct bench b;
	bench_init(&b);
	char base[E2E_PATH], now[E2E_PATH];
	fixture_dir(&b, base, "base", &(struct fixture){1000, 100}, NULL);
	fixture_dir(&b, now, "now", &(struct fixture){960, 109}, NULL);
	struct e2e_proc p;
	compare(&b, &p, now, base, "--max-regress", "throughput=5%,p99=10%", "--out", b.e.out, NULL);
	e2e_assert_code(&p, 0);
	e2e_assert_quiet(&p);
	cr_assert(strstr(p.out, "-4.0%") && strstr(p.out, "+9.0%") && strstr(p.out, "ok (limit 10%)"),
		  "%s", p.out);
	/* compare.json's baseline: the exact change and the gate. */
	char path[E2E_PATH + 16];
	snprintf(path, sizeof path, "%s/compare.json", b.e.out);
	json_error_t jerr;
	json_t *cmp = json_load_file(path, 0, &jerr);
	cr_assert_not_null(cmp, "%s: %s", path, jerr.text);
	const json_t *bl = json_object_get(cmp, "baseline");
	cr_assert_eq(json_integer_value(json_object_get(bl, "regressions")), 0);
	cr_assert_eq(json_integer_value(json_object_get(bl, "gated")), 2);
	const json_t *fig = json_array_get(json_object_get(bl, "figures"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(fig, "key")), "create.throughput");
	cr_assert_float_eq(json_number_value(json_object_get(fig, "change_pct")), -4.0, 1e-9);
	cr_assert_str_eq(json_string_value(json_object_get(fig, "noise")), "unknown");
	json_decref(cmp);
	char *md = e2e_slurp_in(b.e.out, "compare.md");
	cr_assert(strstr(md, "## Against the baseline"), "%s", md);
	free(md);
	e2e_proc_free(&p);
	bench_fini(&b);
}

Test(e2e_baseline, overlapping_repeats_are_within_noise, .fini = e2e_cleanup)
{
	struct bench b;
	bench_init(&b);
	/* The baseline a compare directory of two runs, [1000, 1100]; now two
	 * runs of [950, 1010]: medians 1050 and 980 (-6.7 %), ranges overlap. */
	char b1[E2E_PATH], b2[E2E_PATH], n1[E2E_PATH], n2[E2E_PATH], cmpdir[E2E_PATH];
	fixture_dir(&b, b1, "b1", &(struct fixture){1000, 100}, NULL);
	fixture_dir(&b, b2, "b2", &(struct fixture){1100, 100}, NULL);
	fixture_dir(&b, n1, "n1", &(struct fixture){950, 100}, NULL);
	fixture_dir(&b, n2, "n2", &(struct fixture){1010, 100}, NULL);
	e2e_path(&b.e, cmpdir, "cmp");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", "--results", b1, b2, "--out", cmpdir, "--quiet", NULL);
	e2e_exec_expect(b.e.cap, &a, 0);
	struct e2e_proc p;
	struct e2e_args c = {0};
	e2e_args_add(&c, RPBENCH, "compare", "--results", n1, n2, "--baseline", cmpdir,
		     "--max-regress", "throughput=5%", "--quiet", NULL);
	cr_assert_eq(e2e_spawn(&p, b.e.cap, &c), 0);
	e2e_wait(&p);
	e2e_assert_code(&p, 0);
	cr_assert(strstr(p.out, "a compare directory of 2 runs") && strstr(p.out, "-6.7%") &&
		  strstr(p.out, "ranges overlap") && strstr(p.out, "within noise (limit 5%)"),
		  "%s", p.out);
	e2e_proc_free(&p);
	/* Ranges apart, [800, 850]: a regression. */
	char m1[E2E_PATH], m2[E2E_PATH];
	fixture_dir(&b, m1, "m1", &(struct fixture){800, 100}, NULL);
	fixture_dir(&b, m2, "m2", &(struct fixture){850, 100}, NULL);
	struct e2e_args d = {0};
	e2e_args_add(&d, RPBENCH, "compare", "--results", m1, m2, "--baseline", cmpdir,
		     "--max-regress", "throughput=5%", "--quiet", NULL);
	cr_assert_eq(e2e_spawn(&p, b.e.cap, &d), 0);
	e2e_wait(&p);
	e2e_assert_code(&p, 6);
	cr_assert(strstr(p.out, "ranges apart"), "%s", p.out);
	e2e_proc_free(&p);
	bench_fini(&b);
}

Test(e2e_baseline, other_workload_is_refused, .fini = e2e_cleanup)
{
	struct bench b;
	bench_init(&b);
	char base[E2E_PATH], now[E2E_PATH], other[E2E_PATH];
	fixture_dir(&b, base, "base", &(struct fixture){1000, 100}, "ingest.size_max=100");
	fixture_dir(&b, now, "now", &(struct fixture){1000, 100}, NULL);
	struct e2e_proc p;
	compare(&b, &p, now, base, NULL);
	e2e_assert_refusal(&p, 1, "the baseline is another workload", "ingest.size_max differs", NULL);
	e2e_proc_free(&p);
	/* Another sync: no column of the same backend, profile and sync. */
	fixture_dir(&b, other, "other", &(struct fixture){1000, 100}, NULL);
	char path[E2E_PATH + 16];
	snprintf(path, sizeof path, "%s/result.json", other);
	json_error_t jerr;
	json_t *r = json_load_file(path, JSON_PRESERVE_ORDER, &jerr);
	cr_assert_not_null(r);
	json_t *man = json_object_get(r, "manifest");
	json_object_set_new(json_object_get(man, "options"), "run.sync", json_string("commit"));
	json_object_set_new(man, "sync", json_string("commit"));
	cr_assert_eq(json_dump_file(r, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
	json_decref(r);
	compare(&b, &p, now, other, NULL);
	e2e_assert_refusal(&p, 1, "has no run of null / durable / none", "null / durable / commit",
			   NULL);
	e2e_proc_free(&p);
	/* Neither a run's nor a compare directory. */
	compare(&b, &p, now, b.e.cap, NULL);
	e2e_assert_refusal(&p, 1, "holds neither result.json", NULL);
	e2e_proc_free(&p);
	bench_fini(&b);
}

Test(e2e_baseline, malformed_max_regress_is_a_usage_error, .fini = e2e_cleanup)
{
	struct bench b;
	bench_init(&b);
	char base[E2E_PATH];
	fixture_dir(&b, base, "base", &(struct fixture){1000, 100}, NULL);
	static const char *const bad[][2] = {
		{"thruput=5%", "not KEY=PERCENT"}, {"p99=", "not a percentage"},
		{"p99=-1%", "not a percentage"},   {"p99=5%,", "empty item"},
		{"p99=5,p99=6", "twice"},          {"create.bytes=5", "not a label's"},
		{"nolabel.p99=5%", "the label 'nolabel'"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct e2e_proc p;
		compare(&b, &p, base, base, "--max-regress", bad[i][0], NULL);
		e2e_assert_refusal(&p, 1, "--max-regress", bad[i][1], NULL);
		e2e_proc_free(&p);
	}
	struct e2e_args a = {0};
	struct e2e_proc p;
	e2e_args_add(&a, RPBENCH, "compare", "--results", base, "--max-regress", "p99=5%", NULL);
	e2e_exec(&p, b.e.cap, &a);
	e2e_assert_refusal(&p, 1, "need --baseline", NULL);
	e2e_proc_free(&p);
	bench_fini(&b);
}

/* A minimal check of well-formed XML: tags nest and close, attribute
 * values are quoted and hold no '<', every '&' starts an entity. */
static void assert_xml(const char *x)
{
	const char *stack[64];
	size_t lens[64], depth = 0;
	cr_assert(!strncmp(x, "<?xml ", 6), "no XML declaration");
	x = strstr(x, "?>") + 2;
	for (const char *p = x; *p; p++) {
		if (*p == '&') {
			cr_assert(!strncmp(p, "&lt;", 4) || !strncmp(p, "&gt;", 4) || !strncmp(p, "&amp;", 5) ||
				  !strncmp(p, "&quot;", 6) || !strncmp(p, "&apos;", 6), "bare &: %.40s", p);
			continue;
		}
		if (*p != '<')
			continue;
		const char *end = p + 1;
		bool quoted = false;
		for (; *end && (quoted || *end != '>'); end++) {
			cr_assert(!(quoted && *end == '<'), "< in an attribute: %.60s", p);
			if (*end == '"')
				quoted = !quoted;
		}
		cr_assert_eq(*end, '>', "unclosed tag: %.60s", p);
		bool closing = p[1] == '/', empty = end[-1] == '/';
		const char *name = p + 1 + closing;
		size_t nl = strcspn(name, " />");
		if (closing) {
			cr_assert(depth > 0 && lens[depth - 1] == nl && !strncmp(stack[depth - 1], name, nl),
				  "</%.*s> closes nothing open", (int)nl, name);
			depth--;
		} else if (!empty) {
			cr_assert(depth < 64);
			stack[depth] = name;
			lens[depth++] = nl;
		}
		p = end;
	}
	cr_assert_eq(depth, 0, "unclosed elements");
}

Test(e2e_baseline, summary_and_junit_are_written_escaped, .fini = e2e_cleanup)
{
	struct bench b;
	bench_init(&b);
	char base[E2E_PATH], now[E2E_PATH], md[E2E_PATH], xml[E2E_PATH];
	fixture_dir(&b, base, HOSTILE, &(struct fixture){1000, 100}, NULL);
	fixture_dir(&b, now, "now", &(struct fixture){900, 100}, NULL);
	e2e_path(&b.e, md, "summary.md");
	e2e_path(&b.e, xml, "junit.xml");
	struct e2e_proc p;
	compare(&b, &p, now, base, "--max-regress", "throughput=5%,p50=1%,p99=1%", "--summary", md,
		"--junit", xml, NULL);
	e2e_assert_code(&p, 6);
	char *x = e2e_slurp(xml, NULL), *m = e2e_slurp(md, NULL);
	cr_assert(x && m, "the files were not written");
	assert_xml(x);
	cr_assert_null(strstr(x, HOSTILE), "unescaped directory:\n%s", x);
	cr_assert(strstr(x, "base&lt;&amp;&quot;x&apos;\"/>"), "%s", x);
	cr_assert_eq(count(x, "<testcase "), 3, "one testcase per gated figure:\n%s", x);
	cr_assert_eq(count(x, "<failure "), 1, "%s", x);
	cr_assert(strstr(x, "tests=\"3\" failures=\"1\"") && strstr(x, "name=\"create.throughput\""),
		  "%s", x);
	cr_assert(!strncmp(m, "# rpbench compare against a baseline: FAIL\n", 43), "%s", m);
	cr_assert_null(strstr(m, HOSTILE), "unescaped in markdown:\n%s", m);
	cr_assert(strstr(m, "base&lt;&amp;\"x' (a run's results)") && strstr(m, "## Regressions"),
		  "%s", m);
	cr_assert(strstr(m, "| column |"), "no table:\n%s", m);
	free(x);
	free(m);
	e2e_proc_free(&p);
	/* Files rpbench did not create are never overwritten. */
	compare(&b, &p, now, base, "--summary", md, NULL);
	e2e_assert_refusal(&p, 1, "--summary", "exists", NULL);
	e2e_proc_free(&p);
	/* A label holding XML's specials never gets this far: compare refuses it. */
	char bad[E2E_PATH], path[E2E_PATH + 16];
	fixture_dir(&b, bad, "bad", &(struct fixture){1000, 100}, NULL);
	snprintf(path, sizeof path, "%s/result.json", bad);
	json_t *r = e2e_result(bad);
	json_t *labels = json_object_get(r, "labels");
	json_object_set(labels, "a<&\"b", json_object_iter_value(json_object_iter(labels)));
	cr_assert_eq(json_dump_file(r, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
	json_decref(r);
	compare(&b, &p, now, bad, NULL);
	e2e_assert_refusal(&p, 1, "is not a label", NULL);
	e2e_proc_free(&p);
	bench_fini(&b);
}
