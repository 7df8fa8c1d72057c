/* What rpbench compare/report accept from a results directory
 * (rpb_cmp_result_check, rpb_cmp_name_ok, rpb_cmp_text_ok): any bytes are
 * refused with one line naming the file, or every string that the tables
 * and figures show is of the kind the check promises. */
#include <stdbool.h>
#include <stdint.h>

#include "fuzz.h"
#include "result_check.h"

static bool known(const char *name)
{
	return strcmp(name, "null") == 0 || strcmp(name, "sqlite") == 0 ||
	       strcmp(name, "leveldb") == 0 || strcmp(name, "postgres") == 0;
}

/* The promise of rpb_cmp_text_ok: no control byte, none of | ` < >. */
static bool plain(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < ' ' || *p == 0x7f || strchr("|`<>", *p))
			return false;
	return true;
}

static void strings(const char *s)
{
	if (rpb_cmp_name_ok(s)) {
		size_t len = strlen(s);
		FUZZ_ASSERT(len >= 1 && len <= 64 &&
				    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					      "0123456789_.-") == len,
			    "label accepted: %s", s);
	}
	if (rpb_cmp_text_ok(s, 128))
		FUZZ_ASSERT(strlen(s) >= 1 && strlen(s) <= 128 && plain(s), "text accepted");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	strings(s);
	free(s);
	json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
	if (!root)
		return 0;
	char msg[4096] = "", workload[256];
	if (rpb_cmp_result_check(root, "r/result.json", known, msg, sizeof msg) != 0) {
		fuzz_one_line(msg);
		FUZZ_ASSERT(strncmp(msg, "r/result.json", 13) == 0, "refusal names no file: %s", msg);
	} else {
		const char *backend = json_string_value(
			json_object_get(json_object_get(root, "manifest"), "backend"));
		FUZZ_ASSERT(backend && known(backend), "manifest.backend accepted");
		rpb_cmp_workload_name(root, workload, sizeof workload);
		FUZZ_ASSERT(!workload[0] || plain(workload), "workload name accepted: %s", workload);
		const json_t *labels = json_object_get(root, "labels"), *v;
		const char *key;
		json_object_foreach((json_t *)labels, key, v)
			FUZZ_ASSERT(rpb_cmp_name_ok(key), "label key accepted");
	}
	json_decref(root);
	return 0;
}
