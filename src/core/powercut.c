/* result.json's power_cut (powercut.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "powercut.h"
#include "results.h"

/* One word of RPB_POWER_CUT: key=value, the value short printable text. */
static bool word_ok(const char *v, size_t len)
{
	if (!len || len > 64)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", v[i]))
			return false;
	return true;
}

static json_t *cut_json(const char *env, char *msg, size_t n)
{
	static const char *const keys[] = {"technique", "fs", "moment_s", "fsck", "fsck_exit", NULL};
	json_t *o = json_object();
	for (const char *p = env; o && *p;) {
		p += strspn(p, " ");
		size_t len = strcspn(p, " ");
		const char *eq = memchr(p, '=', len);
		size_t k = 0, klen = eq ? (size_t)(eq - p) : 0;
		while (keys[k] && (strlen(keys[k]) != klen || strncmp(keys[k], p, klen)))
			k++;
		if (!len)
			break;
		if (!eq || !keys[k] || !word_ok(eq + 1, len - klen - 1)) {
			snprintf(msg, n, "%s holds '%.*s', not one of its key=value words", RPB_POWER_CUT_ENV,
				 (int)(len < 64 ? len : 64), p);
			json_decref(o);
			return NULL;
		}
		char value[72];
		snprintf(value, sizeof value, "%.*s", (int)(len - klen - 1), eq + 1);
		char *end;
		errno = 0;
		double d = strtod(value, &end);
		bool number = !strcmp(keys[k], "moment_s") || !strcmp(keys[k], "fsck_exit");
		if (number && (*end || errno)) {
			snprintf(msg, n, "%s: %s = %s is not a number", RPB_POWER_CUT_ENV, keys[k], value);
			json_decref(o);
			return NULL;
		}
		json_object_set_new(o, keys[k],
				    !number ? json_string(value)
				    : !strcmp(keys[k], "fsck_exit") ? json_integer((json_int_t)d)
								    : json_real(d));
		p += len;
	}
	return o;
}

int rpb_power_cut_record(const char *dir, const char *env, int exit_code,
			 const struct rpb_verify_result *res, const struct rpb_ledger *l, char *msg,
			 size_t n)
{
	char path[PATH_MAX];
	if (rpb_path_join(path, sizeof path, dir, "result.json") != 0) {
		snprintf(msg, n, "results directory %.256s... is too long", dir);
		return -1;
	}
	json_t *cut = cut_json(env, msg, n);
	if (!cut)
		return -1;
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!json_is_object(root)) {
		snprintf(msg, n, "cannot read %s to record the power cut: %s", path, jerr.text);
		json_decref(cut);
		json_decref(root);
		return -1;
	}
	json_t *v = json_pack("{s:i}", "exit", exit_code);
	if (res) {
		uint64_t untrusted = 0;
		for (unsigned t = 0; l && l->stale && t < l->nworkers; t++)
			untrusted += l->workers[t].issued - l->workers[t].trusted;
		json_object_set_new(v, "checked", json_integer((json_int_t)res->checked));
		json_object_set_new(v, "missing", json_integer((json_int_t)res->missing));
		json_object_set_new(v, "corrupt", json_integer((json_int_t)res->corrupt));
		json_object_set_new(v, "unexpected", json_integer((json_int_t)res->unexpected));
		json_object_set_new(v, "in_doubt", json_integer((json_int_t)res->in_doubt));
		json_object_set_new(v, "unprovable", json_integer((json_int_t)(res->unprovable + untrusted)));
		json_object_set_new(v, "ledger", json_string(!l || !l->interrupted ? "final"
							     : l->stale   ? "as it reached the disk"
									  : "live"));
	}
	json_object_set_new(cut, "verify", v);
	json_object_set_new(root, "power_cut", cut);
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	int rc = text ? rpb_results_file(dir, "result.json", text, msg, n) : -1;
	if (!text)
		snprintf(msg, n, "cannot encode result.json");
	free(text);
	json_decref(root);
	return rc;
}
