/* Reading a run's CSV files (csv_read.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "csv_read.h"
#include "text.h"

static size_t split(char *line, char **out)
{
	size_t n = 0;
	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < RPB_CSV_MAX_COLS;) {
		out[n++] = p;
		char *comma = strchr(p, ',');
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	return n;
}

bool rpb_csv_open(struct rpb_csv *c, const char *dir, const char *file)
{
	char path[RPB_CMP_PATH + 64];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	memset(c, 0, sizeof *c);
	struct stat st;
	/* Only a regular file: a FIFO or a device under the name would block. */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(c->f = fopen(path, "r")))
		return false;
	rpb_skip_bom(c->f);
	if (!fgets(c->head, sizeof c->head, c->f)) {
		fclose(c->f);
		c->f = NULL;
		return false;
	}
	c->lineno = 1;
	c->nnames = split(c->head, c->name);
	return true;
}

int rpb_csv_col(const struct rpb_csv *c, const char *name)
{
	for (size_t i = 0; i < c->nnames; i++)
		if (!strcmp(c->name[i], name))
			return (int)i;
	return -1;
}

bool rpb_csv_next(struct rpb_csv *c)
{
	while (fgets(c->line, sizeof c->line, c->f)) {
		c->lineno++;
		c->nfields = split(c->line, c->field);
		if (c->nfields == c->nnames)
			return true;
	}
	return false;
}

double rpb_csv_num(const struct rpb_csv *c, int col)
{
	if (col < 0 || (size_t)col >= c->nfields)
		return NAN;
	double v = strtod(c->field[col], NULL);
	return isfinite(v) ? v : NAN;
}

void rpb_csv_close(struct rpb_csv *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
}
