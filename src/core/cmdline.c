/* Command lines recorded and refused (cmdline.h). */
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "dsn.h"
#include "nearest.h"
#include "options.h"
#include "shown.h"

/* Characters a shell takes literally outside quotes. */
static bool plain(const char *w)
{
	return *w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789_./=:,@%+-") == strlen(w);
}

bool rpb_cmd_open(struct rpb_cmd *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	return c->f != NULL;
}

char *rpb_cmd_close(struct rpb_cmd *c)
{
	if (fclose(c->f) != 0) {
		free(c->text);
		return NULL;
	}
	return c->text;
}

void rpb_cmd_word(FILE *f, const char *word)
{
	if (ftell(f) > 0)
		fputc(' ', f);
	if (plain(word)) {
		fputs(word, f);
		return;
	}
	/* Double quotes read best around the single quotes of a redacted DSN;
	 * single quotes take anything else literally. */
	if (!strpbrk(word, "\"$`\\!")) {
		fprintf(f, "\"%s\"", word);
		return;
	}
	fputc('\'', f);
	for (const char *p = word; *p; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

void rpb_cmd_opt(FILE *f, const char *option, const char *value)
{
	rpb_cmd_word(f, option);
	rpb_cmd_word(f, value);
}

void rpb_cmd_dsn(FILE *f, const char *option, const char *dsn)
{
	char *r = rpb_dsn_redacted(dsn);
	rpb_cmd_opt(f, option, r ? r : "***");
	free(r);
}

/* KEY=VALUE as given, or with the value redacted when KEY names a secret;
 * malloc'd (NULL: out of memory). */
static char *set_redacted(const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	size_t klen = eq ? (size_t)(eq - assignment) : 0;
	while (klen && (assignment[klen - 1] == ' ' || assignment[klen - 1] == '\t'))
		klen--;
	/* Not a secret's key: free text that may still hold a connection string. */
	if (!eq || !rpb_key_is_secret(assignment, klen))
		return rpb_text_redacted(assignment);
	const char *value = eq + 1;
	while (*value == ' ' || *value == '\t')
		value++;
	char *r = rpb_value_redacted(assignment, klen, value), *out = NULL;
	if (r && asprintf(&out, "%.*s=%s", (int)klen, assignment, r) < 0)
		out = NULL;
	free(r);
	return out;
}

void rpb_cmd_set(FILE *f, const char *option, const char *assignment)
{
	char *r = set_redacted(assignment);
	rpb_cmd_opt(f, option, r ? r : "***");
	free(r);
}

bool rpb_set_has_secret(const char *assignment)
{
	char *r = set_redacted(assignment);
	bool secret = !r || strcmp(r, assignment) != 0; /* out of memory: assume the worst */
	free(r);
	return secret;
}

const char *rpb_set_shown(char *out, size_t n, const char *assignment)
{
	char *r = set_redacted(assignment);
	rpb_shown(out, n, r ? r : "***");
	free(r);
	return out;
}

/* Appends c to out (n bytes) at *o, keeping room for the NUL. */
static void put(char *out, size_t n, size_t *o, char c)
{
	if (*o + 1 < n)
		out[(*o)++] = c;
}

bool rpb_cmd_next_word(const char **p, char *out, size_t n)
{
	const char *s = *p;
	size_t o = 0;
	while (*s == ' ')
		s++;
	if (!*s)
		return false;
	char quote = 0;
	for (; *s && (quote || *s != ' '); s++) {
		if (quote == '\'') {
			if (*s == '\'')
				quote = 0;
			else
				put(out, n, &o, *s);
		} else if (*s == '\\' && s[1] && (!quote || strchr("\"$`\\", s[1]))) {
			put(out, n, &o, *++s);
		} else if (*s == '"') {
			quote = quote ? 0 : '"';
		} else if (*s == '\'' && !quote) {
			quote = '\'';
		} else {
			put(out, n, &o, *s);
		}
	}
	out[o] = '\0';
	*p = s;
	return true;
}

char *rpb_cmd_redacted(const char *command)
{
	struct rpb_cmd cmd;
	size_t n = strlen(command) + 1;
	char *word = malloc(n), *prev = malloc(n);
	if (!word || !prev || !rpb_cmd_open(&cmd)) {
		free(word);
		free(prev);
		return NULL;
	}
	prev[0] = '\0';
	for (const char *p = command; rpb_cmd_next_word(&p, word, n); strcpy(prev, word)) {
		if (!strcmp(prev, "--dsn")) {
			rpb_cmd_dsn(cmd.f, "--dsn", word);
		} else if (!strcmp(prev, "--set")) {
			rpb_cmd_set(cmd.f, "--set", word);
		} else if (strcmp(word, "--dsn") && strcmp(word, "--set")) {
			char *r = rpb_text_redacted(word);
			rpb_cmd_word(cmd.f, r ? r : "***");
			free(r);
		}
	}
	free(word);
	free(prev);
	return rpb_cmd_close(&cmd);
}

void rpb_cli_problem(char *msg, size_t n, const struct option *longopts, int ch,
		     const char *elem)
{
	char shown[RPB_SHOWN_SIZE];
	if (!elem || strncmp(elem, "--", 2) != 0) {
		/* A short option, alone or inside a cluster such as -qx. */
		if (ch == ':')
			snprintf(msg, n, "option -%c needs a value", optopt);
		else
			snprintf(msg, n, "unknown option '-%c'", optopt);
		return;
	}
	const char *name = elem + 2;
	size_t len = strcspn(name, "=");
	const struct option *hit = NULL;
	char candidates[256] = "";
	int matches = 0;
	for (const struct option *o = longopts; o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len) { /* exact: never ambiguous */
			hit = o, matches = 1;
			break;
		}
		hit = o;
		matches++;
		rpb_cat(candidates, sizeof candidates, "%s--%s", matches > 1 ? ", " : "", o->name);
	}
	snprintf(shown, sizeof shown, "--%.*s", (int)len, name);
	if (matches == 0) {
		struct rpb_nearest nr;
		char word[RPB_SHOWN_SIZE];
		snprintf(word, sizeof word, "%.*s", (int)len, name);
		rpb_nearest_init(&nr, word);
		for (const struct option *o = longopts; o->name; o++)
			rpb_nearest_offer(&nr, o->name);
		snprintf(msg, n, "unknown option '%s'", rpb_shown(shown, sizeof shown, shown));
		rpb_nearest_hint(msg, n, &nr, "--", "");
	}
	else if (matches > 1)
		snprintf(msg, n, "option '%s' is ambiguous (%s); write it out", shown, candidates);
	else if (ch == ':')
		snprintf(msg, n, "option --%s needs a value", hit->name);
	else
		snprintf(msg, n, "option --%s takes no value", hit->name);
}

void rpb_cli_unknown_command(char *msg, size_t n, const char *word, const char *const *commands)
{
	char shown[RPB_SHOWN_SIZE];
	struct rpb_nearest nr;
	rpb_nearest_init(&nr, word);
	for (const char *const *c = commands; *c; c++)
		rpb_nearest_offer(&nr, *c);
	const char *best = rpb_nearest_best(&nr);
	snprintf(msg, n, "unknown command '%s' (", rpb_text_shown(shown, sizeof shown, word));
	if (best)
		rpb_cat(msg, n, "did you mean %s? ", best);
	rpb_cat(msg, n, "commands:");
	for (const char *const *c = commands; *c; c++)
		rpb_cat(msg, n, "%s %s", c == commands ? "" : ",", *c);
	rpb_cat(msg, n, ")");
}
