/* The ingest pattern: Fedora Commons' "Create Binary Resource" JMeter test
 * run in-process against the store interface (docs/workload-ingest.md).
 *
 * One operation creates one binary resource: its content, its description
 * record and its membership in a container, in one write transaction. Every
 * probe_every creates, a probe sequence (the test plan's "performance
 * requests") creates, reads, patches and deletes one probe resource. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "paths.h"
#include "rng.h"
#include "ingest.h"
#include "ingest_fedora_run.h"
#include "runner.h"

static const char *const ingest_labels[L_COUNT] = {
	"create", "probe-create", "probe-head", "probe-get", "probe-patch", "probe-delete",
	"list",   "list-paged",   "fileget",	   "members-get",
};
/* Creates carry the content written; HEAD and GET what they read; PATCH
 * and DELETE record no bytes; the reads what they read. */
static const enum rpb_bytes_dir ingest_label_dirs[L_COUNT] = {
	RPB_BYTES_SENT,	    RPB_BYTES_SENT,	RPB_BYTES_RECEIVED,
	RPB_BYTES_RECEIVED, RPB_BYTES_NONE,	RPB_BYTES_NONE,
	RPB_BYTES_RECEIVED, RPB_BYTES_RECEIVED, RPB_BYTES_RECEIVED,
	RPB_BYTES_RECEIVED,
};
/* Which object a fileget reads: its own stream, so reads never shift the
 * creates' draws. */
#define INGEST_READ_STREAM (UINT64_C(1) << 34)

/* ---- the pattern ---- */

/* Shared by the workers: probe.csv (probe_every > 0), written under its
 * stdio lock; the Fedora model's binary store and locks. */
struct ingest_shared {
	FILE *probe;
	struct fed_shared *fed;
};

static bool fedora(const struct rpb_job *job)
{
	return ingest_opts(job)->model == INGEST_FEDORA;
}

static enum rpb_status ingest_prepare(struct rpb_runner *rn, struct rpb_err *err)
{
	struct ingest_shared *sh = calloc(1, sizeof *sh);
	if (!sh)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	rn->pattern_state = sh;
	if (fedora(rn->job)) {
		enum rpb_status st = fed_prepare(rn, &sh->fed, err);
		if (st)
			return st;
	}
	if (!ingest_opts(rn->job)->probe_every)
		return RPB_OK;
	char path[PATH_MAX];
	sh->probe = rpb_path_join(path, sizeof path, rn->out_dir, "probe.csv") == 0 ? fopen(path, "w")
										  : NULL;
	if (!sh->probe) {
		int e = errno;
		return rpb_err_set(err, RPB_IO, e, NULL, "cannot write %s/probe.csv: %s", rn->out_dir,
				   strerror(e));
	}
	fprintf(sh->probe, "elapsed_ms,thread,probe,label,latency_us,status,objects_acked_by_thread\n");
	return RPB_OK;
}

static void ingest_fini(struct rpb_runner *rn)
{
	struct ingest_shared *sh = rn->pattern_state;
	if (!sh)
		return;
	if (sh->probe)
		fclose(sh->probe);
	fed_fini(sh->fed);
	free(sh);
	rn->pattern_state = NULL;
}

struct ingest_worker {
	unsigned char *content;      /* ingest_content_cap bytes */
	char desc[INGEST_DESC_MAX];
	char hex[INGEST_HEX_LEN + 1];
	char id[INGEST_KEY_MAX], parent[INGEST_KEY_MAX], member[2 * INGEST_KEY_MAX];
	size_t idlen, parentlen, memberlen;
	uint64_t op;                 /* the main operation being written; UINT64_MAX for a probe */
	struct rpb_buf got;          /* probe reads, reserved for the largest */
	struct fed_worker *fed;      /* model = fedora */
	int64_t wall_off_ns;         /* CLOCK_REALTIME - rpb_now_ns at the worker's start */
};

/* The wall-clock time in ms at rpb_now_ns() reading t: the description's
 * created time from the create's own start, no clock call of its own (the
 * offset is taken once per worker, so a clock step during the run is not
 * followed; a timestamp off by the step is all it can cost). */
static uint64_t wall_ms_at(const struct ingest_worker *iw, uint64_t t)
{
	return (uint64_t)((int64_t)t + iw->wall_off_ns) / 1000000u;
}

static enum rpb_status ingest_worker_init(struct rpb_worker *w, struct rpb_err *err)
{
	const struct rpb_ingest_opts *o = ingest_opts(w->rn->job);
	/* Written on every create: on cache lines no other thread's state shares. */
	struct ingest_worker *iw = rpb_calloc_lines(1, sizeof *iw);
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
	if (!st && o->model == INGEST_FEDORA)
		st = fed_worker_init(&iw->fed, cap, err);
	if (st) {
		fed_worker_fini(iw->fed);
		rpb_buf_free(&iw->got);
		free(iw->content);
		free(iw);
		return st;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	iw->wall_off_ns = (int64_t)((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) -
			  (int64_t)rpb_now_ns();
	w->state = iw;
	return RPB_OK;
}

static void ingest_worker_fini(struct rpb_worker *w)
{
	struct ingest_worker *iw = w->state;
	if (!iw)
		return;
	const struct ingest_shared *sh = w->rn->pattern_state;
	struct rpb_err err;
	/* A preload stopped (a signal) between creates: its open batch. */
	if (iw->fed && sh && sh->fed &&
	    fed_batch_end(w, sh->fed, iw->fed, 0, true, &err) != RPB_OK)
		fprintf(stderr, "preload: the last batch of thread %u did not commit: %s\n", w->id,
			err.msg);
	fed_worker_fini(iw->fed);
	rpb_buf_free(&iw->got);
	free(iw->content);
	free(iw);
	w->state = NULL;
}

/* Writes one resource: content, description, membership; one transaction.
 * iw->id/parent/member must be set; start is the create's rpb_now_ns(). On
 * failure the backend has rolled back; *at_commit says whether it was the
 * commit that failed. */
static enum rpb_status write_resource(struct rpb_worker *w, struct rpb_session *s,
				      struct ingest_worker *iw, uint64_t size, uint64_t start,
				      bool *at_commit, struct rpb_err *err)
{
	const struct rpb_backend *b = w->rn->backend;
	enum rpb_content kind = ingest_opts(w->rn->job)->content;
	*at_commit = false;
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
	if (!st) {
		rpb_slice key = rpb_slice_make(iw->id, iw->idlen);
		st = b->put(s, RPB_T_OBJECTS, key, rpb_slice_make(iw->content, (size_t)size), err);
		if (!st) {
			/* The server's side of a create: fixity digest and metadata. */
			ingest_digest_hex(iw->content, (size_t)size, iw->hex);
			size_t n = ingest_desc_format(iw->desc, key,
						      rpb_slice_make(iw->parent, iw->parentlen), size, iw->hex,
						      ingest_mime(kind), wall_ms_at(iw, start));
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

/* A side operation's failure (a probe's, a read's) that the policy says
 * must stop the run does so: the runner's error policy only sees the
 * create's status, which was acknowledged. */
static void side_failed(struct rpb_worker *w, uint64_t op, enum rpb_status st,
			const struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	if (st && st < RPB_STATUS_COUNT &&
	    rn->job->run.on_error[st].action == RPB_ACT_STOP &&
	    rpb_request_stop(rn, RPB_STOP_ERROR)) {
		rn->stop_err = *err;
		rn->stop_worker = w->id;
		rn->stop_op = op;
	}
}

/* Records one probe sample, logs it to probe.csv, records a failed step in
 * the ledger (verify then knows what it may have left behind), and applies
 * the error policy to a failure. */
static void probe_done(const struct probe_ctx *pc, unsigned label, uint64_t start,
		       uint64_t end, enum rpb_status st, bool in_doubt, uint64_t bytes,
		       const struct rpb_err *err)
{
	struct rpb_worker *w = pc->w;
	struct rpb_runner *rn = w->rn;
	/* The null backend keeps nothing: not-found is its only answer. */
	if (st == RPB_NOT_FOUND && (pc->b->flags & RPB_BF_STORES_NOTHING))
		st = RPB_OK;
	rpb_sample(w, label, start, end, st, bytes, st ? err : NULL);
	if (st)
		rpb_step_failed(w, pc->op, label, st, in_doubt);
	const struct ingest_shared *sh = rn->pattern_state;
	if (sh && sh->probe) {
		/* The create that triggered the probe is acknowledged but the
		 * runner counts it only after op returns: hence + 1. */
		uint64_t acked = atomic_load_explicit(&w->acked, memory_order_relaxed) + 1;
		flockfile(sh->probe);
		fprintf(sh->probe, "%" PRIu64 ",%u,%" PRIu64 ",%s,%" PRIu64 ",%s,%" PRIu64 "\n",
			(end - rn->t_start) / 1000000, w->id, pc->probe, ingest_labels[label],
			(end - start) / 1000, rpb_status_name(st), acked);
		funlockfile(sh->probe);
	}
	side_failed(w, pc->op, st, err);
}

static enum rpb_status probe_create(const struct probe_ctx *pc, bool *at_commit,
				    struct rpb_err *err)
{
	struct rpb_worker *w = pc->w;
	const struct rpb_job *job = w->rn->job;
	uint64_t size = ingest_probe_content(job, w->id, pc->probe, pc->iw->content);
	uint64_t start = rpb_now_ns();
	pc->iw->op = UINT64_MAX;
	enum rpb_status st =
		write_resource(w, rpb_next_session(w), pc->iw, size, start, at_commit, err);
	probe_done(pc, L_PROBE_CREATE, start, rpb_now_ns(), st, *at_commit, size, err);
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
	probe_done(pc, label, start, rpb_now_ns(), st, false, bytes, err);
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
	probe_done(pc, L_PROBE_PATCH, start, rpb_now_ns(), st, false, 0, err);
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
	probe_done(pc, L_PROBE_DELETE, start, rpb_now_ns(), st, false, 0, err);
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

/* The same performance requests on a node of the Fedora model. */
static void run_fedora_probe(struct rpb_worker *w, struct ingest_worker *iw, uint64_t op,
			     uint64_t probe)
{
	struct ingest_shared *sh = w->rn->pattern_state;
	struct probe_ctx pc = {w, iw, w->rn->backend, op, probe};
	static const struct {
		enum fed_probe_step step;
		unsigned label;
	} steps[] = {{FED_PROBE_PUT, L_PROBE_CREATE},  {FED_PROBE_OPTIONS, L_PROBE_HEAD},
		     {FED_PROBE_GET, L_PROBE_GET},     {FED_PROBE_PATCH, L_PROBE_PATCH},
		     {FED_PROBE_DELETE, L_PROBE_DELETE}};
	uint64_t size = fed_probe_stage(w, iw->fed, probe);
	for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
		struct rpb_err perr;
		uint64_t bytes;
		bool at_commit;
		uint64_t start = rpb_now_ns();
		enum rpb_status st = fed_probe(w, sh->fed, iw->fed, steps[k].step, probe, size, &bytes,
					       &at_commit, &perr);
		probe_done(&pc, steps[k].label, start, rpb_now_ns(), st, at_commit, bytes, &perr);
		if (st && k == 0) {
			/* A failed PUT: nothing to read; one failed inside commit may
			 * have happened after all, so remove whatever is there. */
			if (at_commit)
				fed_probe(w, sh->fed, iw->fed, FED_PROBE_CLEANUP, probe, size, &bytes,
					  &at_commit, &perr);
			return;
		}
	}
}

/* ---- reads (model = fedora, read_mix) ---- */

/* The reads read_mix puts after create op i, which made object n of the
 * thread: each name:N/P entry's N reads after every Pth create, lists of
 * the container at read_at, filegets of objects drawn uniformly from the
 * thread's 0..n. A read changes nothing: a failure is its sample's only
 * trace (and the error policy's). */
static void run_fedora_reads(struct rpb_worker *w, struct ingest_worker *iw, uint64_t i,
			     uint64_t n)
{
	struct rpb_runner *rn = w->rn;
	const struct rpb_ingest_opts *o = ingest_opts(rn->job);
	struct ingest_shared *sh = rn->pattern_state;
	static const unsigned labels[INGEST_NREADS] = {L_LIST, L_LIST_PAGED, L_FILEGET,
						       L_MEMBERS_GET};
	struct rpb_rng rng;
	rpb_rng_seed(&rng, rn->job->run.seed, INGEST_READ_STREAM | w->id, n);
	for (unsigned k = 0; k < INGEST_NREADS; k++) {
		const struct ingest_read_rate *r = &o->reads[k];
		if (!r->n || (n + 1) % r->every)
			continue;
		for (uint64_t j = 0; j < r->n; j++) {
			if (atomic_load_explicit(&rn->stop, memory_order_relaxed) != RPB_STOP_NONE)
				return;
			uint64_t object = rpb_rng_range(&rng, 0, n + 1);
			/* Every attempt is a sample; on_error's retry:N retries a
			 * failed read as it would the create. */
			for (unsigned attempt = 0;; attempt++) {
				struct rpb_err rerr;
				uint64_t bytes;
				uint64_t start = rpb_now_ns();
				enum rpb_status st;
				if (k == INGEST_READ_FILEGET)
					st = fed_fileget(w, sh->fed, iw->fed, i, object, &bytes, &rerr);
				else if (k == INGEST_READ_MEMBERS)
					st = fed_members_get(w, sh->fed, iw->fed, i, &bytes, &rerr);
				else
					st = fed_list(w, sh->fed, iw->fed, i,
						      k == INGEST_READ_LIST ? UINT64_MAX : o->list_page,
						      &bytes, &rerr);
				uint64_t end = rpb_now_ns();
				/* The null backend keeps nothing: not-found is its only answer. */
				if (st == RPB_NOT_FOUND && (rn->backend->flags & RPB_BF_STORES_NOTHING))
					st = RPB_OK;
				rpb_sample(w, labels[k], start, end, st, st ? 0 : bytes,
					   st ? &rerr : NULL);
				const struct rpb_policy *pol =
					&rn->job->run.on_error[(unsigned)st < RPB_STATUS_COUNT ? st
												: RPB_IO];
				if (st && pol->action == RPB_ACT_RETRY && attempt < pol->retries &&
				    atomic_load_explicit(&rn->stop, memory_order_relaxed) ==
					    RPB_STOP_NONE)
					continue;
				side_failed(w, i, st, &rerr);
				break;
			}
		}
	}
}

/* ---- the operation ---- */

/* model = fedora: the create as Fedora made it (ingest_fedora.c). */
static enum rpb_status fedora_create(struct rpb_worker *w, struct ingest_worker *iw, uint64_t i,
				     uint64_t *size, struct rpb_err *err)
{
	struct ingest_shared *sh = w->rn->pattern_state;
	*size = fed_stage(w, iw->fed, ingest_first_object(w->rn->job) + i);
	uint64_t start = rpb_now_ns();
	enum rpb_status st = fed_create(w, sh->fed, iw->fed, i, *size, err);
	rpb_sample(w, L_CREATE, start, rpb_now_ns(), st, st ? 0 : *size, st ? err : NULL);
	return st;
}

/* model = flat: content, description and membership as three keys. */
static enum rpb_status flat_create(struct rpb_worker *w, struct ingest_worker *iw, uint64_t i,
				   uint64_t *size, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	/* The client building its request body: not part of the latency. */
	*size = ingest_content(rn->job, w->id, i, iw->content);
	set_ids(iw, ingest_obj_key(iw->id, rn->run_tag, w->id, i),
		ingest_container_key(iw->parent, rn->run_tag, i, ingest_opts(rn->job)->containers));
	iw->op = i;
	struct rpb_session *s = rpb_next_session(w);
	bool at_commit;
	rpb_inject_point(w, i, true, RPB_T_OBJECTS, rpb_slice_make(iw->id, iw->idlen));
	uint64_t start = rpb_now_ns();
	enum rpb_status st = write_resource(w, s, iw, *size, start, &at_commit, err);
	uint64_t end = rpb_now_ns();
	w->in_doubt = at_commit;
	/* A failed create stored nothing: its bytes would inflate throughput,
	 * and keeping them out makes label 0's bytes / acked the mean size. */
	rpb_sample(w, L_CREATE, start, end, st, st ? 0 : *size, st ? err : NULL);
	return st;
}

static enum rpb_status ingest_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	struct ingest_worker *iw = w->state;
	struct ingest_shared *sh = rn->pattern_state;
	uint64_t size;
	/* The object this op makes: a continued preload's are below. */
	uint64_t n = iw->fed ? ingest_first_object(rn->job) + i : i;
	enum rpb_status st = iw->fed ? fed_batch_begin(w, sh->fed, iw->fed, err) : RPB_OK;
	if (!st)
		st = iw->fed ? fedora_create(w, iw, i, &size, err) : flat_create(w, iw, i, &size, err);
	if (st) {
		if (iw->fed)
			fed_batch_abort(w, sh->fed, iw->fed);
		return st;
	}
	w->op_bytes = size;
	uint64_t every = ingest_opts(rn->job)->probe_every;
	if (every && (n + 1) % every == 0 &&
	    atomic_load_explicit(&rn->stop, memory_order_relaxed) == RPB_STOP_NONE) {
		if (iw->fed)
			run_fedora_probe(w, iw, i, (n + 1) / every);
		else
			run_probe(w, iw, i, (n + 1) / every);
	}
	if (iw->fed && ingest_reads_any(ingest_opts(rn->job)))
		run_fedora_reads(w, iw, i, fed_made(iw->fed));
	return iw->fed ? fed_batch_end(w, sh->fed, iw->fed, size, rn->job->run.ops == i + 1, err)
		       : RPB_OK;
}

static void ingest_report_json(struct rpb_runner *rn, json_t *obj)
{
	const struct rpb_ingest_opts *o = ingest_opts(rn->job);
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
	json_object_set_new(obj, "model", json_string(o->model == INGEST_FEDORA ? "fedora" : "flat"));
	const struct ingest_shared *sh = rn->pattern_state;
	if (sh && sh->fed)
		fed_report_json(rn, sh->fed, obj);
	if (o->preload_batch) /* what the verb preload made, for verify and --continue */
		json_object_set_new(obj, "preload",
				    json_pack("{s:I, s:I}", "objects", (json_int_t)(acked),
					      "batch", (json_int_t)o->preload_batch));
	if (o->start_at)
		json_object_set_new(obj, "continues", json_pack("{s:I}", "objects_before",
								 (json_int_t)o->start_at));
}

/* The Fedora model's binary files outside the backend's store. */
static uint64_t ingest_extra_bytes(struct rpb_runner *rn)
{
	const struct ingest_shared *sh = rn->pattern_state;
	return sh && sh->fed ? fed_binary_bytes(sh->fed, NULL) : 0;
}

/* Verify of either model. */
static enum rpb_status ingest_verify_any(const struct rpb_backend *b, struct rpb_store *st,
					 const struct rpb_job *job, const struct rpb_ledger *ledger,
					 struct rpb_verify_result *res, struct rpb_err *err)
{
	if (fedora(job))
		return ingest_fedora_verify(b, st, job, ledger, res, err);
	return ingest_verify(b, st, job, ledger, res, err);
}

static const char *const ingest_files[] = {"probe.csv", NULL};

const struct rpb_pattern rpb_pattern_ingest = {
	.name = "ingest",
	.noun = "creates",
	.labels = ingest_labels,
	.nlabels = L_COUNT,
	.label_dirs = ingest_label_dirs,
	.options = ingest_options,
	.config_size = sizeof(struct rpb_ingest_opts),
	.finish = ingest_finish,
	.files = ingest_files,
	.verify_stale = true,
	.binary_payload = ingest_binary_payload,
	.stores_objects = true,
	.extra_bytes = ingest_extra_bytes,
	.prepare = ingest_prepare,
	.fini = ingest_fini,
	.worker_init = ingest_worker_init,
	.worker_fini = ingest_worker_fini,
	.op = ingest_op,
	.report_json = ingest_report_json,
	.preload = ingest_preload,
	.verify = ingest_verify_any,
};
