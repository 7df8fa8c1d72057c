/* The decision figure (plot_decision.h). Every number is a column's median
 * from compare.c; every text (the columns' labels) reaches the script only
 * as an rpb_gp_quote literal. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gnuplot_text.h"
#include "plot_decision.h"

/* Marker sizes: the area grows with the bytes per object. */
#define PS_MIN 1.2
#define PS_MAX 5.0

int rpb_plot_decision(const struct rpb_cmp *c, const char *dir, const char *where,
		      struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n)
{
	struct rpb_figure *fig = &figs[(*nfigs)++];
	memset(fig, 0, sizeof *fig);
	snprintf(fig->name, sizeof fig->name, RPB_PLOT_DECISION);
	snprintf(fig->title, sizeof fig->title, "Throughput against p99 latency of %s: %s",
		 c->main_label, where);
	size_t cols[RPB_CMP_MAX_BACKENDS], nc = 0;
	double bmax = 0, lo = INFINITY, hi = 0;
	bool sized = false;
	for (size_t b = 0; b < c->nbackends; b++) {
		const struct rpb_cmp_stat *st = c->backends[b].stat;
		if (!st[RPB_M_THROUGHPUT].have || !st[RPB_M_P99].have || !(st[RPB_M_P99].median > 0) ||
		    !rpb_plot_fit(st[RPB_M_THROUGHPUT].median) || !rpb_plot_fit(st[RPB_M_P99].median))
			continue;
		cols[nc++] = b;
		lo = fmin(lo, st[RPB_M_P99].median);
		hi = fmax(hi, st[RPB_M_P99].median);
		if (st[RPB_M_BYTES_PER_OBJECT].have && rpb_plot_fit(st[RPB_M_BYTES_PER_OBJECT].median)) {
			bmax = fmax(bmax, st[RPB_M_BYTES_PER_OBJECT].median);
			sized = true;
		}
	}
	snprintf(fig->caption, sizeof fig->caption,
		 "One point per column: the median throughput (x) and median p99 latency (y, log "
		 "scale) of the main label, %s, over its runs; best is bottom right. %s",
		 c->main_label,
		 sized ? "A point's area grows with the column's bytes on disk per acknowledged object "
			 "(its label gives the number): smaller is less space."
		       : "No column reported its bytes on disk per object, so every point has one size.");
	if (!nc) {
		snprintf(fig->skipped, sizeof fig->skipped,
			 "no column has a throughput and a p99 latency of %s above 0 (a killed run "
			 "has none: its result.json is the one written at the start)", c->main_label);
		return 0;
	}
	char path[RPB_CMP_PATH + 64];
	snprintf(path, sizeof path, "%s/data/%s.dat", dir, fig->name);
	FILE *d = fopen(path, "w");
	if (!d) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
		return -1;
	}
	fprintf(d, "# throughput_per_s p99_us bytes_per_object point_size  (one row per column)\n");
	struct rpb_plot_script sc;
	if (!rpb_plot_script_open(&sc, dir, c, fig)) {
		fclose(d);
		snprintf(msg, n, "cannot write the script of %s: %s", fig->name, strerror(errno));
		return -1;
	}
	char q[300], plot[8192] = "plot ";
	size_t len = strlen(plot);
	double xmax = 0;
	for (size_t i = 0; i < nc; i++) {
		const struct rpb_cmp_backend *be = &c->backends[cols[i]];
		double x = be->stat[RPB_M_THROUGHPUT].median, y = be->stat[RPB_M_P99].median;
		bool has_b = be->stat[RPB_M_BYTES_PER_OBJECT].have && bmax > 0;
		double bpo = has_b ? be->stat[RPB_M_BYTES_PER_OBJECT].median : NAN;
		double ps = has_b ? PS_MIN + (PS_MAX - PS_MIN) * sqrt(fmax(bpo, 0) / bmax) : 2.0;
		xmax = fmax(xmax, x);
		fprintf(d, "%.6g %.6g %.6g %.3g\n", x, y, has_b ? bpo : -1, ps);
		char text[160];
		if (has_b)
			snprintf(text, sizeof text, "%s, %.0f B/object", be->label, bpo);
		else
			snprintf(text, sizeof text, "%s", be->label);
		fprintf(sc.f, "set label %zu %s at %.6g, %.6g offset 1.6,0.9 tc rgb '%s' noenhanced front\n",
			i + 1, rpb_gp_quote(q, sizeof q, text), x, y, rpb_plot_colour(c, be->label));
		char file[200], key[160];
		len += (size_t)snprintf(plot + len, sizeof plot - len,
					"%s%s every ::%zu::%zu using 1:2:4 with points ls %zu ps variable title %s",
					i ? ", " : "", rpb_gp_quote(file, sizeof file, "data/decision.dat"),
					i, i, cols[i] + 1, rpb_gp_quote(key, sizeof key, be->label));
	}
	bool bad = ferror(d);
	if (fclose(d) != 0 || bad) {
		fclose(sc.f);
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(sc.f, "set xlabel 'throughput, '.%s.' per s (median; more is better)' noenhanced\n"
		      "set ylabel 'p99 latency, µs (median, log scale; less is better)'\n"
		      "set logscale y\nset xrange [0:%.6g]\n",
		rpb_gp_quote(q, sizeof q, c->main_label), xmax > 0 ? xmax * 1.35 : 1);
	rpb_plot_log_y_file(sc.f, lo, hi);
	return rpb_plot_draw(dir, fig, &sc, plot, 960, 480, msg, n);
}
