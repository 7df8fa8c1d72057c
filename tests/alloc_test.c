/* No allocation in the timed loop: the null backend is run twice under the
 * LD_PRELOAD heap accountant (bench/heapacct.c), with 2,000 and 22,000
 * operations and nothing else different (no probes, no progress ticks, no
 * JTL). Any allocation per operation would show 20,000 times in the
 * difference. The null backend isolates the harness: runner, ingest
 * pattern, timing and histograms. Built only without sanitizers (they own malloc). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "e2e_util.h"

#ifdef RPB_HEAPACCT_LIB

static unsigned long long allocations(struct e2e_env *e, const char *ops)
{
	char out[E2E_PATH], report[E2E_PATH], set_ops[64];
	e2e_path(e, out, ops);
	e2e_path(e, report, "heap");
	snprintf(set_ops, sizeof set_ops, "ops=%s", ops);
	cr_assert_eq(setenv("RPB_HEAP_REPORT", report, 1), 0);
	cr_assert_eq(setenv("LD_PRELOAD", RPB_HEAPACCT_LIB, 1), 0);
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, out);
	e2e_args_add(&a, "--set", "threads=1", "--set", "clients=1", "--set", "probe_every=0",
		     "--set", "interval=1h", "--set", set_ops, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
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

#endif
