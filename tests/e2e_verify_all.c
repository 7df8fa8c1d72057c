/* A run and a clean verify of every pattern, and of the ingest pattern under
 * each model (flat; fedora under profile = durable and fedora-4.5), on
 * SQLite: small runs whose point is that every verify path runs in each
 * build, the ASan+UBSan one too (where any report is fatal and fails the
 * run or verify, or shows on its stderr). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "ingest_fedora.h"

static void count_name(void *ctx, const char *name, size_t len)
{
	(void)name;
	(void)len;
	++*(int *)ctx;
}

/* An empty value comes back from a store as a NULL slice; the document
 * readers take it without pointer arithmetic on NULL (which clang's UBSan
 * reports as "applying zero offset to null pointer"). */
Test(fedora_doc, empty_values_are_null_slices)
{
	struct fed_doc d;
	cr_assert_not(fed_doc_parse(NULL, 0, &d), "an empty document is malformed");
	memset(&d, 0, sizeof d);
	int n = 0;
	fed_doc_children(&d, count_name, &n);
	fed_block_names(NULL, 0, count_name, &n);
	cr_assert_eq(n, 0);
	static const char doc[] = "type=binary\nstore=file\nsize=3\n\n";
	cr_assert(fed_doc_parse(doc, sizeof doc - 1, &d));
	fed_doc_children(&d, count_name, &n); /* a binary node: no child lines */
	cr_assert_eq(n, 0);
}

#ifdef RPB_HAVE_SQLITE
/* Runs workload into its own results directory (extra --set up to NULL),
 * then verifies it: exit 0, nothing on stderr, nothing missing, corrupt
 * or unexpected. */
static void run_verify(const struct e2e_env *e, const char *name, const char *workload, ...)
{
	char out[E2E_PATH];
	e2e_path(e, out, name);
	struct e2e_args a;
	e2e_run_args(&a, e, workload, out);
	va_list ap;
	va_start(ap, workload);
	e2e_args_setv(&a, ap);
	va_end(ap);
	e2e_exec_ok(e->cap, &a);
	char *text = e2e_verify(e, out, 0);
	cr_assert(strstr(text, " 0 missing, 0 corrupt, 0 unexpected"), "%s: verify printed \"%s\"",
		  name, text);
	free(text);
}

Test(e2e_sqlite, verify_every_pattern_and_model, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	run_verify(&e, "flat", E2E_CI_INGEST, "ops=40", "probe_every=0", NULL);
	run_verify(&e, "fedora-durable", E2E_CI_INGEST, "model=fedora", "profile=durable", "ops=40",
		   "probe_every=0", "size_max=64k", NULL);
	run_verify(&e, "fedora-45", E2E_CI_INGEST, "model=fedora", "profile=fedora-4.5", "ops=40",
		   "probe_every=0", "size_max=64k", NULL);
	run_verify(&e, "metadata", E2E_WORKLOAD("ci-metadata.ini"), "ops=100", NULL);
	run_verify(&e, "harvest", E2E_WORKLOAD("ci-harvest.ini"), "records=2000", "ops=20", NULL);
	run_verify(&e, "raw", E2E_WORKLOAD("raw-ci.ini"), "num=200", NULL);
	/* YCSB: a load, then a run with inserts on the loaded store. */
	char store[E2E_PATH], out[E2E_PATH];
	e2e_path(&e, store, "ycsb-store");
	struct e2e_args a;
	e2e_path(&e, out, "ycsb-load");
	e2e_run_args(&a, &e, E2E_WORKLOAD("ycsb/workloadd"), out);
	a.v[1] = "load";
	e2e_args_add(&a, "--dir", store, "-p", "recordcount=100", NULL);
	e2e_exec_ok(e.cap, &a);
	char *text = e2e_verify(&e, out, 0);
	cr_assert(strstr(text, " 0 missing, 0 corrupt, 0 unexpected"), "ycsb load: %s", text);
	free(text);
	e2e_path(&e, out, "ycsb-run");
	e2e_run_args(&a, &e, E2E_WORKLOAD("ycsb/workloadd"), out);
	e2e_args_add(&a, "--dir", store, "-p", "recordcount=100", "-p", "operationcount=200", NULL);
	e2e_exec_ok(e.cap, &a);
	text = e2e_verify(&e, out, 0);
	cr_assert(strstr(text, " 0 missing, 0 corrupt, 0 unexpected") && strstr(text, "run inserts"),
		  "ycsb run: %s", text);
	free(text);
	e2e_env_fini(&e);
}
#endif
