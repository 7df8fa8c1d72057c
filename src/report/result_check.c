/* What the comparison accepts from a results directory (result_check.h). */
#include <stdio.h>
#include <string.h>

#include "cmdline.h"
#include "compare.h"
#include "csv_read.h"
#include "pattern.h"
#include "result_check.h"
#include "runner.h"
#include "text.h"
#include "workload.h"

#define COUNT_MAX 9007199254740992.0 /* 2^53: sums of 256 runs stay exact and in range */
#define FIGURE_MAX 4.6e18           /* below 2^62: converts to a count without overflow */

bool rpb_cmp_name_ok(const char *s)
{
	size_t len = s ? strlen(s) : 0;
	if (len < 1 || len > 64)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("_.-", s[i]) && !(s[i] >= 'a' && s[i] <= 'z') &&
		    !(s[i] >= 'A' && s[i] <= 'Z') && !(s[i] >= '0' && s[i] <= '9'))
			return false;
	return true;
}

bool rpb_cmp_gauge_column_ok(const char *col)
{
	const char *name = col + strlen(RPB_CMP_GAUGE_PREFIX);
	size_t len = strlen(name);
	return len >= 1 && len <= 64 && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == len;
}

bool rpb_cmp_text_ok(const char *s, size_t max)
{
	return rpb_text_printable(s, max) && !strpbrk(s, "|`<>");
}

void rpb_cmp_workload_name(const json_t *root, char *buf, size_t n)
{
	const char *cmd = json_string_value(json_object_get(json_object_get(root, "manifest"), "command"));
	char word[RPB_CMP_PATH];
	bool after_run = false;
	buf[0] = '\0';
	/* The word after "run": the command is shell-quoted (cmdline.h). */
	while (cmd && rpb_cmd_next_word(&cmd, word, sizeof word)) {
		if (after_run) {
			const char *slash = strrchr(word, '/');
			snprintf(buf, n, "%s", slash ? slash + 1 : word);
			return;
		}
		after_run = !strcmp(word, "run");
	}
}

static int refuse(char *msg, size_t n, const char *path, const char *what)
{
	snprintf(msg, n, "%s: %s; give the results directory of an rpbench run", path, what);
	return -1;
}

static bool class_ok(const char *s)
{
	enum rpb_status st = s ? rpb_status_parse(s) : RPB_STATUS_COUNT;
	return st != RPB_OK && st < RPB_STATUS_COUNT;
}

/* Every member of obj a number in [0, max] (members that are not numbers,
 * such as nested objects, are someone else's concern). */
static bool numbers_ok(const json_t *obj, double max)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)obj, key, v)
		if (json_is_number(v) && !(json_number_value(v) >= 0 && json_number_value(v) <= max))
			return false;
	return true;
}

static int check_options(const json_t *options, const char *path, char *msg, size_t n)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)options, key, v) {
		const char *text = json_string_value(v); /* "" is a value (an empty workspace) */
		if (!rpb_cmp_text_ok(key, 128) || (text && *text && !rpb_cmp_text_ok(text, 1024)))
			return refuse(msg, n, path, "manifest.options hold text that is not plain text");
	}
	struct rpb_job job;
	char jmsg[512], what[640];
	int rc = rpb_job_from_json(&job, options, jmsg, sizeof jmsg);
	rpb_job_free(&job);
	if (rc != 0) {
		snprintf(what, sizeof what, "manifest.options are not a run's options: %s", jmsg);
		return refuse(msg, n, path, what);
	}
	return 0;
}

static int check_manifest(const json_t *man, const char *path,
			  bool (*backend_known)(const char *), char *msg, size_t n)
{
	const char *backend = json_string_value(json_object_get(man, "backend"));
	const char *pattern = json_string_value(json_object_get(man, "pattern"));
	const char *sync = json_string_value(json_object_get(man, "sync"));
	const json_t *version = json_object_get(man, "backend_version");
	if (!json_is_object(man))
		return refuse(msg, n, path, "no manifest");
	if (!backend || !rpb_cmp_name_ok(backend) || !backend_known || !backend_known(backend))
		return refuse(msg, n, path, "manifest.backend names no backend of this build");
	if (!pattern || !rpb_pattern_find(pattern))
		return refuse(msg, n, path, "manifest.pattern names no pattern of this build");
	if (!sync || (strcmp(sync, "none") && strcmp(sync, "commit")))
		return refuse(msg, n, path, "manifest.sync is neither none nor commit");
	if (version && !rpb_cmp_text_ok(json_string_value(version), 127))
		return refuse(msg, n, path, "manifest.backend_version is not plain text");
	const json_t *server = json_object_get(man, "server");
	static const char *const shown[] = {"server_version", "shared_buffers"};
	for (size_t i = 0; i < sizeof shown / sizeof *shown; i++) {
		const json_t *v = json_object_get(server, shown[i]);
		if (v && !rpb_cmp_text_ok(json_string_value(v), 63))
			return refuse(msg, n, path, "manifest.server holds text that is not plain text");
	}
	if (!json_is_object(json_object_get(man, "options")))
		return refuse(msg, n, path, "manifest.options is not an object of options");
	return check_options(json_object_get(man, "options"), path, msg, n);
}

int rpb_cmp_result_check(const json_t *root, const char *path,
			 bool (*backend_known)(const char *name), char *msg, size_t n)
{
	if (!json_is_object(root))
		return refuse(msg, n, path, "not a JSON object");
	if (check_manifest(json_object_get(root, "manifest"), path, backend_known, msg, n) != 0)
		return -1;
	char workload[256];
	rpb_cmp_workload_name(root, workload, sizeof workload);
	if (workload[0] && !rpb_cmp_text_ok(workload, 128))
		return refuse(msg, n, path, "the workload file named in manifest.command is not plain text");
	const json_t *stop = json_object_get(root, "stop");
	const char *reason = json_string_value(json_object_get(stop, "reason"));
	const json_t *cls = json_object_get(stop, "class");
	if (stop && (!reason || !rpb_stop_reason_known(reason)))
		return refuse(msg, n, path, "stop.reason is none that rpbench writes (completed, duration, "
					    "bytes, error, slow, signal, running)");
	if (cls && !class_ok(json_string_value(cls)))
		return refuse(msg, n, path, "stop.class is not an error class");
	const json_t *labels = json_object_get(root, "labels"), *v;
	const char *key;
	if (labels && !json_is_object(labels))
		return refuse(msg, n, path, "labels is not an object");
	json_object_foreach((json_t *)labels, key, v) {
		if (!rpb_cmp_name_ok(key))
			return refuse(msg, n, path, "a key of labels is not a label ([A-Za-z0-9_.-], 1 to 64 "
						    "characters)");
		if (!json_is_object(v) || !numbers_ok(v, FIGURE_MAX))
			return refuse(msg, n, path, "a label's figures are not numbers >= 0");
	}
	const json_t *errors = json_object_get(root, "errors");
	if (errors && !json_is_object(errors))
		return refuse(msg, n, path, "errors is not an object");
	json_object_foreach((json_t *)errors, key, v) {
		const json_t *count = json_object_get(v, "count");
		if (!class_ok(key))
			return refuse(msg, n, path, "a key of errors is not an error class");
		if (!json_is_integer(count) || json_integer_value(count) < 0 ||
		    (double)json_integer_value(count) > COUNT_MAX)
			return refuse(msg, n, path, "an error count is not a count");
	}
	const json_t *totals = json_object_get(root, "totals");
	if (totals && (!json_is_object(totals) || !numbers_ok(totals, FIGURE_MAX)))
		return refuse(msg, n, path, "totals are not numbers >= 0");
	const json_t *mean = json_object_get(json_object_get(root, "pattern"), "mean_size");
	if (json_is_number(mean) && !(json_number_value(mean) >= 0 && json_number_value(mean) <= FIGURE_MAX))
		return refuse(msg, n, path, "pattern.mean_size is not a size");
	return 0;
}

int rpb_cmp_probe_check(const char *dir, char *msg, size_t n)
{
	struct rpb_csv in;
	if (!rpb_csv_open(&in, dir, "probe.csv"))
		return 0;
	int cl = rpb_csv_col(&in, "label"), rc = 0;
	while (cl >= 0 && rpb_csv_next(&in))
		if (!rpb_cmp_name_ok(in.field[cl])) {
			snprintf(msg, n, "%s/probe.csv line %zu: the label is not a label name "
				 "([A-Za-z0-9_.-], 1 to 64 characters); give the results directory of an "
				 "rpbench run", dir, in.lineno);
			rc = -1;
			break;
		}
	rpb_csv_close(&in);
	return rc;
}

int rpb_cmp_intervals_check(const char *dir, char *msg, size_t n)
{
	struct rpb_csv in;
	if (!rpb_csv_open(&in, dir, "intervals.csv"))
		return 0;
	int rc = 0;
	for (size_t i = 0; i < in.nnames && !rc; i++)
		if (!strncmp(in.name[i], RPB_CMP_GAUGE_PREFIX, strlen(RPB_CMP_GAUGE_PREFIX)) &&
		    !rpb_cmp_gauge_column_ok(in.name[i])) {
			/* The name itself is not shown: it may hold any byte. */
			snprintf(msg, n, "%s/intervals.csv line 1: column %zu is not a gauge "
				 "(gauge_ then [a-z0-9_], 1 to 64 characters); give the results "
				 "directory of an rpbench run", dir, i + 1);
			rc = -1;
		}
	rpb_csv_close(&in);
	return rc;
}
