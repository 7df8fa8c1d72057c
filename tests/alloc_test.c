/* No allocation in the timed loop: the null backend is run twice under the
 * LD_PRELOAD heap accountant (bench/heapacct.c), with 2,000 and 22,000
 * operations and nothing else different (no probes, no progress ticks, no
 * JTL). Any allocation per operation would show 20,000 times in the
 * difference. The null backend isolates the harness: runner, ingest
 * pattern, timing and histograms.
 *
 * The LevelDB and SQLite backends add none to their library's own: the
 * raw pattern's fillseq and readrandom are run at two sizes, and so is the
 * direct loop of bench/calibrate/ with the same settings; rpbench's
 * allocations per operation must not exceed the direct loop's (LevelDB
 * allocates for each get's result, SQLite for statement execution:
 * docs/performance.md). Built only without sanitizers (they own malloc). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

#ifdef RPB_HEAPACCT_LIB

/* Runs a, preloaded with the heap accountant; returns its allocations. */
static unsigned long long counted(struct e2e_env *e, struct e2e_args *a)
{
	char report[E2E_PATH];
	e2e_path(e, report, "heap");
	cr_assert_eq(setenv("RPB_HEAP_REPORT", report, 1), 0);
	cr_assert_eq(setenv("LD_PRELOAD", RPB_HEAPACCT_LIB, 1), 0);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, a);
	unsetenv("LD_PRELOAD");
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	char *text = e2e_slurp(report, NULL);
	cr_assert_not_null(text, "the heap accountant wrote no %s", report);
	unsigned long long n = 0;
	cr_assert_eq(sscanf(text, "allocations %llu", &n), 1, "%s: %s", report, text);
	free(text);
	cr_assert_gt(n, 0, "the counter saw no allocation at all: not preloaded?");
	return n;
}

static unsigned long long allocations(struct e2e_env *e, const char *ops)
{
	char out[E2E_PATH], set_ops[64];
	e2e_path(e, out, ops);
	snprintf(set_ops, sizeof set_ops, "ops=%s", ops);
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, out);
	e2e_args_add(&a, "--set", "threads=1", "--set", "clients=1", "--set", "probe_every=0",
		     "--set", "interval=1h", "--set", set_ops, NULL);
	return counted(e, &a);
}

Test(alloc, null_backend_timed_loop_allocates_nothing, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	unsigned long long few = allocations(&e, "2000");
	unsigned long long many = allocations(&e, "22000");
	/* Equal in practice; a couple of allocations of slack for the result
	 * files, whose numbers are a few characters longer in the longer run. */
	cr_assert_leq(many, few + 2,
		      "%llu allocations for 2,000 creates, %llu for 22,000: %.3f per create in the "
		      "timed loop",
		      few, many, (double)(many - few) / 20000.0);
	e2e_env_fini(&e);
}

/* The ycsb pattern's timed loop too: workload F (reads, updates and
 * read-modify-writes, records built with YCSB's RandomByteIterator) with
 * YCSB's measurements of each measurementtype, 2,000 against 22,000
 * operations. */
static unsigned long long ycsb_allocations(struct e2e_env *e, const char *type, const char *ops)
{
	char out[E2E_PATH + 64], set_ops[64], set_type[64];
	snprintf(out, sizeof out, "%s/%s-%s", e->tmp, type, ops);
	snprintf(set_ops, sizeof set_ops, "operationcount=%s", ops);
	snprintf(set_type, sizeof set_type, "measurementtype=%s", type);
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_WORKLOAD("ycsb/workloadf"), out);
	e2e_args_add(&a, "-p", set_ops, "-p", set_type, "--set", "interval=1h", NULL);
	return counted(e, &a);
}

Test(alloc, ycsb_timed_loop_allocates_nothing, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	static const char *const types[] = {"hdrhistogram", "histogram", "raw"};
	for (int t = 0; t < 3; t++) {
		unsigned long long few = ycsb_allocations(&e, types[t], "2000");
		unsigned long long many = ycsb_allocations(&e, types[t], "22000");
		cr_assert_leq(many, few + 2, "%s: %llu allocations for 2,000 operations, %llu for "
			      "22,000", types[t], few, many);
	}
	e2e_env_fini(&e);
}

#endif

#ifdef RPB_HEAPACCT_LIB
/* SQLite at the direct loop's settings (calibrate-sqlite.c, db_bench_sqlite3's
 * as it applies them; calibrate.sh passes the same). */
static const char *const sqlite_sets[] = {
	"--set", "sqlite.page_size=4096", "--set", "sqlite.cache_size=16M",
	"--set", "sqlite.mmap_size=0", "--set", "sqlite.wal_autocheckpoint=4096",
	"--set", "sqlite.locking_mode=exclusive", NULL,
};

/* Allocations of fillseq,readrandom on num keys: rpbench or the direct loop. */
static unsigned long long raw_allocations(struct e2e_env *e, bool direct, unsigned num)
{
	char out[E2E_PATH], tag[32], n[32], set_num[48], direct_bin[E2E_PATH];
	snprintf(tag, sizeof tag, "%s%u", direct ? "d" : "r", num);
	e2e_path(e, out, tag);
	snprintf(n, sizeof n, "%u", num);
	snprintf(set_num, sizeof set_num, "num=%u", num);
	struct e2e_args a = {0};
	if (direct) {
		snprintf(direct_bin, sizeof direct_bin, "%s/bin/calibrate-%s", RPB_BINARY_DIR,
			 e->backend);
		e2e_args_add(&a, direct_bin, "--db", out, "--num", n, "--benchmarks",
			     "fillseq,readrandom", NULL);
		return counted(e, &a);
	}
	e2e_run_args(&a, e, E2E_WORKLOAD("raw-ci.ini"), out);
	e2e_args_add(&a, "--set", set_num, "--set", "benchmarks=fillseq,readrandom", NULL);
	if (strcmp(e->backend, "sqlite") == 0)
		for (const char *const *s = sqlite_sets; *s; s++)
			e2e_args_add(&a, *s, NULL);
	return counted(e, &a);
}

static void t_adds_no_allocation(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	double per_op[2];
	for (int direct = 0; direct < 2; direct++) {
		unsigned long long few = raw_allocations(&e, direct, 2000);
		unsigned long long many = raw_allocations(&e, direct, 12000);
		per_op[direct] = ((double)many - (double)few) / 20000.0; /* 2 x 10,000 more ops */
	}
	cr_assert_leq(per_op[0], per_op[1] + 0.05,
		      "%s: rpbench allocates %.3f times per operation, its library's direct loop "
		      "%.3f",
		      backend, per_op[0], per_op[1]);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
Test(alloc, leveldb_adds_no_allocation, .fini = e2e_cleanup) { t_adds_no_allocation("leveldb"); }
#endif
#ifdef RPB_HAVE_SQLITE
Test(alloc, sqlite_adds_no_allocation, .fini = e2e_cleanup) { t_adds_no_allocation("sqlite"); }
#endif
#endif
