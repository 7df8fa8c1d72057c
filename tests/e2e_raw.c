/* End-to-end runs of the raw pattern (db_bench through the store interface)
 * with the real rpbench-<backend> binaries: raw-ci on every backend, one
 * db_bench line per benchmark in report.txt, every fill starts on an empty
 * table as db_bench's fresh_db does (readrandom finds about 1 - 1/e of the
 * keys after fillrandom), verify replays the sequence and finds the store
 * clean, and finds a deleted key missing; fillsync runs at sync = commit only. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "raw.h"

#define RAW_CI E2E_WORKLOAD("raw-ci.ini")
#define CI_NUM 2000
#define LINE_RE "^[a-z]+ *: +[0-9]+\\.[0-9]{3} micros/op;( +[0-9]+\\.[0-9] MB/s)?( \\([0-9]+ of [0-9]+ found\\))?$"

static const char *const ci_benchmarks[] = {
	"fillseq", "fillrandom", "overwrite", "readrandom", "readseq", "readreverse", "deleterandom",
};
#define CI_NBENCH (sizeof ci_benchmarks / sizeof ci_benchmarks[0])

/* raw-ci into out with the extra args of ap (up to NULL). */
static void raw_args(struct e2e_args *a, const struct e2e_env *e, const char *out, va_list ap)
{
	e2e_run_args(a, e, RAW_CI, out);
	e2e_args_addv(a, ap);
}

/* Runs raw-ci into out with extra args (up to NULL). */
static void run_raw(struct e2e_proc *p, const struct e2e_env *e, const char *out, ...)
	__attribute__((sentinel));
static void run_raw(struct e2e_proc *p, const struct e2e_env *e, const char *out, ...)
{
	struct e2e_args a;
	va_list ap;
	va_start(ap, out);
	raw_args(&a, e, out, ap);
	va_end(ap);
	e2e_exec(p, e->cap, &a);
}

/* run_raw for a run that should work: asserts exit 0 and a quiet stderr. */
static void raw_ok(const struct e2e_env *e, const char *out, ...) __attribute__((sentinel));
static void raw_ok(const struct e2e_env *e, const char *out, ...)
{
	struct e2e_args a;
	va_list ap;
	va_start(ap, out);
	raw_args(&a, e, out, ap);
	va_end(ap);
	e2e_exec_ok(e->cap, &a);
}

static json_t *bench(json_t *r, size_t i)
{
	json_t *list = json_object_get(json_object_get(r, "pattern"), "benchmarks");
	cr_assert(json_is_array(list), "result.json lacks pattern.benchmarks");
	json_t *b = json_array_get(list, i);
	cr_assert_not_null(b, "result.json has no benchmark %zu", i);
	return b;
}

/* report.txt holds one db_bench line per benchmark, in order. */
static void assert_report(const char *out, json_t *r)
{
	char path[E2E_PATH];
	snprintf(path, sizeof path, "%s/report.txt", out);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "no %s", path);
	regex_t re;
	cr_assert_eq(regcomp(&re, LINE_RE, REG_EXTENDED | REG_NOSUB), 0);
	char *sep = strstr(text, "---\n");
	cr_assert_not_null(sep, "%s", text);
	char *line = strchr(sep, '\n') + 1;
	for (size_t i = 0; i < CI_NBENCH; i++) {
		char *nl = strchr(line, '\n');
		cr_assert_not_null(nl, "report.txt ends before %s:\n%s", ci_benchmarks[i], text);
		*nl = '\0';
		cr_assert_eq(regexec(&re, line, 0, NULL, 0), 0, "not a db_bench line: '%s'", line);
		cr_assert_eq(strncmp(line, ci_benchmarks[i], strlen(ci_benchmarks[i])), 0, "%s", line);
		char want[256];
		raw_format_line(want, sizeof want, bench(r, i));
		cr_assert_str_eq(line, want, "report.txt and result.json disagree");
		line = nl + 1;
	}
	cr_assert_str_eq(line, "", "more lines than benchmarks");
	regfree(&re);
	free(text);
}

static void t_raw_run_verify(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	raw_ok(&e, e.out, NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "manifest.pattern"), "raw");
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "completed");
	/* fillrandom starts on an empty table, overwrite writes over it: 2 x num
	 * uniform draws leave about 1 - 1/e^2 = 86.5% of the keys. */
	json_int_t entries = json_integer_value(json_object_get(bench(r, 4), "ops"));
	cr_assert(entries > CI_NUM * 0.80 && entries < CI_NUM * 0.92,
		  "readseq met %lld of %d keys", (long long)entries, CI_NUM);
	for (size_t i = 0; i < CI_NBENCH; i++) {
		json_t *b = bench(r, i);
		cr_assert_str_eq(json_string_value(json_object_get(b, "name")), ci_benchmarks[i]);
		cr_assert(json_is_true(json_object_get(b, "completed")), "%s", ci_benchmarks[i]);
		/* The scans meet every key there is; the rest do num operations. */
		json_int_t ops = json_integer_value(json_object_get(b, "ops"));
		json_int_t want = i == 4 || i == 5 ? entries : CI_NUM;
		cr_assert_eq(ops, want, "%s did %lld ops", ci_benchmarks[i], (long long)ops);
		cr_assert_gt(json_number_value(json_object_get(b, "micros_per_op")), 0);
	}
	json_int_t found = json_integer_value(json_object_get(bench(r, 3), "found"));
	cr_assert(found > CI_NUM * 0.80 && found < CI_NUM * 0.92,
		  "readrandom found %lld of %d", (long long)found, CI_NUM);
	cr_assert_eq(json_integer_value(json_object_get(bench(r, 4), "bytes")),
		     entries * (16 + 100), "readseq reads every entry once");
	assert_report(e.out, r);
	char *got = e2e_verify(&e, e.out, 0);
	cr_assert(strstr(got, " 0 missing, 0 corrupt, 0 unexpected\n"), "%s", got);
	cr_assert_eq(strncmp(got, "verified ", 9), 0, "%s", got);
	long left = strtol(got + 9, NULL, 10);
	/* deleterandom's 2000 uniform draws leave about 2000/e keys. */
	cr_assert(left > 500 && left < 1000, "%s", got);
	free(got);
	json_decref(r);
	e2e_env_fini(&e);
}

#define T(backend, name) \
	Test(e2e_##backend, name, .fini = e2e_cleanup) { t_##name(#backend); }

#ifdef RPB_HAVE_LEVELDB
T(leveldb, raw_run_verify)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, raw_run_verify)
#endif
#ifdef RPB_HAVE_ROCKSDB
T(rocksdb, raw_run_verify)
#endif
#define RUN_VERIFY(b) T(b, raw_run_verify)
RPBT_EACH_SERVER(RUN_VERIFY)

Test(e2e_null, raw_completes, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	raw_ok(&e, e.out, NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_eq(json_integer_value(json_object_get(bench(r, 3), "found")), 0,
		     "the null backend keeps nothing");
	cr_assert_eq(json_integer_value(json_object_get(bench(r, 1), "ops")), CI_NUM);
	assert_report(e.out, r);
	json_decref(r);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
/* A key the sequence left in place, deleted behind rpbench's back. */
static void drop_first(struct e2e_store *s)
{
	unsigned char key[RPB_KEY_MAX];
	size_t len = 0;
	struct rpb_err err;
	cr_assert_eq(s->b->begin(s->s, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	for (uint64_t k = 0; k < CI_NUM && !len; k++) {
		raw_key(key, 16, k);
		if (s->b->del(s->s, RPB_T_RAW, rpb_slice_make(key, 16), &err) == RPB_OK)
			len = 16;
	}
	cr_assert_eq(len, 16, "the store holds no raw key");
	cr_assert_eq(s->b->commit(s->s, &err), RPB_OK, "%s", err.msg);
}

Test(e2e_leveldb, raw_verify_finds_missing, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	raw_ok(&e, e.out, NULL);
	struct e2e_store s;
	e2e_store_open(&s, "leveldb", e.store);
	drop_first(&s);
	e2e_store_close(&s);
	char *got = e2e_verify(&e, e.out, 4);
	cr_assert(strstr(got, " 1 missing, 0 corrupt, 0 unexpected\n"), "%s", got);
	cr_assert(strstr(got, "first problem: key "), "%s", got);
	free(got);
	e2e_env_fini(&e);
}
#endif

#ifdef RPB_HAVE_SQLITE
Test(e2e_sqlite, raw_fillsync, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	run_raw(&p, &e, e.out, "--set", "benchmarks=fillsync", NULL);
	e2e_assert_refusal(&p, 1, "fillsync needs [run] sync = commit", NULL);
	e2e_proc_free(&p);
	raw_ok(&e, e.out, "--set", "sync=commit", "--set", "benchmarks=fillseq,fillsync", NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_eq(json_integer_value(json_object_get(bench(r, 1), "ops")), CI_NUM / 1000);
	e2e_verify_clean(&e, e.out, CI_NUM / 1000); /* fillsync, too, starts on an empty table */
	json_decref(r);
	e2e_env_fini(&e);
}
#endif

/* Batches that do not divide num, and every benchmark on a half-filled
 * table: verify's replay must match the store key for key. */
static void t_raw_batched_sequence(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	raw_ok(&e, e.out, "--set", "num=3001", "--set", "batch=7", "--set",
	       "benchmarks=fillrandom,readreverse,deleterandom,readseq,fillseq,deleterandom,readseq,"
	       "readrandom",
	       NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_eq(json_integer_value(json_object_get(bench(r, 4), "ops")), 3001,
		     "fillseq writes every key once");
	cr_assert_eq(json_integer_value(json_object_get(bench(r, 4), "transactions")), 429);
	json_int_t left = json_integer_value(json_object_get(bench(r, 6), "ops"));
	e2e_verify_clean(&e, e.out, left); /* readseq and verify count the same keys */
	json_decref(r);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
T(leveldb, raw_batched_sequence)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, raw_batched_sequence)
#endif
#ifdef RPB_HAVE_ROCKSDB
T(rocksdb, raw_batched_sequence)
#endif
#define BATCHED_SEQUENCE(b) T(b, raw_batched_sequence)
RPBT_EACH_SERVER(BATCHED_SEQUENCE)

/* scan_chunk = 0: readseq reads the whole table in one scan, one transaction. */
static void t_raw_one_scan(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	raw_ok(&e, e.out, "--set", "scan_chunk=0", NULL);
	json_t *r = e2e_result(e.out);
	json_t *seq = bench(r, 4);
	cr_assert_str_eq(json_string_value(json_object_get(seq, "name")), "readseq");
	cr_assert_eq(json_integer_value(json_object_get(seq, "transactions")), 1,
		     "readseq in one transaction");
	cr_assert_eq(json_integer_value(json_object_get(seq, "bytes")),
		     json_integer_value(json_object_get(seq, "ops")) * (16 + 100));
	char *got = e2e_verify(&e, e.out, 0);
	cr_assert(strstr(got, " 0 missing, 0 corrupt, 0 unexpected\n"), "%s", got);
	free(got);
	json_decref(r);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
T(leveldb, raw_one_scan)
#endif
#ifdef RPB_HAVE_ROCKSDB
T(rocksdb, raw_one_scan)
#endif
#define ONE_SCAN(b) T(b, raw_one_scan)
RPBT_EACH_SERVER(ONE_SCAN)

/* db_bench's fresh_db: every fill starts on an empty raw table, so after a
 * full fillseq, fillrandom's num uniform draws leave about 1 - 1/e = 63.2%
 * of the keys, and readrandom finds that share; a second fillseq brings
 * every key back. Without the emptying readrandom would find them all. */
static void t_raw_fill_starts_empty(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	raw_ok(&e, e.out, "--set", "benchmarks=fillseq,fillrandom,readrandom,fillseq,readrandom",
	       NULL);
	json_t *r = e2e_result(e.out);
	json_int_t found = json_integer_value(json_object_get(bench(r, 2), "found"));
	cr_assert(found > CI_NUM * 0.58 && found < CI_NUM * 0.68,
		  "readrandom after fillrandom found %lld of %d; db_bench finds about 63%%",
		  (long long)found, CI_NUM);
	cr_assert_eq(json_integer_value(json_object_get(bench(r, 4), "found")), CI_NUM,
		     "readrandom after fillseq finds every key");
	e2e_verify_clean(&e, e.out, CI_NUM);
	json_decref(r);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
T(leveldb, raw_fill_starts_empty)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, raw_fill_starts_empty)
#endif
#ifdef RPB_HAVE_ROCKSDB
T(rocksdb, raw_fill_starts_empty)
#endif
#define FILL_STARTS_EMPTY(b) T(b, raw_fill_starts_empty)
RPBT_EACH_SERVER(FILL_STARTS_EMPTY)
