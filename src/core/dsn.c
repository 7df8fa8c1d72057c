/* Connection strings in output (dsn.h), read with libpq's own parser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "dsn.h"
#include "shown.h"

/* libpq's rule for a "dbname" that is itself a connection string
 * (PQconnectdbParams with expand_dbname): a URI or key=value pairs. */
static bool is_conninfo(const char *s)
{
	return strncmp(s, "postgresql://", 13) == 0 || strncmp(s, "postgres://", 11) == 0 ||
	       strchr(s, '=');
}

static bool is_secret(const PQconninfoOption *o)
{
	return o->dispchar && o->dispchar[0] == '*';
}

/* value in single quotes, with \ and ' escaped as libpq reads them. */
static void put_quoted(FILE *f, const char *value)
{
	fputc('\'', f);
	for (const char *p = value; *p; p++) {
		if (*p == '\\' || *p == '\'')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputc('\'', f);
}

char *rpb_dsn_redacted(const char *dsn)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (dsn && *dsn && !is_conninfo(dsn)) {
		fputs("dbname=", f);
		put_quoted(f, dsn);
	} else if (dsn && *dsn) {
		PQconninfoOption *opts = PQconninfoParse(dsn, NULL);
		if (!opts)
			fputs("***", f);
		const char *sep = "";
		for (const PQconninfoOption *o = opts; o && o->keyword; o++) {
			if (!o->val)
				continue;
			fprintf(f, "%s%s=", sep, o->keyword);
			put_quoted(f, is_secret(o) ? "***" : o->val);
			sep = " ";
		}
		PQconninfoFree(opts);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

bool rpb_dsn_has_secret(const char *dsn)
{
	if (!dsn || !*dsn || !is_conninfo(dsn))
		return false;
	PQconninfoOption *opts = PQconninfoParse(dsn, NULL);
	bool secret = !opts;
	for (const PQconninfoOption *o = opts; o && o->keyword; o++)
		secret |= is_secret(o) && o->val && *o->val;
	PQconninfoFree(opts);
	return secret;
}

const char *rpb_dsn_shown(char *out, size_t n, const char *dsn)
{
	char *r = rpb_dsn_redacted(dsn);
	rpb_shown(out, n, r ? r : "***");
	free(r);
	return out;
}

/* Whether text names one of libpq's secret keywords (read from libpq's
 * option list, not from a list of our own). */
static bool names_secret(const char *text)
{
	PQconninfoOption *all = PQconninfoParse("", NULL);
	bool found = !all; /* out of memory: assume the worst */
	for (const PQconninfoOption *o = all; o && o->keyword && !found; o++)
		found = is_secret(o) && strcasestr(text, o->keyword);
	PQconninfoFree(all);
	return found;
}

char *rpb_text_redacted(const char *text)
{
	if (!text)
		text = "";
	PQconninfoOption *opts = is_conninfo(text) ? PQconninfoParse(text, NULL) : NULL;
	bool parsed = opts != NULL, secret = false;
	for (const PQconninfoOption *o = opts; o && o->keyword; o++)
		secret |= is_secret(o) && o->val;
	PQconninfoFree(opts);
	if (secret)
		return rpb_dsn_redacted(text);
	if (!parsed && (names_secret(text) || (strstr(text, "://") && strchr(text, '@'))))
		return strdup("***");
	return strdup(text);
}

const char *rpb_text_shown(char *out, size_t n, const char *text)
{
	char *r = rpb_text_redacted(text);
	rpb_shown(out, n, r ? r : "***");
	free(r);
	return out;
}

bool rpb_key_is_dsn(const char *key, size_t len)
{
	return len >= 3 && strncasecmp(key + len - 3, "dsn", 3) == 0;
}

bool rpb_key_is_secret(const char *key, size_t len)
{
	static const char *const words[] = {"dsn", "pass", "secret"};
	for (size_t i = 0; i < len; i++)
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
			if (len - i >= strlen(words[w]) && strncasecmp(key + i, words[w], strlen(words[w])) == 0)
				return true;
	return false;
}

char *rpb_value_redacted(const char *key, size_t len, const char *value)
{
	if (rpb_key_is_dsn(key, len))
		return rpb_dsn_redacted(value);
	if (rpb_key_is_secret(key, len))
		return strdup(value && *value ? "***" : "");
	return rpb_text_redacted(value);
}

/* Replaces every occurrence of secret in text, in place, with stars (no
 * more than the secret's length, so the text never grows). */
static void mask(char *text, const char *secret)
{
	size_t n = strlen(secret);
	if (!n)
		return;
	char *o = text;
	for (const char *p = text; *p;) {
		if (strncmp(p, secret, n) == 0) {
			size_t stars = n < 3 ? n : 3;
			memset(o, '*', stars);
			o += stars;
			p += n;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
}

bool rpb_dsn_mask_secrets(const char *dsn, char *text)
{
	if (!dsn || !*dsn || !is_conninfo(dsn))
		return true;
	PQconninfoOption *opts = PQconninfoParse(dsn, NULL);
	for (const PQconninfoOption *o = opts; o && o->keyword; o++)
		if (is_secret(o) && o->val)
			mask(text, o->val);
	PQconninfoFree(opts);
	return opts != NULL;
}

/* A quoted fragment that is only libpq's own punctuation ("=", "]"). */
static bool punctuation(const char *s, size_t n)
{
	return n && strspn(s, "=]:/") >= n;
}

void rpb_dsn_parse_error(const char *dsn, char *out, size_t n)
{
	char *why = NULL;
	PQconninfoOption *opts = dsn && is_conninfo(dsn) ? PQconninfoParse(dsn, &why) : NULL;
	PQconninfoFree(opts);
	size_t o = 0;
	out[0] = '\0';
	/* libpq quotes what it quotes from the DSN in double quotes. */
	for (const char *p = why ? why : ""; *p && *p != '\n' && o + 4 < n;) {
		const char *end = *p == '"' ? strchr(p + 1, '"') : NULL;
		if (end) { /* a quoted fragment, whole */
			size_t len = (size_t)(end - p - 1);
			o += (size_t)snprintf(out + o, n - o, "\"%.*s\"", punctuation(p + 1, len) ? (int)len : 3,
					      punctuation(p + 1, len) ? p + 1 : "***");
			p = end + 1;
		} else {
			out[o++] = *p++;
			out[o] = '\0';
		}
	}
	PQfreemem(why);
}

long rpb_dsn_control_at(const char *dsn)
{
	for (const unsigned char *p = (const unsigned char *)dsn; p && *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return (long)(p - (const unsigned char *)dsn);
	return -1;
}
