/* Each label over time from samples.jtl (plot_labels.h). Only the first
 * three columns are read (timeStamp, elapsed, label; jtl_read.h). A label
 * is drawn only when it is one of the run's own (result.json's labels,
 * checked when the run was read); any other row is skipped. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_read.h"
#include "jtl_read.h"
#include "gnuplot_text.h"
#include "plot_labels.h"
#include "result_check.h"

#define MAX_LABELS 8
#define MAX_BINS 256

static const char *const label_colours[MAX_LABELS] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7",
						      "#d55e00", "#56b4e9", "#7f7f7f", "#000000"};

struct run_labels {
	size_t b;                   /* the backend */
	size_t nlabels;
	const char *label[MAX_LABELS]; /* keys of result.json labels, borrowed */
	double width;               /* bin width, s */
	size_t nbins;
	double count[MAX_LABELS][MAX_BINS], sum_ms[MAX_LABELS][MAX_BINS];
	char file[96];              /* data/labels-time-<backend>.dat */
};

/* The bin width: about 100 bins over the run's longest thread, rounded to
 * a 1-2-5 step from 0.1 s. */
static double bin_width(const json_t *root)
{
	double len = 0;
	size_t i;
	const json_t *t;
	json_array_foreach(json_object_get(root, "threads"), i, t) {
		double a = json_number_value(json_object_get(t, "active_s"));
		if (rpb_plot_fit(a) && a > len)
			len = a;
	}
	static const double steps[] = {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600};
	for (size_t k = 0; k < sizeof steps / sizeof *steps; k++)
		if (len / steps[k] <= 100)
			return steps[k];
	return 3600 * ceil(len / 3600 / 100);
}

/* Reads samples.jtl into per-label bins; false when there is none. */
static bool read_jtl(const struct rpb_cmp_run *r, struct run_labels *rl)
{
	const json_t *labels = json_object_get(r->root, "labels"), *v;
	const char *key;
	rl->nlabels = 0;
	json_object_foreach((json_t *)labels, key, v) {
		if (rl->nlabels < MAX_LABELS && rpb_cmp_name_ok(key))
			rl->label[rl->nlabels++] = key;
	}
	struct rpb_csv in;
	if (!rl->nlabels || !rpb_csv_open(&in, r->dir, "samples.jtl"))
		return false;
	rl->width = bin_width(r->root);
	rl->nbins = 0;
	double t0 = NAN;
	struct rpb_jtl_row row;
	/* Rows no figure can use were counted when the run was read. */
	while (rpb_jtl_next(&in, labels, &row, NULL)) {
		size_t l = 0;
		while (l < rl->nlabels && strcmp(rl->label[l], row.label))
			l++;
		if (l == rl->nlabels)
			continue;
		double ms = row.ms;
		if (isnan(t0))
			t0 = row.ts; /* rows are in completion order: the first sample's start */
		double at = (row.ts + ms - t0) / 1e3; /* when the sample ended */
		if (!(at >= 0))
			at = 0;
		size_t bin = (size_t)fmin(at / rl->width, MAX_BINS - 1);
		rl->count[l][bin]++;
		rl->sum_ms[l][bin] += ms;
		if (bin + 1 > rl->nbins)
			rl->nbins = bin + 1;
	}
	rpb_csv_close(&in);
	return rl->nbins > 0;
}

/* The last bin is cut short by the end of the run: its rate would be too
 * low, so it is left out when there are others. */
static size_t bins_drawn(const struct run_labels *rl)
{
	return rl->nbins > 1 ? rl->nbins - 1 : rl->nbins;
}

/* data file: the bin's middle, then per label samples/s and mean ms. */
static bool write_data(const char *dir, struct run_labels *rl, const char *backend)
{
	snprintf(rl->file, sizeof rl->file, "data/labels-time-%s.dat", backend);
	char path[RPB_CMP_PATH + 128];
	snprintf(path, sizeof path, "%s/%s", dir, rl->file);
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fprintf(f, "# bin_middle_s, then per label: samples_per_s mean_ms (bins of %g s):", rl->width);
	for (size_t l = 0; l < rl->nlabels; l++)
		fprintf(f, " %s", rl->label[l]);
	fprintf(f, "\n");
	size_t nb = bins_drawn(rl);
	for (size_t k = 0; k < nb; k++) {
		fprintf(f, "%.6g", (k + 0.5) * rl->width);
		for (size_t l = 0; l < rl->nlabels; l++) {
			double cnt = rl->count[l][k];
			fprintf(f, " %.6g", cnt / rl->width);
			if (cnt > 0)
				fprintf(f, " %.6g", rl->sum_ms[l][k] / cnt);
			else
				fprintf(f, " ?");
		}
		fprintf(f, "\n");
	}
	bool bad = ferror(f);
	return fclose(f) == 0 && !bad;
}

/* One panel: column off (1 = samples/s, 2 = mean ms) of every label that
 * had samples. */
static size_t panel(char *plot, size_t len, size_t cap, const struct run_labels *rl, int off,
		    const char *title, const char *ylabel, bool logy, const struct rpb_cmp_run *r,
		    const char *colour)
{
	char qt[256], qy[96], qf[160], ql[96];
	/* Where the run ended early: a line on both panels; the words are in
	 * the first panel's title. */
	if (r->end_mark[0] && len < cap)
		len += (size_t)rpb_plot_end_mark(plot + len, cap - len, 100, r->end_s, 0, true, colour,
						 "");
	len += (size_t)snprintf(plot + len, cap - len, "set title %s noenhanced\nset ylabel %s\n%s\n",
				rpb_gp_quote(qt, sizeof qt, title), rpb_gp_quote(qy, sizeof qy, ylabel),
				logy ? "set logscale y\nset yrange [*:*]"
				     : "unset logscale y\nset yrange [0:*]\nset ytics autofreq\nset mytics default");
	if (logy && len < cap) {
		double lo = INFINITY, hi = 0;
		size_t nb = bins_drawn(rl);
		for (size_t l = 0; l < rl->nlabels; l++)
			for (size_t k = 0; k < nb; k++)
				if (rl->count[l][k] > 0) {
					double ms = rl->sum_ms[l][k] / rl->count[l][k];
					lo = ms > 0 ? fmin(lo, ms) : lo;
					hi = fmax(hi, ms);
				}
		len += (size_t)rpb_plot_log_y(plot + len, cap - len, lo, hi);
	}
	if (len < cap)
		len += (size_t)snprintf(plot + len, cap - len, "plot ");
	bool first = true;
	for (size_t l = 0; l < rl->nlabels && len < cap; l++) {
		double total = 0;
		for (size_t k = 0; k < rl->nbins; k++)
			total += rl->count[l][k];
		if (!total)
			continue;
		len += (size_t)snprintf(plot + len, cap - len,
					"%s%s using 1:%zu with linespoints lc rgb '%s' lw 2 pt 7 ps 0.5 title %s",
					first ? "" : ", ", rpb_gp_quote(qf, sizeof qf, rl->file),
					2 + 2 * l + (size_t)(off - 1), label_colours[l],
					rpb_gp_quote(ql, sizeof ql, rl->label[l]));
		first = false;
	}
	if (len < cap)
		len += (size_t)snprintf(plot + len, cap - len, "\nunset arrow 100\nunset label 100\n");
	return len;
}

int rpb_plot_labels(const struct rpb_cmp *c, const char *dir, const char *where,
		    struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n)
{
	struct rpb_figure *fig = &figs[(*nfigs)++];
	memset(fig, 0, sizeof *fig);
	snprintf(fig->name, sizeof fig->name, "labels-time");
	snprintf(fig->title, sizeof fig->title, "Each label over time: %s", where);
	snprintf(fig->caption, sizeof fig->caption,
		 "Samples per second (left) and mean latency (right, log scale) of each label, per "
		 "backend, in bins of about a hundredth of the run (samples.jtl: a sample counts when "
		 "it ended, timeStamp + elapsed, from the first sample's start; latencies in whole ms, "
		 "as samples.jtl keeps them; the last, partial bin is left out). intervals.csv sums "
		 "the labels into one series: here work beside the main operation, such as harvest's "
		 "background snapshot filler (snapshot-build), shows next to the requests.");
	struct run_labels *rl = calloc(c->nbackends ? c->nbackends : 1, sizeof *rl);
	if (!rl) {
		snprintf(msg, n, "out of memory");
		return -1;
	}
	size_t nr = 0;
	for (size_t b = 0; b < c->nbackends; b++) {
		rl[nr].b = b;
		if (!read_jtl(&c->runs[c->backends[b].rep], &rl[nr]))
			continue;
		if (!write_data(dir, &rl[nr], c->backends[b].key)) {
			snprintf(msg, n, "cannot write %s/%s: %s; choose a writable --out", dir, rl[nr].file,
				 strerror(errno));
			free(rl);
			return -1;
		}
		nr++;
	}
	int rc = 0;
	struct rpb_plot_script sc;
	if (!nr) {
		snprintf(fig->skipped, sizeof fig->skipped,
			 "no plotted run has samples.jtl (run with jtl = on)");
	} else if (!rpb_plot_script_open(&sc, dir, c, fig)) {
		snprintf(msg, n, "cannot write the script of %s: %s", fig->name, strerror(errno));
		rc = -1;
	} else {
		/* Every panel to the latest end, so each run's end mark is inside. */
		double end = 0;
		bool marked = false;
		for (size_t i = 0; i < nr; i++) {
			const struct rpb_cmp_run *r = &c->runs[c->backends[rl[i].b].rep];
			double last_bin = (double)rl[i].nbins * rl[i].width;
			end = fmax(end, fmax(r->end_s, last_bin));
			marked |= r->end_mark[0] != '\0';
		}
		end = marked ? end : 0;
		fprintf(sc.f, "unset title\nset datafile missing '?'\nset xlabel 'elapsed time, s'\n"
			      "set key outside top center horizontal noenhanced\n");
		if (end > 0)
			fprintf(sc.f, "set xrange [0:%.9g]\n", end * 1.04);
		else
			fprintf(sc.f, "set xrange [0:*]\n");
		char plot[16384], q[1100], t[320];
		size_t len = (size_t)snprintf(plot, sizeof plot, "set multiplot layout %zu,2 title %s\n", nr,
					      rpb_gp_quote(q, sizeof q, fig->title));
		for (size_t i = 0; i < nr; i++) {
			const char *name = c->backends[rl[i].b].label;
			const struct rpb_cmp_run *r = &c->runs[c->backends[rl[i].b].rep];
			const char *colour = rpb_plot_colour(c, name);
			snprintf(t, sizeof t, "%s: samples per second%s%s%s", name,
				 r->end_mark[0] ? " (" : "", r->end_mark, r->end_mark[0] ? ")" : "");
			len = panel(plot, len, sizeof plot, &rl[i], 1, t, "samples/s", false, r, colour);
			snprintf(t, sizeof t, "%s: mean latency", name);
			len = panel(plot, len, sizeof plot, &rl[i], 2, t, "ms (log scale)", true, r, colour);
		}
		if (len < sizeof plot)
			snprintf(plot + len, sizeof plot - len, "unset multiplot");
		rc = rpb_plot_draw(dir, fig, &sc, plot, 1100, (int)(60 + 360 * nr), msg, n);
	}
	free(rl);
	return rc;
}
