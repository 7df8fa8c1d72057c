/* docs/backends.md's tuning option tables agree with the backends' own
 * declarations: the same keys, each default (a profile's own too) and
 * each range as the typed table has it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "e2e_util.h"
#include "options.h"

/* The cells of a row "| a | b | c |" (at most max), trimmed, in place. */
static size_t row_cells(char *line, char **cells, size_t max)
{
	size_t n = 0;
	char *p = strchr(line, '|');
	while (p && n < max) {
		char *next = strstr(p + 1, " |");
		if (!next)
			break;
		char *c = p + 1;
		while (*c == ' ')
			c++;
		*next = '\0';
		cells[n++] = c;
		p = next + 1;
	}
	return n;
}

/* The range as the page writes it: "lo..hi" for numbers, "a, b" for choices. */
static void page_range(char *buf, size_t n, const struct rpb_optdef *d)
{
	char r[256];
	rpb_opt_range(r, sizeof r, d);
	buf[0] = '\0';
	if (d->type == RPB_OPT_COUNT || d->type == RPB_OPT_SIZE) {
		char lo[64], hi[64];
		cr_assert_eq(sscanf(r, "[%63[^,], %63[^]]]", lo, hi), 2, "%s", r);
		snprintf(buf, n, "%s..%s", lo, hi);
	} else if (d->type == RPB_OPT_ENUM || d->type == RPB_OPT_BOOL) {
		for (char *t = strtok(r, "|"); t; t = strtok(NULL, "|"))
			rpb_cat(buf, n, "%s%s", *buf ? ", " : "", t);
	}
}

static void check_row(const struct rpb_backend *b, char **cell)
{
	char key[64];
	cr_assert_eq(sscanf(cell[0], "`%63[^`]`", key), 1, "%s: a row without a `key`", b->name);
	const struct rpb_optdef *d = rpb_opt_find(b->options, key);
	cr_assert_not_null(d, "docs/backends.md names %s option %s, which it does not declare",
			   b->name, key);
	const char *dflt = *d->dflt ? d->dflt : "(empty)";
	size_t len = strlen(dflt);
	cr_assert(strncmp(cell[1], dflt, len) == 0 && (!cell[1][len] || cell[1][len] == ' '),
		  "%s.%s: the page's default is '%s', the declaration's %s", b->name, key, cell[1],
		  dflt);
	char f45[128];
	snprintf(f45, sizeof f45, "(fedora-4.5: %s)", d->dflt_fedora45 ? d->dflt_fedora45 : "");
	cr_assert(d->dflt_fedora45 ? strstr(cell[1], f45) != NULL : !strstr(cell[1], "fedora-4.5"),
		  "%s.%s: the page's default '%s' and the declared fedora-4.5 default %s", b->name,
		  key, cell[1], d->dflt_fedora45 ? d->dflt_fedora45 : "(none)");
	char range[512];
	page_range(range, sizeof range, d);
	cr_assert(strncmp(cell[2], range, strlen(range)) == 0,
		  "%s.%s: the page's range is '%s', the declaration's %s", b->name, key, cell[2],
		  range);
}

Test(docs_backends, tuning_tables_match_the_declarations)
{
	char *page = e2e_slurp(RPB_SOURCE_DIR "/docs/backends.md", NULL);
	cr_assert_not_null(page);
	for (const struct rpb_backend *const *b = rpb_backends; *b; b++) {
		size_t rows = 0, declared = 0;
		for (const struct rpb_optdef *d = (*b)->options; d && d->key; d++)
			declared++;
		char head[64];
		snprintf(head, sizeof head, "(`%s`)\n", (*b)->name);
		char *sec = strstr(page, head);
		if (!declared && !sec)
			continue;
		cr_assert_not_null(sec, "docs/backends.md has no section for %s", (*b)->name);
		char *end = strstr(sec, "\n## ");
		char *tun = strstr(sec, "### Tuning options");
		cr_assert(tun && (!end || tun < end), "docs/backends.md: %s has no Tuning options",
			  (*b)->name);
		char *stop = strstr(tun + 1, "\n### ");
		for (char *line = strstr(tun, "\n| `"); line && (!stop || line < stop);
		     line = strstr(line + 1, "\n| `")) {
			char *eol = strchr(line + 1, '\n');
			size_t n = eol ? (size_t)(eol - line - 1) : strlen(line + 1);
			char *copy = strndup(line + 1, n), *cell[4];
			cr_assert_eq(row_cells(copy, cell, 4), 4, "%s: a short row: %s", (*b)->name,
				     line + 1);
			check_row(*b, cell);
			free(copy);
			rows++;
		}
		cr_assert_eq(rows, declared, "docs/backends.md lists %zu %s options, it declares %zu",
			     rows, (*b)->name, declared);
	}
	free(page);
}
