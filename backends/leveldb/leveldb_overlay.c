/* The LevelDB backend's overlay of staged writes; see leveldb_overlay.h. */
#include <stdlib.h>
#include <string.h>

#include "leveldb_overlay.h"

int rpb_ovl_keycmp(const void *a, size_t alen, const void *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int ovl_cmp_at(const struct rpb_overlay *ov, size_t i, rpb_slice k)
{
	const struct rpb_ovl_entry *e = &ov->ents[i];
	return rpb_ovl_keycmp(ov->arena + e->koff, e->klen, k.data, k.len);
}

size_t rpb_ovl_seek(const struct rpb_overlay *ov, rpb_slice k, bool after)
{
	size_t lo = 0, hi = ov->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = ovl_cmp_at(ov, mid, k);
		if (c < 0 || (after && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool rpb_ovl_find(const struct rpb_overlay *ov, rpb_slice key, size_t *idx)
{
	size_t i = rpb_ovl_seek(ov, key, false);
	*idx = i;
	return i < ov->n && ovl_cmp_at(ov, i, key) == 0;
}

static enum rpb_status ovl_arena_reserve(struct rpb_overlay *ov, size_t more,
					 struct rpb_err *err)
{
	if (more <= ov->acap - ov->len)
		return RPB_OK;
	size_t cap = ov->acap ? ov->acap : 4096;
	while (cap - ov->len < more)
		cap *= 2;
	unsigned char *p = realloc(ov->arena, cap);
	if (!p)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL,
				   "out of memory staging a write (%zu bytes in this transaction)", cap);
	ov->arena = p;
	ov->acap = cap;
	return RPB_OK;
}

static enum rpb_status ovl_ents_reserve(struct rpb_overlay *ov, struct rpb_err *err)
{
	if (ov->n < ov->cap)
		return RPB_OK;
	size_t cap = ov->cap ? ov->cap * 2 : 64;
	struct rpb_ovl_entry *p = realloc(ov->ents, cap * sizeof *p);
	if (!p)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL,
				   "out of memory staging a write (%zu keys in this transaction)", ov->n);
	ov->ents = p;
	ov->cap = cap;
	return RPB_OK;
}

static size_t ovl_append(struct rpb_overlay *ov, rpb_slice s)
{
	size_t off = ov->len;
	if (s.len)
		memcpy(ov->arena + off, s.data, s.len);
	ov->len += s.len;
	return off;
}

enum rpb_status rpb_ovl_put(struct rpb_overlay *ov, rpb_slice key, rpb_slice val,
			    bool tomb, struct rpb_err *err)
{
	if (tomb)
		val = rpb_slice_make(NULL, 0);
	size_t i;
	bool found = rpb_ovl_find(ov, key, &i);
	if (found) {
		struct rpb_ovl_entry *e = &ov->ents[i];
		/* Overwrite in place when it fits, so a key rewritten many
		 * times in one transaction does not grow the arena. */
		if (val.len > e->vlen) {
			enum rpb_status st = ovl_arena_reserve(ov, val.len, err);
			if (st)
				return st;
			e = &ov->ents[i];
			e->voff = ovl_append(ov, val);
		} else if (val.len) {
			memcpy(ov->arena + e->voff, val.data, val.len);
		}
		e->vlen = (uint32_t)val.len;
		e->tomb = tomb;
		return RPB_OK;
	}
	enum rpb_status st = ovl_ents_reserve(ov, err);
	if (!st)
		st = ovl_arena_reserve(ov, key.len + val.len, err);
	if (st)
		return st;
	memmove(&ov->ents[i + 1], &ov->ents[i], (ov->n - i) * sizeof ov->ents[0]);
	ov->n++;
	struct rpb_ovl_entry *e = &ov->ents[i];
	e->koff = ovl_append(ov, key);
	e->klen = (uint32_t)key.len;
	e->voff = ovl_append(ov, val);
	e->vlen = (uint32_t)val.len;
	e->tomb = tomb;
	return RPB_OK;
}

void rpb_ovl_reset(struct rpb_overlay *ov)
{
	ov->n = 0;
	ov->len = 0;
}

void rpb_ovl_free(struct rpb_overlay *ov)
{
	free(ov->ents);
	free(ov->arena);
	*ov = (struct rpb_overlay){0};
}
