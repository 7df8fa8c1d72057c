/* The plug-in path of a pattern, end to end: tests/example_pattern/ is a
 * pattern added the way docs/architecture.md says (its folder, one registry
 * line, one CMake line), built into rpbench-example-<backend> only. Its
 * option reaches --help, the workload parser, --set and result.json; its
 * run, its summary and its verify work as every pattern's do; and the
 * programs that do not register it do not know it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

static const char workload[] = "[run]\nthreads = 2\nops = 150\nseed = 7\nsync = none\n"
			       "[example]\nvalue_size = 32\n";

/* An env whose binary is the example build's. */
static void example_env(struct e2e_env *e, const char *backend, char *ini)
{
	e2e_env_init_example(e, backend);
	e2e_path(e, ini, "example.ini");
	e2e_write_file(ini, workload);
}

Test(e2e_example, help_lists_the_pattern_and_its_option, .fini = e2e_cleanup)
{
	struct e2e_env e;
	char ini[E2E_PATH];
	example_env(&e, "null", ini);
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "--help", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	cr_assert(strstr(p.out, "\n[example]  (the section selects the example pattern)\n"), "%s",
		  p.out);
	cr_assert(strstr(p.out, "  value_size "), "the option's row: %s", p.out);
	cr_assert(strstr(p.out, "bytes of each put's value"), "its help: %s", p.out);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(e2e_example, option_range_is_checked, .fini = e2e_cleanup)
{
	struct e2e_env e;
	char ini[E2E_PATH];
	example_env(&e, "null", ini);
	struct e2e_args a;
	e2e_run_args(&a, &e, ini, e.out);
	e2e_args_add(&a, "--set", "value_size=8k", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 1, "[example] value_size = 8k is out of range",
			   "a size in bytes in [1, 4k]", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(e2e_example, unknown_to_programs_that_do_not_register_it, .fini = e2e_cleanup)
{
	struct e2e_env e;
	char ini[E2E_PATH];
	e2e_env_init(&e, "null");
	e2e_path(&e, ini, "example.ini");
	e2e_write_file(ini, workload);
	struct e2e_args a;
	e2e_run_args(&a, &e, ini, e.out);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 1, "unknown section [example]", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_SQLITE
Test(e2e_example, run_results_and_verify, .fini = e2e_cleanup)
{
	struct e2e_env e;
	char ini[E2E_PATH];
	example_env(&e, "sqlite", ini);
	struct e2e_args a;
	e2e_run_args(&a, &e, ini, e.out);
	e2e_args_add(&a, "--set", "jtl=on", "--set", "jtl_columns=5", NULL);
	e2e_exec_ok(e.cap, &a);

	/* The table's label_dirs: a put sends its value (sentBytes), receives
	 * nothing (bytes). */
	char *jtl = e2e_slurp_in(e.out, "samples.jtl");
	cr_assert_not_null(jtl);
	unsigned puts = 0;
	for (const char *l = strstr(jtl, ",put,"); l; l = strstr(l + 1, ",put,")) {
		size_t len = strcspn(l, "\n");
		cr_assert(memmem(l, len, ",\"\",0,32,", 8), "bytes 0, sentBytes 32: %.*s", (int)len, l);
		puts++;
	}
	cr_assert_eq(puts, 300);
	free(jtl);

	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "manifest.pattern"), "example");
	const char *vs = json_string_value(json_object_get(
		json_object_get(json_object_get(r, "manifest"), "options"), "example.value_size"));
	cr_assert_str_eq(vs ? vs : "(absent)", "32", "manifest.options holds the pattern's option");
	cr_assert_eq(e2e_jint(r, "totals.acked"), 300);
	cr_assert_eq(e2e_jint(r, "labels.put.samples"), 300);
	cr_assert_eq(e2e_jint(r, "labels.put.bytes"), 300 * 32);
	cr_assert_eq(e2e_jint(r, "totals.acked_bytes"), 300 * 32);
	char tag[32];
	snprintf(tag, sizeof tag, "%s", e2e_jstr(r, "manifest.run_tag"));
	json_decref(r);
	char path[E2E_PATH];
	char *summary = e2e_slurp(e2e_path(&e, path, "out/summary.txt"), NULL);
	cr_assert_not_null(summary);
	cr_assert(strstr(summary, "Status: Test completed: 300 puts in "), "%s", summary);
	cr_assert(strstr(summary, "pattern example, seed 7"), "%s", summary);
	free(summary);

	e2e_verify_clean(&e, e.out, 300);

	/* Verify reads the values: one changed, one removed. */
	struct e2e_store st;
	e2e_store_open(&st, "sqlite", e.store);
	char k1[64], k2[64];
	snprintf(k1, sizeof k1, "x/%s/0001/000000000042", tag);
	snprintf(k2, sizeof k2, "x/%s/0000/000000000007", tag);
	struct rpb_err err;
	cr_assert_eq(st.b->begin(st.s, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(st.b->put(st.s, RPB_T_OBJECTS, rpb_slice_make(k1, strlen(k1)),
			       rpb_slice_make("tampered", 8), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(st.b->del(st.s, RPB_T_OBJECTS, rpb_slice_make(k2, strlen(k2)), &err), RPB_OK,
		     "%s", err.msg);
	cr_assert_eq(st.b->commit(st.s, &err), RPB_OK, "%s", err.msg);
	e2e_store_close(&st);
	char *out = e2e_verify(&e, e.out, 4);
	cr_assert(strstr(out, "verified 300 objects: 1 missing, 1 corrupt, 0 unexpected"), "%s", out);
	free(out);
	e2e_env_fini(&e);
}
#endif
