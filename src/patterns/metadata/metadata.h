/* Internal to the metadata pattern (tachyon-perf's Connect test): the
 * file-system metadata model kept in the store, shared by the run
 * (metadata.c), the namespace operations (metadata_ns.c), verify
 * (metadata_verify.c) and the report (metadata_report.c).
 *
 * Each run has a file system of its own, rooted at an inode of its own:
 *   names   <parent id>/<name>  ->  <child id>      one directory entry
 *   inodes  <id>  ->  type=dir|file, parent=<id>, name=<name>,
 *                     created=<ms>, changed=<ms>    (one line each)
 * Ids are "<run tag>:<node>:<owner>:<seq %012>". The owner is "s" for the
 * directories prepare creates along the workspace path (seq = depth; the
 * root, whose parent and name are empty, is 0), or the thread ("%04u")
 * whose own counter made it: its preload entries take 0..preload-1, then
 * the mkdir of cycle c (operations 4c..4c+3) takes preload + c. So there is
 * no shared counter, and ids never meet across runs, nodes or threads.
 *
 * Paths: thread t of a node works in <workspace>/<node>: its target is
 * <workspace>/<node>/<t>, renamed to <workspace>/<node>/<t>-, and its
 * preload entries are the files <workspace>/<node>/<t>.<k>. */
#ifndef RPB_METADATA_H
#define RPB_METADATA_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "store.h"
#include "workload.h"

/* The [metadata] section (metadata_options.c). The strings are resolved by
 * metadata_finish (empty workspace or node: the defaults). */
#define RPB_MD_WORKSPACE_MAX 120
#define RPB_MD_NODE_MAX 48
#define RPB_MD_WORKSPACE_DEFAULT "/tmp/tachyon-perf-workspace"
struct rpb_metadata_opts {
	char workspace[RPB_MD_WORKSPACE_MAX + 1]; /* absolute path prefix */
	char node[RPB_MD_NODE_MAX + 1];           /* node name in paths and reports */
	uint64_t preload;            /* entries created beside each target first */
	uint64_t inject_failure_at;  /* test aid: thread 0's Nth op fails; 0 = never */
	bool trace;                  /* write trace.csv: one row per operation */
};
extern const struct rpb_optdef metadata_options[];
int metadata_finish(void *config, const struct rpb_job *job, const char *where, char *msg,
		  size_t n);

static inline const struct rpb_metadata_opts *md_opts(const struct rpb_job *job)
{
	return job->config;
}

#define MD_DEPTH_MAX 64  /* path components below the root */
#define MD_ID_MAX 96     /* any id, with its NUL */
#define MD_NAME_MAX 128  /* any name: a workspace part, a node, "<t>.<k>" */
#define MD_KEY_MAX (MD_ID_MAX + MD_NAME_MAX)
#define MD_PATH_MAX 256
#define MD_REC_MAX 512   /* an inode record */
#define MD_OWNER_SETUP UINT_MAX

/* The four operations of the cycle; operation i of a thread is i % 4. */
enum md_op { MD_MKDIR = 0, MD_GETFILEID, MD_RENAME, MD_DELETE, MD_NOPS };
extern const char *const md_op_names[MD_NOPS];

static inline enum md_op md_op_of(uint64_t i)
{
	return (enum md_op)(i % MD_NOPS);
}

/* The id seq that the mkdir of operation i's cycle gives its directory. */
static inline uint64_t md_cycle_seq(const struct rpb_metadata_opts *o, uint64_t i)
{
	return o->preload + i / MD_NOPS;
}

/* The directory the threads of a node work in: <workspace>/<node>, as text
 * and as components (pointing into text; the root has none). */
struct md_path {
	char text[MD_PATH_MAX];
	char parts[MD_PATH_MAX];
	const char *comp[MD_DEPTH_MAX];
	size_t len[MD_DEPTH_MAX];
	unsigned n;
};
/* Fills p; false if the path is too long or too deep (the options were
 * checked by metadata_finish, so only a hand-edited result file gets here). */
bool md_node_dir(struct md_path *p, const struct rpb_metadata_opts *o);

size_t md_id(char *buf, const char *tag, const char *node, unsigned owner, uint64_t seq);
/* "<parent>/<name>" */
size_t md_name_key(char *buf, const char *parent, size_t plen, const char *name, size_t nlen);
/* "<t>" or, renamed, "<t>-". */
size_t md_target_name(char *buf, unsigned thread, bool renamed);
/* "<t>.<k>" */
size_t md_preload_name(char *buf, unsigned thread, uint64_t k);

enum md_type { MD_DIR = 0, MD_FILE };
extern const char *const md_type_names[2];
size_t md_inode_format(char *buf, enum md_type type, const char *parent, size_t plen,
		       const char *name, size_t nlen, uint64_t created_ms, uint64_t changed_ms);
/* The fields of an inode record, pointing into it. */
struct md_inode {
	rpb_slice type, parent, name, created, changed;
};
/* Splits a record written by md_inode_format; false if it is not one. */
bool md_inode_parse(const void *rec, size_t n, struct md_inode *out);
bool md_slice_eq(rpb_slice a, const void *b, size_t blen);

/* ---- namespace operations (metadata_ns.c) ----
 * Each runs inside a transaction the caller began and ends (commit on
 * RPB_OK, rollback otherwise). Failures, with err filled in general terms
 * that the caller may rewrite with the path:
 *   RPB_NOT_FOUND  a path component or an id is missing (no such file);
 *   RPB_EXISTS     the name is taken (buf then holds the id that has it);
 *   RPB_CORRUPT    the tables disagree (an entry without its inode, ...);
 *   anything else  the store failed (and rolled back).
 * With blind set (a backend that keeps nothing) absent entries are taken
 * as present, so the operations issue the same calls and never fail. */
struct md_ns {
	const struct rpb_backend *b;
	struct rpb_session *s;
	struct rpb_buf *buf; /* scratch, MD_REC_MAX reserved by the caller */
	bool blind;
};

/* Resolves the first ncomp components of p from the root, then last (if
 * lastlen > 0), one names lookup each; the id found goes to id/idlen. */
enum rpb_status md_lookup(const struct md_ns *ns, const char *root, size_t rlen,
			  const struct md_path *p, unsigned ncomp, const char *last, size_t lastlen,
			  char *id, size_t *idlen, struct rpb_err *err);
/* Creates name in parent as inode id of type. Fails if the name exists. */
enum rpb_status md_create(const struct md_ns *ns, const char *parent, size_t plen,
			  const char *name, size_t nlen, const char *id, size_t idlen,
			  enum md_type type, uint64_t now_ms, struct rpb_err *err);
/* Moves inode id to new_parent/new_name, both tables in the one transaction.
 * Renaming an inode to where it already is succeeds and writes nothing. */
enum rpb_status md_rename(const struct md_ns *ns, const char *id, size_t idlen,
			  const char *new_parent, size_t nplen, const char *new_name, size_t nnlen,
			  uint64_t now_ms, struct rpb_err *err);
/* Deletes inode id and its entry; recursive: its whole subtree first, else
 * a directory with entries fails with RPB_EXISTS (not empty). */
enum rpb_status md_delete(const struct md_ns *ns, const char *id, size_t idlen, bool recursive,
			  struct rpb_err *err);

/* ---- the other parts of the pattern ---- */
struct rpb_runner;
struct rpb_ledger;
struct rpb_verify_result;
enum rpb_status metadata_verify(const struct rpb_backend *b, struct rpb_store *st,
				const struct rpb_job *job, const struct rpb_ledger *ledger,
				struct rpb_verify_result *res, struct rpb_err *err);
/* report.txt in tachyon-perf's total-report layout, from result.json. */
void metadata_write_report(struct rpb_runner *rn, const json_t *result, FILE *f);
#define MD_TRACE_FILE "trace.csv"

#endif
