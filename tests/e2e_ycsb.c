/* End-to-end runs of the ycsb pattern with the real binaries: YCSB's
 * workloads A-F (data/workloads/ycsb/, YCSB's own property files) loaded
 * and run at a tiny size on every backend, ycsb.txt checked line by line
 * against YCSB's text format and against result.json, verify clean after
 * the load and after the run; a run on an unloaded store is refused; -P and
 * -p are YCSB's spellings of the workload file and --set; a failed
 * operation is named by its own kind; a run killed mid-way has every
 * committed insert checked by verify. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "ledger.h"
#include "ycsb.h"
#include "ycsb_output.h"

#define YCSB_WL(x) E2E_WORKLOAD("ycsb/workload" x)
#define RECORDS 200
#define OPS 300

static const char *const op_names[] = {"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"};

/* Runs verb (load or run) of workload into out with threadcount 2 at the
 * tiny size, plus extra args up to NULL; asserts exit 0 and a quiet stderr. */
static void ycsb_exec(const struct e2e_env *e, const char *verb, const char *wl, const char *out,
		      ...) __attribute__((sentinel));
static void ycsb_exec(const struct e2e_env *e, const char *verb, const char *wl, const char *out,
		      ...)
{
	struct e2e_args a;
	e2e_run_args(&a, e, wl, out);
	a.v[1] = verb;
	e2e_args_add(&a, "-p", "recordcount=200", "-p", "operationcount=300", "-p", "threadcount=2",
		     "--set", "sync=none", NULL);
	va_list ap;
	va_start(ap, out);
	e2e_args_addv(&a, ap);
	va_end(ap);
	e2e_exec_ok(e->cap, &a);
}

static long long label_measured(json_t *r, const char *name)
{
	json_t *l = json_object_get(json_object_get(r, "labels"), name);
	return l ? (long long)json_integer_value(json_object_get(l, "measured")) : 0;
}

/* ycsb.txt read back as YCSB's text exporter writes it (ycsb_output.h):
 * the layout of every measurement, the throughput recomputed from the run
 * time and the operations, each operation's count and OK statuses those of
 * result.json (no operation failed), and no status for READ-MODIFY-WRITE. */
static void assert_ycsb_txt(const char *out, json_t *r)
{
	char *text = e2e_slurp_in(out, "ycsb.txt"), why[512];
	struct yo_out o;
	struct yo_expect x = {.type = YO_HDR, .npct = 2, .pct = {"95th", "99th"}};
	uint64_t ops = 0;
	cr_assert_eq(yo_read_text(text, &o, why, sizeof why), 0, "%s: %s\n%s", out, why, text);
	cr_assert_eq(yo_check(&o, &x, &ops, why, sizeof why), 0, "%s: %s\n%s", out, why, text);
	cr_assert_eq((json_int_t)ops, e2e_jint(r, "totals.acked"), "%s: %llu operations in ycsb.txt",
		     out, (unsigned long long)ops);
	for (size_t op = 0; op < 5; op++) {
		long long count = label_measured(r, op_names[op]);
		const struct yo_rec *n = yo_find(&o, op_names[op], "Operations");
		const struct yo_rec *ok = yo_find(&o, op_names[op], "Return=OK");
		cr_assert_eq(n ? n->l : 0, count, "[%s] Operations against result.json's %lld",
			     op_names[op], count);
		if (op == YCSB_RMW)
			cr_assert_null(ok, "YCSB reports no status for READ-MODIFY-WRITE");
		else
			cr_assert_eq(ok ? ok->l : 0, count, "[%s] Return=OK", op_names[op]);
	}
	yo_free(&o);
	free(text);
}

/* Checks verify's line: checked objects and nothing wrong; after a run with
 * inserts, its note: every run insert acknowledged, none failed. */
static void assert_verify(const struct e2e_env *e, const char *out, long long objects)
{
	char want[256];
	snprintf(want, sizeof want, "verified %lld objects: 0 missing, 0 corrupt, 0 unexpected\n",
		 objects);
	char *got = e2e_verify(e, out, 0);
	size_t first = strlen(want);
	cr_assert(!strncmp(got, want, first), "%s", got);
	if (got[first]) {
		long long acked = objects - RECORDS;
		snprintf(want, sizeof want, "ycsb: run inserts: %lld acknowledged and checked (the "
			 "ledger acknowledges %lld), 0 failed, 0 in doubt; failed operations: none\n",
			 acked, acked);
		cr_assert_str_eq(got + first, want, "%s", got);
	}
	free(got);
}

static void t_ycsb_workloads(const char *backend)
{
	static const char *const wls[] = {"a", "b", "c", "d", "e", "f"};
	for (size_t i = 0; i < 6; i++) {
		struct e2e_env e;
		e2e_env_init(&e, backend);
		char load[E2E_PATH], run[E2E_PATH], store[E2E_PATH], wl[E2E_PATH];
		e2e_path(&e, load, "load");
		e2e_path(&e, run, "run");
		e2e_path(&e, store, "store");
		snprintf(wl, sizeof wl, "%s%s", YCSB_WL(""), wls[i]);
		bool embedded = !e.server && strcmp(backend, "null") != 0;
		/* Two threads may update one hot key at once (A, B, F):
		 * RocksDB's optimistic commit fails one of them (conflict),
		 * which ends the run; RocksDB runs them in one thread. */
		const char *threads = strcmp(backend, "rocksdb") ? "threadcount=2" : "threadcount=1";
		if (embedded) {
			ycsb_exec(&e, "load", wl, load, "--dir", store, NULL);
			ycsb_exec(&e, "run", wl, run, "--dir", store, "-p", threads, NULL);
		} else {
			ycsb_exec(&e, "load", wl, load, NULL);
			ycsb_exec(&e, "run", wl, run, "-p", threads, NULL);
		}
		json_t *l = e2e_result(load), *r = e2e_result(run);
		cr_assert_str_eq(e2e_jstr(l, "pattern.phase"), "load");
		cr_assert_str_eq(e2e_jstr(r, "pattern.phase"), "run");
		cr_assert_eq(label_measured(l, "INSERT"), RECORDS);
		cr_assert_eq(e2e_jint(r, "totals.acked"), OPS, "workload%s", wls[i]);
		assert_ycsb_txt(load, l);
		assert_ycsb_txt(run, r);
		if (strcmp(backend, "null") != 0) {
			assert_verify(&e, load, RECORDS);
			assert_verify(&e, run, RECORDS + label_measured(r, "INSERT"));
		}
		json_decref(l);
		json_decref(r);
		e2e_env_fini(&e);
	}
}

#define T(backend, name) \
	Test(e2e_##backend, name, .fini = e2e_cleanup) { t_##name(#backend); }

T(null, ycsb_workloads)
#ifdef RPB_HAVE_LEVELDB
T(leveldb, ycsb_workloads)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, ycsb_workloads)
#endif
#ifdef RPB_HAVE_ROCKSDB
T(rocksdb, ycsb_workloads)
#endif
#define WORKLOADS(b) T(b, ycsb_workloads)
RPBT_EACH_SERVER(WORKLOADS)

#ifdef RPB_HAVE_SQLITE
Test(e2e_sqlite, ycsb_run_unloaded_refused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a;
	e2e_run_args(&a, &e, YCSB_WL("c"), e.out);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 2, "the store holds no YCSB records", "run `load`", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* YCSB's spellings: -P FILE and -p key=value; stdout holds YCSB's output
 * alone (ycsb.txt's lines), rpbench's own lines go to stderr; no status
 * lines without -s; the load phase verified; a record damaged behind
 * rpbench's back is corrupt. */
Test(e2e_sqlite, ycsb_dash_p_and_stdout, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "load", "-P", YCSB_WL("a"), "-p", "recordcount=50", "-p",
		     "dataintegrity=true", "--out", e.out, "--set", "interval=60", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	char *txt = e2e_slurp_in(e.out, "ycsb.txt");
	cr_assert_str_eq(p.out, txt, "stdout is YCSB's output, as ycsb.txt holds it");
	cr_assert(strstr(txt, "\n[INSERT], Operations, 50\n"), "%s", txt);
	cr_assert(strstr(p.err, "Results: "), "rpbench's lines on stderr: %s", p.err);
	cr_assert_null(strstr(p.err, " sec: "), "no status lines without -s: %s", p.err);
	free(txt);
	e2e_proc_free(&p);
	json_t *r = e2e_result(e.out);
	json_t *opts = json_object_get(json_object_get(r, "manifest"), "options");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "ycsb.recordcount")), "50");
	json_decref(r);
	assert_verify(&e, e.out, 50);
	e2e_env_fini(&e);
}
#endif

#if defined(RPB_HAVE_LEVELDB) && defined(RPB_HAVE_SQLITE)
/* rpbench compare loads each store before its run: the runs compare, and
 * each load's own results lie beside them. */
Test(e2e_compare, ycsb_loads_then_runs, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPB_BINARY_DIR "/bin/rpbench", "compare", YCSB_WL("a"), "--backends",
		     "leveldb,sqlite", "--out", e.out, "--quiet", "--set", "recordcount=100", "--set",
		     "operationcount=200", "--set", "sync=none", NULL);
	e2e_exec_ok(e.cap, &a);
	static const char *const backends[] = {"leveldb", "sqlite"};
	for (int i = 0; i < 2; i++) {
		char dir[E2E_PATH];
		snprintf(dir, sizeof dir, "%s/runs/%s-load", e.out, backends[i]);
		json_t *l = e2e_result(dir);
		cr_assert_str_eq(e2e_jstr(l, "pattern.phase"), "load");
		cr_assert_eq(label_measured(l, "INSERT"), 100);
		json_decref(l);
		snprintf(dir, sizeof dir, "%s/runs/%s", e.out, backends[i]);
		json_t *r = e2e_result(dir);
		cr_assert_str_eq(e2e_jstr(r, "pattern.phase"), "run");
		cr_assert_eq(e2e_jint(r, "totals.acked"), 200);
		json_decref(r);
	}
	char *md = e2e_slurp_in(e.out, "compare.md");
	cr_assert(strstr(md, "| READ throughput, ops/s"), "%s", md);
	free(md);
	e2e_env_fini(&e);
}
#endif

/* ---- a failed operation is named by its own kind ---- */

#define MIX_SEED "7"
/* Every kind at once, so failures of each can be provoked. */
#define MIX_PROPS                                                                               \
	"-p", "readproportion=0.2", "-p", "updateproportion=0.2", "-p", "insertproportion=0.2",  \
		"-p", "scanproportion=0.2", "-p", "readmodifywriteproportion=0.2"

static void mix_opts(struct rpb_ycsb_opts *o)
{
	memset(o, 0, sizeof *o);
	for (int k = 0; k < YCSB_NOPS; k++)
		o->proportion[k] = 0.2;
}

/* The first operation of thread 0 of kind k (with the seed above). */
static uint64_t first_of_kind(enum ycsb_op k)
{
	struct rpb_ycsb_opts o;
	mix_opts(&o);
	double cum[YCSB_NOPS];
	ycsb_op_weights(&o, cum);
	for (uint64_t i = 1;; i++)
		if (ycsb_op_kind(cum, (uint64_t)atoll(MIX_SEED), 0, i) == k)
			return i;
}

#ifdef RPB_HAVE_SQLITE
/* One thread, the stall injected into operation i (and every (i+1)th),
 * ended by the reaper: the run stops on that operation, and its stop line,
 * its failed samples and verify's listing of the ledger's failures all name
 * the operation's own kind, never READ for another. */
Test(e2e_sqlite, ycsb_failure_named_by_its_operation, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char load[E2E_PATH], store[E2E_PATH];
	e2e_path(&e, load, "load");
	e2e_path(&e, store, "store");
	ycsb_exec(&e, "load", YCSB_WL("a"), load, "--dir", store, NULL);
	static const enum ycsb_op kinds[] = {YCSB_UPDATE, YCSB_INSERT, YCSB_SCAN, YCSB_RMW};
	for (size_t j = 0; j < sizeof kinds / sizeof *kinds; j++) {
		const char *name = op_names[kinds[j]];
		uint64_t i = first_of_kind(kinds[j]);
		char out[E2E_PATH + 16], inject[64], want[160];
		snprintf(out, sizeof out, "%s/run-%zu", e.tmp, j);
		snprintf(inject, sizeof inject, "inject=stall:60000@%llu", (unsigned long long)i + 1);
		struct e2e_args a;
		e2e_run_args(&a, &e, YCSB_WL("a"), out);
		e2e_args_add(&a, "--dir", store, "-p", "recordcount=200", "-p", "operationcount=300",
			     "-p", "threadcount=1", MIX_PROPS, "--set", "seed=" MIX_SEED, "--set", inject,
			     "--set", "txn_timeout=100", NULL);
		struct e2e_proc p;
		e2e_exec(&p, e.cap, &a);
		e2e_assert_code(&p, 3);
		e2e_proc_free(&p);
		json_t *r = e2e_result(out);
		snprintf(want, sizeof want, "(%s %llu of thread 1)", name, (unsigned long long)i + 1);
		const char *status = e2e_jstr(r, "status");
		cr_assert(strstr(status, want), "operation %llu is a %s: %s", (unsigned long long)i, name,
			  status);
		cr_assert_eq(e2e_jint(r, "stop.op"), (json_int_t)i);
		char path[64];
		snprintf(path, sizeof path, "labels.%s.errors", name);
		cr_assert_eq(e2e_jint(r, path), 1, "%s: %s", path, status);
		cr_assert_eq(e2e_jint(r, "labels.READ.errors"), 0, "a failed %s counted as READ", name);
		json_decref(r);
		char *text = e2e_verify(&e, out, 0);
		snprintf(want, sizeof want, "; failed operations: %s 1\n", name);
		cr_assert(strstr(text, want), "verify should list the failed %s: %s", name, text);
		free(text);
	}
	e2e_env_fini(&e);
}
#endif

/* ---- a run killed mid-way: verify checks its inserts ---- */

#define KILL_SEED "11"

/* The ledger's acknowledged inserts, counted from ledger.bin with the
 * operation kinds (half reads, half inserts): no operation failed. */
static uint64_t ledger_inserts(const struct e2e_ledger *lv)
{
	struct rpb_ycsb_opts o;
	memset(&o, 0, sizeof o);
	o.proportion[YCSB_READ] = o.proportion[YCSB_INSERT] = 0.5;
	double cum[YCSB_NOPS];
	ycsb_op_weights(&o, cum);
	uint64_t n = 0;
	for (unsigned t = 0; t < lv->n; t++)
		for (uint64_t i = 0; i < lv->finished[t]; i++)
			n += ycsb_op_kind(cum, (uint64_t)atoll(KILL_SEED), t, i) == YCSB_INSERT;
	return n;
}

static void delete_record(const char *backend, const char *store, uint64_t k)
{
	struct rpb_ycsb_opts o;
	memset(&o, 0, sizeof o);
	o.zeropadding = 1;
	o.insertorder = YCSB_HASHED;
	char key[64];
	size_t kl = ycsb_key(key, sizeof key, &o, k);
	struct e2e_store s;
	e2e_store_open(&s, backend, store);
	struct rpb_err err = {0};
	enum rpb_status st = s.b->begin(s.s, RPB_TXN_WRITE, &err);
	if (!st)
		st = s.b->del(s.s, YCSB_TABLE, rpb_slice_make(key, kl), &err);
	if (!st)
		st = s.b->commit(s.s, &err);
	cr_assert_eq(st, RPB_OK, "deleting %s: %s", key, err.msg);
	e2e_store_close(&s);
}

/* Workload D with half its operations inserts, two threads, sync = commit,
 * SIGKILLed once 400 operations are done. verify finds every committed run
 * insert (as many as the ledger acknowledges, plus at most one per thread
 * committed as the run died) and nothing missing; with one of them deleted
 * behind its back it reports it missing (exit 4). */
static void t_ycsb_sigkill_inserts(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	char load[E2E_PATH], store[E2E_PATH];
	e2e_path(&e, load, "load");
	e2e_path(&e, store, "store");
	ycsb_exec(&e, "load", YCSB_WL("d"), load, "--dir", store, NULL);
	struct e2e_args a;
	e2e_run_args(&a, &e, YCSB_WL("d"), e.out);
	e2e_args_add(&a, "--dir", store, "-p", "recordcount=200", "-p", "operationcount=0", "-p",
		     "threadcount=2", "-p", "readproportion=0.5", "-p", "insertproportion=0.5", "--set",
		     "seed=" KILL_SEED, "--set", "sync=commit", "--set", E2E_UNTIL_KILLED, NULL);
	struct e2e_proc p;
	e2e_spawn_until(&p, e.cap, &a, e.out, 400);
	e2e_kill_run(&p);
	e2e_assert_code(&p, 128 + SIGKILL);
	e2e_proc_free(&p);

	struct e2e_ledger lv;
	cr_assert(e2e_ledger_read(e.out, &lv), "%s/%s is unreadable", e.out, RPB_LEDGER_FILE);
	char *failures = e2e_slurp_in(e.out, RPB_FAILURES_FILE);
	cr_assert_str_empty(failures, "no operation of this run should have failed");
	free(failures);
	uint64_t acked = ledger_inserts(&lv);
	cr_assert_gt(acked, 0);

	char *text = e2e_verify(&e, e.out, 0);
	long long n = 0, checked = 0, ledger = 0;
	int used = 0;
	sscanf(text, "verified %lld objects: 0 missing, 0 corrupt, 0 unexpected%n", &n, &used);
	cr_assert_gt(used, 0, "verify of the killed run printed \"%s\"", text);
	const char *note = strstr(text, "\nycsb: run inserts: ");
	cr_assert_not_null(note, "%s", text);
	cr_assert_eq(sscanf(note, "\nycsb: run inserts: %lld acknowledged and checked (the ledger "
			    "acknowledges %lld)", &checked, &ledger), 2, "%s", text);
	cr_assert_eq((uint64_t)ledger, acked, "verify counts %lld acknowledged inserts in the "
		     "ledger, ledger.bin %llu: %s", ledger, (unsigned long long)acked, text);
	cr_assert(checked >= ledger && checked <= ledger + lv.n, "%s", text);
	cr_assert_geq(n, RECORDS + checked, "%s", text);
	cr_assert(strstr(text, "note: the run did not finish"), "%s", text);
	free(text);

	/* The first run insert number, committed long before the kill. */
	delete_record(backend, store, RECORDS);
	text = e2e_verify(&e, e.out, 4);
	char want[160];
	snprintf(want, sizeof want, "verified %lld objects: 1 missing, 0 corrupt, 0 unexpected",
		 n - 1);
	cr_assert(!strncmp(text, want, strlen(want)), "after deleting run insert %d verify printed "
		  "\"%s\", expected \"%s\"", RECORDS, text, want);
	cr_assert(strstr(text, "key number 200"), "verify should name the record: %s", text);
	free(text);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
T(leveldb, ycsb_sigkill_inserts)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, ycsb_sigkill_inserts)
#endif
#ifdef RPB_HAVE_ROCKSDB
T(rocksdb, ycsb_sigkill_inserts)
#endif
