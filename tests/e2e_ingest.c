/* End-to-end runs of the ingest pattern through the real rpbench-<backend>
 * binaries: run, verify, the result files a JMeter user reads, what the
 * store itself holds, determinism of the seed, and SIGINT. Suites are named
 * e2e_<backend> so the log names each backend. */
#include <criterion/criterion.h>
#include <math.h>
#include <inttypes.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "e2e_util.h"

/* JMeter's summariser line, as a JMeter user's log parser expects it. */
#define SUMMARY_RE                                                                             \
	"summary = +[0-9]+ in [0-9]{2}:[0-9]{2}:[0-9]{2} = +[0-9]+\\.[0-9]/s Avg: +[0-9]+ Min: +" \
	"[0-9]+ Max: +[0-9]+ Err: +[0-9]+ \\([0-9]+\\.[0-9]{2}%\\)"
#define PROGRESS_RE                                                                            \
	"^summary \\+ +[0-9]+ in [0-9]{2}:[0-9]{2}:[0-9]{2} = +[0-9]+\\.[0-9]/s Avg: +[0-9]+ "   \
	"Min: +[0-9]+ Max: +[0-9]+ Err: +[0-9]+ \\([0-9]+\\.[0-9]{2}%\\) Active: ([0-9]+) "      \
	"Started: ([0-9]+) Finished: ([0-9]+)$"

static const char jtl_header[] =
	"timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
	"failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

static bool matches(const char *re, const char *line, regmatch_t *m, size_t nm)
{
	regex_t rx;
	int rc = regcomp(&rx, re, REG_EXTENDED | (m ? 0 : REG_NOSUB));
	cr_assert_eq(rc, 0, "bad regex %s", re);
	rc = regexec(&rx, line, nm, m, 0);
	regfree(&rx);
	return rc == 0;
}

static void assert_summary_line(const char *line, const char *where)
{
	cr_assert(matches("^" SUMMARY_RE "$", line, NULL, 0),
		  "%s: \"%s\" does not match JMeter's summariser format", where, line);
}

/* The first line of a file, NUL-terminated in a malloc'd buffer. */
static char *first_line(const char *path)
{
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "cannot read %s", path);
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* ---- 1. run, then verify: every acknowledged create is in the store ---- */

static void t_run_verify(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	e2e_run_ci(&e, NULL);
	json_t *r = e2e_result(e.out);
	json_int_t acked = e2e_jint(r, "totals.acked");
	cr_assert_eq(acked, 3000, "ci-ingest is 2 threads x 1500 ops, acked %lld", (long long)acked);
	cr_assert_str_eq(e2e_jstr(r, "manifest.backend"), backend);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "completed");
	e2e_verify_clean(&e, e.out, acked);

	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/summary.txt", e.out);
	char *line = first_line(path);
	assert_summary_line(line, path);
	free(line);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- 4. the store's own count equals the reported successes ---- */

/* SQLite's file is counted by sqlite3, outside the backend's code. */
static void sqlite_counts(const struct e2e_env *e, long long *objects, long long *descs)
{
	const char *tables[2] = {"objects", "descriptions"};
	long long *into[2] = {objects, descs};
	for (int i = 0; i < 2; i++) {
		char sql[256], db[E2E_PATH + 32];
		struct e2e_args a = {0};
		snprintf(sql, sizeof sql,
			 "SELECT count(*) FROM %s WHERE k >= CAST('o/' AS BLOB) AND k < CAST('o0' AS BLOB)",
			 tables[i]);
		snprintf(db, sizeof db, "%s/rpbench.sqlite", e->store);
		e2e_args_add(&a, "sqlite3", "-bail", db, sql, NULL);
		*into[i] = e2e_query_count(e, &a);
	}
}

static void t_store_counts(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	e2e_run_ci(&e, NULL);
	json_t *r = e2e_result(e.out);
	json_int_t acked = e2e_jint(r, "totals.acked");
	long long objects, descs;
	if (strcmp(backend, "sqlite")) {
		struct e2e_store s;
		e2e_env_store_open(&s, &e);
		objects = (long long)e2e_scan_prefix(&s, RPB_T_OBJECTS, "o/", NULL, NULL);
		descs = (long long)e2e_scan_prefix(&s, RPB_T_DESCRIPTIONS, "o/", NULL, NULL);
		e2e_store_close(&s);
	} else
		sqlite_counts(&e, &objects, &descs);
	cr_assert_gt(acked, 0);
	cr_assert_eq(objects, acked, "%s holds %lld objects, result.json acked %lld", backend,
		     objects, (long long)acked);
	cr_assert_eq(descs, acked, "%s holds %lld descriptions, result.json acked %lld", backend,
		     descs, (long long)acked);
	json_decref(r);
	e2e_env_fini(&e);
}

#define T(backend, name) \
	Test(e2e_##backend, name, .fini = e2e_cleanup) { t_##name(#backend); }

#ifdef RPB_HAVE_LEVELDB
T(leveldb, run_verify)
T(leveldb, store_counts)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, run_verify)
T(sqlite, store_counts)
#endif
#define SERVER_TESTS(backend) T(backend, run_verify) T(backend, store_counts)
RPBT_EACH_SERVER(SERVER_TESTS)

/* ---- the null backend keeps nothing ---- */

Test(e2e_null, run_completes, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_CI_INGEST, e.out);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	if (p.code != 0 && e2e_exists(e.out)) {
		json_t *r = e2e_result(e.out);
		cr_assert_fail("`%s` exited %d, expected 0 (the null backend measures the harness and "
			       "must complete ci-ingest); its status: %s",
			       p.cmd, p.code, e2e_jstr(r, "status"));
	}
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* The run's span ends with its last thread, not when the supervisor next
 * looks (it sleeps up to 50 ms: a short run's throughput would shrink by
 * that); exact, whatever the machine's speed. */
Test(e2e_null, run_ends_with_its_last_thread, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	e2e_run_ci(&e, "--set", "ops=50", "--set", "probe_every=0", NULL);
	json_t *r = e2e_result(e.out);
	double last = 0;
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(r, "threads"), i, t) {
		json_t *end = json_object_get(t, "end_s");
		cr_assert(json_is_number(end), "threads[%zu] has no end_s", i);
		if (json_number_value(end) > last)
			last = json_number_value(end);
	}
	double elapsed = json_number_value(json_object_get(json_object_get(r, "totals"), "elapsed_s"));
	cr_assert(last > 0 && fabs(elapsed - last) < 1e-6,
		  "elapsed_s %.9f is not the last thread's end_s %.9f", elapsed, last);
	json_decref(r);
	e2e_env_fini(&e);
}

Test(e2e_null, verify_refused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_CI_INGEST, e.out);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/result.json", e.out);
	cr_assert(e2e_exists(path), "`%s` (exit %d) wrote no result.json: %s", p.cmd, p.code, p.err);
	e2e_proc_free(&p);

	a.n = 0;
	e2e_args_add(&a, e.bin, "verify", e.out, NULL);
	e2e_exec(&p, e.cap, &a);
	cr_assert_neq(p.code, 0, "`%s` succeeded on a store that keeps nothing: %s", p.cmd, p.out);
	e2e_assert_refusal(&p, p.code, "null backend keeps nothing", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* ---- 2. summary.txt and the progress lines ---- */

#ifdef RPB_HAVE_SQLITE
Test(e2e_sqlite, summary_format, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	e2e_run_ci(&e, NULL);
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/summary.txt", e.out);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "cannot read %s", path);
	char *status = strstr(text, "\nStatus: ");
	cr_assert_not_null(status, "%s has no \"Status:\" line:\n%s", path, text);
	status++;
	status[strcspn(status, "\n")] = '\0';
	text[strcspn(text, "\n")] = '\0';
	assert_summary_line(text, path);

	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "summary"), text, "result.json's summary differs from %s", path);
	cr_assert(strstr(status, "Test completed: 3,000 "), "%s: %s", path, status);
	cr_assert_null(strstr(status, "(null)"),
		       "%s: the Status line prints \"(null)\" where the pattern's noun belongs: "
		       "\"%s\" (rpb_pattern_ingest sets no .noun)",
		       path, status);
	json_decref(r);
	free(text);
	e2e_env_fini(&e);
}

Test(e2e_sqlite, progress_lines, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	/* A run of 1 s, longer in slower builds (the time factor), so that the
	 * progress lines' 0.1 s ticks come even when the CPUs are busy. */
	char duration[64];
	snprintf(duration, sizeof duration, "duration=%.3f", rpbt_limit_s(1));
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "run", E2E_CI_INGEST, "--out", e.out, "--set", "interval=0.1",
		     "--set", "ops=0", "--set", duration, NULL);
	char *out = e2e_exec_expect(e.cap, &a, 0);
	unsigned plus = 0, equals = 0, status = 0;
	for (char *save = NULL, *line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		regmatch_t m[4];
		if (!strncmp(line, "summary +", 9)) {
			cr_assert(matches(PROGRESS_RE, line, m, 4),
				  "progress line \"%s\" does not match JMeter's summariser format", line);
			long active = strtol(line + m[1].rm_so, NULL, 10);
			long started = strtol(line + m[2].rm_so, NULL, 10);
			long finished = strtol(line + m[3].rm_so, NULL, 10);
			cr_assert_eq(started, 2, "ci-ingest starts 2 threads: \"%s\"", line);
			cr_assert_eq(active + finished, started, "\"%s\"", line);
			plus++;
		} else if (!strncmp(line, "summary =", 9)) {
			assert_summary_line(line, "stdout");
			equals++;
		} else if (!strncmp(line, "Status: ", 8))
			status++;
	}
	cr_assert_geq(plus, 3, "a %s run with interval 0.1 printed %u \"summary +\" lines:\n%s",
		      duration, plus, out);
	cr_assert_geq(equals, 3, "only %u \"summary =\" lines:\n%s", equals, out);
	cr_assert_eq(status, 1, "%u \"Status:\" lines:\n%s", status, out);
	free(out);
	e2e_env_fini(&e);
}
#endif

/* ---- 3. samples.jtl in JMeter's CSV layout ---- */

#define JTL_FIELDS 17

/* Splits one CSV line in place (RFC 4180 quotes, "" for a quote); returns
 * the field count, or -1 for a broken quote. */
static int csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		if (n == max)
			return max + 1;
		if (*p == '"') {
			char *w = ++p;
			f[n++] = w;
			for (;; p++) {
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"')
					*w++ = *p++;
				else if (*p == '"')
					break;
				else
					*w++ = *p;
			}
			*w = '\0';
			p++;
			if (*p != ',' && *p != '\0')
				return -1;
		} else {
			f[n++] = p;
			p += strcspn(p, ",");
		}
		if (*p == '\0')
			return n;
		*p++ = '\0';
	}
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

#ifdef RPB_HAVE_LEVELDB
Test(e2e_leveldb, jtl, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	e2e_run_ci(&e, "--set", "jtl=on", "--set", "jtl_columns=5", NULL);
	json_t *r = e2e_result(e.out);
	json_int_t samples = 0, creates = e2e_jint(r, "labels.create.samples");
	const char *label;
	json_t *v;
	json_object_foreach(json_object_get(r, "labels"), label, v)
		samples += json_integer_value(json_object_get(v, "samples"));
	cr_assert_eq(samples, e2e_jint(r, "totals.samples"));
	uint64_t start = e2e_jtime_ms(r, "manifest.start"), end = e2e_jtime_ms(r, "manifest.end");

	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/samples.jtl", e.out);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "--set jtl=on wrote no %s", path);
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	cr_assert_not_null(line, "%s is empty", path);
	cr_assert_str_eq(line, jtl_header, "%s header", path);
	json_int_t rows = 0, create_rows = 0;
	bool checked_create = false;
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		rows++;
		char copy[4096], *f[JTL_FIELDS + 1];
		snprintf(copy, sizeof copy, "%s", line);
		int n = csv_split(copy, f, JTL_FIELDS);
		cr_assert_eq(n, JTL_FIELDS, "row %lld has %d fields: %s", (long long)rows, n, line);
		cr_assert(all_digits(f[0]) && all_digits(f[1]), "timeStamp, elapsed: %s", line);
		uint64_t ts = strtoull(f[0], NULL, 10), elapsed = strtoull(f[1], NULL, 10);
		cr_assert(ts >= start && ts + elapsed <= end + 5,
			  "row %lld: timeStamp %" PRIu64 " + %" PRIu64 " ms lies outside the run "
			  "[%" PRIu64 ", %" PRIu64 "]: %s",
			  (long long)rows, ts, elapsed, start, end, line);
		cr_assert(!strcmp(f[5], "ingest 1-1") || !strcmp(f[5], "ingest 1-2"),
			  "threadName \"%s\": %s", f[5], line);
		cr_assert_str_eq(f[7], "true", "success: %s", line);
		if (strcmp(f[2], "create") != 0)
			continue;
		create_rows++;
		if (checked_create)
			continue;
		checked_create = true;
		cr_assert_str_eq(f[3], "200", "responseCode: %s", line);
		cr_assert_str_eq(f[4], "OK", "responseMessage: %s", line);
		cr_assert_str_eq(f[6], "text", "dataType (ci-ingest is ascii): %s", line);
		cr_assert_str_empty(f[8], "failureMessage: %s", line);
		cr_assert(all_digits(f[9]) && all_digits(f[10]), "bytes, sentBytes: %s", line);
		cr_assert(all_digits(f[11]) && all_digits(f[12]), "grpThreads, allThreads: %s", line);
		cr_assert_str_eq(f[13], "rpbench://leveldb/create", "URL: %s", line);
		cr_assert(all_digits(f[14]), "Latency: %s", line);
	}
	cr_assert(checked_create, "%s has no create row", path);
	cr_assert_eq(rows, samples, "%s has %lld rows, result.json counts %lld samples", path,
		     (long long)rows, (long long)samples);
	cr_assert_eq(create_rows, creates, "%lld create rows, %lld create samples",
		     (long long)create_rows, (long long)creates);
	free(text);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- 5. the same seed stores the same bytes ---- */

struct entry {
	char suffix[32]; /* "<thread>/<op>" */
	unsigned char *val;
	size_t len;
};

struct entries {
	char prefix[32]; /* "o/<run tag>/" */
	struct entry *v;
	size_t n, cap;
	size_t foreign; /* keys of another run or another shape */
};

static void collect(void *ctx, rpb_slice key, rpb_slice val)
{
	struct entries *es = ctx;
	size_t plen = strlen(es->prefix);
	/* "<thread %04u>/<op %012>" */
	if (key.len != plen + 4 + 1 + 12 || memcmp(key.data, es->prefix, plen) != 0) {
		es->foreign++;
		return;
	}
	if (es->n == es->cap) {
		es->cap = es->cap ? 2 * es->cap : 4096;
		es->v = realloc(es->v, es->cap * sizeof *es->v);
		cr_assert_not_null(es->v);
	}
	struct entry *en = &es->v[es->n++];
	snprintf(en->suffix, sizeof en->suffix, "%.*s", (int)(key.len - plen),
		 (const char *)key.data + plen);
	en->len = val.len;
	en->val = malloc(val.len ? val.len : 1);
	cr_assert_not_null(en->val);
	memcpy(en->val, val.data, val.len);
}

static void load_run(struct e2e_env *e, const char *name, const char *seed, struct entries *es)
{
	char out[E2E_PATH], store[E2E_PATH + 16];
	e2e_path(e, out, name);
	snprintf(store, sizeof store, "%s/store", out);
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, out);
	if (seed)
		e2e_args_add(&a, "--set", seed, NULL);
	e2e_exec_ok(e->cap, &a);
	json_t *r = e2e_result(out);
	memset(es, 0, sizeof *es);
	snprintf(es->prefix, sizeof es->prefix, "o/%s/", e2e_jstr(r, "manifest.run_tag"));
	struct e2e_store s;
	e2e_store_open(&s, e->backend, store);
	e2e_scan_prefix(&s, RPB_T_OBJECTS, "o/", collect, es);
	e2e_store_close(&s);
	cr_assert_eq(es->foreign, 0, "%s: %zu object keys are not %s<thread>/<op>", name,
		     es->foreign, es->prefix);
	cr_assert_eq((json_int_t)es->n, e2e_jint(r, "totals.acked"), "%s: objects vs acked", name);
	json_decref(r);
}

static void free_entries(struct entries *es)
{
	for (size_t i = 0; i < es->n; i++)
		free(es->v[i].val);
	free(es->v);
}

Test(e2e_leveldb, same_seed_same_bytes, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	struct entries a, b, c;
	load_run(&e, "a", NULL, &a);
	load_run(&e, "b", NULL, &b);
	load_run(&e, "c", "seed=7", &c);
	cr_assert_str_neq(a.prefix, b.prefix, "two runs got the same run tag %s", a.prefix);
	cr_assert_eq(a.n, b.n);
	cr_assert_eq(a.n, c.n);
	size_t differ = 0;
	for (size_t i = 0; i < a.n; i++) {
		cr_assert_str_eq(a.v[i].suffix, b.v[i].suffix, "entry %zu", i);
		cr_assert(a.v[i].len == b.v[i].len && !memcmp(a.v[i].val, b.v[i].val, a.v[i].len),
			  "seed 42 twice: object %s differs (%zu vs %zu bytes)", a.v[i].suffix,
			  a.v[i].len, b.v[i].len);
		cr_assert_str_eq(a.v[i].suffix, c.v[i].suffix, "entry %zu", i);
		differ += a.v[i].len != c.v[i].len || memcmp(a.v[i].val, c.v[i].val, a.v[i].len);
	}
	/* An empty object may repeat; almost all must differ. */
	cr_assert_gt(differ, a.n * 9 / 10, "seed 7 vs 42: only %zu of %zu objects differ", differ,
		     a.n);
	free_entries(&a);
	free_entries(&b);
	free_entries(&c);
	e2e_env_fini(&e);
}
#endif

/* ---- 7. SIGINT stops the run with complete results ---- */

#ifdef RPB_HAVE_SQLITE
Test(e2e_sqlite, sigint, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_CI_INGEST, e.out);
	e2e_args_add(&a, "--set", "ops=0", "--set", E2E_UNTIL_KILLED, NULL);
	struct e2e_proc p;
	/* Mid-run: once the live ledger shows operations done. */
	e2e_spawn_until(&p, e.cap, &a, e.out, 50);
	cr_assert_eq(kill(p.pid, SIGINT), 0);
	/* Stopped by the signal, not by the child limit (exit 137). */
	e2e_wait(&p);
	e2e_assert_code(&p, 5);
	e2e_assert_quiet(&p);
	e2e_proc_free(&p);

	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "signal");
	json_int_t acked = e2e_jint(r, "totals.acked");
	cr_assert_geq(acked, 50, "the ledger showed 50 operations done before SIGINT");
	e2e_verify_clean(&e, e.out, acked);
	json_decref(r);
	e2e_env_fini(&e);
}
#endif
