/* Backend gauges over time (plot_gauges.h). Gauge names come from a CSV
 * header anyone may have written: they were checked when the run was read
 * (result_check.h) and are checked again here, and reach the script only
 * as rpb_gp_quote literals; the readings go to a data file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "csv_read.h"
#include "gnuplot_text.h"
#include "plot_gauges.h"
#include "result_check.h"
#include "runner.h"
#include "store.h"

#define MIB 1048576.0
#define END_COLOUR "#d55e00"

struct gauges {
	size_t n;
	int col[RPB_CSV_MAX_COLS];
	const char *name[RPB_CSV_MAX_COLS]; /* after the prefix, into the csv's header */
	double scale[RPB_CSV_MAX_COLS];
	const char *unit[RPB_CSV_MAX_COLS];
};

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && !strcmp(s + a - b, tail);
}

/* The gauge columns of the header, with the unit each is drawn in. */
static void find_gauges(const struct rpb_csv *in, struct gauges *g)
{
	g->n = 0;
	size_t plen = strlen(RPB_CMP_GAUGE_PREFIX);
	for (size_t i = 0; i < in->nnames; i++) {
		const char *col = in->name[i];
		if (strncmp(col, RPB_CMP_GAUGE_PREFIX, plen) || !rpb_cmp_gauge_column_ok(col))
			continue;
		size_t k = g->n++;
		g->col[k] = (int)i;
		g->name[k] = col + plen;
		bool bytes = ends_with(g->name[k], "_bytes");
		g->scale[k] = bytes ? MIB : 1;
		g->unit[k] = bytes ? "MiB" : ends_with(g->name[k], "_s") ? "s" : "";
	}
}

/* data/gauges-<k>.dat: elapsed_s, then each gauge in its unit ('?' where a
 * reading is missing). Sets the rows written and the last elapsed_s;
 * -1 when the file cannot be written. */
static int write_data(const char *path, struct rpb_csv *in, const struct gauges *g, int tc,
		      size_t *rows, double *end)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# elapsed_s, then each gauge (in its unit):");
	for (size_t k = 0; k < g->n; k++)
		fprintf(f, " %s%s%s%s", g->name[k], *g->unit[k] ? " (" : "", g->unit[k],
			*g->unit[k] ? ")" : "");
	fprintf(f, "\n");
	*rows = 0;
	*end = 0;
	while (rpb_csv_next_fit(in, NULL)) { /* the rest: counted when the run was read */
		double t = rpb_csv_num(in, tc);
		if (isnan(t) || t < 0)
			continue;
		fprintf(f, "%.6g", t);
		for (size_t k = 0; k < g->n; k++) {
			double v = rpb_csv_num(in, g->col[k]);
			if (isnan(v))
				fprintf(f, " ?");
			else
				fprintf(f, " %.6g", v / g->scale[k]);
		}
		fprintf(f, "\n");
		(*rows)++;
		*end = t > *end ? t : *end;
	}
	bool bad = ferror(f);
	return fclose(f) != 0 || bad ? -1 : 0;
}

/* "error txn-timeout" for a run that ended on an error, from result.json's
 * stop, only when both words are rpbench's own (checked again here); ""
 * otherwise. */
static void stop_text(const struct rpb_cmp_run *r, char *buf, size_t n, bool *error)
{
	const json_t *stop = json_object_get(r->root, "stop");
	const char *reason = json_string_value(json_object_get(stop, "reason"));
	const char *cls = json_string_value(json_object_get(stop, "class"));
	buf[0] = '\0';
	*error = false;
	if (!reason || !rpb_stop_reason_known(reason))
		return;
	enum rpb_status st = cls ? rpb_status_parse(cls) : RPB_STATUS_COUNT;
	bool cls_ok = st != RPB_OK && st < RPB_STATUS_COUNT;
	*error = strcmp(reason, "completed") && strcmp(reason, "duration") && strcmp(reason, "bytes");
	if (!strcmp(reason, "running")) /* result.json as written at the start: the run died */
		snprintf(buf, n, "running (died without writing its results)");
	else
		snprintf(buf, n, "%s%s%s", reason, cls_ok ? " " : "", cls_ok ? cls : "");
}

static int one_run(const struct rpb_cmp *c, const char *dir, size_t k, struct rpb_figure *fig,
		   const char *where, char *msg, size_t n)
{
	const struct rpb_cmp_run *r = &c->runs[k];
	struct rpb_csv in;
	struct gauges g;
	if (!rpb_csv_open_data(&in, r->dir, RPB_DATA_INTERVALS))
		return 1;
	find_gauges(&in, &g);
	int tc = rpb_csv_col(&in, "elapsed_s");
	char data[64], path[RPB_CMP_PATH + 128];
	snprintf(data, sizeof data, "data/%s.dat", fig->name);
	snprintf(path, sizeof path, "%s/%s", dir, data);
	double end = 0;
	size_t rows = 0;
	int rc = 1;
	if (!g.n || tc < 0)
		goto out; /* no gauges: no figure */
	if (write_data(path, &in, &g, tc, &rows, &end) != 0) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
		rc = -1;
		goto out;
	}
	if (!rows) {
		unlink(path);
		goto out;
	}

	char stop[96];
	bool error;
	stop_text(r, stop, sizeof stop, &error);
	snprintf(fig->title, sizeof fig->title, "Backend gauges of the %s run %s: %s", r->backend,
		 r->name, where);
	snprintf(fig->caption, sizeof fig->caption,
		 "Each gauge's latest reading at the end of every interval (intervals.csv: "
		 "gauge_<name> against elapsed_s), one panel per gauge: *_bytes in MiB, *_s in s, "
		 "others as read. The dashed line marks the end of the run (%.3f s)%s%s%s.",
		 end, *stop ? ", which stopped: " : "", stop,
		 error ? "; it did not complete, so the tables and figures show it up to its end" : "");

	struct rpb_plot_script sc;
	rc = -1;
	if (!rpb_plot_script_open(&sc, dir, c, fig)) {
		snprintf(msg, n, "cannot write the script of %s: %s", fig->name, strerror(errno));
		goto out;
	}
	/* Every number below is formatted here; every text is a literal. */
	char mark[160];
	snprintf(mark, sizeof mark, "end%s%s", *stop || r->end_mark[0] ? ": " : "",
		 r->end_mark[0] ? r->end_mark : stop);
	fprintf(sc.f, "unset title\nset datafile missing '?'\nset xlabel 'elapsed time, s'\n"
		      "set xrange [0:%.6g]\nset yrange [0:*]\nunset key\n"
		      "set arrow 1 from %.6g, graph 0 to %.6g, graph 1 nohead lc rgb '%s' dt 2 lw 2\n",
		end > 0 ? end * 1.04 : 1, end, end, END_COLOUR);
	size_t cols = g.n > 1 ? 2 : 1, prow = (g.n + cols - 1) / cols;
	char plot[16384], qt[1100];
	size_t len = (size_t)snprintf(plot, sizeof plot, "set multiplot layout %zu,%zu title %s\n",
				      prow, cols, rpb_gp_quote(qt, sizeof qt, fig->title));
	for (size_t i = 0; i < g.n && len < sizeof plot; i++) {
		char title[300], file[160], yl[32], text[256];
		/* How the run ended, in the first panel's title: above the
		 * plot, it hides no reading (the line marks the end on all). */
		snprintf(text, sizeof text, "%s%s%s%s", g.name[i], i ? "" : " (", i ? "" : mark,
			 i ? "" : ")");
		len += (size_t)snprintf(plot + len, sizeof plot - len,
					"set title %s noenhanced%s\nset ylabel %s\n"
					"plot %s using 1:%zu with linespoints lc rgb '%s' lw 2 pt 7 ps 0.7 notitle\n",
					rpb_gp_quote(title, sizeof title, text),
					!i && error ? " tc rgb '" END_COLOUR "'" : " tc default",
					rpb_gp_quote(yl, sizeof yl, *g.unit[i] ? g.unit[i] : "reading"),
					rpb_gp_quote(file, sizeof file, data),
					i + 2, rpb_plot_colour(c, rpb_cmp_run_column(c, r)));
	}
	if (len < sizeof plot)
		snprintf(plot + len, sizeof plot - len, "unset multiplot");
	rc = rpb_plot_draw(dir, fig, &sc, plot, 1100, (int)(60 + 300 * prow), msg, n);
out:
	rpb_csv_close(&in);
	return rc;
}

int rpb_plot_gauges(const struct rpb_cmp *c, const char *dir, const char *where,
		    struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n)
{
	size_t drawn = 0, more = 0;
	for (size_t k = 0; k < c->nruns; k++) {
		if (!c->runs[k].root)
			continue;
		if (drawn == RPB_PLOT_MAX_GAUGE_FIGURES) {
			struct rpb_csv in;
			struct gauges g = {0};
			if (rpb_csv_open(&in, c->runs[k].dir, "intervals.csv"))
				find_gauges(&in, &g), rpb_csv_close(&in);
			more += g.n > 0;
			continue;
		}
		struct rpb_figure *f = &figs[*nfigs];
		memset(f, 0, sizeof *f);
		snprintf(f->name, sizeof f->name, "gauges-%zu", k + 1);
		int rc = one_run(c, dir, k, f, where, msg, n);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			(*nfigs)++;
			drawn++;
		}
	}
	if (more) {
		struct rpb_figure *f = &figs[(*nfigs)++];
		memset(f, 0, sizeof *f);
		snprintf(f->name, sizeof f->name, "gauges-more");
		snprintf(f->title, sizeof f->title, "Backend gauges of further runs");
		snprintf(f->skipped, sizeof f->skipped,
			 "the gauges of %zu more runs are not drawn: a report draws those of the "
			 "first %d runs that have them", more, RPB_PLOT_MAX_GAUGE_FIGURES);
	}
	return 0;
}
