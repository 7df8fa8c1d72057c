/* result.json's power_cut (src/core/powercut.c): RPB_POWER_CUT's words and
 * verify's counts added to a result.json, written whole; anything else in
 * the variable refused in one line, the file left as it was. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_util.h"
#include "powercut.h"

static void result_dir(char *dir)
{
	strcpy(dir, "/tmp/rpbt-cut-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/result.json", dir);
	e2e_write_file(path, "{\"manifest\": {\"backend\": \"sqlite\"}, \"stop\": {\"reason\": \"running\"}}");
}

Test(power_cut, record_in_result_json)
{
	char dir[32], msg[512] = "";
	result_dir(dir);
	struct rpb_verify_result res = {.checked = 40, .missing = 3, .in_doubt = 2, .unprovable = 1};
	struct rpb_ledger_worker w[1] = {{.issued = 10, .trusted = 7, .stale = true}};
	struct rpb_ledger l = {.nworkers = 1, .workers = w, .interrupted = true, .stale = true};
	cr_assert_eq(rpb_power_cut_record(dir, "technique=frozen-device-copy fs=ext4 moment_s=2.5 "
					       "fsck=journal-replayed fsck_exit=1", 4, &res, &l, msg, sizeof msg),
		     0, "%s", msg);
	json_t *r = e2e_result(dir);
	json_t *pc = json_object_get(r, "power_cut"), *v = json_object_get(pc, "verify");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "manifest"), "backend")),
			 "sqlite", "the rest of result.json kept");
	cr_assert_str_eq(json_string_value(json_object_get(pc, "fsck")), "journal-replayed");
	cr_assert_float_eq(json_number_value(json_object_get(pc, "moment_s")), 2.5, 1e-9);
	cr_assert_eq(json_integer_value(json_object_get(pc, "fsck_exit")), 1);
	cr_assert_eq(json_integer_value(json_object_get(v, "exit")), 4);
	cr_assert_eq(json_integer_value(json_object_get(v, "missing")), 3);
	cr_assert_eq(json_integer_value(json_object_get(v, "unprovable")), 4,
		     "found beyond the ledger (1) and after a thread's trusted point (3)");
	cr_assert_str_eq(json_string_value(json_object_get(v, "ledger")), "as it reached the disk");
	json_decref(r);
	/* verify could not count: only its exit code. */
	cr_assert_eq(rpb_power_cut_record(dir, "moment_s=1", 2, NULL, NULL, msg, sizeof msg), 0, "%s", msg);
	r = e2e_result(dir);
	v = json_object_get(json_object_get(r, "power_cut"), "verify");
	cr_assert_eq(json_object_size(v), 1);
	json_decref(r);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(power_cut, refuses_what_quota_run_never_writes)
{
	char dir[32], msg[512];
	result_dir(dir);
	char path[64];
	snprintf(path, sizeof path, "%s/result.json", dir);
	char *before = e2e_slurp(path, NULL);
	static const char *const bad[] = {"moment_s=soon", "fsck=a;b", "colour=red", "moment_s",
					  "fsck=$(reboot)"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		msg[0] = '\0';
		cr_assert_neq(rpb_power_cut_record(dir, bad[i], 0, NULL, NULL, msg, sizeof msg), 0, "%s", bad[i]);
		cr_assert(strstr(msg, RPB_POWER_CUT_ENV) && !strchr(msg, '\n'), "%s: %s", bad[i], msg);
	}
	char *after = e2e_slurp(path, NULL);
	cr_assert_str_eq(before, after, "result.json left as it was");
	free(before);
	free(after);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}
