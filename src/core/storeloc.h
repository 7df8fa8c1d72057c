/* Claiming a store: rpbench marks every store it creates and empties (with
 * --fresh) or writes into only stores that carry its mark, so it never
 * damages data it did not create. */
#ifndef RPB_STORELOC_H
#define RPB_STORELOC_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

#define RPB_DIR_MARK ".rpbench-store"

/* Embedded backends, before open: a missing or empty directory is created
 * and marked; a marked one is accepted; any other non-empty directory is
 * refused. Then the run's lock is taken (storelock.h; refused while another
 * process holds the store) and, with fresh, the directory is emptied but for
 * the mark and the lock's files. *lock_fd holds the lock: keep it open until
 * the store is closed. */
int rpb_storedir_claim(const char *dir, bool fresh, int *lock_fd, char *msg, size_t n);

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
