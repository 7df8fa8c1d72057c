/* A transaction's staged writes as a small ordered map, so reads inside the
 * transaction see them before LevelDB does (a write batch cannot be read).
 *
 * Keys are the backend's encoded keys (table byte + user key) ordered like
 * LevelDB's bytewise comparator, so the overlay merges directly with an
 * iterator. Keys and values live in one arena addressed by offsets; reset
 * keeps every buffer, so after warm-up a transaction allocates nothing. */
#ifndef RPB_LEVELDB_OVERLAY_H
#define RPB_LEVELDB_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

struct rpb_ovl_entry {
	size_t koff;   /* key offset in the arena */
	size_t voff;   /* value offset in the arena */
	uint32_t klen;
	uint32_t vlen; /* values are at most RPB_VALUE_MAX, which fits */
	bool tomb;     /* staged delete: hides the key from reads */
};

struct rpb_overlay {
	struct rpb_ovl_entry *ents; /* sorted by key */
	size_t n, cap;
	unsigned char *arena;
	size_t len, acap;
};

/* memcmp order, the shorter key first on a common prefix (LevelDB's). */
int rpb_ovl_keycmp(const void *a, size_t alen, const void *b, size_t blen);

/* Stages a put (tomb false) or a delete (tomb true, val ignored). Replaces an
 * entry for the same key. RPB_NOMEM on failure, the overlay unchanged. */
enum rpb_status rpb_ovl_put(struct rpb_overlay *ov, rpb_slice key, rpb_slice val,
			    bool tomb, struct rpb_err *err);

/* Finds key; returns true and its index when staged. */
bool rpb_ovl_find(const struct rpb_overlay *ov, rpb_slice key, size_t *idx);

/* Index of the first entry with key > k (after) or key >= k (!after); n when
 * there is none. */
size_t rpb_ovl_seek(const struct rpb_overlay *ov, rpb_slice k, bool after);

static inline rpb_slice rpb_ovl_key(const struct rpb_overlay *ov, size_t i)
{
	return rpb_slice_make(ov->arena + ov->ents[i].koff, ov->ents[i].klen);
}

static inline rpb_slice rpb_ovl_val(const struct rpb_overlay *ov, size_t i)
{
	return rpb_slice_make(ov->arena + ov->ents[i].voff, ov->ents[i].vlen);
}

/* Empties the map, keeping its memory for the next transaction. */
void rpb_ovl_reset(struct rpb_overlay *ov);
void rpb_ovl_free(struct rpb_overlay *ov);

#endif
