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
	char name[RPB_CSV_MAX_COLS][72]; /* after the prefix (checked: at most 64) */
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
		snprintf(g->name[k], sizeof g->name[k], "%s", col + plen);
		bool bytes = ends_with(g->name[k], "_bytes");
		g->scale[k] = bytes ? MIB : 1;
		g->unit[k] = bytes ? "MiB" : ends_with(g->name[k], "_s") ? "s" : "";
	}
}

/* One data file of a run: elapsed_s, then each gauge of g in its unit
 * ('?' where a reading is missing or the run has no such column). Sets
 * the rows written and the last elapsed_s; -1 when the file cannot be
 * written. */
static int write_data(const char *path, struct rpb_csv *in, const struct gauges *g, int tc,
		      size_t *rows, double *end)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int col[RPB_CSV_MAX_COLS];
	fprintf(f, "# elapsed_s, then each gauge (in its unit):");
	for (size_t k = 0; k < g->n; k++) {
		char name[160];
		snprintf(name, sizeof name, "%s%s", RPB_CMP_GAUGE_PREFIX, g->name[k]);
		col[k] = rpb_csv_col(in, name);
		fprintf(f, " %s%s%s%s", g->name[k], *g->unit[k] ? " (" : "", g->unit[k],
			*g->unit[k] ? ")" : "");
	}
	fprintf(f, "\n");
	*rows = 0;
	*end = 0;
	while (rpb_csv_next_fit(in, NULL)) { /* the rest: counted when the run was read */
		double t = rpb_csv_num(in, tc);
		if (isnan(t) || t < 0)
			continue;
		fprintf(f, "%.6g", t);
		for (size_t k = 0; k < g->n; k++) {
			double v = col[k] >= 0 ? rpb_csv_num(in, col[k]) : NAN;
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

/* The runs of column b whose intervals.csv has gauges, in run order. */
static size_t column_runs(const struct rpb_cmp *c, size_t b, size_t *runs)
{
	size_t k = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rpb_cmp_run *r = &c->runs[i];
		struct rpb_csv in;
		struct gauges g = {0};
		if (!r->root || strcmp(rpb_cmp_run_column(c, r), c->backends[b].label) ||
		    !rpb_csv_open_data(&in, r->dir, RPB_DATA_INTERVALS))
			continue;
		find_gauges(&in, &g);
		if (g.n && rpb_csv_col(&in, "elapsed_s") >= 0)
			runs[k++] = i;
		rpb_csv_close(&in);
	}
	return k;
}

/* One figure per column: its runs' gauges overlaid, one panel per gauge of
 * its first run with gauges (repeats of one backend have the same ones),
 * each run's end marked. */
static int one_column(const struct rpb_cmp *c, const char *dir, size_t b, struct rpb_figure *fig,
		      const char *where, char *msg, size_t n)
{
	size_t runs[RPB_CMP_MAX_RUNS], nr = column_runs(c, b, runs);
	if (!nr)
		return 1;
	struct gauges g;
	struct rpb_csv in;
	if (!rpb_csv_open_data(&in, c->runs[runs[0]].dir, RPB_DATA_INTERVALS))
		return 1;
	find_gauges(&in, &g);
	rpb_csv_close(&in);

	char data[RPB_CMP_MAX_RUNS][64], mark[160] = "", stops[512] = "";
	double end[RPB_CMP_MAX_RUNS], xmax = 0;
	size_t drawn[RPB_CMP_MAX_RUNS], nd = 0, slen = 0;
	bool error = false;
	for (size_t j = 0; j < nr; j++) {
		const struct rpb_cmp_run *r = &c->runs[runs[j]];
		char path[RPB_CMP_PATH + 128];
		/* The first run's file keeps the figure's name. */
		snprintf(data[nd], sizeof data[nd], j ? "data/%s-%zu.dat" : "data/%s.dat", fig->name, j + 1);
		snprintf(path, sizeof path, "%s/%s", dir, data[nd]);
		size_t rows = 0;
		if (!rpb_csv_open_data(&in, r->dir, RPB_DATA_INTERVALS))
			continue;
		int rc = write_data(path, &in, &g, rpb_csv_col(&in, "elapsed_s"), &rows, &end[nd]);
		rpb_csv_close(&in);
		if (rc != 0) {
			snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
			return -1;
		}
		if (!rows) {
			unlink(path);
			continue;
		}
		char stop[96];
		bool err;
		stop_text(r, stop, sizeof stop, &err);
		/* The title names the end of the first run drawn, or of the first
		 * that ended on an error: the one a reader looks for. */
		if (!nd || (err && !error))
			snprintf(mark, sizeof mark, "end%s%s", *stop || r->end_mark[0] ? ": " : "",
				 r->end_mark[0] ? r->end_mark : stop);
		error |= err;
		if (slen < sizeof stops)
			slen += (size_t)snprintf(stops + slen, sizeof stops - slen, "%s%s at %.3f s%s%s",
						 nd ? "; " : "", r->name, end[nd],
						 *stop ? ", which stopped: " : "", stop);
		xmax = fmax(xmax, end[nd]);
		drawn[nd++] = runs[j];
	}
	if (!nd)
		return 1;

	const struct rpb_cmp_backend *be = &c->backends[b];
	snprintf(fig->title, sizeof fig->title, "Backend gauges of %s%s: %s", be->label,
		 nd > 1 ? ", every run overlaid" : "", where);
	snprintf(fig->caption, sizeof fig->caption,
		 "Each gauge's latest reading at the end of every interval (intervals.csv: "
		 "gauge_<name> against elapsed_s), one panel per gauge: *_bytes in MiB, *_s in s, "
		 "others as read%s. A dashed line marks the end of each run: %s%s.",
		 nd > 1 ? "; one line per run (solid, then dashed in run order)" : "", stops,
		 error ? "; a run that did not complete is shown up to its end" : "");

	struct rpb_plot_script sc;
	if (!rpb_plot_script_open(&sc, dir, c, fig)) {
		snprintf(msg, n, "cannot write the script of %s: %s", fig->name, strerror(errno));
		return -1;
	}
	/* Every number below is formatted here; every text is a literal. */
	fprintf(sc.f, "unset title\nset datafile missing '?'\nset xlabel 'elapsed time, s'\n"
		      "set xrange [0:%.6g]\nset yrange [0:*]\n%s\n",
		xmax > 0 ? xmax * 1.04 : 1, nd > 1 ? "set key top left noenhanced" : "unset key");
	for (size_t j = 0; j < nd; j++)
		fprintf(sc.f, "set arrow %zu from %.6g, graph 0 to %.6g, graph 1 nohead lc rgb '%s' dt 2 lw 2\n",
			j + 1, end[j], end[j], END_COLOUR);
	/* Three panels a row: a column's gauges take a third of the height
	 * two a row would. */
	size_t cols = g.n < 3 ? g.n : 3, prow = (g.n + cols - 1) / cols;
	char plot[32768], qt[1100];
	size_t len = (size_t)snprintf(plot, sizeof plot, "set multiplot layout %zu,%zu title %s\n",
				      prow, cols, rpb_gp_quote(qt, sizeof qt, fig->title));
	const char *colour = rpb_plot_colour(c, be->label);
	for (size_t i = 0; i < g.n && len < sizeof plot; i++) {
		char title[300], yl[32], text[256];
		/* How the run ended, in the first panel's title: above the
		 * plot, it hides no reading (the line marks the end on all). */
		snprintf(text, sizeof text, "%s%s%s%s", g.name[i], i ? "" : " (", i ? "" : mark,
			 i ? "" : ")");
		len += (size_t)snprintf(plot + len, sizeof plot - len,
					"set title %s noenhanced%s\nset ylabel %s\nplot ",
					rpb_gp_quote(title, sizeof title, text),
					!i && error ? " tc rgb '" END_COLOUR "'" : " tc default",
					rpb_gp_quote(yl, sizeof yl, *g.unit[i] ? g.unit[i] : "reading"));
		for (size_t j = 0; j < nd && len < sizeof plot; j++) {
			char file[160], key[160];
			len += (size_t)snprintf(plot + len, sizeof plot - len,
						"%s%s using 1:%zu with linespoints lc rgb '%s' lw %s dt %zu "
						"pt 7 ps 0.5 %s%s",
						j ? ", " : "", rpb_gp_quote(file, sizeof file, data[j]), i + 2,
						colour, j ? "1" : "2", j % 5 + 1, i || nd == 1 ? "notitle" : "title ",
						i || nd == 1 ? "" : rpb_gp_quote(key, sizeof key, c->runs[drawn[j]].name));
		}
		len += (size_t)snprintf(plot + len, sizeof plot - len, "\n");
	}
	if (len < sizeof plot)
		snprintf(plot + len, sizeof plot - len, "unset multiplot");
	return rpb_plot_draw(dir, fig, &sc, plot, 1100, (int)(50 + 210 * prow), msg, n);
}

int rpb_plot_gauges(const struct rpb_cmp *c, const char *dir, const char *where,
		    struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n)
{
	for (size_t b = 0; b < c->nbackends && b < RPB_PLOT_MAX_GAUGE_FIGURES; b++) {
		struct rpb_figure *f = &figs[*nfigs];
		memset(f, 0, sizeof *f);
		snprintf(f->name, sizeof f->name, "gauges-%zu", b + 1);
		int rc = one_column(c, dir, b, f, where, msg, n);
		if (rc < 0)
			return -1;
		*nfigs += rc == 0;
	}
	return 0;
}
