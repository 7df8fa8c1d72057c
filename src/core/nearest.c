/* The nearest known name (nearest.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nearest.h"
#include "options.h"
#include "shown.h"

#define NAME_LIMIT 64

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

size_t rpb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > NAME_LIMIT || lb > NAME_LIMIT)
		return SIZE_MAX;
	/* Three rows of the dynamic-programming table: the swap looks two back. */
	size_t rows[3][NAME_LIMIT + 1], *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

void rpb_nearest_init(struct rpb_nearest *nr, const char *word)
{
	*nr = (struct rpb_nearest){.word = word, .best = NULL, .dist = SIZE_MAX};
}

void rpb_nearest_offer(struct rpb_nearest *nr, const char *candidate)
{
	if (!candidate || !nr->word)
		return;
	size_t d = rpb_edit_distance(nr->word, candidate);
	if (d < nr->dist) {
		nr->dist = d;
		nr->best = candidate;
	}
}

const char *rpb_nearest_best(const struct rpb_nearest *nr)
{
	if (!nr->best || nr->dist == 0 || nr->dist > 3 || nr->dist * 3 > strlen(nr->best) + 1)
		return NULL;
	return nr->best;
}

bool rpb_nearest_hint(char *buf, size_t n, const struct rpb_nearest *nr, const char *prefix,
		      const char *suffix)
{
	const char *best = rpb_nearest_best(nr);
	if (best)
		rpb_cat(buf, n, " (did you mean %s%s%s?)", prefix, best, suffix);
	return best != NULL;
}

void rpb_nearest_unknown_key(char *err, size_t n, const char *section,
			     const struct rpb_optdef *opts, const char *key)
{
	char k[RPB_SHOWN_SIZE];
	struct rpb_nearest nr;
	rpb_nearest_init(&nr, key);
	for (const struct rpb_optdef *d = opts; d && d->key; d++)
		rpb_nearest_offer(&nr, d->key);
	snprintf(err, n, "unknown key '%s' in [%s]", rpb_shown(k, sizeof k, key), section);
	rpb_nearest_hint(err, n, &nr, "", "");
	if (!opts || !opts->key) {
		rpb_cat(err, n, "; [%s] has no keys, remove it", section);
		return;
	}
	rpb_cat(err, n, "; valid keys: ");
	rpb_opt_list_keys(err, n, opts);
}
