/* The live ledger read back (ledger.h): ledger.bin and failures.log of a run
 * that did not finish, every slot and line checked before it is used. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "ledger.h"
#include "results.h"

#define LOG_MAX (UINT64_C(1) << 32) /* failures.log: far more lines than any run fails */
#define RPB_LEDGER_MAX_WORKERS 65536

static int damaged_file(char *msg, size_t n, const char *dir, const char *file, const char *what)
{
	snprintf(msg, n, "%s/%s: %s; give the results directory of an rpbench run", dir, file, what);
	return -1;
}

/* ledger.bin: the header, then exactly one slot per worker of the run. */
static int parse_slots(struct rpb_result_file *rf, const unsigned char *bin, size_t len,
		       const char *dir, char *msg, size_t n)
{
	struct rpb_ledger_header h;
	char where[4200], field[64], value[64];
	snprintf(where, sizeof where, "%s/%s", dir, RPB_LEDGER_FILE);
	if (len < sizeof h)
		return damaged_file(msg, n, dir, RPB_LEDGER_FILE, "damaged ledger: shorter than its header");
	memcpy(&h, bin, sizeof h);
	if (memcmp(h.magic, RPB_LEDGER_MAGIC, sizeof h.magic) != 0 || h.slot_size != sizeof(struct rpb_ledger_slot))
		return damaged_file(msg, n, dir, RPB_LEDGER_FILE, "damaged ledger: not a ledger of this rpbench version");
	if (rpb_workers_check(rf, h.nworkers, true, where, msg, n) != 0)
		return -1;
	if (len != rpb_ledger_size(h.nworkers)) {
		snprintf(value, sizeof value, "%zu", len);
		snprintf(field, sizeof field, "%u slots take %zu", h.nworkers, rpb_ledger_size(h.nworkers));
		return rpb_ledger_damaged(msg, n, where, "size", value, field);
	}
	if (!(rf->workers = calloc(h.nworkers ? h.nworkers : 1, sizeof *rf->workers)))
		return damaged_file(msg, n, dir, RPB_LEDGER_FILE, "does not fit in memory");
	for (unsigned w = 0; w < h.nworkers; w++) {
		uint64_t c[2]; /* started, finished */
		memcpy(c, bin + sizeof h + (size_t)w * sizeof(struct rpb_ledger_slot), sizeof c);
		if (rpb_issued_check(rf, w, c[0], true, where, msg, n) != 0)
			return -1;
		/* A worker runs one operation at a time: started - finished is 0 or
		 * 1, the operation the process died in. */
		if (c[1] > c[0] || c[0] - c[1] > 1) {
			char why[96];
			snprintf(field, sizeof field, "slot %u finished", w);
			snprintf(value, sizeof value, "%" PRIu64, c[1]);
			snprintf(why, sizeof why, "it started %" PRIu64 "; a worker runs one operation at a time", c[0]);
			return rpb_ledger_damaged(msg, n, where, field, value, why);
		}
		rf->workers[w].issued = c[0];
		rf->workers[w].in_flight = c[0] > c[1];
	}
	rf->ledger.nworkers = h.nworkers;
	rf->ledger.workers = rf->workers;
	return 0;
}

/* A decimal number of 1..20 digits without a sign or a leading zero, ending
 * at stop; advances *p past stop. */
static bool number(const char **p, const char *end, char stop, uint64_t *out)
{
	const char *q = *p;
	uint64_t x = 0;
	for (; q < end && *q >= '0' && *q <= '9'; q++)
		if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, (uint64_t)(*q - '0'), &x))
			return false;
	if (q == *p || (*(*p) == '0' && q - *p > 1) || q >= end || *q != stop)
		return false;
	*p = q + 1;
	*out = x;
	return true;
}

/* A word of [A-Za-z0-9_.-] (a class or a label) ending at stop. */
static bool word(const char **p, const char *end, char stop, char *out, size_t n)
{
	size_t len = 0;
	const char *q = *p;
	for (; q < end && (strchr("-._", *q) || (*q >= 'a' && *q <= 'z') ||
			   (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9'));
	     q++)
		if (len + 1 < n)
			out[len++] = *q;
		else
			return false;
	out[len] = '\0';
	if (!len || q >= end || *q != stop)
		return false;
	*p = q + 1;
	return true;
}

struct log_entry {
	unsigned t;
	struct rpb_failure f;
};

/* One line "THREAD OP CLASS IN_DOUBT[ LABEL]\n" at *p: false when it is not
 * one; else *bad_field names a value impossible for the run (NULL if none),
 * shown in value. */
static bool parse_line(const struct rpb_result_file *rf, const char **p, const char *end,
		       struct log_entry *e, const char **bad_field, const char **why, char *value,
		       size_t vn)
{
	const struct rpb_pattern *pat = rf->job.pattern;
	uint64_t t, doubt;
	char cls[32], label[64];
	const char *q = *p, *eol = memchr(q, '\n', (size_t)(end - q));
	if (!eol)
		return false; /* each line is one write(), ended by its newline */
	bool step = false;
	if (!number(&q, eol, ' ', &t) || !number(&q, eol, ' ', &e->f.op) || !word(&q, eol, ' ', cls, sizeof cls))
		return false;
	const char *d = q;
	if (!number(&q, eol + 1, '\n', &doubt)) {
		q = d;
		if (!number(&q, eol, ' ', &doubt) || !word(&q, eol + 1, '\n', label, sizeof label))
			return false;
		step = true;
	}
	*p = eol + 1;
	e->t = t < UINT32_MAX ? (unsigned)t : UINT32_MAX;
	e->f.status = rpb_status_parse(cls);
	e->f.in_doubt = doubt == 1;
	e->f.label = 0;
	*bad_field = *why = NULL;
	if (t >= rf->nworkers) {
		*bad_field = "thread";
		snprintf(value, vn, "%" PRIu64, t);
		*why = "the run's workers are numbered from 0";
	} else if (e->f.status == RPB_OK || e->f.status >= RPB_STATUS_COUNT) {
		*bad_field = "class";
		snprintf(value, vn, "%s", cls);
		*why = "not an error class";
	} else if (doubt > 1) {
		*bad_field = "in_doubt";
		snprintf(value, vn, "%" PRIu64, doubt);
		*why = "0 or 1";
	} else if (step) {
		unsigned l = 1;
		while (pat && l < pat->nlabels && strcmp(pat->labels[l], label) != 0)
			l++;
		if (!pat || l == pat->nlabels) {
			*bad_field = "step";
			snprintf(value, vn, "%s", label);
			*why = "not a side step of the pattern";
		}
		e->f.label = l;
	}
	return true;
}

/* failures.log: every line checked; per worker, failures and steps in the
 * order they were appended (each worker appends in operation order). */
static int parse_log(struct rpb_result_file *rf, const char *log, size_t len, const char *dir,
		     char *msg, size_t n)
{
	size_t lines = 0, nw = rf->ledger.nworkers;
	for (size_t i = 0; i < len; i++)
		lines += log[i] == '\n';
	struct log_entry *all = calloc(lines + 1, sizeof *all);
	/* Per worker and kind (failure, step): the last entry, then a cursor. */
	size_t *last = calloc(2 * nw + 1, sizeof *last);
	rf->failures = calloc(lines + 1, sizeof *rf->failures);
	if (!all || !last || !rf->failures) {
		free(all);
		free(last);
		return damaged_file(msg, n, dir, RPB_FAILURES_FILE, "does not fit in memory");
	}
	const char *p = log, *end = log + len;
	size_t count = 0;
	int rc = 0;
	char where[4200], value[64];
	for (size_t line = 1; !rc && p < end; line++) {
		const char *bad = NULL, *why = NULL;
		snprintf(where, sizeof where, "%s/%s line %zu", dir, RPB_FAILURES_FILE, line);
		struct log_entry *e = &all[count];
		if (!parse_line(rf, &p, end, e, &bad, &why, value, sizeof value)) {
			snprintf(msg, n, "%s: damaged ledger: not a failure line (THREAD OP CLASS IN_DOUBT "
				 "[STEP]); give the results directory of an rpbench run", where);
			rc = -1;
			break;
		}
		if (bad) {
			rc = rpb_ledger_damaged(msg, n, where, bad, value, why);
			break;
		}
		size_t *prev = &last[2 * e->t + (e->f.label != 0)]; /* 1 + its index, 0 = none */
		rc = rpb_failure_check(&e->f, *prev ? &all[*prev - 1].f : NULL, e->f.label != 0,
				       rf->workers[e->t].issued, where, "failure", msg, n);
		*prev = ++count;
	}
	if (!rc) {
		/* Grouped per worker: every worker's failures, then every worker's
		 * steps, each in log order (a counting sort). */
		memset(last, 0, 2 * nw * sizeof *last);
		for (size_t i = 0; i < count; i++)
			last[2 * all[i].t + (all[i].f.label != 0)]++;
		size_t at = 0;
		for (int steps = 0; steps < 2; steps++)
			for (size_t w = 0; w < nw; w++) {
				size_t k = last[2 * w + (size_t)steps];
				struct rpb_ledger_worker *lw = &rf->workers[w];
				if (steps) {
					lw->steps = rf->failures + at;
					lw->nsteps = k;
				} else {
					lw->failures = rf->failures + at;
					lw->nfailures = k;
				}
				last[2 * w + (size_t)steps] = at;
				at += k;
			}
		for (size_t i = 0; i < count; i++)
			rf->failures[last[2 * all[i].t + (all[i].f.label != 0)]++] = all[i].f;
	}
	free(all);
	free(last);
	return rc;
}

int rpb_live_ledger_parse(struct rpb_result_file *rf, const void *bin, size_t binlen,
			  const char *log, size_t loglen, const char *dir, char *msg, size_t n)
{
	rf->ledger.run_tag = rf->run_tag;
	rf->ledger.interrupted = true;
	if (parse_slots(rf, bin, binlen, dir, msg, n) != 0)
		return -1;
	return parse_log(rf, log, loglen, dir, msg, n);
}

int rpb_live_ledger_read(struct rpb_result_file *rf, const char *dir, char *msg, size_t n)
{
	char path[4200];
	const char *why;
	size_t binlen = 0, loglen = 0;
	snprintf(path, sizeof path, "%s/%s", dir, RPB_LEDGER_FILE);
	char *bin = rpb_file_slurp(path, rpb_ledger_size(RPB_LEDGER_MAX_WORKERS), &binlen, &why);
	if (!bin) {
		snprintf(msg, n, "%s: the run did not finish and its live ledger %s; give the results "
			 "directory of an rpbench run", path, why);
		return -1;
	}
	snprintf(path, sizeof path, "%s/%s", dir, RPB_FAILURES_FILE);
	char *log = rpb_file_slurp(path, LOG_MAX, &loglen, &why);
	int rc;
	if (!log) {
		snprintf(msg, n, "%s: the run did not finish and its live ledger %s; give the results "
			 "directory of an rpbench run", path, why);
		rc = -1;
	} else
		rc = rpb_live_ledger_parse(rf, bin, binlen, log, loglen, dir, msg, n);
	free(bin);
	free(log);
	return rc;
}
