/* Ranks that disagree are refused (dist_check.h). */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "dist.h"
#include "dist_check.h"
#include "shown.h"

bool rpb_fields_open(struct rpb_fields *l)
{
	l->text = NULL;
	l->len = 0;
	l->f = open_memstream(&l->text, &l->len);
	return l->f != NULL;
}

void rpb_fields_add(struct rpb_fields *l, const char *name, const char *value)
{
	fputs(name, l->f);
	fputc('\0', l->f);
	fputs(value ? value : "", l->f);
	fputc('\0', l->f);
}

void rpb_fields_add_json(struct rpb_fields *l, const char *prefix, const json_t *obj)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		char *name = NULL;
		if (asprintf(&name, "%s.%s", prefix, key) < 0)
			continue;
		if (json_is_object(v)) {
			rpb_fields_add_json(l, name, v);
		} else {
			char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
			rpb_fields_add(l, name, text ? text : "?");
			free(text);
		}
		free(name);
	}
}

bool rpb_fields_close(struct rpb_fields *l)
{
	if (fclose(l->f) != 0) {
		free(l->text);
		l->text = NULL;
		return false;
	}
	return true;
}

void rpb_fields_free(struct rpb_fields *l)
{
	free(l->text);
	l->text = NULL;
}

void rpb_file_digest(const char *path, char out[32])
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	XXH3_state_t *st = f ? XXH3_createState() : NULL;
	bool ok = st && XXH3_64bits_reset(st) == XXH_OK;
	char buf[65536];
	for (size_t got; ok && (got = fread(buf, 1, sizeof buf, f)) > 0;)
		ok = XXH3_64bits_update(st, buf, got) == XXH_OK;
	ok = ok && !ferror(f);
	if (ok)
		snprintf(out, 32, "%016" PRIx64, (uint64_t)XXH3_64bits_digest(st));
	else
		snprintf(out, 32, "unreadable");
	XXH3_freeState(st);
	if (f)
		fclose(f);
}

/* The value of the field name in a list, or NULL. */
static const char *field(const char *text, size_t len, const char *name)
{
	for (size_t i = 0; i < len;) {
		const char *k = text + i, *v = k + strlen(k) + 1;
		if (v >= text + len)
			return NULL;
		if (!strcmp(k, name))
			return v;
		i = (size_t)(v - text) + strlen(v) + 1;
	}
	return NULL;
}

/* The first field of a that b lacks or holds otherwise, or NULL. */
static const char *first_difference(const char *a, size_t alen, const char *b, size_t blen)
{
	for (size_t i = 0; i < alen;) {
		const char *k = a + i, *v = k + strlen(k) + 1;
		if (v >= a + alen)
			return NULL;
		const char *w = field(b, blen, k);
		if (!w || strcmp(v, w))
			return k;
		i = (size_t)(v - a) + strlen(v) + 1;
	}
	return NULL;
}

int rpb_dist_check(const struct rpb_fields *l, char *msg, size_t n)
{
	msg[0] = '\0';
	if (!rpb_dist_on())
		return 0;
	int me = rpb_dist_rank();
	/* First the digest: the whole list goes only when one differs. */
	uint64_t head[2] = {XXH3_64bits(l->text, l->len), l->len};
	uint64_t zero[2];
	memcpy(zero, head, sizeof head);
	rpb_dist_bcast(zero, sizeof zero);
	if (rpb_dist_agree(zero[0] == head[0] && zero[1] == head[1]))
		return 0;
	size_t zlen = (size_t)zero[1];
	char *theirs = me == 0 ? l->text : malloc(zlen + 1);
	if (!theirs || zlen > INT_MAX) { /* a collective cannot be left: end the job */
		fprintf(stderr, "rank %d: out of memory for rank 0's settings (%zu bytes)\n", me, zlen);
		exit(2);
	}
	rpb_dist_bcast(theirs, zlen);
	const char *name = first_difference(l->text, l->len, theirs, zlen);
	if (!name)
		name = first_difference(theirs, zlen, l->text, l->len);
	int first = rpb_dist_min(me != 0 && name ? me : INT_MAX);
	if (first == me) {
		char mine_s[RPB_SHOWN_SIZE], theirs_s[RPB_SHOWN_SIZE];
		const char *mine = field(l->text, l->len, name), *zv = field(theirs, zlen, name);
		snprintf(msg, n, "rank %d differs from rank 0 in %s: %s here, %s at rank 0; every rank "
			 "must run the same program, workload, options, --out and --dir", me, name,
			 mine ? rpb_shown(mine_s, sizeof mine_s, mine) : "(none)",
			 zv ? rpb_shown(theirs_s, sizeof theirs_s, zv) : "(none)");
	}
	if (theirs != l->text)
		free(theirs);
	return -1;
}
