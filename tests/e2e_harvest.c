/* End-to-end runs of the harvest pattern (FOLIO OAI-PMH ListRecords with
 * resumption tokens) through the real rpbench-<backend> binaries: run +
 * verify on every real backend with 0 missing and 0 duplicates, harvests
 * restricted by from/until/set against a count made here from the seed,
 * every kind of bad token refused with badResumptionToken through a store,
 * reuse of a loaded corpus, report.txt in the FOLIO layout, verify of
 * a damaged corpus, and writers changing records during the harvests. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "harvest.h"

#define CI_HARVEST E2E_WORKLOAD("ci-harvest.ini")
/* ci-harvest: 20,000 records, 100 per page, 2 harvesters x 400 requests:
 * each completes two harvests of 200 pages. */
#define CI_RECORDS 20000
#define CI_HARVESTS 4

enum { EXIT_STOPPED = 3, EXIT_VERIFY = 4 };

static void run_args(struct e2e_args *a, const struct e2e_env *e, const char *out, va_list ap)
{
	e2e_run_args(a, e, CI_HARVEST, out);
	e2e_args_addv(a, ap);
}

/* Runs ci-harvest into out with extra args (up to NULL); asserts the exit
 * code and a quiet stderr. */
static void run_ci(const struct e2e_env *e, const char *out, int want, ...)
	__attribute__((sentinel));
static void run_ci(const struct e2e_env *e, const char *out, int want, ...)
{
	struct e2e_args a;
	va_list ap;
	va_start(ap, want);
	run_args(&a, e, out, ap);
	va_end(ap);
	free(e2e_exec_expect(e->cap, &a, want));
}

static json_t *pattern_get(json_t *r, const char *path)
{
	json_t *o = json_object_get(r, "pattern");
	char buf[128];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		o = json_object_get(o, k);
	cr_assert_not_null(o, "result.json lacks pattern.%s", path);
	return o;
}

static json_int_t pint(json_t *r, const char *path)
{
	return json_integer_value(pattern_get(r, path));
}

/* Every completed harvest returned each expected record exactly once, or
 * (with writers) lost it to an update that moved it past the harvest's
 * until; nothing else. harvests: how many completed, at least when
 * at_least (writers slow the harvests down unevenly). */
static void assert_integrity_n(json_t *r, json_int_t harvests, bool at_least)
{
	json_int_t done = pint(r, "totals.harvests_completed");
	if (at_least)
		cr_assert_geq(done, harvests);
	else
		cr_assert_eq(done, harvests);
	cr_assert_eq(pint(r, "totals.missing"), 0);
	cr_assert_eq(pint(r, "totals.duplicates"), 0);
	cr_assert_eq(pint(r, "totals.unexpected"), 0);
	json_int_t want = pint(r, "harvest.expected_records");
	size_t i;
	json_t *row;
	json_array_foreach(pattern_get(r, "harvests"), i, row) {
		if (!json_is_true(json_object_get(row, "completed")))
			continue;
		json_int_t got = json_integer_value(json_object_get(row, "records"));
		json_int_t moved = json_integer_value(json_object_get(row, "moved"));
		cr_assert_eq(got + moved, want, "harvest %zu: %lld returned + %lld moved of %lld", i + 1,
			     (long long)got, (long long)moved, (long long)want);
		cr_assert_eq(json_integer_value(json_object_get(row, "missing")), 0);
		cr_assert_eq(json_integer_value(json_object_get(row, "duplicates")), 0);
	}
}

/* Without writers nothing moves. */
static void assert_integrity(json_t *r, json_int_t harvests)
{
	assert_integrity_n(r, harvests, false);
	cr_assert_eq(pint(r, "totals.moved"), 0);
}

static void assert_report_layout(const char *out, json_t *r)
{
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/report.txt", out);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "no %s", path);
	char *table = strstr(text, "\nTest Number\tDuration\tThread\tTotal Requests\tRequests/sec"
				   "\tAverage\tCompleted\tRecords\tBytes\tMissing\tDuplicates\n");
	cr_assert_not_null(table, "report.txt lacks FOLIO's table header:\n%s", text);
	cr_assert(strncmp(text, "OAI-PMH harvest - ListRecords", 29) == 0, "%s", text);
	cr_assert(strstr(text, "\nLoad\t"), "no load line:\n%s", text);
	char *line = strchr(table + 1, '\n') + 1;
	size_t i;
	json_t *row;
	json_array_foreach(pattern_get(r, "harvests"), i, row) {
		unsigned num, thread;
		char dur[32], done[4];
		long long reqs, recs;
		double rate, avg;
		int n = sscanf(line, "%u\t%31[^\t]\t%u\t%lld\t%lf\t%lf\t%3s\t%lld", &num, dur, &thread,
			       &reqs, &rate, &avg, done, &recs);
		cr_assert_eq(n, 8, "row %zu: %.120s", i + 1, line);
		cr_assert_eq(num, i + 1);
		cr_assert_eq(thread, json_integer_value(json_object_get(row, "thread")) + 1);
		cr_assert_eq(reqs, json_integer_value(json_object_get(row, "requests")));
		cr_assert_eq(recs, json_integer_value(json_object_get(row, "records")));
		cr_assert_str_eq(done, json_is_true(json_object_get(row, "completed")) ? "Y" : "N");
		line = strchr(line, '\n') + 1;
	}
	cr_assert(strstr(text, "\nMissing\t0\nDuplicates\t0\n"), "%s", text);
	cr_assert(strstr(text, "\nfirst 10% of pages\t"), "%s", text);
	cr_assert(strstr(text, "\nlast 10% of pages\t"), "%s", text);
	cr_assert(strstr(text, "\nPeak RSS (bytes)\t"), "%s", text);
	free(text);
}

/* Every snapshot row was dropped at the end of its harvest. */
static void assert_no_snapshots(const struct e2e_env *e)
{
	struct e2e_store s;
	e2e_env_store_open(&s, e);
	cr_assert_eq(e2e_scan_prefix(&s, RPB_T_SNAPSHOTS, "hvs/", NULL, NULL), 0,
		     "snapshot rows left behind");
	e2e_store_close(&s);
}

static void t_harvest_run_verify(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	run_ci(&e, e.out, 0, NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "manifest.pattern"), "harvest");
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "completed");
	cr_assert_eq(e2e_jint(r, "totals.acked"), 2 * 400);
	cr_assert_eq(pint(r, "load.records"), CI_RECORDS);
	cr_assert_eq(pint(r, "harvest.expected_records"), CI_RECORDS);
	cr_assert_eq(pint(r, "harvest.expected_pages"), CI_RECORDS / 100);
	assert_integrity(r, CI_HARVESTS);
	assert_report_layout(e.out, r);
	e2e_verify_clean(&e, e.out, CI_RECORDS);
	json_decref(r);

	/* token = snapshot over the same corpus: the same integrity, one
	 * snapshot built and dropped per harvest, none left behind. */
	char out[E2E_PATH];
	snprintf(out, sizeof out, "%s/snapshot", e.tmp);
	if (e.server)
		run_ci(&e, out, 0, "--set", "reuse=on", "--set", "token=snapshot", NULL);
	else
		run_ci(&e, out, 0, "--dir", e.store, "--set", "reuse=on", "--set", "token=snapshot",
		       NULL);
	r = e2e_result(out);
	cr_assert(json_is_true(pattern_get(r, "load.skipped")));
	cr_assert_str_eq(json_string_value(pattern_get(r, "harvest.token")), "snapshot");
	assert_integrity(r, CI_HARVESTS);
	cr_assert_eq(e2e_jint(r, "labels.snapshot-build.measured"), CI_HARVESTS);
	cr_assert_eq(e2e_jint(r, "labels.snapshot-drop.measured"), CI_HARVESTS);
	json_decref(r);
	assert_no_snapshots(&e);

	/* snapshot_build = background: fillers copy each harvest's ids in
	 * transactions of 1000 beside the requests, which wait at the fill
	 * frontier; the same integrity, every id copied once per harvest. */
	snprintf(out, sizeof out, "%s/background", e.tmp);
	if (e.server)
		run_ci(&e, out, 0, "--set", "reuse=on", "--set", "token=snapshot", "--set",
		       "snapshot_build=background", NULL);
	else
		run_ci(&e, out, 0, "--dir", e.store, "--set", "reuse=on", "--set", "token=snapshot",
		       "--set", "snapshot_build=background", NULL);
	r = e2e_result(out);
	assert_integrity(r, CI_HARVESTS);
	cr_assert_str_eq(json_string_value(pattern_get(r, "snapshot.build")), "background");
	cr_assert_eq(pint(r, "snapshot.fill_entries"), CI_HARVESTS * CI_RECORDS);
	/* Full chunks, then the short one that tells the copy is done. */
	json_int_t chunks = CI_HARVESTS * (CI_RECORDS / 1000 + 1);
	cr_assert_eq(pint(r, "snapshot.fill_transactions"), chunks);
	cr_assert_eq(e2e_jint(r, "labels.snapshot-build.measured"), chunks,
		     "every fill transaction is one snapshot-build sample");
	cr_assert_eq(e2e_jint(r, "labels.snapshot-drop.measured"), CI_HARVESTS);
	char report[E2E_PATH];
	snprintf(report, sizeof report, "%s/report.txt", out);
	char *text = e2e_slurp(report, NULL);
	cr_assert(text && strstr(text, "\nSnapshot\tbuilt in the background: "), "%s", text);
	free(text);
	json_decref(r);
	assert_no_snapshots(&e);
	e2e_env_fini(&e);
}

#define T(backend, name) \
	Test(e2e_##backend, name, .fini = e2e_cleanup) { t_##name(#backend); }

#ifdef RPB_HAVE_LEVELDB
T(leveldb, harvest_run_verify)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, harvest_run_verify)
#endif
#define RUN_VERIFY(b) T(b, harvest_run_verify)
RPBT_EACH_SERVER(RUN_VERIFY)

/* writers = 2: every completed harvest returned each expected record once
 * or lost it to an update (moved), nothing else; verify replays the
 * writers' acknowledged operations. */
static void assert_integrity_moved(json_t *r)
{
	/* Each harvest is at most records/100 pages; ops is twice that, so two
	 * complete per harvester. */
	assert_integrity_n(r, CI_HARVESTS, true);
	cr_assert_gt(pint(r, "writers.creates"), 0);
	cr_assert_gt(pint(r, "writers.updates"), 0);
	cr_assert_gt(e2e_jint(r, "labels.write-create.measured"), 0);
	cr_assert_gt(e2e_jint(r, "labels.write-update.measured"), 0);
}

static void verify_writers(const struct e2e_env *e, const char *out, json_t *r)
{
	e2e_verify_clean(e, out, pint(r, "load.records") + pint(r, "writers.creates"));
}

/* The last update of writer 0 moved its record's index entries from the
 * old datestamp to the new one, in both indexes. */
static void assert_update_moved(const struct e2e_env *e, json_t *r, const char *seed)
{
	struct rpb_job job;
	char msg[512];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, CI_HARVEST, msg, sizeof msg), 0, "%s", msg);
	/* The corpus and writers of E2E_HARVEST_WRITERS. */
	cr_assert_eq(rpb_job_set(&job, "writers=2", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_set(&job, "records=8000", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_set(&job, seed, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	struct hv_corpus c;
	cr_assert(hv_corpus_init(&c, hv_opts(&job), job.run.seed));
	json_int_t issued = json_integer_value(
		json_object_get(json_array_get(json_object_get(json_object_get(r, "ledger"), "workers"),
					       2), "issued"));
	struct hv_write op = {0};
	json_int_t i = issued - 1;
	for (; i >= 0; i--) {
		hv_write_op(&c, 0, (uint64_t)i, &op);
		if (!op.create)
			break;
	}
	cr_assert_geq(i, 0, "writer 0 updated nothing");
	struct hv_rec rec;
	struct rpb_rng rng;
	hv_rec_attrs(&c, op.n, &rec, &rng);
	cr_assert_lt(rec.ds, op.ds);
	struct e2e_store s;
	e2e_store_open(&s, e->backend, e->store);
	struct rpb_err err = {0};
	struct rpb_buf v = {0};
	unsigned char key[HV_SET_KEY];
	cr_assert_eq(s.b->begin(s.s, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(s.b->get(s.s, RPB_T_DATESTAMPS, rpb_slice_make(key, hv_key_ds(&c, key, op.ds, op.n)),
			      &v, &err), RPB_OK, "no entry at the new datestamp: %s", err.msg);
	cr_assert_eq(s.b->get(s.s, RPB_T_DATESTAMPS, rpb_slice_make(key, hv_key_ds(&c, key, rec.ds, op.n)),
			      &v, &err), RPB_NOT_FOUND, "the old datestamp entry is still there");
	cr_assert_eq(s.b->get(s.s, RPB_T_SETS,
			      rpb_slice_make(key, hv_key_set(&c, key, rec.set[0], op.ds, op.n)), &v,
			      &err), RPB_OK, "no set entry at the new datestamp: %s", err.msg);
	cr_assert_eq(s.b->get(s.s, RPB_T_SETS,
			      rpb_slice_make(key, hv_key_set(&c, key, rec.set[0], rec.ds, op.n)), &v,
			      &err), RPB_NOT_FOUND, "the old set entry is still there");
	cr_assert_eq(s.b->get(s.s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, hv_key_rec(&c, key, op.n)),
			      &v, &err), RPB_OK, "%s", err.msg);
	struct hv_rec got;
	cr_assert(hv_record_header(v.data, v.len, &got));
	cr_assert_eq(got.ds, op.ds, "the record's header keeps its old datestamp");
	s.b->commit(s.s, &err);
	rpb_buf_free(&v);
	e2e_store_close(&s);
}

static void t_harvest_writers(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	run_ci(&e, e.out, 0, E2E_HARVEST_WRITERS, NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "completed");
	assert_integrity_moved(r);
	cr_assert_gt(pint(r, "totals.moved"), 0, "no update moved a record out of a harvest");
	verify_writers(&e, e.out, r);
	if (!e.server)
		assert_update_moved(&e, r, "seed=42");
	json_decref(r);

	/* token = snapshot on a corpus of its own (another seed) in the same store. */
	char out[E2E_PATH];
	snprintf(out, sizeof out, "%s/snapshot", e.tmp);
	if (e.server)
		run_ci(&e, out, 0, E2E_HARVEST_WRITERS, "--set", "seed=43", "--set", "token=snapshot", NULL);
	else
		run_ci(&e, out, 0, "--dir", e.store, E2E_HARVEST_WRITERS, "--set", "seed=43", "--set",
		       "token=snapshot", NULL);
	r = e2e_result(out);
	assert_integrity_moved(r);
	verify_writers(&e, out, r);
	if (!e.server)
		assert_update_moved(&e, r, "seed=43");
	json_decref(r);
	assert_no_snapshots(&e);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
T(leveldb, harvest_writers)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, harvest_writers)
#endif
#define WRITERS(b) T(b, harvest_writers)
RPBT_EACH_SERVER(WRITERS)

#ifdef RPB_HAVE_SQLITE
/* A corpus writers changed is refused by reuse = on. */
Test(e2e_sqlite, harvest_writers_corpus_not_reused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	run_ci(&e, e.out, 0, "--set", "writers=1", "--set", "ops=10", "--set", "records=2000", NULL);
	char out[E2E_PATH];
	snprintf(out, sizeof out, "%s/again", e.tmp);
	struct e2e_args a;
	e2e_run_args(&a, &e, CI_HARVEST, out);
	e2e_args_add(&a, "--dir", e.store, "--set", "reuse=on", "--set", "records=2000", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 2, "was changed by an earlier run's writers", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}
#endif

Test(e2e_null, harvest_completes, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	run_ci(&e, e.out, 0, NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 2 * 400);
	cr_assert(json_is_false(pattern_get(r, "totals.integrity_checked")),
		  "a store that keeps nothing cannot be checked");
	json_decref(r);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_SQLITE

/* The records a harvest with these overrides must return, counted here
 * from the seed through the corpus generator. */
static json_int_t count_expected(const char *const *sets, size_t n)
{
	struct rpb_job job;
	char msg[1024];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, CI_HARVEST, msg, sizeof msg), 0, "%s", msg);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(rpb_job_set(&job, sets[i], msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	struct hv_corpus c;
	cr_assert(hv_corpus_init(&c, hv_opts(&job), job.run.seed));
	json_int_t count = 0;
	for (uint64_t k = 0; k < hv_opts(&job)->records; k++) {
		struct hv_rec rec;
		struct rpb_rng rng;
		hv_rec_attrs(&c, k, &rec, &rng);
		count += hv_rec_matches(&rec, hv_opts(&job)->from_s, hv_opts(&job)->until_s,
					(unsigned)hv_opts(&job)->set);
	}
	return count;
}

Test(e2e_sqlite, harvest_restricted, .fini = e2e_cleanup)
{
	static const char *const cases[][4] = {
		{"from=30", "until=2020-06-30", "set=3", "page_size=100"},
		{"from=2020-12-01", "until=364", "set=0", "page_size=7"},
		{"from=0", "until=0", "set=10", "page_size=1"},
		{"from=100", "until=2020-05-31", "set=0", "page_size=100"},
	};
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		json_int_t want = count_expected(cases[c], 4);
		cr_assert(want > 0, "case %zu selects nothing", c);
		json_int_t pages = (want + 99) / 100;
		if (!strcmp(cases[c][3], "page_size=7"))
			pages = (want + 6) / 7;
		else if (!strcmp(cases[c][3], "page_size=1"))
			pages = want;
		char out[E2E_PATH], ops[32], set[4][40];
		snprintf(out, sizeof out, "%s/r%zu", e.tmp, c);
		snprintf(ops, sizeof ops, "ops=%lld", (long long)(2 * pages));
		for (int k = 0; k < 4; k++)
			snprintf(set[k], sizeof set[k], "%s", cases[c][k]);
		/* The last case pages by snapshot. */
		const char *token = c == 3 ? "token=snapshot" : "token=keyset";
		run_ci(&e, out, 0, "--set", set[0], "--set", set[1], "--set", set[2], "--set", set[3],
		       "--set", ops, "--set", "threads=1", "--set", token, NULL);
		json_t *r = e2e_result(out);
		cr_assert_eq(pint(r, "harvest.expected_records"), want, "case %zu", c);
		cr_assert_eq(pint(r, "harvest.expected_pages"), pages, "case %zu", c);
		assert_integrity(r, 2);
		json_decref(r);
	}
	e2e_env_fini(&e);
}

Test(e2e_sqlite, harvest_bad_tokens, .fini = e2e_cleanup)
{
	static const struct {
		const char *mode, *why;
	} cases[] = {
		{"tamper", "badResumptionToken: checksum mismatch"},
		{"truncate", "badResumptionToken: 60 characters, a token has 86"},
		{"foreign", "badResumptionToken: issued by another run"},
		{"garbage", "badResumptionToken: not base64url at character 1"},
	};
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char out[E2E_PATH], mode[48];
		snprintf(out, sizeof out, "%s/b%zu", e.tmp, c);
		snprintf(mode, sizeof mode, "bad_token=%s", cases[c].mode);
		run_ci(&e, out, EXIT_STOPPED, "--set", mode, "--set", "records=2000", NULL);
		json_t *r = e2e_result(out);
		cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "error");
		cr_assert_str_eq(e2e_jstr(r, "stop.class"), "invalid");
		const char *msg = e2e_jstr(r, "stop.message");
		cr_assert(strstr(msg, cases[c].why), "%s: '%s' lacks '%s'", cases[c].mode, msg,
			  cases[c].why);
		cr_assert_eq(pint(r, "totals.bad_tokens"), 1);
		cr_assert_eq(pint(r, "totals.duplicates"), 0, "no wrong page was served");
		cr_assert_eq(pint(r, "totals.unexpected"), 0, "no wrong page was served");
		json_decref(r);
	}
	e2e_env_fini(&e);
}

Test(e2e_sqlite, harvest_reuse, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	run_ci(&e, e.out, 0, "--set", "ops=10", NULL);
	char out[E2E_PATH];
	snprintf(out, sizeof out, "%s/again", e.tmp);
	run_ci(&e, out, 0, "--dir", e.store, "--set", "reuse=on", NULL);
	json_t *r = e2e_result(out);
	cr_assert(json_is_true(pattern_get(r, "load.skipped")), "reuse = on reloaded the corpus");
	cr_assert_eq(pint(r, "load.records"), 0);
	assert_integrity(r, CI_HARVESTS);
	json_decref(r);
	/* Another seed is another corpus: loaded although reuse = on. */
	snprintf(out, sizeof out, "%s/seed7", e.tmp);
	run_ci(&e, out, 0, "--dir", e.store, "--set", "reuse=on", "--set", "seed=7", "--set",
	       "ops=10", NULL);
	r = e2e_result(out);
	cr_assert(json_is_false(pattern_get(r, "load.skipped")));
	cr_assert_eq(pint(r, "load.records"), CI_RECORDS);
	json_decref(r);
	e2e_env_fini(&e);
}

#endif

#ifdef RPB_HAVE_LEVELDB

Test(e2e_leveldb, harvest_verify_finds_damage, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	run_ci(&e, e.out, 0, "--set", "ops=10", NULL);
	json_t *r = e2e_result(e.out);
	const char *prefix = json_string_value(pattern_get(r, "corpus.prefix"));
	/* Delete record 123's datestamp index entry. */
	struct rpb_job job;
	char msg[512];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, CI_HARVEST, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	struct hv_corpus c;
	cr_assert(hv_corpus_init(&c, hv_opts(&job), job.run.seed));
	cr_assert_str_eq(c.prefix, prefix);
	struct hv_rec rec;
	struct rpb_rng rng;
	hv_rec_attrs(&c, 123, &rec, &rng);
	unsigned char key[HV_DS_KEY];
	size_t klen = hv_key_ds(&c, key, rec.ds, 123);
	struct e2e_store s;
	e2e_store_open(&s, e.backend, e.store);
	struct rpb_err err = {0};
	cr_assert_eq(s.b->begin(s.s, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(s.b->del(s.s, RPB_T_DATESTAMPS, rpb_slice_make(key, klen), &err), RPB_OK, "%s",
		     err.msg);
	cr_assert_eq(s.b->commit(s.s, &err), RPB_OK, "%s", err.msg);
	e2e_store_close(&s);
	char *got = e2e_verify(&e, e.out, EXIT_VERIFY);
	cr_assert(strstr(got, "verified 19999 objects: 1 missing, 0 corrupt, 0 unexpected"), "%s",
		  got);
	cr_assert(strstr(got, "first problem: oai:rpbench:123 is not in the datestamp index"), "%s",
		  got);
	free(got);
	/* A harvest of the damaged corpus fails its integrity check. */
	char out[E2E_PATH];
	snprintf(out, sizeof out, "%s/damaged", e.tmp);
	run_ci(&e, out, EXIT_STOPPED, "--dir", e.store, "--set", "reuse=on", NULL);
	json_t *d = e2e_result(out);
	cr_assert_str_eq(e2e_jstr(d, "stop.class"), "corrupt");
	cr_assert(strstr(e2e_jstr(d, "stop.message"), "1 missing"), "%s",
		  e2e_jstr(d, "stop.message"));
	json_decref(d);
	json_decref(r);
	e2e_env_fini(&e);
}

#endif
