/* Output formats stay put: one short run of every pattern on SQLite, its
 * result.json, summary.txt and report.txt compared with golden copies in
 * tests/golden/<pattern>/ after masking what differs from run to run
 * (timings, rates, dates, paths, the host, the run tag). What is left is
 * compared byte for byte: every key and its order, every count, every
 * label and line of the text reports. A refactoring that changes a format
 * fails here; a deliberate format change regenerates the copies with
 * RPB_GOLDEN_UPDATE=1 (and says why in its commit).
 *
 * Masks, so that what is kept is exactly what the same seed reproduces:
 * - result.json: every real number (all timings and rates are reals); the
 *   integers and strings under the keys listed in masked_keys (wall-clock
 *   dates, the host, the file system and its mount, memory sizes, the random
 *   run tag, the command line, the build, texts that quote a duration); every value, not the keys,
 *   under backend_gauges (readings taken every 200 ms).
 * - text files: every number, and every word of 8 or more hexadecimal
 *   digits (run tags, which may be all decimal digits), becomes '#', then
 *   runs of spaces become one (column widths follow the numbers). Tabs and
 *   line breaks are kept. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

#define GOLDEN_DIR RPB_SOURCE_DIR "/tests/golden"

/* Values that differ between two runs of the same seed. */
static const char *const masked_keys[] = {
	"start", "end", "run_tag", "command", "clock_source", "dir", "out", "workload", "fs_type", "fs_free_bytes",
	"fs_total_bytes", "cores", "memory_bytes", "peak_rss_bytes", "peak_rss_anon_bytes",
	"peak_rss_file_bytes", "store_bytes", "status",
	"summary", "backend_version", "test_id", "prefix", "workspace", "message",
	/* the machine, the build and the store's mount */
	"cpu_model", "kernel", "point", "source", "options", "super_options", "commit", "compiler",
	"build_type", "flags", NULL,
};

/* Every scalar below v becomes "<masked>"; keys and nesting stay. */
static void mask_all(json_t *v)
{
	const char *key;
	json_t *child;
	json_object_foreach(v, key, child) {
		if (json_is_object(child))
			mask_all(child);
		else
			json_object_set_new(v, key, json_string("<masked>"));
	}
}

static bool is_masked_key(const char *key)
{
	for (const char *const *k = masked_keys; *k; k++)
		if (strcmp(*k, key) == 0)
			return true;
	return false;
}

static void mask_json(json_t *v)
{
	if (json_is_object(v)) {
		const char *key;
		json_t *child;
		json_object_foreach(v, key, child) {
			if (!strcmp(key, "backend_gauges") && json_is_object(child))
				mask_all(child);
			else if (is_masked_key(key) && !json_is_object(child) && !json_is_array(child))
				json_object_set_new(v, key, json_string("<masked>"));
			else if (json_is_real(child))
				json_object_set_new(v, key, json_string("<real>"));
			else
				mask_json(child);
		}
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			json_t *child = json_array_get(v, i);
			if (json_is_real(child))
				json_array_set_new(v, i, json_string("<real>"));
			else
				mask_json(child);
		}
	}
}

static bool is_hex_word(const char *s, size_t len)
{
	if (len < 8)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

/* The text masks described at the top; returns a malloc'd string. */
static char *mask_text(const char *in)
{
	size_t n = strlen(in);
	char *out = malloc(n * 8 + 1);
	cr_assert_not_null(out);
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		if (isalnum((unsigned char)in[i]) && (i == 0 || !isalnum((unsigned char)in[i - 1]))) {
			size_t len = 0;
			while (isalnum((unsigned char)in[i + len]))
				len++;
			if (is_hex_word(in + i, len)) {
				out[o++] = '#';
				i += len;
				continue;
			}
		}
		if (isdigit((unsigned char)in[i])) {
			while (isdigit((unsigned char)in[i]) ||
			       (strchr(".,:", in[i]) && in[i] && isdigit((unsigned char)in[i + 1])))
				i++;
			out[o++] = '#';
			continue;
		}
		if (in[i] == ' ') {
			while (in[i] == ' ')
				i++;
			out[o++] = ' ';
			continue;
		}
		out[o++] = in[i++];
	}
	out[o] = '\0';
	return out;
}

static char *masked_file(const char *dir, const char *name)
{
	char path[E2E_PATH];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "the run wrote no %s", path);
	char *masked;
	if (strcmp(name, "result.json") == 0) {
		json_error_t jerr;
		json_t *root = json_loads(text, 0, &jerr);
		cr_assert_not_null(root, "%s: %s", path, jerr.text);
		mask_json(root);
		masked = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		cr_assert_not_null(masked);
		json_decref(root);
	} else {
		masked = mask_text(text);
	}
	free(text);
	return masked;
}

/* The first line where two texts differ, for the failure message. */
static void first_difference(const char *a, const char *b, char *buf, size_t n)
{
	int line = 1;
	const char *la = a, *lb = b;
	while (*a && *a == *b) {
		if (*a == '\n') {
			line++;
			la = a + 1;
			lb = b + 1;
		}
		a++;
		b++;
	}
	snprintf(buf, n, "line %d:\n  golden: %.*s\n  now:    %.*s", line, (int)strcspn(la, "\n"), la,
		 (int)strcspn(lb, "\n"), lb);
}

static void compare_or_update(const char *pattern, const char *outdir, const char *name)
{
	char golden[E2E_PATH];
	snprintf(golden, sizeof golden, "%s/%s/%s", GOLDEN_DIR, pattern, name);
	char *now = masked_file(outdir, name);
	const char *update = getenv("RPB_GOLDEN_UPDATE");
	if (update && strcmp(update, "1") == 0) {
		e2e_write_file(golden, now);
		free(now);
		return;
	}
	char *want = e2e_slurp(golden, NULL);
	cr_assert_not_null(want, "no golden copy %s; make it with RPB_GOLDEN_UPDATE=1", golden);
	char diff[2048] = "";
	if (strcmp(want, now) != 0)
		first_difference(want, now, diff, sizeof diff);
	cr_assert_str_eq(now, want, "%s of the %s pattern differs from %s at %s", name, pattern,
			 golden, diff);
	free(want);
	free(now);
}

/* Runs one pattern's CI workload with extra --set options (up to NULL) and
 * compares its three files. */
static void golden_run(const char *pattern, const char *workload, ...)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a;
	e2e_run_args(&a, &e, workload, e.out);
	va_list ap;
	va_start(ap, workload);
	e2e_args_setv(&a, ap);
	va_end(ap);
	e2e_exec_ok(e.cap, &a);
	compare_or_update(pattern, e.out, "result.json");
	compare_or_update(pattern, e.out, "summary.txt");
	char report[E2E_PATH];
	snprintf(report, sizeof report, "%s/report.txt", e.out);
	if (e2e_exists(report))
		compare_or_update(pattern, e.out, "report.txt");
	e2e_env_fini(&e);
}

Test(golden, masks_keep_counts_and_hide_timings)
{
	char *t = mask_text("summary =   3060 in 00:00:00 = 20363.7/s tag 19781ff0 12345678 hv0a/\tx");
	cr_assert_str_eq(t, "summary = # in # = #/s tag # # hv#a/\tx");
	free(t);
	json_t *j = json_pack("{s:i, s:f, s:s, s:[f, i]}", "acked", 3000, "mean_us", 1.5, "start",
			      "2026-01-01", "xs", 2.5, 7);
	mask_json(j);
	char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	cr_assert_str_eq(s, "{\"acked\":3000,\"mean_us\":\"<real>\",\"start\":\"<masked>\","
			    "\"xs\":[\"<real>\",7]}");
	free(s);
	json_decref(j);
}

#ifdef RPB_HAVE_SQLITE
Test(golden, ingest, .fini = e2e_cleanup)
{
	golden_run("ingest", E2E_CI_INGEST, "ops=300", "probe_every=100", NULL);
}

Test(golden, metadata, .fini = e2e_cleanup)
{
	golden_run("metadata", E2E_WORKLOAD("ci-metadata.ini"), "ops=200", "preload=5",
		   "node=golden", NULL);
}

Test(golden, harvest, .fini = e2e_cleanup)
{
	golden_run("harvest", E2E_WORKLOAD("ci-harvest.ini"), "records=2000", "ops=5", "threads=1",
		   NULL);
}

Test(golden, raw, .fini = e2e_cleanup)
{
	golden_run("raw", E2E_WORKLOAD("raw-ci.ini"), "num=200", NULL);
}
#endif

#ifdef RPB_HAVE_SQLITE
/* The load phase: a run needs a loaded store, which a golden run has not. */
Test(golden, ycsb, .fini = e2e_cleanup)
{
	golden_run("ycsb", E2E_WORKLOAD("ycsb/workloada"), "phase=load", "recordcount=100", NULL);
}
#endif
