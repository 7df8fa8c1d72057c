/* Internal to the ingest pattern: the key layout, the regeneration of an
 * object's content and the description record, shared by the run
 * (ingest.c) and verify (ingest_verify.c) so both agree byte for byte.
 *
 * Key layout (the run tag keeps runs apart in one store):
 *   objects, descriptions  o/<tag>/<thread %04u>/<op %012>   (fixed width:
 *                          key order = creation order per thread)
 *   members                <container id>/<object id>, value empty
 *   containers             c/<tag>/<op % containers>; probes: c/<tag>/probe
 *   probe resources        p/<tag>/<thread %04u>/<probe %012> */
#ifndef RPB_INGEST_H
#define RPB_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "payload.h"
#include "store.h"
#include "workload.h"

/* The sample labels; label 0 is the main operation. */
enum {
	L_CREATE = 0,
	L_PROBE_CREATE,
	L_PROBE_HEAD,
	L_PROBE_GET,
	L_PROBE_PATCH,
	L_PROBE_DELETE,
	L_LIST,       /* model = fedora, read_mix: a container's whole child list */
	L_LIST_PAGED, /* its first list_page children */
	L_FILEGET,    /* a binary's description and content */
	L_MEMBERS_GET, /* the members resource and every node it references */
	L_COUNT
};

/* The read operations of read_mix, in its order. */
enum ingest_read { INGEST_READ_LIST = 0, INGEST_READ_PAGED, INGEST_READ_FILEGET,
		   INGEST_READ_MEMBERS, INGEST_NREADS };
#define INGEST_READ_MIX_MAX 128
#define INGEST_READ_AT_MAX 32
/* read_mix's entry name:N or name:N/P: N reads after every Pth create. */
struct ingest_read_rate {
	uint64_t n, every;
};

/* The [ingest] section (ingest_options.c). */
enum ingest_model { INGEST_FLAT = 0, INGEST_FEDORA };
enum ingest_digest { INGEST_SHA1 = 0, INGEST_NO_DIGEST };
/* ModeShape's unordered collections: the bucket id's length in hex digits
 * (NodeTypes.getBucketIdLengthForUnorderedCollection), 0 = a flat list. */
enum ingest_collection { INGEST_COLL_FLAT = 0, INGEST_COLL_TINY, INGEST_COLL_SMALL,
			 INGEST_COLL_LARGE, INGEST_COLL_HUGE };
/* preload_content: what the verb preload writes into a binary file. */
enum ingest_preload_content { INGEST_CONTENT_WRITE = 0, INGEST_CONTENT_SPARSE };
#define INGEST_BINARY_DIR_MAX 1024
struct rpb_ingest_opts {
	uint64_t size_min;     /* bytes, inclusive */
	uint64_t size_max;     /* bytes, exclusive */
	enum rpb_content content;
	uint64_t containers;   /* creates spread over this many containers */
	uint64_t probe_every;  /* creates between probe sequences; 0 = never */
	enum ingest_model model;
	/* model = fedora (ingest_fedora.h) */
	uint64_t pairtree_length, pairtree_count;
	uint64_t child_block;  /* child names per block; 0 = one list in the parent */
	enum ingest_collection collection; /* buckets of child names; flat = none */
	uint64_t members;      /* references the /members resource holds; 0 = none */
	uint64_t binary_threshold; /* binaries this large or larger in files; 0 = none */
	char binary_dir[INGEST_BINARY_DIR_MAX + 1]; /* empty: beside the store */
	enum ingest_digest digest;
	uint64_t doc_cache;    /* fedora-4.5: documents kept in memory in front of the store */
	uint64_t start_at;     /* fedora: creates already in the store; thread t's op i makes
				* object start_at / threads + i */
	/* fedora: the reads measured after each create (ingest_reads.c). */
	char read_mix[INGEST_READ_MIX_MAX + 1]; /* "list:1,fileget:10"; empty: none */
	char read_at[INGEST_READ_AT_MAX + 1];   /* root, level:K, parent */
	uint64_t list_page;    /* list-paged's page: the first list_page children */
	/* sparse: the verb preload makes each binary file a hole of its size;
	 * runs and verify of the store accept such files (counted apart). */
	enum ingest_preload_content preload_content;
	/* Resolved by finish from read_mix and read_at. */
	struct ingest_read_rate reads[INGEST_NREADS];
	uint64_t read_level;   /* the listed container: level read_level of the new node's path */
	/* Not an option: set by the verb preload (ingest_fedora_preload.c),
	 * creates per store transaction; 0 = a measured run. */
	uint64_t preload_batch;
};
extern const struct rpb_optdef ingest_options[];
extern const char *const ingest_collection_names[]; /* by enum ingest_collection */
int ingest_finish(void *config, const struct rpb_job *job, const char *where, char *msg,
		  size_t n);
bool ingest_binary_payload(const void *config);

static inline const struct rpb_ingest_opts *ingest_opts(const struct rpb_job *job)
{
	return job->config;
}

/* The object thread t's first operation makes (start_at / threads). */
static inline uint64_t ingest_first_object(const struct rpb_job *job)
{
	return ingest_opts(job)->start_at / (job->run.threads ? job->run.threads : 1);
}

/* Parses read_mix and read_at into reads and read_level (ingest_reads.c);
 * 0, or -1 with "problem; fix" prefixed by where. */
int ingest_reads_finish(struct rpb_ingest_opts *o, const char *where, char *msg, size_t n);
/* Whether read_mix names any read. */
bool ingest_reads_any(const struct rpb_ingest_opts *o);
extern const char *const ingest_read_names[INGEST_NREADS];

/* The verb preload's hook (ingest_fedora_preload.c). */
int ingest_preload(void *config, const struct rpb_job *job, uint64_t objects, uint64_t before,
		   char *msg, size_t n);

#define INGEST_KEY_MAX 160   /* any id or membership key fits */
#define INGEST_DESC_MAX 1024 /* a description record, patched or not */
#define INGEST_HEX_LEN 32    /* XXH3-128 as hex, without the NUL */
/* Probe contents come from their own rng stream so probes never shift the
 * sequence of the creates. */
#define INGEST_PROBE_STREAM (UINT64_C(1) << 32)

size_t ingest_obj_key(char *buf, const char *tag, unsigned thread, uint64_t op);
size_t ingest_probe_key(char *buf, const char *tag, unsigned thread, uint64_t probe);
size_t ingest_container_key(char *buf, const char *tag, uint64_t op, uint64_t containers);
size_t ingest_probe_container_key(char *buf, const char *tag);
/* "<container>/<member>". */
size_t ingest_member_key(char *buf, const char *container, size_t clen,
			 const char *member, size_t mlen);

/* Bytes a content buffer needs for any size the options can draw (>= 1). */
size_t ingest_content_cap(const struct rpb_ingest_opts *o);
/* Regenerates the content of create op of thread into buf; returns its size. */
uint64_t ingest_content(const struct rpb_job *job, unsigned thread, uint64_t op,
			unsigned char *buf);
/* The same for probe number probe of thread. */
uint64_t ingest_probe_content(const struct rpb_job *job, unsigned thread, uint64_t probe,
			      unsigned char *buf);

/* XXH3-128 of n bytes as 32 lower-case hex digits plus NUL (high word first). */
void ingest_digest_hex(const void *p, size_t n, char out[INGEST_HEX_LEN + 1]);
const char *ingest_mime(enum rpb_content kind);

/* Appends wall_ms as UTC ISO-8601 with ms ("2026-12-01T14:09:29.878Z", 24
 * bytes, no NUL); returns the new end. */
char *ingest_iso_ms(char *p, uint64_t wall_ms);
/* Formats a description record into buf (INGEST_DESC_MAX bytes); returns its
 * length. hex is the INGEST_HEX_LEN-digit digest; wall_ms is the creation
 * time, written as UTC ISO-8601 with ms. */
size_t ingest_desc_format(char *buf, rpb_slice id, rpb_slice parent, uint64_t size,
			  const char *hex, const char *mime, uint64_t wall_ms);

/* The fields of a description record, pointing into the record. */
struct ingest_desc {
	rpb_slice id, parent, size, xxh3, mime, created;
};
/* Splits a record into its "key=value" lines; false if a required field is
 * missing. Unknown lines (a probe's "title=") are skipped. */
bool ingest_desc_parse(const void *rec, size_t n, struct ingest_desc *d);
/* Whether a field equals the NUL-terminated s. */
bool ingest_field_eq(rpb_slice f, const char *s);

struct rpb_ledger;
struct rpb_verify_result;
/* Whether the ledger lists a failed step of probe number probe of thread t
 * that may have left it behind: its delete failed, or its create failed
 * inside commit (and the untimed cleanup after it may have failed too). */
bool ingest_probe_left(const struct rpb_job *job, const struct rpb_ledger *l, unsigned t,
		       uint64_t probe);
/* The pattern's verify hook (ingest_verify.c). */
enum rpb_status ingest_verify(const struct rpb_backend *b, struct rpb_store *st,
			      const struct rpb_job *job, const struct rpb_ledger *ledger,
			      struct rpb_verify_result *res, struct rpb_err *err);

#endif
