#include <stdio.h>
#include <string.h>

#include "dsn.h"

static void append(char *out, size_t n, size_t *len, const char *p, size_t k)
{
	if (*len + k >= n)
		k = n - 1 - *len;
	memcpy(out + *len, p, k);
	*len += k;
	out[*len] = '\0';
}

/* URI form: scheme://user:password@host... */
static int redact_uri(const char *dsn, char *out, size_t n)
{
	const char *scheme = strstr(dsn, "://");
	if (!scheme)
		return 0;
	const char *auth = scheme + 3;
	const char *at = strchr(auth, '@');
	const char *colon = strchr(auth, ':');
	const char *slash = strchr(auth, '/');
	size_t len = 0;
	out[0] = '\0';
	if (at && colon && colon < at && (!slash || at < slash)) {
		append(out, n, &len, dsn, (size_t)(colon + 1 - dsn));
		append(out, n, &len, "***", 3);
		dsn = at;
	}
	/* A password may also come as a query parameter. */
	const char *q = strstr(dsn, "password=");
	if (q) {
		append(out, n, &len, dsn, (size_t)(q + 9 - dsn));
		append(out, n, &len, "***", 3);
		dsn = q + 9 + strcspn(q + 9, "&");
	}
	append(out, n, &len, dsn, strlen(dsn));
	return 1;
}

void rpb_dsn_redact(const char *dsn, char *out, size_t n)
{
	if (!n)
		return;
	out[0] = '\0';
	if (!dsn)
		return;
	if (redact_uri(dsn, out, n))
		return;
	size_t len = 0;
	const char *p = dsn;
	while (*p) {
		const char *key = strstr(p, "password");
		if (!key) {
			append(out, n, &len, p, strlen(p));
			break;
		}
		const char *eq = key + 8;
		while (*eq == ' ')
			eq++;
		if (*eq != '=' || (key > dsn && key[-1] != ' ' && key[-1] != '\t')) {
			append(out, n, &len, p, (size_t)(key + 8 - p));
			p = key + 8;
			continue;
		}
		eq++;
		while (*eq == ' ')
			eq++;
		append(out, n, &len, p, (size_t)(eq - p));
		append(out, n, &len, "***", 3);
		if (*eq == '\'') { /* quoted value, backslash escapes */
			eq++;
			while (*eq && *eq != '\'')
				eq += (*eq == '\\' && eq[1]) ? 2 : 1;
			if (*eq)
				eq++;
		} else {
			while (*eq && *eq != ' ' && *eq != '\t')
				eq++;
		}
		p = eq;
	}
}

bool rpb_key_is_dsn(const char *key, size_t len)
{
	return len >= 3 && memcmp(key + len - 3, "dsn", 3) == 0;
}

void rpb_command_redact(char *buf, size_t n, int argc, char **argv)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < argc && len + 1 < n; i++) {
		char part[1024];
		const char *eq = strchr(argv[i], '=');
		if (i > 0 && strcmp(argv[i - 1], "--dsn") == 0)
			rpb_dsn_redact(argv[i], part, sizeof part);
		else if (i > 0 && strcmp(argv[i - 1], "--set") == 0 && eq && rpb_key_is_dsn(argv[i], (size_t)(eq - argv[i]))) {
			/* A backend option holding a connection string (postgres.read_dsn). */
			int k = snprintf(part, sizeof part, "%.*s", (int)(eq - argv[i] + 1), argv[i]);
			if (k > 0 && (size_t)k < sizeof part)
				rpb_dsn_redact(eq + 1, part + k, sizeof part - (size_t)k);
		}
		else if (strncmp(argv[i], "--dsn=", 6) == 0) {
			memcpy(part, "--dsn=", 7);
			rpb_dsn_redact(argv[i] + 6, part + 6, sizeof part - 6);
		} else
			snprintf(part, sizeof part, "%s", argv[i]);
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? " " : "", part);
	}
}
