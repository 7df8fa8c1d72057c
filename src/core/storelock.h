/* The lock on an embedded store: a run holds its store directory
 * exclusively for its whole life, verify holds it shared, so neither a
 * --fresh nor a second run can empty or write a store another process is
 * using, and verify never checks a store a run is still writing.
 *
 * The lock is flock() on the directory's .rpbench-store mark, held by an
 * open descriptor: the kernel drops it when the process ends, however it
 * ends (kill -9 included), so a dead run never blocks its store. A run also
 * writes its PID and start time to .rpbench-owner beside the mark, only to
 * name itself in the refusals; the lock, not that file, is the truth. */
#ifndef RPB_STORELOCK_H
#define RPB_STORELOCK_H

#include <stddef.h>

#include "store.h"

#define RPB_OWNER_FILE ".rpbench-owner"

/* Takes the lock of dir, which carries the mark, without waiting. Returns
 * the descriptor holding it, or -1 with a one-line msg:
 *   run:    "store DIR is in use by process PID (started TIME); wait for it or stop it"
 *   verify: "run PID is still writing this store (DIR); wait for it or stop it" */
int rpb_storelock_take(const char *dir, enum rpb_store_lock mode, char *msg, size_t n);

/* A run, once the lock is its own: writes its PID and start time to the
 * owner file (best effort; the lock holds either way). */
void rpb_storelock_name_owner(const char *dir);

/* For --fresh, under the lock: refuses (-1, msg) when another process holds
 * a POSIX lock on a file of the store (LevelDB's LOCK, SQLite's database or
 * its shared memory), such as a program that is not rpbench. */
int rpb_storelock_check_files(const char *dir, char *msg, size_t n);

/* Names that belong to the lock (the owner file and its temporary), which
 * neither make a store directory non-empty nor are emptied by --fresh. */
int rpb_storelock_is_own_name(const char *name);

#endif
