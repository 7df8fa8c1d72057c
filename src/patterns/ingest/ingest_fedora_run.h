/* The Fedora model's run, as the ingest pattern (ingest.c) drives it: the
 * shared state (the binary store, the node locks), a worker's state, one
 * create, the probe steps, and the figures for result.json. The layout is
 * ingest_fedora.h's. */
#ifndef RPB_INGEST_FEDORA_RUN_H
#define RPB_INGEST_FEDORA_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "ingest_fedora.h"
#include "runner.h"

struct fed_shared;
struct fed_worker;

/* Once per run: the binary store (created), the locks, and the run's root
 * and probe containers written to the store. */
enum rpb_status fed_prepare(struct rpb_runner *rn, struct fed_shared **out, struct rpb_err *err);
void fed_fini(struct fed_shared *sh);
/* Bytes of the binary store on disk (backends count only their own files,
 * so these come on top wherever binary_dir is), a file a sparse preload
 * made counted as written: its size, block-rounded; *elided (when not
 * NULL) is what those files would hold and do not. */
uint64_t fed_binary_bytes(const struct fed_shared *sh, uint64_t *elided);

enum rpb_status fed_worker_init(struct fed_worker **out, size_t content_cap, struct rpb_err *err);
void fed_worker_fini(struct fed_worker *fw);

/* Create op i: the client's part, untimed (the minted path, the content);
 * returns the content's size. Then the server's part, timed by the caller:
 * digest, file, and the transaction; sets w->in_doubt when commit failed. */
uint64_t fed_stage(struct rpb_worker *w, struct fed_worker *fw, uint64_t i);
enum rpb_status fed_create(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			   uint64_t i, uint64_t size, struct rpb_err *err);

/* The verb preload (ingest.preload_batch > 0): a worker's creates go into
 * one store transaction, committed after preload_batch of them, 64 MiB of
 * content, the thread's last, or a stop (last); one thread's batch is open
 * at a time. begin before a create (and its probe), end after it;
 * abort after a failure (the store rolled the batch back). */
enum rpb_status fed_batch_begin(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
				struct rpb_err *err);
enum rpb_status fed_batch_end(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			      uint64_t bytes, bool last, struct rpb_err *err);
void fed_batch_abort(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw);

/* The performance requests on a probe node under /probe: PUT creates it
 * (size from fed_probe_stage), OPTIONS and GET read it, PATCH adds a title,
 * DELETE removes it with its name in the container and its file; CLEANUP
 * removes whatever a PUT that failed inside commit left. *bytes: payload
 * sent or received; *at_commit: the failure came from commit. */
enum fed_probe_step { FED_PROBE_PUT, FED_PROBE_OPTIONS, FED_PROBE_GET, FED_PROBE_PATCH,
		      FED_PROBE_DELETE, FED_PROBE_CLEANUP };
uint64_t fed_probe_stage(struct rpb_worker *w, struct fed_worker *fw, uint64_t probe);
enum rpb_status fed_probe(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			  enum fed_probe_step step, uint64_t probe, uint64_t size, uint64_t *bytes,
			  bool *at_commit, struct rpb_err *err);

/* The reads of read_mix, each one request as the profile reads (durable:
 * one read transaction; fedora-4.5: through the document cache, each miss
 * a store transaction), without node locks. list: the container at level
 * read_level of the path create op made, its document, its child list
 * (its blocks with child_block) and the first limit of its children's
 * documents (UINT64_MAX: all). fileget: object `object` of this thread's,
 * its nt:file and jcr:content documents and its content, read from its
 * file or from the jcr:content document. *bytes: bytes read. */
enum rpb_status fed_list(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			 uint64_t op, uint64_t limit, uint64_t *bytes, struct rpb_err *err);
enum rpb_status fed_fileget(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			    uint64_t op, uint64_t object, uint64_t *bytes, struct rpb_err *err);
/* members-get: the /members resource's document, then the document of
 * every node it references, in one request (fcrepo's GET turns each
 * reference into its node's URI by loading the node). */
enum rpb_status fed_members_get(struct rpb_worker *w, struct fed_shared *sh,
				struct fed_worker *fw, uint64_t op, uint64_t *bytes,
				struct rpb_err *err);
/* The object this thread made by the staged create (start_at / threads + op). */
uint64_t fed_made(const struct fed_worker *fw);

/* result.json's pattern.fedora: the options in force, the binary store,
 * the branches and files made, and the cost signature: mean bytes a parent
 * rewrite put, by the parent's children before it. */
void fed_report_json(const struct rpb_runner *rn, const struct fed_shared *sh, json_t *obj);

#endif
