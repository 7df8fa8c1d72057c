/* The LevelDB backend's table, its pure error classifier (testable without
 * a store) and its debug counter. */
#ifndef RPB_LEVELDB_BACKEND_H
#define RPB_LEVELDB_BACKEND_H

#include "store.h"

extern const struct rpb_backend rpb_backend_leveldb;

/* Maps a LevelDB status string ("IO error: ...: No space left on device",
 * "Corruption: ...", ...) to an error class. */
enum rpb_status rpb_leveldb_classify(const char *status_msg);

/* Debug counter, so tests can see that a fast path stays taken: LevelDB
 * snapshots taken since the store was opened (a transaction of one get or
 * of plain writes takes none). */
uint64_t rpb_leveldb_snapshots(struct rpb_store *st);

#endif
