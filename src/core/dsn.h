/* Connection strings in output: no secret ever leaves the process. libpq's
 * own parser reads them (every keyword, separator and quoting rule, the URI
 * form included), and every option libpq marks as a secret (a password)
 * is shown as ***. The core uses libpq for nothing else. */
#ifndef RPB_DSN_H
#define RPB_DSN_H

#include <stdbool.h>
#include <stddef.h>

/* The DSN as libpq reads it, re-written as keyword='value' pairs with each
 * secret value replaced by ***; "***" when libpq cannot parse it (its text
 * may hold a secret). A string that is neither key=value nor a URI is, as
 * for libpq, a database name: dbname='...'. "" for NULL or "". malloc'd;
 * NULL only when out of memory. */
char *rpb_dsn_redacted(const char *dsn);

/* Whether a DSN holds a secret as libpq reads it: a secret option with a
 * value, or text libpq cannot parse (which may quote one). A plain database
 * name holds none. */
bool rpb_dsn_has_secret(const char *dsn);

/* The same into a buffer, cut short like any quoted value (shown.h). */
const char *rpb_dsn_shown(char *out, size_t n, const char *dsn);

/* Free text that may hold a connection string (an unexpected argument, a
 * --set that names no option): a parsable connection string with a secret
 * is redacted as above; text that cannot be parsed but names a secret
 * keyword, or a URI with user information, becomes ***; anything else is
 * kept as it is. malloc'd; NULL only when out of memory. */
char *rpb_text_redacted(const char *text);
/* The same into a buffer, cut short like any quoted value. */
const char *rpb_text_shown(char *out, size_t n, const char *text);

/* Whether an option key (len bytes) names a connection string: it ends in
 * "dsn", as postgres.read_dsn does. */
bool rpb_key_is_dsn(const char *key, size_t len);

/* Whether a key names a connection string or mentions a secret ("dsn",
 * "pass" or "secret"): its value is never shown as it is. */
bool rpb_key_is_secret(const char *key, size_t len);

/* The value of option key (len bytes) as output shows it: a connection
 * string's value redacted (rpb_dsn_redacted), the value of any other key
 * that mentions "dsn", "pass" or "secret" as ***, any other value through
 * rpb_text_redacted. malloc'd; NULL only when out of memory. */
char *rpb_value_redacted(const char *key, size_t len, const char *value);

/* Masks, in text, every secret value of the connection string dsn. Returns
 * false when dsn cannot be parsed: text may then quote a secret, and the
 * caller withholds it. */
bool rpb_dsn_mask_secrets(const char *dsn, char *text);

/* Why libpq cannot parse dsn (its own words), with every fragment it
 * quotes from the DSN replaced by ***; "" when it parses. */
void rpb_dsn_parse_error(const char *dsn, char *out, size_t n);
/* The offset of dsn's first control character (C0 or DEL: a newline, a
 * tab, an escape), which libpq would take as text, or -1 when it has none.
 * A connection string is one line of printable text. */
long rpb_dsn_control_at(const char *dsn);

#endif
