/* The ingest pattern: Fedora Commons' "Create Binary Resource" JMeter test
 * run in-process against the store interface (docs/workload-ingest.md).
 *
 * One operation creates one binary resource: its content, its description
 * record and its membership in a container, in one write transaction. Every
 * probe_every creates, a probe sequence (the test plan's "performance
 * requests") creates, reads, patches and deletes one probe resource. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "clock.h"
#include "fmt.h"
#include "ingest.h"
#include "payload.h"
#include "rng.h"
#include "runner.h"

enum {
	L_CREATE = 0,
	L_PROBE_CREATE,
	L_PROBE_HEAD,
	L_PROBE_GET,
	L_PROBE_PATCH,
	L_PROBE_DELETE,
	L_COUNT
};

static const char *const ingest_labels[L_COUNT] = {
	"create", "probe-create", "probe-head", "probe-get", "probe-patch", "probe-delete",
};

/* ---- shared with ingest_verify.c (ingest.h) ---- */

/* "<kind>/<tag>/<thread %04u>/<n %012>": the run tag is at most 15 bytes
 * and the numbers at most 20 digits, so this fits INGEST_KEY_MAX. */
static size_t thread_key(char *buf, char kind, const char *tag, unsigned thread, uint64_t n)
{
	char *p = buf;
	*p++ = kind;
	*p++ = '/';
	p = rpb_fmt_str(p, tag);
	*p++ = '/';
	p = rpb_fmt_u64(p, thread, 4);
	*p++ = '/';
	p = rpb_fmt_u64(p, n, 12);
	*p = '\0';
	return (size_t)(p - buf);
}

size_t ingest_obj_key(char *buf, const char *tag, unsigned thread, uint64_t op)
{
	return thread_key(buf, 'o', tag, thread, op);
}

size_t ingest_probe_key(char *buf, const char *tag, unsigned thread, uint64_t probe)
{
	return thread_key(buf, 'p', tag, thread, probe);
}

size_t ingest_container_key(char *buf, const char *tag, uint64_t op, uint64_t containers)
{
	char *p = rpb_fmt_str(rpb_fmt_str(buf, "c/"), tag);
	*p++ = '/';
	p = rpb_fmt_u64(p, containers > 1 ? op % containers : 0, 0);
	*p = '\0';
	return (size_t)(p - buf);
}

size_t ingest_probe_container_key(char *buf, const char *tag)
{
	char *p = rpb_fmt_str(rpb_fmt_str(rpb_fmt_str(buf, "c/"), tag), "/probe");
	*p = '\0';
	return (size_t)(p - buf);
}

size_t ingest_member_key(char *buf, const char *container, size_t clen,
			 const char *member, size_t mlen)
{
	/* Both ids come from the formatters above, so this always fits. */
	memcpy(buf, container, clen);
	buf[clen] = '/';
	memcpy(buf + clen + 1, member, mlen);
	buf[clen + 1 + mlen] = '\0';
	return clen + 1 + mlen;
}

size_t ingest_content_cap(const struct rpb_ingest_opts *o)
{
	uint64_t cap = o->size_max > o->size_min ? o->size_max - 1 : o->size_min;
	return cap ? (size_t)cap : 1;
}

static uint64_t gen(const struct rpb_job *job, uint64_t stream, uint64_t index,
		    unsigned char *buf)
{
	struct rpb_rng r;
	rpb_rng_seed(&r, job->run.seed, stream, index);
	uint64_t size = rpb_payload_size(&r, job->ingest.size_min, job->ingest.size_max);
	rpb_payload_fill(&r, job->ingest.content, buf, (size_t)size);
	return size;
}

uint64_t ingest_content(const struct rpb_job *job, unsigned thread, uint64_t op,
			unsigned char *buf)
{
	return gen(job, thread, op, buf);
}

uint64_t ingest_probe_content(const struct rpb_job *job, unsigned thread, uint64_t probe,
			      unsigned char *buf)
{
	return gen(job, thread | INGEST_PROBE_STREAM, probe, buf);
}

void ingest_digest_hex(const void *p, size_t n, char out[INGEST_HEX_LEN + 1])
{
	XXH128_hash_t h = XXH3_128bits(p, n);
	*rpb_fmt_hex64(rpb_fmt_hex64(out, (uint64_t)h.high64), (uint64_t)h.low64) = '\0';
}

const char *ingest_mime(enum rpb_content kind)
{
	return kind == RPB_CONTENT_BINARY ? "application/octet-stream" : "text/plain";
}

/* Civil date from days since 1970-01-01 (proleptic Gregorian, eras of 400
 * years). Done by hand because gmtime_r takes glibc's global timezone lock,
 * which every worker would contend on once per create. */
static void civil(int64_t days, int *y, unsigned *m, unsigned *d)
{
	days += 719468; /* shift the epoch to 0000-03-01 */
	int64_t era = (days >= 0 ? days : days - 146096) / 146097;
	unsigned doe = (unsigned)(days - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int)(yoe + era * 400) + (*m <= 2);
}

size_t ingest_desc_format(char *buf, const char *id, const char *parent, uint64_t size,
			  const char *hex, const char *mime, uint64_t wall_ms)
{
	uint64_t secs = wall_ms / 1000;
	int y;
	unsigned mo, d;
	civil((int64_t)(secs / 86400), &y, &mo, &d);
	unsigned sod = (unsigned)(secs % 86400);
	/* Two keys (< INGEST_KEY_MAX each), a 20-digit size, the digest, a MIME
	 * type and a timestamp: well inside INGEST_DESC_MAX. */
	char *p = rpb_fmt_str(rpb_fmt_str(buf, "id="), id);
	p = rpb_fmt_str(rpb_fmt_str(p, "\nparent="), parent);
	p = rpb_fmt_u64(rpb_fmt_str(p, "\nsize="), size, 0);
	p = rpb_fmt_str(rpb_fmt_str(p, "\nxxh3="), hex);
	p = rpb_fmt_str(rpb_fmt_str(p, "\nmime="), mime);
	p = rpb_fmt_u64(rpb_fmt_str(p, "\ncreated="), (uint64_t)(y < 0 ? 0 : y), 4);
	p = rpb_fmt_u64(rpb_fmt_str(p, "-"), mo, 2);
	p = rpb_fmt_u64(rpb_fmt_str(p, "-"), d, 2);
	p = rpb_fmt_u64(rpb_fmt_str(p, "T"), sod / 3600, 2);
	p = rpb_fmt_u64(rpb_fmt_str(p, ":"), sod / 60 % 60, 2);
	p = rpb_fmt_u64(rpb_fmt_str(p, ":"), sod % 60, 2);
	p = rpb_fmt_u64(rpb_fmt_str(p, "."), wall_ms % 1000, 3);
	p = rpb_fmt_str(p, "Z\n");
	*p = '\0';
	return (size_t)(p - buf);
}

bool ingest_field_eq(rpb_slice f, const char *s)
{
	return f.data && strlen(s) == f.len && memcmp(f.data, s, f.len) == 0;
}

bool ingest_desc_parse(const void *rec, size_t n, struct ingest_desc *d)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{"id", offsetof(struct ingest_desc, id)},
		{"parent", offsetof(struct ingest_desc, parent)},
		{"size", offsetof(struct ingest_desc, size)},
		{"xxh3", offsetof(struct ingest_desc, xxh3)},
		{"mime", offsetof(struct ingest_desc, mime)},
		{"created", offsetof(struct ingest_desc, created)},
	};
	memset(d, 0, sizeof *d);
	const char *p = rec, *end = p + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *eq = memchr(p, '=', (size_t)(eol - p));
		for (size_t i = 0; eq && i < sizeof fields / sizeof fields[0]; i++) {
			size_t klen = strlen(fields[i].name);
			if ((size_t)(eq - p) == klen && memcmp(p, fields[i].name, klen) == 0) {
				rpb_slice *f = (rpb_slice *)((char *)d + fields[i].off);
				*f = rpb_slice_make(eq + 1, (size_t)(eol - eq - 1));
			}
		}
		p = nl ? nl + 1 : end;
	}
	return d->id.data && d->parent.data && d->size.data && d->xxh3.data &&
	       d->mime.data && d->created.data;
}

/* ---- the pattern ---- */

struct ingest_worker {
	unsigned char *content;      /* ingest_content_cap bytes */
	char desc[INGEST_DESC_MAX];
	char hex[INGEST_HEX_LEN + 1];
	char id[INGEST_KEY_MAX], parent[INGEST_KEY_MAX], member[2 * INGEST_KEY_MAX];
	size_t idlen, parentlen, memberlen;
	uint64_t op;                 /* the main operation being written; UINT64_MAX for a probe */
	struct rpb_buf got;          /* probe reads, reserved for the largest */
};

static enum rpb_status ingest_worker_init(struct rpb_worker *w, struct rpb_err *err)
{
	const struct rpb_ingest_opts *o = &w->rn->job->ingest;
	struct ingest_worker *iw = calloc(1, sizeof *iw);
	size_t cap = ingest_content_cap(o);
	if (!iw || !(iw->content = malloc(cap))) {
		free(iw);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL,
				   "out of memory allocating a %zu-byte content buffer; lower ingest.size_max",
				   cap);
	}
	/* A patch appends a line to the description it read, in place. */
	size_t need = cap > 2 * INGEST_DESC_MAX ? cap : 2 * INGEST_DESC_MAX;
	enum rpb_status st = rpb_buf_reserve(&iw->got, need, err);
	if (st) {
		free(iw->content);
		free(iw);
		return st;
	}
	w->state = iw;
	return RPB_OK;
}

static void ingest_worker_fini(struct rpb_worker *w)
{
	struct ingest_worker *iw = w->state;
	if (!iw)
		return;
	rpb_buf_free(&iw->got);
	free(iw->content);
	free(iw);
	w->state = NULL;
}

/* Writes one resource: content, description, membership; one transaction.
 * iw->id/parent/member must be set. On failure the backend has rolled back;
 * *at_commit says whether it was the commit that failed. */
static enum rpb_status write_resource(struct rpb_worker *w, struct rpb_session *s,
				      struct ingest_worker *iw, uint64_t size, bool *at_commit,
				      struct rpb_err *err)
{
	const struct rpb_backend *b = w->rn->backend;
	enum rpb_content kind = w->rn->job->ingest.content;
	*at_commit = false;
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
	if (!st) {
		rpb_slice key = rpb_slice_make(iw->id, iw->idlen);
		st = b->put(s, RPB_T_OBJECTS, key, rpb_slice_make(iw->content, (size_t)size), err);
		if (!st) {
			/* The server's side of a create: fixity digest and metadata. */
			ingest_digest_hex(iw->content, (size_t)size, iw->hex);
			size_t n = ingest_desc_format(iw->desc, iw->id, iw->parent, size, iw->hex,
						      ingest_mime(kind), rpb_wall_ms());
			st = b->put(s, RPB_T_DESCRIPTIONS, key, rpb_slice_make(iw->desc, n), err);
		}
		if (!st)
			st = b->put(s, RPB_T_MEMBERS, rpb_slice_make(iw->member, iw->memberlen),
				    rpb_slice_make("", 0), err);
		if (!st && iw->op != UINT64_MAX)
			rpb_inject_point(w, iw->op, false, RPB_T_OBJECTS, key);
		if (!st) {
			st = rpb_txn_commit(w, s, err);
			*at_commit = st != RPB_OK;
		}
	}
	if (st)
		rpb_txn_rollback(w, s); /* the contract already rolled back */
	return st;
}

static void set_ids(struct ingest_worker *iw, size_t idlen, size_t parentlen)
{
	iw->idlen = idlen;
	iw->parentlen = parentlen;
	iw->memberlen = ingest_member_key(iw->member, iw->parent, parentlen, iw->id, idlen);
}

/* ---- probes ---- */

struct probe_ctx {
	struct rpb_worker *w;
	struct ingest_worker *iw;
	const struct rpb_backend *b;
	uint64_t op, probe;
};

/* Records one probe sample, logs it to probe.csv, and makes a failure that
 * the policy says must stop the run do so: the runner's error policy only
 * sees the create's status, which was acknowledged. */
static void probe_done(const struct probe_ctx *pc, unsigned label, uint64_t start,
		       uint64_t end, enum rpb_status st, uint64_t bytes, const struct rpb_err *err)
{
	struct rpb_worker *w = pc->w;
	struct rpb_runner *rn = w->rn;
	/* The null backend keeps nothing: not-found is its only answer. */
	if (st == RPB_NOT_FOUND && (pc->b->flags & RPB_BF_STORES_NOTHING))
		st = RPB_OK;
	rpb_sample(w, label, start, end, st, bytes, st ? err : NULL);
	if (rn->probe) {
		/* The create that triggered the probe is acknowledged but the
		 * runner counts it only after op returns: hence + 1. */
		uint64_t acked = atomic_load_explicit(&w->acked, memory_order_relaxed) + 1;
		flockfile(rn->probe);
		fprintf(rn->probe, "%" PRIu64 ",%u,%" PRIu64 ",%s,%" PRIu64 ",%s,%" PRIu64 "\n",
			(end - rn->t_start) / 1000000, w->id, pc->probe, ingest_labels[label],
			(end - start) / 1000, rpb_status_name(st), acked);
		funlockfile(rn->probe);
	}
	if (st && st < RPB_STATUS_COUNT &&
	    rn->job->run.on_error[st].action == RPB_ACT_STOP &&
	    rpb_request_stop(rn, RPB_STOP_ERROR)) {
		rn->stop_err = *err;
		rn->stop_worker = w->id;
		rn->stop_op = pc->op;
	}
}

static enum rpb_status probe_create(const struct probe_ctx *pc, bool *at_commit,
				    struct rpb_err *err)
{
	struct rpb_worker *w = pc->w;
	const struct rpb_job *job = w->rn->job;
	uint64_t size = ingest_probe_content(job, w->id, pc->probe, pc->iw->content);
	uint64_t start = rpb_now_ns();
	pc->iw->op = UINT64_MAX;
	enum rpb_status st = write_resource(w, rpb_next_session(w), pc->iw, size, at_commit, err);
	probe_done(pc, L_PROBE_CREATE, start, rpb_now_ns(), st, size, err);
	return st;
}

/* HEAD reads the description; GET the content and the description. */
static void probe_read(const struct probe_ctx *pc, unsigned label, struct rpb_err *err)
{
	const struct rpb_backend *b = pc->b;
	struct ingest_worker *iw = pc->iw;
	struct rpb_session *s = rpb_next_session(pc->w);
	rpb_slice key = rpb_slice_make(iw->id, iw->idlen);
	uint64_t bytes = 0;
	uint64_t start = rpb_now_ns();
	enum rpb_status st = rpb_txn_begin(pc->w, s, RPB_TXN_READ, err);
	if (!st && label == L_PROBE_GET) {
		st = b->get(s, RPB_T_OBJECTS, key, &iw->got, err);
		bytes = iw->got.len;
	}
	if (!st) {
		st = b->get(s, RPB_T_DESCRIPTIONS, key, &iw->got, err);
		bytes += label == L_PROBE_HEAD ? iw->got.len : 0;
	}
	if (!st)
		st = rpb_txn_commit(pc->w, s, err);
	if (st == RPB_NOT_FOUND)
		rpb_err_set(err, st, 0, NULL, "%s: probe resource %s not found right after its create",
			    ingest_labels[label], iw->id);
	if (st)
		rpb_txn_rollback(pc->w, s);
	probe_done(pc, label, start, rpb_now_ns(), st, bytes, err);
}

/* PATCH: read the description, add a title line, write it back. */
static void probe_patch(const struct probe_ctx *pc, struct rpb_err *err)
{
	const struct rpb_backend *b = pc->b;
	struct ingest_worker *iw = pc->iw;
	struct rpb_session *s = rpb_next_session(pc->w);
	rpb_slice key = rpb_slice_make(iw->id, iw->idlen);
	uint64_t start = rpb_now_ns();
	enum rpb_status st = rpb_txn_begin(pc->w, s, RPB_TXN_WRITE, err);
	if (!st)
		st = b->get(s, RPB_T_DESCRIPTIONS, key, &iw->got, err);
	if (!st) {
		char *p = (char *)iw->got.data + iw->got.len;
		size_t room = iw->got.cap - iw->got.len;
		int n = snprintf(p, room, "title=probe %" PRIu64 "\n", pc->probe);
		iw->got.len += n > 0 && (size_t)n < room ? (size_t)n : 0;
		st = b->put(s, RPB_T_DESCRIPTIONS, key, rpb_slice_make(iw->got.data, iw->got.len),
			    err);
	}
	if (!st)
		st = rpb_txn_commit(pc->w, s, err);
	if (st == RPB_NOT_FOUND)
		rpb_err_set(err, st, 0, NULL, "probe-patch: probe resource %s not found", iw->id);
	if (st)
		rpb_txn_rollback(pc->w, s);
	probe_done(pc, L_PROBE_PATCH, start, rpb_now_ns(), st, 0, err);
}

static void probe_delete(const struct probe_ctx *pc, struct rpb_err *err)
{
	const struct rpb_backend *b = pc->b;
	struct ingest_worker *iw = pc->iw;
	struct rpb_session *s = rpb_next_session(pc->w);
	rpb_slice key = rpb_slice_make(iw->id, iw->idlen);
	uint64_t start = rpb_now_ns();
	enum rpb_status st = rpb_txn_begin(pc->w, s, RPB_TXN_WRITE, err);
	if (!st)
		st = b->del(s, RPB_T_OBJECTS, key, err);
	if (!st)
		st = b->del(s, RPB_T_DESCRIPTIONS, key, err);
	if (!st)
		st = b->del(s, RPB_T_MEMBERS, rpb_slice_make(iw->member, iw->memberlen), err);
	if (!st)
		st = rpb_txn_commit(pc->w, s, err);
	if (st == RPB_NOT_FOUND)
		rpb_err_set(err, st, 0, NULL, "probe-delete: part of probe resource %s was missing",
			    iw->id);
	if (st)
		rpb_txn_rollback(pc->w, s); /* a NOT_FOUND del leaves the transaction open */
	probe_done(pc, L_PROBE_DELETE, start, rpb_now_ns(), st, 0, err);
}

/* After a probe create failed inside commit it may have happened after all:
 * remove whatever is there, untimed, so verify does not find a probe that
 * the run never reported. NOT_FOUND deletes keep the transaction open. */
static void probe_cleanup(const struct probe_ctx *pc)
{
	const struct rpb_backend *b = pc->b;
	struct ingest_worker *iw = pc->iw;
	struct rpb_session *s = rpb_next_session(pc->w);
	rpb_slice key = rpb_slice_make(iw->id, iw->idlen);
	struct rpb_err err;
	enum rpb_status st = rpb_txn_begin(pc->w, s, RPB_TXN_WRITE, &err);
	if (!st && (st = b->del(s, RPB_T_OBJECTS, key, &err)) == RPB_NOT_FOUND)
		st = RPB_OK;
	if (!st && (st = b->del(s, RPB_T_DESCRIPTIONS, key, &err)) == RPB_NOT_FOUND)
		st = RPB_OK;
	if (!st && (st = b->del(s, RPB_T_MEMBERS, rpb_slice_make(iw->member, iw->memberlen),
				&err)) == RPB_NOT_FOUND)
		st = RPB_OK;
	rpb_txn_finish(pc->w, s, st, &err);
}

/* The test plan's "performance requests": PUT, OPTIONS, GET, PATCH, DELETE
 * of one probe resource. After a failed create there is nothing to read or
 * delete; otherwise the delete always runs so a failed read or patch leaves
 * no probe behind. */
static void run_probe(struct rpb_worker *w, struct ingest_worker *iw, uint64_t op,
		      uint64_t probe)
{
	const char *tag = w->rn->run_tag;
	struct probe_ctx pc = {w, iw, w->rn->backend, op, probe};
	struct rpb_err perr;
	set_ids(iw, ingest_probe_key(iw->id, tag, w->id, probe),
		ingest_probe_container_key(iw->parent, tag));
	bool at_commit;
	if (probe_create(&pc, &at_commit, &perr)) {
		if (at_commit)
			probe_cleanup(&pc);
		return;
	}
	probe_read(&pc, L_PROBE_HEAD, &perr);
	probe_read(&pc, L_PROBE_GET, &perr);
	probe_patch(&pc, &perr);
	probe_delete(&pc, &perr);
}

/* ---- the operation ---- */

static enum rpb_status ingest_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	const struct rpb_job *job = rn->job;
	struct ingest_worker *iw = w->state;

	/* The client building its request body: not part of the latency. */
	uint64_t size = ingest_content(job, w->id, i, iw->content);
	set_ids(iw, ingest_obj_key(iw->id, rn->run_tag, w->id, i),
		ingest_container_key(iw->parent, rn->run_tag, i, job->ingest.containers));

	iw->op = i;
	struct rpb_session *s = rpb_next_session(w);
	bool at_commit;
	rpb_inject_point(w, i, true, RPB_T_OBJECTS, rpb_slice_make(iw->id, iw->idlen));
	uint64_t start = rpb_now_ns();
	enum rpb_status st = write_resource(w, s, iw, size, &at_commit, err);
	uint64_t end = rpb_now_ns();
	w->in_doubt = at_commit;
	/* A failed create stored nothing: its bytes would inflate throughput,
	 * and keeping them out makes label 0's bytes / acked the mean size. */
	rpb_sample(w, L_CREATE, start, end, st, st ? 0 : size, st ? err : NULL);
	if (st)
		return st;
	w->op_bytes = size;

	uint64_t every = job->ingest.probe_every;
	if (every && (i + 1) % every == 0 &&
	    atomic_load_explicit(&rn->stop, memory_order_relaxed) == RPB_STOP_NONE)
		run_probe(w, iw, i, (i + 1) / every);
	return RPB_OK;
}

static void ingest_report_json(struct rpb_runner *rn, json_t *obj)
{
	const struct rpb_ingest_opts *o = &rn->job->ingest;
	json_object_set_new(obj, "containers", json_integer((json_int_t)o->containers));
	json_object_set_new(obj, "probe_every", json_integer((json_int_t)o->probe_every));
	json_object_set_new(obj, "size_min", json_integer((json_int_t)o->size_min));
	json_object_set_new(obj, "size_max", json_integer((json_int_t)o->size_max));
	json_object_set_new(obj, "content",
			    json_string(o->content == RPB_CONTENT_BINARY ? "binary" : "ascii"));
	uint64_t bytes = 0, acked = 0;
	for (unsigned t = 0; t < rn->nworkers; t++) {
		bytes += atomic_load(&rn->workers[t].labels[L_CREATE].bytes);
		acked += atomic_load(&rn->workers[t].acked);
	}
	json_object_set_new(obj, "mean_size",
			    acked ? json_real((double)bytes / (double)acked) : json_null());
}

const struct rpb_pattern rpb_pattern_ingest = {
	.name = "ingest",
	.noun = "creates",
	.labels = ingest_labels,
	.nlabels = L_COUNT,
	.worker_init = ingest_worker_init,
	.worker_fini = ingest_worker_fini,
	.op = ingest_op,
	.report_json = ingest_report_json,
	.verify = ingest_verify,
};
