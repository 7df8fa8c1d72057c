/* The key layout of the embedded ordered key-value backends (LevelDB,
 * RocksDB): every table in one keyspace, each key its table's byte
 * followed by the caller's key, so the bytewise comparator orders every
 * table by memcmp, shorter key first (store.h), and a scan stops at the
 * first key of another table. */
#ifndef RPB_TABLEKEY_H
#define RPB_TABLEKEY_H

#include "store.h"

/* An encoded key: the table byte and at most RPB_KEY_MAX bytes. */
#define RPB_TKEY_MAX (1 + RPB_KEY_MAX)

/* The key prefix of table t. The store's own records (META) sort before
 * every table: a fill appending to the end of the last table (raw) then
 * has no record after it, so a skip list does not compare each insert
 * against one at every level it descends (LevelDB: 2 more compares per
 * put, about 390 instructions). bench/calibrate-ycsb.sh's direct loop
 * reads the raw table of a store by its byte (--table-byte). */
static inline unsigned char rpb_tkey_byte(enum rpb_table t)
{
	return t == RPB_T_META ? 0 : (unsigned char)(t + 1);
}

/* Builds table byte + key in buf (RPB_TKEY_MAX bytes) as *out. A bound
 * (is_bound) may be empty, a key may not; RPB_INVALID names the problem. */
enum rpb_status rpb_tkey_encode(unsigned char *buf, enum rpb_table t, rpb_slice key,
				bool is_bound, rpb_slice *out, struct rpb_err *err);

/* Compares as store.h orders keys: memcmp, the shorter first on a tie. */
int rpb_tkey_cmp(const void *a, size_t alen, const void *b, size_t blen);

#endif
