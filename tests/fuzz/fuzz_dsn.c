/* Redaction of connection strings (src/core/dsn.c): whatever libpq's own
 * parser reads as a secret (password, sslpassword: dispchar '*') appears in
 * no output, and a redacted DSN reads back, with libpq's parser, as the
 * same options with every secret ***. */
#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "dsn.h"
#include "fuzz.h"

static bool is_secret(const PQconninfoOption *o)
{
	return o->dispchar && o->dispchar[0] == '*';
}

/* dsn.h's rule: a URI or key=value pairs; anything else is a dbname. */
static bool is_conninfo(const char *s)
{
	return strncmp(s, "postgresql://", 13) == 0 || strncmp(s, "postgres://", 11) == 0 ||
	       strchr(s, '=');
}

/* value as a message shows it (shown.h): control characters as ?. */
static bool shown_holds(const char *value, const char *secret)
{
	char *v = strdup(value);
	if (!v)
		abort();
	for (char *p = v; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = '?';
	bool found = strstr(v, secret) != NULL;
	free(v);
	return found;
}

/* Whether out shows secret as it is. A secret that is a piece of the
 * output's own syntax (a quote, =, a space, a backslash, a star, the "..."
 * of a value cut short, "(empty)") or of another option's keyword or value
 * (as it is, or as a message shows it) can appear there without leaking,
 * so only other secrets are looked for. */
static void no_leak(const char *out, const char *secret, const PQconninfoOption *opts,
		    const char *what)
{
	if (!out || !*secret || strpbrk(secret, "' =\\*") || strstr("...(empty)", secret))
		return;
	for (const PQconninfoOption *o = opts; o->keyword; o++)
		if (strstr(o->keyword, secret) || (o->val && !is_secret(o) &&
					   (strstr(o->val, secret) || shown_holds(o->val, secret))))
			return;
	FUZZ_ASSERT(!strstr(out, secret), "%s shows the secret: %s", what, out);
}

/* The redacted DSN is libpq syntax for the same options, secrets ***. */
static void reads_back(const char *red, const PQconninfoOption *opts)
{
	PQconninfoOption *again = PQconninfoParse(red, NULL);
	FUZZ_ASSERT(again, "redacted DSN does not parse: %s", red);
	const PQconninfoOption *o = opts, *a = again;
	for (; o->keyword && a->keyword; o++, a++) {
		FUZZ_ASSERT(strcmp(o->keyword, a->keyword) == 0, "options in another order");
		if (!o->val) {
			FUZZ_ASSERT(!a->val, "%s appeared", a->keyword);
			continue;
		}
		FUZZ_ASSERT(a->val && strcmp(a->val, is_secret(o) ? "***" : o->val) == 0,
			    "%s changed in %s", o->keyword, red);
	}
	FUZZ_ASSERT(!o->keyword && !a->keyword, "another option list");
	PQconninfoFree(again);
}

static void check_all(const char *s, const PQconninfoOption *opts)
{
	char *out[4] = {rpb_dsn_redacted(s), rpb_text_redacted(s),
			rpb_value_redacted("read_dsn", 8, s), rpb_value_redacted("password", 8, s)};
	static const char *const names[] = {"rpb_dsn_redacted", "rpb_text_redacted",
					    "rpb_value_redacted(read_dsn)", "rpb_value_redacted(password)"};
	char shown[2][256], why[512], *masked = strdup(s);
	if (!masked)
		abort();
	rpb_dsn_shown(shown[0], sizeof shown[0], s);
	rpb_text_shown(shown[1], sizeof shown[1], s);
	rpb_dsn_parse_error(s, why, sizeof why);
	bool parsed = rpb_dsn_mask_secrets(s, masked);
	/* The "..." after a value cut short is no part of it. */
	for (int i = 0; i < 2; i++) {
		size_t len = strlen(shown[i]);
		if (len >= 3 && strcmp(shown[i] + len - 3, "...") == 0)
			shown[i][len - 3] = '\0';
	}
	FUZZ_ASSERT(!out[3] || strcmp(out[3], *s ? "***" : "") == 0, "a password key shows %s", out[3]);
	if (out[0] && *s && is_conninfo(s)) {
		if (opts)
			reads_back(out[0], opts);
		else
			FUZZ_ASSERT(strcmp(out[0], "***") == 0, "an unparsable DSN shown: %s", out[0]);
	}
	for (const PQconninfoOption *o = opts; o && o->keyword; o++) {
		if (!is_secret(o) || !o->val)
			continue;
		for (int i = 0; i < 4; i++)
			no_leak(out[i], o->val, opts, names[i]);
		no_leak(shown[0], o->val, opts, "rpb_dsn_shown");
		no_leak(shown[1], o->val, opts, "rpb_text_shown");
		no_leak(why, o->val, opts, "rpb_dsn_parse_error");
		if (parsed)
			no_leak(masked, o->val, opts, "rpb_dsn_mask_secrets");
	}
	FUZZ_ASSERT(!strchr(why, '\n'), "parse error of more than one line");
	for (int i = 0; i < 4; i++)
		free(out[i]);
	free(masked);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	PQconninfoOption *opts = PQconninfoParse(s, NULL);
	check_all(s, opts);
	PQconninfoFree(opts);
	free(s);
	return 0;
}
