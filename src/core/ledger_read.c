/* The live ledger read back (ledger.h): ledger.bin and failures.log of a run
 * that did not finish, every slot and line checked before it is used. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "ledger.h"
#include "results.h"
#include "text.h"

#define LOG_MAX (UINT64_C(1) << 32) /* failures.log: far more lines than any run fails */
#define RPB_LEDGER_MAX_WORKERS 65536

static int damaged_file(char *msg, size_t n, const char *dir, const char *file, const char *what)
{
	snprintf(msg, n, "%s/%s: %s; give the results directory of an rpbench run", dir, file, what);
	return -1;
}

bool rpb_never_written(const char *bytes, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (bytes[i])
			return false;
	return true;
}

int rpb_lost_file(char *msg, size_t n, const char *path, size_t len, const char *what)
{
	char size[64];
	if (len)
		snprintf(size, sizeof size, "holds only zero bytes (%zu)", len);
	else
		snprintf(size, sizeof size, "is empty (0 bytes)");
	snprintf(msg, n, "%s %s: %s never reached the disk (the machine or its file system lost "
		 "power, or crashed, before the run synced it), so nothing of this run can be "
		 "checked; give the results directory of an rpbench run", path, size, what);
	return -1;
}

/* What parse_slots reads besides the ledger: per worker, the failure lines
 * its slot counts, and the header's durable point. */
struct slot_extra {
	uint64_t *lines;
	uint64_t durable_log;
};

/* ledger.bin: the header, then exactly one slot per worker of the run. */
static int parse_slots(struct rpb_result_file *rf, const unsigned char *bin, size_t len,
		       const char *dir, struct slot_extra *x, char *msg, size_t n)
{
	struct rpb_ledger_header h;
	char where[4200], field[64], value[64];
	snprintf(where, sizeof where, "%s/%s", dir, RPB_LEDGER_FILE);
	if (rpb_never_written((const char *)bin, len)) {
		rf->lost = true;
		return rpb_lost_file(msg, n, where, len, "the live ledger");
	}
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
	/* The page cache's view (exact after a kill) is the ledger only on the
	 * file-system instance the run wrote it on; elsewhere it is what reached
	 * the disk. */
	struct rpb_fs_instance then;
	memcpy(then.boot_id, h.boot_id, sizeof then.boot_id);
	then.mount_id = h.mount_id;
	bool stale = !rpb_fs_instance_known(&rf->here) || !rpb_fs_instance_known(&then) ||
		     memcmp(then.boot_id, rf->here.boot_id, sizeof then.boot_id) != 0 ||
		     then.mount_id != rf->here.mount_id;
	if (h.durable_ms && (h.durable_ms < rf->start_ms || h.durable_ms > rf->now_ms + 1000)) {
		snprintf(value, sizeof value, "%" PRIu64, h.durable_ms);
		return rpb_ledger_damaged(msg, n, where, "durable_ms", value,
					  "not a time between manifest.start and now");
	}
	if (!(rf->workers = calloc(h.nworkers ? h.nworkers : 1, sizeof *rf->workers)) ||
	    !(x->lines = calloc(h.nworkers ? h.nworkers : 1, sizeof *x->lines)))
		return damaged_file(msg, n, dir, RPB_LEDGER_FILE, "does not fit in memory");
	x->durable_log = h.durable_log;
	for (unsigned w = 0; w < h.nworkers; w++) {
		uint64_t c[4]; /* started, finished, failures, durable */
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
		if (c[3] > c[1]) {
			char why[96];
			snprintf(field, sizeof field, "slot %u durable", w);
			snprintf(value, sizeof value, "%" PRIu64, c[3]);
			snprintf(why, sizeof why, "it finished %" PRIu64 "; a durable point comes after", c[1]);
			return rpb_ledger_damaged(msg, n, where, field, value, why);
		}
		rf->workers[w].issued = c[0];
		rf->workers[w].in_flight = c[0] > c[1];
		rf->workers[w].stale = stale;
		rf->workers[w].trusted = c[0];
		rf->workers[w].durable = c[3];
		x->lines[w] = c[2];
	}
	rf->ledger.nworkers = h.nworkers;
	rf->ledger.workers = rf->workers;
	rf->ledger.stale = stale;
	rf->ledger.durable_ms = h.durable_ms;
	return 0;
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
	if (!rpb_text_decimal(&q, eol, ' ', &t) || !rpb_text_decimal(&q, eol, ' ', &e->f.op) || !word(&q, eol, ' ', cls, sizeof cls))
		return false;
	const char *d = q;
	if (!rpb_text_decimal(&q, eol + 1, '\n', &doubt)) {
		q = d;
		if (!rpb_text_decimal(&q, eol, ' ', &doubt) || !word(&q, eol + 1, '\n', label, sizeof label))
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

/* A stale ledger's failures.log may end in what never reached the disk
 * whole: past its durable length, zero bytes to the end (the file grew,
 * its last pages were not written). Returns the length of its whole lines
 * before them, or len when there are none. */
static size_t torn_tail(const char *log, size_t len, size_t durable)
{
	size_t z = durable;
	while (z < len && log[z])
		z++;
	if (z == len)
		return len;
	for (size_t i = z; i < len; i++)
		if (log[i])
			return len; /* not a lost tail: parsed, and refused, as it is */
	while (z > durable && log[z - 1] != '\n')
		z--;
	return z;
}

/* failures.log: every line checked; per worker, failures and steps in the
 * order they were appended (each worker appends in operation order). A
 * stale ledger (ledger_read.c's head) trusts a worker's lines after its
 * durable point only when they are whole and as many as its slot counts;
 * a line past the durable length for an operation the slot on disk has not
 * started yet (the log reached the disk later than the slot) is left out. */
static int parse_log(struct rpb_result_file *rf, const char *log, size_t len, const char *dir,
		     const struct slot_extra *x, char *msg, size_t n)
{
	size_t nw = rf->ledger.nworkers;
	bool stale = rf->ledger.stale;
	if (x->durable_log > len) {
		char value[32], why[96];
		snprintf(value, sizeof value, "%" PRIu64, x->durable_log);
		snprintf(why, sizeof why, "its failures.log holds %zu bytes", len);
		char where[4200];
		snprintf(where, sizeof where, "%s/%s", dir, RPB_LEDGER_FILE);
		return rpb_ledger_damaged(msg, n, where, "durable_log", value, why);
	}
	size_t whole = stale ? torn_tail(log, len, (size_t)x->durable_log) : len;
	if (whole < len)
		rf->ledger.torn = "failures.log ends in bytes that never reached the disk";
	len = whole;
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += log[i] == '\n';
	struct log_entry *all = calloc(lines + 1, sizeof *all);
	/* Per worker and kind (failure, step): the last entry, then a cursor. */
	size_t *last = calloc(2 * nw + 1, sizeof *last);
	uint64_t *kept = calloc(nw + 1, sizeof *kept);
	bool *ahead = calloc(nw + 1, sizeof *ahead);
	rf->failures = calloc(lines + 1, sizeof *rf->failures);
	if (!all || !last || !rf->failures || !kept || !ahead) {
		free(all);
		free(last);
		free(kept);
		free(ahead);
		return damaged_file(msg, n, dir, RPB_FAILURES_FILE, "does not fit in memory");
	}
	const char *p = log, *end = log + len;
	size_t count = 0;
	int rc = 0;
	char where[4200], value[64];
	for (size_t line = 1; !rc && p < end; line++) {
		const char *bad = NULL, *why = NULL;
		bool tail = stale && (size_t)(p - log) >= x->durable_log;
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
		uint64_t issued = rf->workers[e->t].issued;
		if (tail && (ahead[e->t] || e->f.op >= issued)) {
			/* Still a line the run could have written (the ops limit holds). */
			uint64_t ops = rf->job.run.ops;
			rc = rpb_failure_check(&e->f, NULL, e->f.label != 0,
					       e->t < rf->job.run.threads && ops ? ops : UINT64_MAX,
					       where, "failure", msg, n);
			ahead[e->t] = true;
			continue;
		}
		size_t *prev = &last[2 * e->t + (e->f.label != 0)]; /* 1 + its index, 0 = none */
		rc = rpb_failure_check(&e->f, *prev ? &all[*prev - 1].f : NULL, e->f.label != 0,
				       issued, where, "failure", msg, n);
		kept[e->t]++;
		*prev = ++count;
	}
	/* A stale worker's slot tells whether its lines reached the disk whole. */
	for (size_t w = 0; !rc && stale && w < nw; w++) {
		struct rpb_ledger_worker *lw = &rf->workers[w];
		if (rf->ledger.torn || ahead[w] || kept[w] != x->lines[w]) {
			lw->trusted = lw->durable;
			if (!rf->ledger.torn)
				rf->ledger.torn = kept[w] < x->lines[w]
							  ? "failures.log lacks lines its slots count"
							  : "failures.log reached the disk after ledger.bin";
		}
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
	free(kept);
	free(ahead);
	return rc;
}

int rpb_live_ledger_parse(struct rpb_result_file *rf, const void *bin, size_t binlen,
			  const char *log, size_t loglen, const char *dir, char *msg, size_t n)
{
	rf->ledger.run_tag = rf->run_tag;
	rf->ledger.interrupted = true;
	struct slot_extra x = {0};
	int rc = parse_slots(rf, bin, binlen, dir, &x, msg, n);
	if (!rc)
		rc = parse_log(rf, log, loglen, dir, &x, msg, n);
	free(x.lines);
	return rc;
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
