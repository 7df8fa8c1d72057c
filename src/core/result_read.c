/* Reads a run's result.json back: what verify needs to reopen the store and
 * know which operations were acknowledged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "ledger.h"
#include "results.h"
#include "shown.h"

static int fail(char *msg, size_t n, const char *path, const char *what)
{
	char shown[RPB_SHOWN_SIZE];
	snprintf(msg, n, "%s: %s; give the results directory of an rpbench run",
		 rpb_shown(shown, sizeof shown, path), what);
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
	char path[4200];
	snprintf(path, sizeof path, "%s/result.json", result_dir);
	json_error_t jerr;
	rf->root = json_load_file(path, 0, &jerr);
	if (!rf->root)
		return fail(msg, n, path, jerr.line > 0 ? "malformed JSON" : "cannot be read");
	json_t *man = json_object_get(rf->root, "manifest");
	json_t *store = json_object_get(man, "store");
	rf->backend = json_string_value(json_object_get(man, "backend"));
	rf->run_tag = json_string_value(json_object_get(man, "run_tag"));
	/* The store's location byte for byte, also when it is not UTF-8. */
	rf->dir = rpb_json_get_exact(store, "dir");
	rf->dsn = rpb_json_get_exact(store, "dsn");
	rf->name = rpb_json_get_exact(store, "name");
	if (!rf->backend || !rf->run_tag)
		return fail(msg, n, path, "no manifest with backend and run tag");
	char jmsg[512];
	if (rpb_job_from_json(&rf->job, json_object_get(man, "options"), jmsg, sizeof jmsg) != 0)
		return fail(msg, n, path, jmsg);
	/* manifest.seed (text, exact up to 2^64-1) must be the run.seed option. */
	if (!rpb_json_get_u64(json_object_get(man, "seed"), &rf->seed) || rf->seed != rf->job.run.seed)
		return fail(msg, n, path, "manifest.seed is missing or differs from run.seed");
	json_t *ledger = json_object_get(rf->root, "ledger");
	/* A run that died before its end left only the result.json written at
	 * its start: its ledger is the live one. */
	if (!ledger)
		return rpb_live_ledger_read(rf, result_dir, msg, n);
	return read_ledger(rf, ledger, path, msg, n);
}

void rpb_result_free(struct rpb_result_file *rf)
{
	rpb_job_free(&rf->job);
	free(rf->dir);
	free(rf->dsn);
	free(rf->name);
	free(rf->workers);
	free(rf->failures);
	json_decref(rf->root);
	memset(rf, 0, sizeof *rf);
}
