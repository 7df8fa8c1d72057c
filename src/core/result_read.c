/* Reads a run's result.json back: what verify needs to reopen the store and
 * know which operations were acknowledged. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "paths.h"
#include "results.h"

static int fail(char *msg, size_t n, const char *path, const char *what)
{
	snprintf(msg, n, "%s: %s; give the results directory of an rpbench run", path, what);
	return -1;
}

static int read_ledger(struct rpb_result_file *rf, json_t *ledger, const char *path, char *msg,
		       size_t n)
{
	json_t *workers = json_object_get(ledger, "workers");
	if (!json_is_array(workers))
		return fail(msg, n, path, "no ledger in result.json");
	size_t nw = json_array_size(workers), nf = 0, i, j;
	json_t *w, *f;
	json_array_foreach(workers, i, w)
		nf += json_array_size(json_object_get(w, "failures"));
	rf->workers = calloc(nw ? nw : 1, sizeof *rf->workers);
	rf->failures = calloc(nf ? nf : 1, sizeof *rf->failures);
	if (!rf->workers || !rf->failures)
		return fail(msg, n, path, "out of memory reading the ledger");
	struct rpb_failure *next = rf->failures;
	json_array_foreach(workers, i, w) {
		struct rpb_ledger_worker *lw = &rf->workers[i];
		lw->issued = (uint64_t)json_integer_value(json_object_get(w, "issued"));
		lw->failures = next;
		json_array_foreach(json_object_get(w, "failures"), j, f) {
			const char *cls = json_string_value(json_array_get(f, 1));
			next->op = (uint64_t)json_integer_value(json_array_get(f, 0));
			next->status = cls ? rpb_status_parse(cls) : RPB_IO;
			next->in_doubt = json_is_true(json_array_get(f, 2));
			next++;
			lw->nfailures++;
		}
	}
	rf->ledger.run_tag = rf->run_tag;
	rf->ledger.nworkers = (unsigned)nw;
	rf->ledger.workers = rf->workers;
	return 0;
}

int rpb_result_read(struct rpb_result_file *rf, const char *result_dir, char *msg, size_t n)
{
	memset(rf, 0, sizeof *rf);
	char path[PATH_MAX];
	if (rpb_path_join(path, sizeof path, result_dir, "result.json") != 0)
		return fail(msg, n, result_dir, "the path is too long");
	json_error_t jerr;
	rf->root = json_load_file(path, 0, &jerr);
	if (!rf->root)
		return fail(msg, n, path, jerr.line > 0 ? "malformed JSON" : "cannot be read");
	json_t *man = json_object_get(rf->root, "manifest");
	json_t *store = json_object_get(man, "store");
	rf->backend = json_string_value(json_object_get(man, "backend"));
	rf->run_tag = json_string_value(json_object_get(man, "run_tag"));
	rf->dir = json_string_value(json_object_get(store, "dir"));
	rf->dsn = json_string_value(json_object_get(store, "dsn"));
	rf->name = json_string_value(json_object_get(store, "name"));
	if (!rf->backend || !rf->run_tag)
		return fail(msg, n, path, "no manifest with backend and run tag");
	char jmsg[512];
	if (rpb_job_from_json(&rf->job, json_object_get(man, "options"), jmsg, sizeof jmsg) != 0)
		return fail(msg, n, path, jmsg);
	json_t *ledger = json_object_get(rf->root, "ledger");
	/* A run that died before its end left only the result.json written at
	 * its start: its ledger is the live one. */
	if (!ledger)
		return rpb_live_ledger_read(rf, result_dir, msg, n);
	return read_ledger(rf, ledger, path, msg, n);
}

/* The --out a run was given, from its recorded command line: the value
 * after "--out" or "--out=", else the default results/NAME. NULL when the
 * command does not say. */
static char *given_out(const struct rpb_result_file *rf, const char *abs_result)
{
	const char *cmd = json_string_value(
		json_object_get(json_object_get(rf->root, "manifest"), "command"));
	if (!cmd)
		return NULL;
	for (const char *p = cmd; *p;) {
		size_t len = strcspn(p, " ");
		if (len == 5 && !strncmp(p, "--out", 5) && p[5] == ' ') {
			p += 6;
			return strndup(p, strcspn(p, " "));
		}
		if (len > 6 && !strncmp(p, "--out=", 6))
			return strndup(p + 6, len - 6);
		p += len;
		p += strspn(p, " ");
	}
	const char *base = strrchr(abs_result, '/');
	char *out = NULL;
	if (base && asprintf(&out, "results%s", base) < 0)
		out = NULL;
	return out;
}

/* The working directory of the run that wrote abs_result with the relative
 * --out given: abs_result less as many names as given has, if given then
 * leads back to abs_result. */
static int run_cwd(const char *abs_result, const char *given, char *cwd, size_t n)
{
	if (given[0] == '/' || snprintf(cwd, n, "%s", abs_result) >= (int)n)
		return -1;
	for (const char *p = given; *p;) {
		size_t len = strcspn(p, "/");
		if (len == 2 && !strncmp(p, "..", 2))
			return -1;
		char *slash = strrchr(cwd, '/');
		if (len && !(len == 1 && *p == '.')) {
			if (!slash || slash == cwd)
				return -1;
			*slash = '\0';
		}
		p += len;
		p += strspn(p, "/");
	}
	char back[PATH_MAX], again[PATH_MAX];
	return rpb_path_join(back, sizeof back, cwd, given) == 0 &&
			       rpb_path_absolute(back, again, sizeof again) == 0 &&
			       !strcmp(again, abs_result)
		       ? 0
		       : -1;
}

int rpb_result_store_dir(const struct rpb_result_file *rf, const char *result_dir, char *dir,
			 size_t n, char *msg, size_t mn)
{
	if (!rf->dir || !*rf->dir) {
		snprintf(msg, mn, "%s/result.json records no store directory; pass --dir with the store's directory",
			 result_dir);
		return -1;
	}
	if (rf->dir[0] == '/') {
		if (snprintf(dir, n, "%s", rf->dir) < (int)n)
			return 0;
		snprintf(msg, mn, "%s/result.json records a store path that is too long; pass --dir",
			 result_dir);
		return -1;
	}
	char abs[PATH_MAX], cwd[PATH_MAX];
	char *given = rpb_path_absolute(result_dir, abs, sizeof abs) == 0 ? given_out(rf, abs) : NULL;
	int rc = given && run_cwd(abs, given, cwd, sizeof cwd) == 0 ? rpb_path_join(dir, n, cwd, rf->dir)
								    : -1;
	free(given);
	if (rc)
		snprintf(msg, mn,
			 "%s/result.json (from an older rpbench) records the store as %s, relative to a "
			 "working directory verify cannot tell; pass --dir with the store's directory",
			 result_dir, rf->dir);
	return rc;
}

void rpb_result_free(struct rpb_result_file *rf)
{
	rpb_job_free(&rf->job);
	free(rf->workers);
	free(rf->failures);
	json_decref(rf->root);
	memset(rf, 0, sizeof *rf);
}
