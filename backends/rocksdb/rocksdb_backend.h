/* The RocksDB backend's table and its pure error classifier (testable
 * without a store). */
#ifndef RPB_ROCKSDB_BACKEND_H
#define RPB_ROCKSDB_BACKEND_H

#include "store.h"

extern const struct rpb_backend rpb_backend_rocksdb;

/* Maps a RocksDB status string ("IO error: No space left on device: ...",
 * "Resource busy: ", "Corruption: ...", ...) to an error class. */
enum rpb_status rpb_rocksdb_classify(const char *status_msg);

/* The directory RocksDB's info log goes to: given, else (empty or NULL)
 * $TMPDIR/rpbench-rocksdb-<uid> (/tmp without TMPDIR), created private
 * (0700) and refused unless it is this user's private directory, so
 * another user cannot read or redirect it. */
enum rpb_status rpb_rocksdb_log_dir(const char *given, char *out, size_t n, struct rpb_err *err);

#endif
