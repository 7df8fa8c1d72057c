/* Reading a run's CSV files (csv_read.h). */
#include <math.h>
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

bool rpb_csv_open_data(struct rpb_csv *c, const char *dir, enum rpb_data_file file)
{
	if (!rpb_csv_open(c, dir, rpb_data_file_name(file)))
		return false;
	static const char *const probe_text[] = {"label", "status"};
	for (size_t i = 0; file == RPB_DATA_PROBE && i < 2; i++) {
		int col = rpb_csv_col(c, probe_text[i]);
		if (col >= 0)
			c->text[col] = true;
	}
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

bool rpb_csv_next_fit(struct rpb_csv *c, struct rpb_skips *skips)
{
	while (fgets(c->line, sizeof c->line, c->f)) {
		c->lineno++;
		bool whole = strchr(c->line, '\n') != NULL;
		c->nfields = split(c->line, c->field);
		enum rpb_unfit why = c->nfields == c->nnames ? RPB_FIT : RPB_UNFIT_FIELDS;
		double v;
		for (size_t i = 0; why == RPB_FIT && i < c->nfields; i++)
			if (!c->text[i])
				why = rpb_plot_value(c->field[i], &v);
		if (why == RPB_FIT)
			return true;
		if (skips && (whole || !feof(c->f)))
			skips->n[why]++;
	}
	return false;
}

double rpb_csv_num(const struct rpb_csv *c, int col)
{
	double v;
	if (col < 0 || (size_t)col >= c->nfields || rpb_plot_value(c->field[col], &v) != RPB_FIT)
		return NAN;
	return v;
}

void rpb_csv_close(struct rpb_csv *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
}
