#include <stdio.h>
#include <stdlib.h>
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

/* Room for one redacted argument: "***" replaces at least the empty
 * password after each "password" (8 bytes) or URI user (":...@"). */
static size_t redacted_room(const char *arg)
{
	return 2 * strlen(arg) + 16;
}

char *rpb_command_redact(int argc, char **argv)
{
	size_t n = 1;
	for (int i = 0; i < argc; i++)
		n += redacted_room(argv[i]) + 1;
	char *buf = malloc(n);
	if (!buf)
		return NULL;
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < argc; i++) {
		char *part = buf + len + (i ? 1 : 0);
		size_t room = n - len - (i ? 1 : 0);
		const char *eq = strchr(argv[i], '=');
		if (i)
			buf[len] = ' ';
		if (i > 0 && strcmp(argv[i - 1], "--dsn") == 0)
			rpb_dsn_redact(argv[i], part, room);
		else if (i > 0 && strcmp(argv[i - 1], "--set") == 0 && eq && rpb_key_is_dsn(argv[i], (size_t)(eq - argv[i]))) {
			/* A backend option holding a connection string (postgres.read_dsn). */
			size_t k = (size_t)(eq - argv[i] + 1);
			memcpy(part, argv[i], k);
			rpb_dsn_redact(eq + 1, part + k, room - k);
		} else if (strncmp(argv[i], "--dsn=", 6) == 0) {
			memcpy(part, "--dsn=", 6);
			rpb_dsn_redact(argv[i] + 6, part + 6, room - 6);
		} else
			memcpy(part, argv[i], strlen(argv[i]) + 1);
		len = (size_t)(part - buf) + strlen(part);
	}
	return buf;
}
