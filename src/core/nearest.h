/* "did you mean ...?": the known name nearest to a misspelt one, by edit
 * distance, for messages about unknown keys, sections and options. */
#ifndef RPB_NEAREST_H
#define RPB_NEAREST_H

#include <stdbool.h>
#include <stddef.h>

struct rpb_nearest {
	const char *word; /* the unknown name */
	const char *best; /* the nearest candidate offered so far, or NULL */
	size_t dist;
};

void rpb_nearest_init(struct rpb_nearest *nr, const char *word);
/* Considers one known name (NULL is ignored). */
void rpb_nearest_offer(struct rpb_nearest *nr, const char *candidate);
/* The nearest candidate when it is close enough to be what was meant (at
 * most 3 edits, and at most one per three letters of it, with one for 2 to
 * 4 letters), or NULL: "thread" is near "threads", "sink" not near "sync". */
const char *rpb_nearest_best(const struct rpb_nearest *nr);
/* Appends " (did you mean PREFIX<best>SUFFIX?)" to buf when there is one;
 * true if it did. */
bool rpb_nearest_hint(char *buf, size_t n, const struct rpb_nearest *nr, const char *prefix,
		      const char *suffix);

/* "unknown key 'K' in [section] (did you mean X?); valid keys: ..." for a
 * key that is no row of an option table (options.h; NULL = none). */
struct rpb_optdef;
void rpb_nearest_unknown_key(char *err, size_t n, const char *section,
			     const struct rpb_optdef *opts, const char *key);

/* Optimal string alignment distance: insertions, deletions, substitutions
 * and swaps of two neighbours each count one. Names longer than 64 bytes are
 * never near anything (SIZE_MAX). */
size_t rpb_edit_distance(const char *a, const char *b);

#endif
