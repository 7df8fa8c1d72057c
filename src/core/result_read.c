/* Reads a run's result.json back: what verify needs to reopen the store and
 * know which operations were acknowledged. A results directory may come
 * from anyone, so every field is checked for its type and range before it
 * is used, and every count of the ledger against the run's own manifest
 * (ledger_check.c). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "fsutil.h"
#include "jsontext.h"
#include "ledger.h"
#include "paths.h"
#include "results.h"
#include "shown.h"

#define RESULT_MAX (UINT64_C(1) << 32) /* far larger than any result.json */

static int fail(char *msg, size_t n, const char *path, const char *what)
{
	char shown[RPB_SHOWN_SIZE];
	snprintf(msg, n, "%s: %s; give the results directory of an rpbench run",
		 rpb_shown(shown, sizeof shown, path), what);
	return -1;
}

/* "2026-12-01T04:06:42.798Z" (rpb_iso_time's form) to ms since the epoch. */
static bool iso_ms(const char *s, uint64_t *ms)
{
	struct tm tm = {0};
	unsigned msec;
	int used = 0;
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3uZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &msec, &used) != 7 ||
	    used != 24 || s[used] || tm.tm_year < 1970 || tm.tm_mon < 1 || tm.tm_mon > 12 ||
	    tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t t = timegm(&tm);
	if (t < 0)
		return false;
	*ms = (uint64_t)t * 1000 + msec;
	return true;
}

/* The run tag names the run's keys: 8 lower-case hex digits, as the driver
 * writes it. */
static bool run_tag_ok(const char *s)
{
	size_t i = 0;
	for (; s && i < 8; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return s && !s[i];
}

/* A string member, or absent; anything else is damage. */
static bool opt_string(const json_t *obj, const char *key, const char **out)
{
	const json_t *v = json_object_get(obj, key);
	*out = json_string_value(v);
	return !v || *out;
}

static int parse_manifest(struct rpb_result_file *rf, const char *path, char *msg, size_t n)
{
	json_t *man = json_object_get(rf->root, "manifest");
	json_t *store = json_object_get(man, "store");
	const json_t *stop = json_object_get(rf->root, "stop");
	const char *start, *end, *reason;
	if (!json_is_object(man))
		return fail(msg, n, path, "no manifest");
	if (!opt_string(man, "backend", &rf->backend) || !rf->backend)
		return fail(msg, n, path, "manifest.backend is not a backend name");
	if (!opt_string(man, "run_tag", &rf->run_tag) || !run_tag_ok(rf->run_tag))
		return fail(msg, n, path, "manifest.run_tag is not a run tag (8 hex digits)");
	const char *dir, *dsn, *name;
	if ((store && !json_is_object(store)) || !opt_string(store, "dir", &dir) ||
	    !opt_string(store, "dsn", &dsn) || !opt_string(store, "name", &name))
		return fail(msg, n, path, "manifest.store holds a value that is not text");
	/* The store's location byte for byte, also when it is not UTF-8. */
	rf->dir = rpb_json_get_exact(store, "dir");
	rf->dsn = rpb_json_get_exact(store, "dsn");
	rf->name = rpb_json_get_exact(store, "name");
	if (!opt_string(man, "start", &start) || !iso_ms(start, &rf->start_ms))
		return fail(msg, n, path, "manifest.start is not a time rpbench writes");
	if (!opt_string(man, "end", &end) || (end && (!iso_ms(end, &rf->end_ms) || rf->end_ms < rf->start_ms)))
		return fail(msg, n, path, "manifest.end is not a time after manifest.start");
	if (!opt_string(stop, "reason", &reason) || !reason)
		return fail(msg, n, path, "no stop.reason");
	if (!rpb_stop_reason_known(reason))
		return fail(msg, n, path, "stop.reason is none that rpbench writes (completed, duration, "
					  "bytes, error, slow, signal, running)");
	char jmsg[512];
	if (rpb_job_from_json(&rf->job, json_object_get(man, "options"), jmsg, sizeof jmsg) != 0)
		return fail(msg, n, path, jmsg);
	if (!rf->job.pattern)
		return fail(msg, n, path, "manifest.options names no pattern");
	/* manifest.seed (text, exact up to 2^64-1) must be the run.seed option. */
	if (!rpb_json_get_u64(json_object_get(man, "seed"), &rf->seed) || rf->seed != rf->job.run.seed)
		return fail(msg, n, path, "manifest.seed is missing or differs from run.seed");
	rf->nworkers = rpb_job_workers(&rf->job);
	return 0;
}

/* "[op, class, in_doubt]" (a failed main operation) or, for a step,
 * "[op, class, in_doubt, label]" into f. Returns NULL, or the part that is
 * wrong ("" for the entry's shape, "class", "step") with its text in *text. */
static const char *failure_entry(const struct rpb_result_file *rf, const json_t *e, bool step,
				 struct rpb_failure *f, const char **text)
{
	const json_t *op = json_array_get(e, 0), *doubt = json_array_get(e, 2);
	const char *cls = json_string_value(json_array_get(e, 1));
	const char *label = json_string_value(json_array_get(e, 3));
	if (!json_is_array(e) || json_array_size(e) != (step ? 4u : 3u) || !json_is_integer(op) ||
	    json_integer_value(op) < 0 || !cls || !json_is_boolean(doubt) || (step && !label))
		return "";
	f->op = (uint64_t)json_integer_value(op);
	f->status = rpb_status_parse(cls);
	f->in_doubt = json_is_true(doubt);
	f->label = 0;
	*text = cls;
	if (f->status == RPB_OK || f->status >= RPB_STATUS_COUNT)
		return "class";
	const struct rpb_pattern *p = rf->job.pattern;
	if (step) {
		unsigned l = 1;
		while (l < p->nlabels && strcmp(p->labels[l], label) != 0)
			l++;
		*text = label;
		if (l == p->nlabels)
			return "step";
		f->label = l;
	}
	return NULL;
}

/* A worker's failures ("failures") or steps ("step_failures", optional). */
static int read_list(struct rpb_result_file *rf, const json_t *w, unsigned t, bool step,
		     uint64_t issued, struct rpb_failure **next, const char *path, char *msg, size_t n)
{
	const json_t *list = json_object_get(w, step ? "step_failures" : "failures");
	char field[96];
	snprintf(field, sizeof field, "ledger.workers[%u].%s", t, step ? "step_failures" : "failures");
	if (!list && step)
		return 0;
	if (!json_is_array(list))
		return rpb_ledger_damaged(msg, n, path, field, "(not a list)", NULL);
	size_t j;
	const json_t *e;
	const struct rpb_failure *prev = NULL;
	json_array_foreach(list, j, e) {
		snprintf(field, sizeof field, "ledger.workers[%u].%s[%zu]", t,
			 step ? "step_failures" : "failures", j);
		const char *text = NULL, *bad = failure_entry(rf, e, step, *next, &text);
		if (bad && !*bad)
			return rpb_ledger_damaged(msg, n, path, field, "(another shape)",
						  step ? "each is [op, class, in_doubt, step]"
						       : "each is [op, class, in_doubt]");
		if (bad) {
			char part[128];
			snprintf(part, sizeof part, "%s %s", field, bad);
			return rpb_ledger_damaged(msg, n, path, part, text,
						  *bad == 'c' ? "not an error class"
							      : "not a side step of the pattern");
		}
		if (rpb_failure_check(*next, prev, step, issued, path, field, msg, n) != 0)
			return -1;
		prev = (*next)++;
	}
	return 0;
}

static int read_ledger(struct rpb_result_file *rf, const json_t *ledger, const char *path,
		       char *msg, size_t n)
{
	const json_t *workers = json_object_get(ledger, "workers");
	const char *tag;
	if (!json_is_object(ledger) || !json_is_array(workers))
		return fail(msg, n, path, "the ledger has no list of workers");
	if (!opt_string(ledger, "run_tag", &tag) || (tag && strcmp(tag, rf->run_tag) != 0))
		return fail(msg, n, path, "the ledger's run_tag is not the manifest's");
	size_t nw = json_array_size(workers), nf = 0, i;
	const json_t *w;
	json_array_foreach(workers, i, w)
		nf += json_array_size(json_object_get(w, "failures")) +
		      json_array_size(json_object_get(w, "step_failures"));
	rf->workers = calloc(nw ? nw : 1, sizeof *rf->workers);
	rf->failures = calloc(nf ? nf : 1, sizeof *rf->failures);
	if (!rf->workers || !rf->failures)
		return fail(msg, n, path, "does not fit in memory");
	if (rpb_workers_check(rf, nw, false, path, msg, n) != 0)
		return -1;
	rf->ledger.nworkers = (unsigned)nw;
	rf->ledger.workers = rf->workers;
	struct rpb_failure *next = rf->failures;
	json_array_foreach(workers, i, w) {
		struct rpb_ledger_worker *lw = &rf->workers[i];
		const json_t *issued = json_object_get(w, "issued"), *acked = json_object_get(w, "acked");
		char field[64], value[32];
		snprintf(field, sizeof field, "ledger.workers[%zu].issued", i);
		snprintf(value, sizeof value, "%" JSON_INTEGER_FORMAT, json_integer_value(issued));
		if (!json_is_integer(issued) || json_integer_value(issued) < 0)
			return rpb_ledger_damaged(msg, n, path, field,
						  json_is_integer(issued) ? value : "(not a count)", NULL);
		lw->issued = (uint64_t)json_integer_value(issued);
		lw->trusted = lw->issued;
		if (rpb_issued_check(rf, (unsigned)i, lw->issued, false, path, msg, n) != 0)
			return -1;
		lw->failures = next;
		if (read_list(rf, w, (unsigned)i, false, lw->issued, &next, path, msg, n) != 0)
			return -1;
		lw->nfailures = (size_t)(next - lw->failures);
		lw->steps = next;
		if (read_list(rf, w, (unsigned)i, true, lw->issued, &next, path, msg, n) != 0)
			return -1;
		lw->nsteps = (size_t)(next - lw->steps);
		/* Every started operation was acknowledged or failed, once. */
		snprintf(field, sizeof field, "ledger.workers[%zu].acked", i);
		snprintf(value, sizeof value, "%" JSON_INTEGER_FORMAT, json_integer_value(acked));
		if (acked && (!json_is_integer(acked) ||
			      (uint64_t)json_integer_value(acked) != lw->issued - lw->nfailures))
			return rpb_ledger_damaged(msg, n, path, field,
						  json_is_integer(acked) ? value : "(not a count)",
						  "issued less the failures listed");
	}
	return 0;
}

int rpb_result_parse(struct rpb_result_file *rf, const char *text, size_t len, const char *path,
		     uint64_t now_ms, char *msg, size_t n)
{
	memset(rf, 0, sizeof *rf);
	rpb_job_defaults(&rf->job);
	rf->now_ms = now_ms;
	json_error_t jerr;
	rf->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!json_is_object(rf->root))
		return fail(msg, n, path, "malformed JSON");
	if (parse_manifest(rf, path, msg, n) != 0)
		return -1;
	rf->ledger.run_tag = rf->run_tag;
	const json_t *ledger = json_object_get(rf->root, "ledger");
	/* A run that died before its end left only the result.json written at
	 * its start: its ledger is the live one. */
	if (!ledger) {
		rf->ledger.interrupted = true;
		return 0;
	}
	return read_ledger(rf, ledger, path, msg, n);
}

int rpb_result_read(struct rpb_result_file *rf, const char *result_dir, char *msg, size_t n)
{
	char path[PATH_MAX];
	const char *why;
	size_t len = 0;
	if (rpb_path_join(path, sizeof path, result_dir, "result.json") != 0) {
		memset(rf, 0, sizeof *rf);
		rpb_job_defaults(&rf->job);
		return fail(msg, n, result_dir, "the path is too long");
	}
	char *text = rpb_file_slurp(path, RESULT_MAX, &len, &why);
	if (!text) {
		memset(rf, 0, sizeof *rf);
		rpb_job_defaults(&rf->job);
		return fail(msg, n, path, why);
	}
	if (rpb_never_written(text, len)) {
		memset(rf, 0, sizeof *rf);
		rpb_job_defaults(&rf->job);
		rf->lost = true;
		free(text);
		return rpb_lost_file(msg, n, path, len, "the run's result.json");
	}
	int rc = rpb_result_parse(rf, text, len, path, rpb_wall_ms(), msg, n);
	free(text);
	if (!rc && rf->ledger.interrupted) {
		rpb_fs_instance_of(result_dir, &rf->here);
		rc = rpb_live_ledger_read(rf, result_dir, msg, n);
	}
	return rc;
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
	free(rf->dir);
	free(rf->dsn);
	free(rf->name);
	free(rf->workers);
	free(rf->failures);
	json_decref(rf->root);
	memset(rf, 0, sizeof *rf);
}
