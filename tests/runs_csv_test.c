/* runs.csv keeps every value one field (RFC 4180): a label, a path or a stop
 * reason with a comma, a double quote or a line break is quoted, its quotes
 * doubled. A label like that never passes result_check.c, so the crafted one
 * is set on a real run's result.json after it was read. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "compare.h"
#include "e2e_util.h"
#include "runs_csv.h"

static char *field_text(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	rpb_csv_field(f, s);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

Test(runs_csv, fields_quoted_as_rfc4180_says)
{
	static const char *const cases[][2] = {
		{"create", "create"},
		{"", ""},
		{"a,b", "\"a,b\""},
		{"say \"hi\"", "\"say \"\"hi\"\"\""},
		{"two\nlines", "\"two\nlines\""},
		{"cr\rhere", "\"cr\rhere\""},
		{"p99.9_us", "p99.9_us"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = field_text(cases[i][0]);
		cr_assert_str_eq(got, cases[i][1], "field %zu", i);
		free(got);
	}
}

static bool known(const char *name)
{
	return rpb_backend_find(name) != NULL;
}

Test(runs_csv, crafted_label_stays_one_field, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_CI_INGEST, e.out);
	e2e_args_add(&a, "--set", "ops=20", NULL);
	e2e_exec_ok(e.cap, &a);

	struct rpb_cmp c;
	char msg[4096];
	rpb_cmp_init(&c, known);
	cr_assert_eq(rpb_cmp_add(&c, e.out, "r,\"1\"", 0, msg, sizeof msg), 0, "%s", msg);
	json_t *labels = json_object_get(c.runs[0].root, "labels");
	json_t *create = json_object_get(labels, "create");
	cr_assert_not_null(create);
	json_object_set_new(labels, "a,\"b\"\nc", json_deep_copy(create));
	cr_assert_eq(rpb_runs_csv_write(&c, e.tmp, msg, sizeof msg), 0, "%s", msg);
	rpb_cmp_free(&c);

	char *csv = e2e_slurp_in(e.tmp, "runs.csv");
	cr_assert_not_null(csv);
	cr_assert(strstr(csv, ",\"throughput_per_s:a,\"\"b\"\"\nc\",\"p50_us:a,\"\"b\"\"\nc\","),
		  "the crafted label is not one quoted field in the header: %s", csv);
	static const char row[] = "\"r,\"\"1\"\"\",null,";
	cr_assert(!strncmp(strstr(csv, "\r\n") + 2, row, strlen(row)),
		  "the run's name is not one quoted field: %s", csv);
	/* Two records (CRLF ends each; the label's LF is inside quotes). */
	size_t records = 0;
	for (const char *p = csv; (p = strstr(p, "\r\n")); p += 2)
		records++;
	cr_assert_eq(records, 2, "%s", csv);
	free(csv);
	e2e_env_fini(&e);
}
