/* Claiming a store: rpbench marks every store it creates and empties (with
 * --fresh) or writes into only stores that carry its mark, so it never
 * damages data it did not create. */
#ifndef RPB_STORELOC_H
#define RPB_STORELOC_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

#define RPB_DIR_MARK ".rpbench-store"
/* The mark of a directory a store owns besides its own (a binary store). */
#define RPB_OWNED_MARK ".rpbench-binaries"

/* A directory rpbench writes into: where, the mark that makes it rpbench's,
 * the store it belongs to (written into the mark; NULL for the store's own
 * directory, whose mark says only that it is a store), and the words of a
 * refusal ("binary store directory", "ingest.binary_dir"). */
struct rpb_dir_use {
	const char *dir, *mark, *owner, *noun, *option;
};

/* The one rule for every directory rpbench writes into: a missing one is
 * created, and a new or empty one gets the mark; one that carries the mark
 * (naming owner, when given) is accepted; any other is refused with one line
 * naming the option and the fix. *was_marked (may be NULL): the mark was
 * there before. */
int rpb_dir_claim(const struct rpb_dir_use *u, bool *was_marked, char *msg, size_t n);

/* For verify: does dir carry the mark (a regular file) that a run made? */
bool rpb_dir_has_mark(const char *dir, const char *mark);

/* Embedded backends, before open: a missing or empty directory is created
 * and marked; a marked one is accepted; any other non-empty directory is
 * refused. Then the run's lock is taken (storelock.h; refused while another
 * process holds the store) and, with fresh, the directory is emptied but for
 * the mark and the lock's files, once it is sure the store holds nothing but
 * files the library makes (own_files, fnmatch patterns) and directories
 * marked RPB_OWNED_MARK (else refused). *lock_fd holds the lock: keep it open until
 * the store is closed. */
int rpb_storedir_claim(const char *dir, bool fresh, const char *const *own_files, int *lock_fd,
		       char *msg, size_t n);

/* A start that failed, under the lock rpb_storedir_claim took: a store
 * directory that holds nothing but the mark and the lock's files is removed
 * with them; one that holds anything else is left as it is (-1). */
int rpb_storedir_unclaim(const char *dir);

/* Every backend, after open: checks the mark inside the store (a record in
 * the meta table). An unmarked empty store is marked; an unmarked store with
 * data is refused; with fresh, a marked store is emptied through the
 * interface. */
int rpb_store_claim(const struct rpb_backend *b, struct rpb_store *st, bool fresh, char *msg,
		    size_t n);

#endif
