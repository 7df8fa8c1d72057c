/* What a Fedora-model run that died left in the file binary store, removed
 * by the next run's start: the temporary files of creates killed before
 * their rename, files no node of any run references (a create killed,
 * or failed inside commit, after its file was renamed and before its
 * transaction committed), and under fedora-4.5 every trash marker (a
 * create in doubt's; its binary, if referenced, is in use: ModeShape's
 * markAsUsed) and every spooled body (a create killed while spooling). Only when the store's marker says its last run
 * did not end (fed_binstore_was_open), and only in the store's own binary
 * directory (a binary_dir of the user's may serve other stores too): one
 * scan of every node document, then one walk of the files. */
#include <stdlib.h>
#include <string.h>

#include "ingest_fedora.h"

struct refs {
	char (*digest)[FED_SHA1_HEX + 1];
	size_t n, cap;
	bool nomem;
};

static int on_doc(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)key;
	struct refs *r = ctx;
	struct fed_doc d;
	if (!fed_doc_parse(val.data, val.len, &d) || d.type != FED_BINARY || !d.is_file ||
	    !d.digest.data || d.digest.len > FED_SHA1_HEX)
		return 0;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		void *p = realloc(r->digest, cap * sizeof *r->digest);
		if (!p) {
			r->nomem = true;
			return 1;
		}
		r->digest = p;
		r->cap = cap;
	}
	memcpy(r->digest[r->n], d.digest.data, d.digest.len);
	r->digest[r->n++][d.digest.len] = '\0';
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

struct walk {
	const struct fed_binstore *bs;
	struct refs *refs;
	enum fed_area area;
	uint64_t removed;
};

/* A trash marker or a spooled body: all are leftovers at a run's start. */
static void on_leftover(void *ctx, const char *name, size_t len)
{
	struct walk *w = ctx;
	fed_binstore_remove_in(w->bs, w->area, name, len);
	w->removed++;
}

static void on_file(void *ctx, const char *name, size_t len)
{
	struct walk *w = ctx;
	char digest[FED_SHA1_HEX + 1];
	size_t d = fed_binstore_temp_of(name, len);
	if (!d && len <= FED_SHA1_HEX) {
		memcpy(digest, name, len);
		digest[len] = '\0';
		if (bsearch(digest, w->refs->digest, w->refs->n, sizeof *w->refs->digest, by_name))
			return; /* referenced */
	}
	fed_binstore_remove_name(w->bs, name, len);
	w->removed++;
}

enum rpb_status fed_sweep(const struct rpb_backend *b, struct rpb_session *s,
			  const struct fed_binstore *bs, bool own_dir, uint64_t *removed,
			  struct rpb_err *err)
{
	*removed = 0;
	if (!own_dir || !fed_binstore_was_open(bs))
		return RPB_OK;
	struct refs refs = {0};
	rpb_slice lo = rpb_slice_make("f/", 2), hi = rpb_slice_make("f0", 2); /* '0' follows '/' */
	enum rpb_status st = b->begin(s, RPB_TXN_READ, err);
	if (!st)
		st = b->scan(s, RPB_T_DESCRIPTIONS, &lo, &hi, 0, on_doc, &refs, err);
	if (!st || st == RPB_NOT_FOUND)
		b->rollback(s);
	if (!st && refs.nomem)
		st = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the binary store's sweep");
	if (!st) {
		qsort(refs.digest, refs.n, sizeof *refs.digest, by_name);
		struct walk w = {bs, &refs, FED_AREA_FILES, 0};
		fed_binstore_each(bs, on_file, &w);
		w.area = FED_AREA_TRASH;
		fed_binstore_each_in(bs, FED_AREA_TRASH, on_leftover, &w);
		w.area = FED_AREA_SPOOL;
		fed_binstore_each_in(bs, FED_AREA_SPOOL, on_leftover, &w);
		*removed = w.removed;
	}
	free(refs.digest);
	return st;
}
