/* The ingest pattern's Fedora model (model = fedora): a "Create Binary
 * Resource" as Fedora 4.5 persisted it through ModeShape, shared by the run
 * (ingest_fedora.c), verify (ingest_fedora_verify.c) and the tests.
 *
 * Every create mints a UUID from (seed, thread, op) and places the new node
 * under a pairtree of branch nodes made from its first hex digits
 * (pairtree_count levels of pairtree_length: /ab/cd/ef/01/<uuid>), creating
 * missing branch nodes on the way. Every node is one document in the
 * descriptions table, keyed f/<run tag><path> (the root's path is "/"),
 * lines of key=value in this order:
 *
 *   type=binary|pairtree|container
 *   created=<ISO ms>  modified=<ISO ms>
 *   size=<n>  mime=<type>  sha1=<40 hex> (or xxh3=<32 hex> with digest =
 *   none)  store=inline|file                     (binaries)
 *   op=<thread>/<op> or probe=<thread>/<probe>   (which operation made it)
 *   title=<text>                                 (a PATCH adds it)
 *   children=<n>  blocks=<b>                     (containers and branches)
 *   child=<name>                                 (child_block = 0: each child)
 *   <an empty line>, then the content when store=inline
 *
 * With child_block = K > 0 the child names live in block documents of at
 * most K names in the members table, keyed f/<run tag><path>#<block %06>,
 * one name per line, as ModeShape splits a large child list: adding a
 * child rewrites the parent's small document and the last block only. With
 * child_block = 0 the parent's document holds every name, and each create
 * rewrites all of them (the cost grows with the children).
 *
 * With collection = tiny|small|large|huge (ModeShape's unordered
 * collections, bucket id length N = 1..4 hex digits) the names live in
 * bucket documents in the members table, keyed f/<run tag><path>#<id>,
 * <id> the first N hex digits of the SHA-1 of the child's name, one name
 * per line; the parent's document says bucket_id_length=<N> and holds a
 * bucket=<id> line for each bucket there is (blocks= counts them). Adding
 * a child rewrites its bucket and the parent's document (its children=
 * count changes), which grows by a line when the bucket is new.
 *
 * With members = N a run on a preloaded store writes the container
 * /members (once), a child of the root, whose document holds a
 * member=<path> line for each of the first N objects' nt:file nodes
 * (object k: thread k % threads's object k / threads).
 *
 * Binaries of at least binary_threshold bytes (0: none) go to the file
 * binary store (ingest_binstore.c) named by their SHA-1; smaller ones are
 * inline. */
#ifndef RPB_INGEST_FEDORA_H
#define RPB_INGEST_FEDORA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ingest.h"
#include "store.h"
#include "storeloc.h"

#define FED_UUID_LEN 36
#define FED_LEVELS_MAX 8       /* pairtree_count's maximum */
#define FED_PATH_MAX 160       /* /<8 x (8 + 1)>/<uuid> and the probe paths fit */
#define FED_KEY_MAX (FED_PATH_MAX + 60)
#define FED_HEAD_MAX 2048      /* a header without child= lines */
#define FED_SHA1_HEX 40
#define FED_PROBE_CONTAINER "/probe" /* the probes' container, under the root */

/* A node's path and its ancestors': at[0] is the root "/", at[depth] the
 * node itself. */
struct fed_path {
	char uuid[FED_UUID_LEN + 1];
	char at[FED_LEVELS_MAX + 2][FED_PATH_MAX];
	size_t len[FED_LEVELS_MAX + 2];
	unsigned depth;
};

/* Mints create op of thread's UUID and places it under the pairtree. */
void fed_place(struct fed_path *p, const struct rpb_ingest_opts *o, uint64_t seed, unsigned thread,
	       uint64_t op);
/* Probe number probe of thread: /probe/<thread %04u>-<probe %012>. */
void fed_probe_place(struct fed_path *p, unsigned thread, uint64_t probe);
/* f/<tag><path>; f/<tag><path>#<block %06> for a child block. */
size_t fed_node_key(char *buf, const char *tag, const char *path, size_t len);
size_t fed_block_key(char *buf, const char *tag, const char *path, size_t len, uint64_t block);
/* A collection's bucket: f/<tag><path>#<id>; the id of name's bucket, the
 * first id_len (1..4) hex digits of its SHA-1 (BucketId). */
#define FED_BUCKET_ID_MAX 4
size_t fed_bucket_key(char *buf, const char *tag, const char *path, size_t len, const char *id);
bool fed_bucket_id(const char *name, size_t nlen, unsigned id_len, char id[FED_BUCKET_ID_MAX + 1]);
/* The last component of a path: the node's name in its parent's list. */
const char *fed_name(const char *path, size_t len, size_t *nlen);

/* binary: a jcr:content node, which holds the data (inline) or its digest
 * (store=file); file: the nt:file node above it; tombstone: what a DELETE
 * leaves (Fedora 4.5's fedora:Tombstone). */
enum fed_type { FED_BINARY = 0, FED_PAIRTREE, FED_CONTAINER, FED_FILE, FED_TOMBSTONE, FED_NTYPES };
/* The name of a file node's one child, the node holding the binary. */
#define FED_CONTENT_NAME "jcr:content"
/* f/<tag><path>/jcr:content: where a binary's data node is. */
size_t fed_content_key(char *buf, const char *tag, const char *path, size_t len);
/* r/<tag>/<sha1>-ref: a stored binary's reference document (ModeShape's
 * "<sha1>-ref", {sha1, refCount}), in the descriptions table. */
size_t fed_ref_key(char *buf, const char *tag, const char *sha1);
/* Parses a reference document's count; false if it is not one. */
bool fed_ref_parse(const void *buf, size_t n, uint64_t *count);
/* Writes a reference document; returns its length (buf: FED_REF_MAX). */
#define FED_REF_MAX 96
size_t fed_ref_format(char *buf, const char *sha1, uint64_t count);
extern const char *const fed_type_names[FED_NTYPES];

/* A document parsed: the slices point into it. */
struct fed_doc {
	enum fed_type type;
	rpb_slice created, modified, mime, op, probe, title;
	rpb_slice digest;        /* the content's digest, hex: the file's name */
	bool digest_is_sha1;     /* sha1=, else xxh3= (digest = none) */
	bool has_size;
	uint64_t size, children, blocks;
	uint64_t bucket_len;     /* bucket_id_length=: a collection's; 0 = none */
	bool is_file;            /* store=file: the content is in the binary store */
	rpb_slice child_lines;   /* the child= lines, contiguous */
	rpb_slice bucket_lines;  /* the bucket= lines, contiguous */
	rpb_slice member_lines;  /* the member= lines (/members), contiguous */
	rpb_slice content;       /* store=inline: the content */
};
/* Parses a document; false if it is malformed (no type, a line without
 * '=', no empty line, inline content whose length is not size). */
bool fed_doc_parse(const void *buf, size_t n, struct fed_doc *d);
/* Calls fn for every child name in a document's child= lines or a block. */
typedef void (*fed_name_fn)(void *ctx, const char *name, size_t len);
void fed_doc_children(const struct fed_doc *d, fed_name_fn fn, void *ctx);
void fed_block_names(const void *block, size_t n, fed_name_fn fn, void *ctx);
/* Calls fn for every bucket id in a document's bucket= lines, every path
 * in its member= lines. */
void fed_doc_buckets(const struct fed_doc *d, fed_name_fn fn, void *ctx);
void fed_doc_members(const struct fed_doc *d, fed_name_fn fn, void *ctx);
/* The resource members = N writes, under the run's root. */
#define FED_MEMBERS "/members"

/* What a new document's header says. created_ms = 0 copies created from
 * base; base (may be NULL) also gives every field not set here. */
struct fed_head {
	enum fed_type type;
	uint64_t created_ms, modified_ms;
	uint64_t size;
	const char *mime;
	const char *digest;      /* hex; NULL: none */
	bool digest_is_sha1;
	bool is_file;
	char made_kind;          /* 'o' op, 'p' probe, 0 none */
	unsigned made_thread;
	uint64_t made_n;
	rpb_slice title;
	uint64_t children, blocks;
	/* A collection's (bucket_len > 0): base's bucket= lines are kept, but
	 * drop_bucket's, and new_bucket's added (each NULL: none). */
	unsigned bucket_len;
	const char *new_bucket, *drop_bucket;
	const char *tag;         /* the run tag, for the ModeShape-sized ms= line */
	const char *path;        /* the node's path (NUL-terminated), likewise */
};
/* Writes a document into out (its contents replaced): the header, then
 * base's child= lines when keep_children, then one more child= line when
 * extra_child is not NULL, the empty line and content. base and content
 * must not point into out (read the old document into another buffer). */
enum rpb_status fed_doc_write(struct rpb_buf *out, const struct fed_head *h,
			      const struct fed_doc *base, bool keep_children,
			      const char *extra_child, size_t extra_len, rpb_slice content,
			      struct rpb_err *err);

/* SHA-1 (OpenSSL EVP) of n bytes as 40 lower-case hex digits and a NUL;
 * false if the library failed. */
bool fed_sha1_hex(const void *p, size_t n, char out[FED_SHA1_HEX + 1]);

/* The file binary store of a run: where, and whether writes are synced. */
struct fed_binstore {
	char dir[4096];
	bool sync;
	bool was_open; /* the marker of a run that did not close it was there */
	bool marked;   /* this open made the marker */
	bool sparse;   /* the verb preload's preload_content = sparse: files are holes */
};
/* dir: binary_dir, or the default: <store dir>/binaries for a store in a
 * directory, <results dir>/binaries for a server's. With create (a run):
 * created, or accepted when empty or marked as owner's (the store's name,
 * written into its FED_BINSTORE_MARK), else refused (rpb_dir_claim).
 * Without (verify): RPB_NOT_FOUND when it is not there, refused when it
 * carries no mark, so verify never walks a directory no run made. */
#define FED_BINSTORE_MARK RPB_OWNED_MARK
enum rpb_status fed_binstore_open(struct fed_binstore *bs, const struct rpb_ingest_opts *o,
				  const char *store_dir, const char *results_dir, const char *owner,
				  bool sync, bool create, struct rpb_err *err);
/* <dir>/<sha1[0..1]>/<sha1[2..3]>/<sha1[4..5]>/<sha1> (sha1: the content
 * digest's hex), ModeShape's three levels. The trash tree and the temporary
 * files live beside them in <dir>/trash and <dir>/tmp. */
#define FED_BINSTORE_TRASH "trash"
#define FED_BINSTORE_TMP "tmp"
size_t fed_binstore_path(const struct fed_binstore *bs, const char *sha1, char *out, size_t n);
/* Stores n bytes as the file named sha1 unless one is there (same content:
 * *created = false): a temporary file made with O_CREAT|O_EXCL, written,
 * synced with its directory when bs->sync, then renamed (before_rename,
 * when not NULL, is called with arg just before: a fault's point). ENOSPC
 * is disk-full like any other store's. */
typedef void (*fed_hook_fn)(void *arg);
enum rpb_status fed_binstore_put(const struct fed_binstore *bs, const char *sha1, const void *p,
				 size_t n, bool *created, fed_hook_fn before_rename, void *arg,
				 struct rpb_err *err);
/* fedora-4.5: the body goes through a temporary file in <dir>/tmp, as
 * ModeShape's storeValue writes every body (small ones included) to one
 * while it hashes it; back (may be NULL) gets the bytes read back from it,
 * as a body below the threshold is. Never synced; removed at once. */
enum rpb_status fed_binstore_spool(const struct fed_binstore *bs, const void *p, size_t n,
				   unsigned char *back, struct rpb_err *err);
/* fedora-4.5: the empty marker <dir>/trash/<3 levels>/<sha1> (ModeShape's
 * markAsUnused of a new binary value), and its removal once the node that
 * uses it has committed (markAsUsed); the directories stay. */
enum rpb_status fed_binstore_trash_mark(const struct fed_binstore *bs, const char *sha1,
					struct rpb_err *err);
void fed_binstore_trash_clear(const struct fed_binstore *bs, const char *sha1);
/* Reads the file named sha1 into out; RPB_NOT_FOUND when there is none. */
enum rpb_status fed_binstore_get(const struct fed_binstore *bs, const char *sha1,
				 struct rpb_buf *out, struct rpb_err *err);
/* Removes the file named sha1 (a create that failed, a deleted probe). */
void fed_binstore_remove(const struct fed_binstore *bs, const char *sha1);
/* Whether the file of sha1 is one a sparse preload made: size bytes, no
 * block allocated (preload_content = sparse). */
bool fed_binstore_elided(const struct fed_binstore *bs, const char *sha1, uint64_t size);
/* Calls fn with every file name (a SHA-1) in the store, and with names
 * that are not one (leftover temporary files) too; returns the count. */
uint64_t fed_binstore_each(const struct fed_binstore *bs, fed_name_fn fn, void *ctx);
/* For a name fed_binstore_each gave: the length of the digest it is the
 * temporary file of (fed_binstore_put's, left by a create killed before
 * its rename), or 0 when it is no temporary file. */
size_t fed_binstore_temp_of(const char *name, size_t len);
/* Removes such a temporary file, or the file of a digest, by the name
 * fed_binstore_each gave (anything else is left alone). */
void fed_binstore_remove_name(const struct fed_binstore *bs, const char *name, size_t len);
/* The store's three parts: its files, the trash tree of markers (named by
 * digest, three levels deep) and the spool of bodies on their way
 * (fedora-4.5's temporary files, one level). A marker or a spooled body is
 * there after a run only if a create was in flight when it died (or, a
 * marker, failed inside its commit): in doubt, swept by the next run. */
enum fed_area { FED_AREA_FILES = 0, FED_AREA_TRASH, FED_AREA_SPOOL };
uint64_t fed_binstore_each_in(const struct fed_binstore *bs, enum fed_area a, fed_name_fn fn,
			      void *ctx);
/* Removes a name fed_binstore_each_in gave for area a, if it is one the
 * store makes there (a digest; in the spool a body's temporary file). */
void fed_binstore_remove_in(const struct fed_binstore *bs, enum fed_area a, const char *name,
			    size_t len);
/* A marker that a run is writing the store: made by fed_binstore_open
 * with create, removed by fed_binstore_close; found at the next open, it
 * says the last run died (its leftovers are then swept). */
bool fed_binstore_was_open(const struct fed_binstore *bs);
void fed_binstore_close(struct fed_binstore *bs);

/* At a run's start, on its own session: removes what the last run left in
 * doubt in bs when it died (ingest_fedora_sweep.c); own_dir: bs is the
 * store's own binary directory, not a binary_dir the user named. */
enum rpb_status fed_sweep(const struct rpb_backend *b, struct rpb_session *s,
			  const struct fed_binstore *bs, bool own_dir, uint64_t *removed,
			  struct rpb_err *err);

struct rpb_ledger;
struct rpb_verify_result;
/* The pattern's verify for model = fedora (ingest_fedora_verify.c). */
enum rpb_status ingest_fedora_verify(const struct rpb_backend *b, struct rpb_store *st,
				     const struct rpb_job *job, const struct rpb_ledger *ledger,
				     struct rpb_verify_result *res, struct rpb_err *err);

#endif
