/* Text and large numbers in result files. JSON strings must be UTF-8 and
 * jansson's integers are signed 64-bit, but paths and option values are
 * bytes and seeds go up to 2^64-1; these helpers keep both exact
 * (docs/results.md, "Text and numbers"). */
#ifndef RPB_JSONTEXT_H
#define RPB_JSONTEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* Whether s is UTF-8 as JSON (and jansson) accepts it. */
bool rpb_utf8_valid(const char *s);

/* A JSON string of s for messages: each byte that is not part of valid
 * UTF-8 becomes U+FFFD. NULL only when out of memory. */
json_t *rpb_json_text(const char *s);

/* Sets obj[key] to s. UTF-8 text is stored as it is; other bytes are kept
 * exactly in a twin, obj[key "_pct"] (every byte outside printable ASCII but the space,
 * and '%', as %XX), beside the readable form of rpb_json_text. -1 when out
 * of memory. */
int rpb_json_set_exact(json_t *obj, const char *key, const char *s);

/* The exact bytes rpb_json_set_exact stored under key (from the twin when
 * there is one), malloc'd; NULL when absent, malformed or out of memory. */
char *rpb_json_get_exact(const json_t *obj, const char *key);

/* A 64-bit unsigned number as its decimal text: a JSON string, exact for
 * every reader. */
json_t *rpb_json_u64(uint64_t v);

/* Reads a number written by rpb_json_u64, or a non-negative JSON integer
 * (results of older versions). false when v is neither. */
bool rpb_json_get_u64(const json_t *v, uint64_t *out);

#endif
