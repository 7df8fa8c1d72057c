/* Verify for the ycsb pattern.
 *
 * After a load: every acknowledged insert (operation i of thread w is key
 * number ycsb_thread_first(w) + i) is present with fieldcount fields named
 * as YCSB names them, each of the configured length, and with dataintegrity
 * the value derived from key and field; an insert in doubt may be absent.
 * After a run: the loaded records are still whole, and every insert number
 * the run took (its counter, ycsb-inserts.bin, read back as the run left it,
 * also when it was killed) whose insert was committed is present; numbers
 * given up after a failed insert or taken by an insert still running when
 * the run died may be present whole or absent. The counts must agree with
 * the ledger's insert operations, whose kind follows from their index
 * (ycsb_op_kind). Reads go 1000 per read transaction. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "fsutil.h"
#include "paths.h"
#include "shown.h"
#include "text.h"
#include "verify.h"
#include "ycsb.h"

#define BATCH 1000

struct vctx {
	const struct rpb_backend *b;
	struct rpb_session *s;
	const struct rpb_ycsb_opts *o;
	struct rpb_verify_result *res;
	struct rpb_buf buf;
	unsigned char *scratch;
	unsigned in_txn;
};

/* Checks key number k; in doubt: absent is accepted. */
static enum rpb_status check_key(struct vctx *v, uint64_t k, bool in_doubt, struct rpb_err *err)
{
	if (v->in_txn == BATCH) {
		v->b->rollback(v->s);
		v->in_txn = 0;
	}
	if (!v->in_txn) {
		enum rpb_status st = v->b->begin(v->s, RPB_TXN_READ, err);
		if (st)
			return st;
	}
	v->in_txn++;
	char key[64], why[512];
	size_t kl = ycsb_key(key, sizeof key, v->o, k);
	enum rpb_status st = v->b->get(v->s, YCSB_TABLE, rpb_slice_make(key, kl), &v->buf, err);
	if (st == RPB_NOT_FOUND) {
		if (in_doubt) {
			v->res->in_doubt++;
			return RPB_OK;
		}
		v->res->missing++;
		rpb_verify_problem(v->res, "%s (key number %" PRIu64 ") is missing", key, k);
		return RPB_OK;
	}
	if (st) {
		v->in_txn = 0;
		return st;
	}
	v->res->checked++;
	v->res->in_doubt += in_doubt;
	if (ycsb_record_check(v->o, key, kl, v->buf.data, v->buf.len, v->scratch, why, sizeof why)) {
		v->res->corrupt++;
		rpb_verify_problem(v->res, "%s", why);
	}
	return RPB_OK;
}

static enum rpb_status verify_load(struct vctx *v, const struct rpb_ledger *l, struct rpb_err *err)
{
	for (unsigned w = 0; w < l->nworkers; w++) {
		const struct rpb_ledger_worker *lw = &l->workers[w];
		uint64_t first = ycsb_thread_first(v->o, w);
		for (uint64_t i = 0; i < lw->issued; i++) {
			enum rpb_op_state s = rpb_ledger_op_state(lw, i);
			if (s != RPB_OP_ACKED && s != RPB_OP_IN_DOUBT)
				continue;
			enum rpb_status st = check_key(v, first + i, s == RPB_OP_IN_DOUBT, err);
			if (st)
				return st;
		}
	}
	return RPB_OK;
}

/* The run's insert numbers from its result.json (pattern.insert_next and
 * inserts_failed), each checked against what the run could have done. */
static int run_inserts(const struct rpb_ledger *l, const struct rpb_ycsb_opts *o,
		       uint64_t *next, json_t **failed)
{
	char path[PATH_MAX];
	if (!l->results_dir || rpb_path_join(path, sizeof path, l->results_dir, "result.json") != 0)
		return -1;
	json_t *r = json_load_file(path, JSON_REJECT_DUPLICATES, NULL);
	const json_t *p = json_object_get(r, "pattern");
	const json_t *nx = json_object_get(p, "insert_next");
	const json_t *fl = json_object_get(p, "inserts_failed");
	uint64_t issued = 0;
	for (unsigned w = 0; w < l->nworkers; w++)
		issued += l->workers[w].issued;
	if (!json_is_integer(nx) || !json_is_array(fl) || json_integer_value(nx) < 0 ||
	    (uint64_t)json_integer_value(nx) < o->records ||
	    (uint64_t)json_integer_value(nx) - o->records > issued) {
		json_decref(r);
		return -1;
	}
	*next = (uint64_t)json_integer_value(nx);
	*failed = json_incref((json_t *)fl);
	json_decref(r);
	return 0;
}

static bool listed(const json_t *failed, uint64_t k)
{
	size_t i;
	const json_t *e;
	json_array_foreach(failed, i, e)
		if (json_is_integer(e) && (uint64_t)json_integer_value(e) == k)
			return true;
	return false;
}

/* ---- a run's inserts from its mapped counter (ycsb-inserts.bin) ---- */

struct run_ack {
	struct ycsb_ack_head *h;   /* the file's bytes */
	uint64_t *given_up;        /* sorted */
	size_t ngiven_up;
};

/* What the ledger says of the run's insert operations (their kind is a
 * function of the operation's index). */
struct ledger_inserts {
	uint64_t acked, failed, in_doubt;
	uint64_t acked_durable; /* stale ledger: acknowledged before its durable point */
	uint64_t failed_by_label[YCSB_NOPS];
	bool stale;             /* read as it reached the disk, as the counter was */
};

static void count_ledger(const struct rpb_job *job, const struct rpb_ledger *l,
			 struct ledger_inserts *li)
{
	memset(li, 0, sizeof *li);
	li->stale = l->stale;
	for (unsigned w = 0; w < l->nworkers; w++) {
		const struct rpb_ledger_worker *lw = &l->workers[w];
		for (size_t f = 0; f < lw->nfailures; f++)
			if (f == 0 || lw->failures[f].op != lw->failures[f - 1].op)
				li->failed_by_label[ycsb_op_label(job, w, lw->failures[f].op)]++;
		if (ycsb_opts(job)->phase == YCSB_LOAD)
			continue;
		for (uint64_t i = 0; i < lw->issued; i++) {
			if (ycsb_op_label(job, w, i) != YCSB_INSERT)
				continue;
			switch (rpb_ledger_op_state(lw, i)) {
			case RPB_OP_ACKED:
				li->acked++;
				li->acked_durable += i < lw->durable;
				break;
			case RPB_OP_FAILED: li->failed++; break;
			default: li->in_doubt++; break;
			}
		}
	}
}

/* rpb_verify_damaged for read_ack, naming file: -1. */
static int damaged(struct vctx *v, struct rpb_err *err, const char *file, const char *field,
		   uint64_t value, const char *why)
{
	v->res->damaged_in = file;
	rpb_verify_damaged(v->res, err, field, value, why);
	return -1;
}

/* rpb_verify_file_damaged for read_ack: -1. */
__attribute__((format(printf, 4, 5)))
static int file_damaged(struct vctx *v, struct rpb_err *err, const char *file, const char *fmt, ...)
{
	char why[sizeof err->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	rpb_verify_file_damaged(v->res, err, file, "%s", why);
	return -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Reads dir's counter and given-up numbers; 1 when the run kept no counter
 * file, -1 (res->damaged, err set) when they are impossible for the run. */
static int read_ack(struct vctx *v, const char *dir, uint64_t issued, bool stale,
		    struct run_ack *ra, struct rpb_err *err)
{
	char path[PATH_MAX];
	size_t len;
	const char *why;
	memset(ra, 0, sizeof *ra);
	if (!dir || rpb_path_join(path, sizeof path, dir, YCSB_ACK_FILE) != 0)
		return 1;
	struct stat sb;
	if (lstat(path, &sb) != 0 && errno == ENOENT)
		return 1; /* verify_run decides whether the run must have kept one */
	const size_t want = sizeof *ra->h + YCSB_ACK_WINDOW;
	ra->h = (struct ycsb_ack_head *)rpb_file_slurp(path, want, &len, &why);
	if (!ra->h || len != want)
		return damaged(v, err, YCSB_ACK_FILE, "size", ra->h ? len : 0,
			       "the insert counter's file is damaged");
	const struct ycsb_ack_head *h = ra->h;
	uint64_t next = atomic_load(&ra->h->next);
	int64_t limit = atomic_load(&ra->h->limit);
	const char *field = NULL;
	uint64_t value = 0;
	if (memcmp(h->magic, YCSB_ACK_MAGIC, sizeof h->magic) != 0 || h->window != YCSB_ACK_WINDOW)
		field = "window", value = h->window;
	else if (h->start != v->o->records)
		field = "start", value = h->start;
	/* After a power cut the counter may have reached the disk after the
	 * ledger: by at most its window of marks past what the ledger started. */
	else if (next < h->start || next - h->start > issued + (stale ? YCSB_ACK_WINDOW : 0))
		field = "next", value = next;
	else if (limit < (int64_t)h->start - 1 || limit >= (int64_t)next)
		field = "limit", value = (uint64_t)limit;
	if (field)
		return damaged(v, err, YCSB_ACK_FILE, field, value, "not the insert counter of this run");
	if (rpb_path_join(path, sizeof path, dir, YCSB_GIVEN_UP_FILE) != 0)
		return 1;
	/* Each line: a number the run took and a newline, at most 21 bytes. */
	uint64_t taken = next - h->start;
	size_t max = (size_t)taken * 21;
	char *log = rpb_file_slurp(path, max, &len, &why);
	if (!log) {
		if (why && !strcmp(why, "is larger than any file rpbench writes"))
			return file_damaged(v, err, YCSB_GIVEN_UP_FILE,
					    "the file is larger than the %" PRIu64 " insert numbers the "
					    "run took allow (one line each, at most %zu bytes)", taken, max);
		return file_damaged(v, err, YCSB_GIVEN_UP_FILE,
				    "the file %s; every run with inserts writes it beside "
				    YCSB_ACK_FILE, why ? why : "cannot be read");
	}
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += log[i] == '\n';
	ra->given_up = malloc((lines + 1) * sizeof *ra->given_up);
	int rc = ra->given_up ? 0 : (rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory"), -1);
	for (const char *p = log, *end = log + len; !rc && p < end; ra->ngiven_up++) {
		size_t lineno = ra->ngiven_up + 1;
		const char *q = p;
		uint64_t k = 0;
		if (rpb_text_decimal(&q, end, '\n', &k) && k >= h->start && k < next) {
			ra->given_up[ra->ngiven_up] = k;
			p = q;
			continue;
		}
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		char text[48], shown[RPB_SHOWN_SIZE];
		snprintf(text, sizeof text, "%.*s%s", (int)(ll < 40 ? ll : 40), p, ll > 40 ? "..." : "");
		rpb_shown(shown, sizeof shown, text);
		bool digits = ll > 0 && strspn(p, "0123456789") >= ll && !(*p == '0' && ll > 1);
		if (q != p || (digits && nl))
			rc = file_damaged(v, err, YCSB_GIVEN_UP_FILE,
					  "line %zu: \"%s\" is not an insert number this run took (%" PRIu64
					  " to %" PRIu64 ")", lineno, shown, h->start, next - 1);
		else if (digits && !nl && ll <= 20)
			rc = file_damaged(v, err, YCSB_GIVEN_UP_FILE,
					  "line %zu: \"%s\" ends without its newline (the file is cut short; "
					  "the run writes each number and its newline at once)", lineno,
					  shown);
		else
			rc = file_damaged(v, err, YCSB_GIVEN_UP_FILE,
					  "line %zu: \"%s\" is not a number (each line is an insert number "
					  "in decimal digits, no sign or leading zero, and a newline)",
					  lineno, shown);
	}
	free(log);
	if (rc)
		return -1;
	qsort(ra->given_up, ra->ngiven_up, sizeof *ra->given_up, cmp_u64);
	for (size_t i = 1; i < ra->ngiven_up; i++)
		if (ra->given_up[i] == ra->given_up[i - 1])
			return file_damaged(v, err, YCSB_GIVEN_UP_FILE, "%" PRIu64 " is listed twice "
					    "(each insert number is given up once)", ra->given_up[i]);
	return 0;
}

static bool given_up(const struct run_ack *ra, uint64_t k)
{
	return bsearch(&k, ra->given_up, ra->ngiven_up, sizeof k, cmp_u64) != NULL;
}

/* Every number the run took: done and not given up is a committed insert
 * and must be there; given up (failed) or not done (running when the run
 * died) may be there whole or absent. The counts must agree with the
 * ledger's insert operations. */
static enum rpb_status check_run_inserts(struct vctx *v, const struct run_ack *ra,
					 const struct ledger_inserts *li, uint64_t *acked,
					 struct rpb_err *err)
{
	uint64_t next = atomic_load(&ra->h->next), taken = next - ra->h->start;
	*acked = 0;
	for (uint64_t k = ra->h->start; k < next; k++) {
		bool sure = ycsb_ack_is_done(ra->h, k) && !given_up(ra, k);
		*acked += sure;
		enum rpb_status st = check_key(v, k, !sure, err);
		if (st)
			return st;
	}
	/* Each number belongs to one insert operation: a committed one is
	 * acknowledged in the ledger unless it was running when the run died.
	 * Files read as they reached the disk (a power cut) agree only up to
	 * the ledger's durable point, when both were synced: what one of them
	 * says beyond it and the other does not cannot be checked. */
	if (li->stale) {
		if (*acked < li->acked_durable)
			return rpb_verify_damaged(v->res, err, YCSB_ACK_FILE " committed inserts", *acked,
						  "fewer than the ledger's acknowledged inserts at its "
						  "durable point");
		if (*acked < li->acked)
			v->res->unprovable += li->acked - *acked;
		if (taken > li->acked + li->failed + li->in_doubt)
			v->res->unprovable += taken - (li->acked + li->failed + li->in_doubt);
		return RPB_OK;
	}
	if (*acked < li->acked)
		return rpb_verify_damaged(v->res, err, YCSB_ACK_FILE " committed inserts", *acked,
					  "fewer than the ledger's acknowledged inserts");
	if (*acked > li->acked + li->in_doubt || taken > li->acked + li->failed + li->in_doubt)
		return rpb_verify_damaged(v->res, err, YCSB_ACK_FILE " taken numbers", taken,
					  "more than the ledger's insert operations");
	return RPB_OK;
}

/* The note verify prints: the run's inserts and the failed operations by
 * their own label; none when there are neither. */
static void write_note(struct rpb_verify_result *res, const struct ledger_inserts *li,
		       bool inserts, uint64_t acked, uint64_t failed, uint64_t doubt)
{
	bool any = false;
	for (int l = 0; l < YCSB_NOPS; l++)
		any |= li->failed_by_label[l] != 0;
	if (!inserts && !any)
		return;
	char *p = res->note, *end = res->note + sizeof res->note;
	p += snprintf(p, (size_t)(end - p), "ycsb:");
	if (inserts)
		p += snprintf(p, (size_t)(end - p), " run inserts: %" PRIu64 " acknowledged and checked "
			      "(the ledger acknowledges %" PRIu64 "), %" PRIu64 " failed, %" PRIu64
			      " in doubt;", acked, li->acked, failed, doubt);
	p += snprintf(p, (size_t)(end - p), " failed operations:");
	any = false;
	for (int l = 0; l < YCSB_NOPS && p < end; l++)
		if (li->failed_by_label[l]) {
			p += snprintf(p, (size_t)(end - p), "%s %s %" PRIu64, any ? "," : "",
				      ycsb_op_names[l], li->failed_by_label[l]);
			any = true;
		}
	if (!any && p < end)
		snprintf(p, (size_t)(end - p), " none");
}

static enum rpb_status verify_run(struct vctx *v, const struct rpb_ledger *l,
				  const struct ledger_inserts *li, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = v->o;
	for (uint64_t k = o->insertstart; k < o->insertstart + o->inserts; k++) {
		enum rpb_status st = check_key(v, k, false, err);
		if (st)
			return st;
	}
	uint64_t issued = 0;
	for (unsigned w = 0; w < l->nworkers; w++)
		issued += l->workers[w].issued;
	struct run_ack ra;
	int got = o->proportion[YCSB_INSERT] > 0 ? read_ack(v, l->results_dir, issued, l->stale, &ra, err)
						  : 1;
	if (got < 0) {
		free(ra.h);
		free(ra.given_up);
		return RPB_INVALID;
	}
	if (got == 0) {
		uint64_t acked = 0;
		enum rpb_status st = check_run_inserts(v, &ra, li, &acked, err);
		uint64_t taken = atomic_load(&ra.h->next) - ra.h->start;
		write_note(v->res, li, true, acked, ra.ngiven_up, taken - acked - ra.ngiven_up);
		free(ra.h);
		free(ra.given_up);
		return st;
	}
	/* A results directory without the counter file: the final result.json
	 * of a run recorded before there was one lists the run's insert
	 * numbers. Every insert the ledger acknowledges must be among them:
	 * without the file, a run that died (or a result.json that lists
	 * fewer) cannot show which records its inserts wrote. */
	write_note(v->res, li, false, 0, 0, 0);
	uint64_t next = o->records, listed_acked = 0;
	json_t *failed = NULL;
	bool listed_ok = o->proportion[YCSB_INSERT] > 0 && run_inserts(l, o, &next, &failed) == 0;
	if (listed_ok)
		listed_acked = next - o->records - json_array_size(failed);
	uint64_t must = li->stale ? li->acked_durable : li->acked + li->failed + li->in_doubt;
	if (must > 0 && (!listed_ok || listed_acked < li->acked)) {
		json_decref(failed);
		return rpb_verify_file_damaged(
			v->res, err, YCSB_ACK_FILE,
			"the file is missing, yet the ledger holds %" PRIu64 " insert operations of this "
			"run (%" PRIu64 " acknowledged) and every run with inserts writes it",
			li->acked + li->failed + li->in_doubt, li->acked);
	}
	if (o->proportion[YCSB_INSERT] > 0 && !listed_ok) {
		if (!l->interrupted)
			return rpb_verify_damaged(v->res, err, "pattern.insert_next", 0,
						  "a run with inserts records its insert numbers");
		next = o->records; /* a run that died before any insert */
	}
	for (uint64_t k = o->records; k < next; k++) {
		enum rpb_status st = check_key(v, k, listed(failed, k), err);
		if (st) {
			json_decref(failed);
			return st;
		}
	}
	json_decref(failed);
	return RPB_OK;
}

enum rpb_status ycsb_verify(const struct rpb_backend *b, struct rpb_store *st,
			    const struct rpb_job *job, const struct rpb_ledger *ledger,
			    struct rpb_verify_result *res, struct rpb_err *err)
{
	struct rpb_ycsb_opts o = *ycsb_opts(job);
	char msg[512];
	if (ycsb_resolve(&o, job, false, "", msg, sizeof msg) != 0)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "%s", msg);
	struct vctx v = {.b = b, .o = &o, .res = res};
	enum rpb_status rc = b->session_open(st, &v.s, err);
	if (!rc && !(v.scratch = malloc((size_t)o.fieldlength)))
		rc = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	struct ledger_inserts li;
	count_ledger(job, ledger, &li);
	if (!rc && o.phase == YCSB_LOAD) {
		rc = verify_load(&v, ledger, err);
		write_note(res, &li, false, 0, 0, 0);
	} else if (!rc) {
		rc = verify_run(&v, ledger, &li, err);
	}
	if (v.s) {
		b->rollback(v.s);
		b->session_close(v.s);
	}
	rpb_buf_free(&v.buf);
	free(v.scratch);
	return rc;
}
