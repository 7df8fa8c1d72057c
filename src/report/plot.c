/* The report's figures. Each backend is represented by its plotted run (the
 * median-throughput one); the data each figure needs is extracted into
 * DIR/data/<figure>-<backend>.dat, and DIR/figures/<figure>.gp draws it with
 * gnuplot into DIR/figures/<figure>.svg and .png. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv_read.h"
#include "figure.h"
#include "gnuplot_text.h"
#include "pattern.h"
#include "plot.h"
#include "plot_decision.h"
#include "plot_gauges.h"
#include "plot_labels.h"
#include "plot_nodes.h"
#include "result_check.h"

#define MIB 1048576.0

/* ---- data files ---- */

struct series {
	char file[192]; /* data/<figure>-<backend>[-label].dat, relative to the report */
	size_t backend;
	char label[72];
	size_t points;
	double xmax;
	double ymin, ymax; /* over every y of the rows written */
};

/* Fewer rows than this are no line over time: one dot, or two. */
#define MIN_POINTS 3

static FILE *open_data(const char *dir, struct series *s, const char *fig, const char *backend,
		       const char *label)
{
	snprintf(s->file, sizeof s->file, "data/%s-%s%s%s.dat", fig, backend, label ? "-" : "",
		 label ? label : "");
	snprintf(s->label, sizeof s->label, "%s", label ? label : "");
	s->points = 0;
	s->xmax = 0;
	s->ymin = INFINITY;
	s->ymax = 0;
	char path[RPB_CMP_PATH + 128];
	snprintf(path, sizeof path, "%s/%s", dir, s->file);
	return fopen(path, "w");
}

/* One data row: x then ny values. */
static size_t write_row(FILE *f, const double *row, size_t ny, struct series *s)
{
	s->xmax = row[0] > s->xmax ? row[0] : s->xmax;
	for (size_t k = 0; k < ny; k++) {
		s->ymin = fmin(s->ymin, row[k + 1]);
		s->ymax = fmax(s->ymax, row[k + 1]);
	}
	fprintf(f, "%.6g", row[0]);
	for (size_t k = 0; k < ny; k++)
		fprintf(f, " %.6g", row[k + 1]);
	fprintf(f, "\n");
	return 1;
}

/* Columns of intervals.csv for every backend: x, then the ys; rows whose
 * values are not all positive are left out when positive is set (log axes).
 * A backend with fewer than MIN_POINTS rows is left out, named in *few. */
static size_t interval_series(const struct rpb_cmp *c, const char *dir, const char *fig,
			      const char *xcol, const char *const *ycols, size_t ny, bool positive,
			      double yscale, struct series *out, char *few, size_t nfew)
{
	size_t flen = 0;
	few[0] = '\0';
	size_t ns = 0;
	for (size_t b = 0; b < c->nbackends; b++) {
		struct rpb_csv in;
		if (!rpb_csv_open_data(&in, c->runs[c->backends[b].rep].dir, RPB_DATA_INTERVALS))
			continue;
		int xc = rpb_csv_col(&in, xcol), yc[4];
		bool ok = xc >= 0;
		for (size_t k = 0; k < ny; k++)
			ok &= (yc[k] = rpb_csv_col(&in, ycols[k])) >= 0;
		struct series *s = &out[ns];
		FILE *f = ok ? open_data(dir, s, fig, c->backends[b].key, NULL) : NULL;
		if (!f) {
			rpb_csv_close(&in);
			continue;
		}
		s->backend = b;
		fprintf(f, "# %s", xcol);
		for (size_t k = 0; k < ny; k++)
			fprintf(f, " %s", ycols[k]);
		fprintf(f, "\n");
		/* The last row covers only the rest of the run after the last full
		 * interval: over a few milliseconds its throughput and latencies
		 * are noise, so it is drawn only when it spans at least half an
		 * interval. One row is held back to know which is last. */
		int tc = rpb_csv_col(&in, "elapsed_s");
		double held[5], prev_t = 0, span = 0, held_span = 0;
		bool have = false;
		while (rpb_csv_next_fit(&in, NULL)) { /* the rest: counted when the run was read */
			double row[5], t = tc >= 0 ? rpb_csv_num(&in, tc) : NAN;
			row[0] = rpb_csv_num(&in, xc);
			bool keep = !isnan(row[0]);
			for (size_t k = 0; k < ny; k++) {
				row[k + 1] = rpb_csv_num(&in, yc[k]) / yscale;
				keep &= !isnan(row[k + 1]) && (!positive || row[k + 1] > 0);
			}
			double this_span = isnan(t) ? 0 : t - prev_t;
			prev_t = isnan(t) ? prev_t : t;
			if (!keep)
				continue;
			if (have)
				s->points += write_row(f, held, ny, s);
			memcpy(held, row, sizeof row);
			span = held_span;
			held_span = this_span;
			have = true;
		}
		if (have && (span <= 0 || held_span >= span / 2))
			s->points += write_row(f, held, ny, s);
		rpb_csv_close(&in);
		fclose(f);
		if (s->points >= MIN_POINTS)
			ns++;
		else if (flen < nfew)
			flen += (size_t)snprintf(few + flen, nfew - flen, "%s%s (%zu)", flen ? ", " : "",
						 c->backends[b].name, s->points);
	}
	return ns;
}

/* The least and greatest y over the series. */
static void y_span(const struct series *s, size_t ns, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; i < ns; i++) {
		*lo = fmin(*lo, s[i].ymin);
		*hi = fmax(*hi, s[i].ymax);
	}
}

/* Why a figure over intervals was drawn without some backends, or not at
 * all: too few rows to be a line. */
static void few_note(struct rpb_figure *fig, size_t ns, const char *few)
{
	if (!*few)
		return;
	if (!ns) {
		snprintf(fig->skipped, sizeof fig->skipped,
			 "too few points, under %d intervals.csv rows a run (%s); a shorter "
			 "interval (--set interval=0.1) gives a short run more",
			 MIN_POINTS, few);
		return;
	}
	size_t len = strlen(fig->caption);
	snprintf(fig->caption + len, sizeof fig->caption - len,
		 " Left out, with fewer than %d rows to draw: %s.", MIN_POINTS, few);
}

/* The end of each drawn backend's run that ended early: a dashed line in
 * its colour at the moment it stopped (x = elapsed time, or acked
 * operations when by_acked), labelled with how it ended. Every word is
 * rpbench's own (run_end.h) and reaches the script only as a quoted
 * literal. */
static void end_marks(FILE *f, const struct rpb_cmp *c, const struct series *s, size_t ns,
		      bool by_acked)
{
	const struct rpb_cmp_run *marked[RPB_CMP_MAX_BACKENDS];
	size_t backend[RPB_CMP_MAX_BACKENDS], k = 0;
	double xmax = 0;
	for (size_t i = 0; i < ns; i++) {
		xmax = s[i].xmax > xmax ? s[i].xmax : xmax;
		const struct rpb_cmp_run *r = &c->runs[c->backends[s[i].backend].rep];
		if (!r->end_mark[0] || (i && s[i].backend == s[i - 1].backend) ||
		    k == RPB_CMP_MAX_BACKENDS)
			continue; /* completed, or panels of one backend: one mark */
		double x = by_acked ? (double)r->end_acked : r->end_s;
		xmax = x > xmax ? x : xmax;
		backend[k] = s[i].backend;
		marked[k++] = r;
	}
	for (size_t i = 0; i < k; i++) {
		double x = by_acked ? (double)marked[i]->end_acked : marked[i]->end_s;
		char buf[1024];
		/* The label beside the line, on the side where the plot goes on. */
		rpb_plot_end_mark(buf, sizeof buf, (int)(100 + i), x, (unsigned)i, x > xmax / 2, rpb_plot_colour(c, c->backends[backend[i]].label),
				  marked[i]->end_mark);
		fputs(buf, f);
	}
	if (!k)
		return;
	rpb_plot_end_margin(f, (unsigned)k);
	/* The lines inside the plot, also one past the last row drawn. */
	fprintf(f, "set xrange [0:%.9g]\n", xmax * 1.04);
}

/* One plot element per series: its data file, columns, style and key
 * entry (the backend's name and suffix), appended to buf. */
static void plot_series(char *buf, size_t n, const struct rpb_cmp *c, const struct series *s,
			size_t ns, const char *using, const char *suffix, const char *style)
{
	size_t len = strlen(buf);
	for (size_t i = 0; i < ns && len < n; i++) {
		char file[512], title[256], text[128];
		snprintf(text, sizeof text, "%s%s", c->backends[s[i].backend].label, suffix);
		len += (size_t)snprintf(buf + len, n - len, "%s%s using %s with linespoints ls %zu %s title %s",
					len > 5 ? ", " : "", rpb_gp_quote(file, sizeof file, s[i].file),
					using, s[i].backend + 1, style, rpb_gp_quote(title, sizeof title, text));
	}
}

/* ---- the figures ---- */

struct ctx {
	const struct rpb_cmp *c;
	const char *dir;
	char where[320]; /* "ingest (ci-ingest.ini), sync none" */
	const char *acked_axis; /* what intervals.csv acked counts, as an axis label */
	char *msg;
	size_t n;
};

static struct rpb_figure *new_fig(struct rpb_figure *figs, size_t *nfigs, const struct ctx *x,
				  const char *name, const char *what, const char *caption)
{
	struct rpb_figure *f = &figs[(*nfigs)++];
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->title, sizeof f->title, "%s: %s", what, x->where);
	snprintf(f->caption, sizeof f->caption, "%s", caption);
	return f;
}


static int draw(const struct ctx *x, struct rpb_figure *fig, struct rpb_plot_script *sc, const char *plot,
		int width, int height)
{
	return rpb_plot_draw(x->dir, fig, sc, plot, width, height, x->msg, x->n);
}

static int fig_intervals(const struct ctx *x, struct rpb_figure *fig, const char *xcol,
			 const char *ycol, double yscale, const char *xlabel, const char *ylabel)
{
	struct series s[RPB_CMP_MAX_BACKENDS];
	const char *ys[] = {ycol};
	char few[512];
	size_t ns = interval_series(x->c, x->dir, fig->name, xcol, ys, 1, false, yscale, s, few,
				    sizeof few);
	few_note(fig, ns, few);
	if (!ns) {
		if (!fig->skipped[0])
			snprintf(fig->skipped, sizeof fig->skipped, "no run has intervals.csv rows");
		return 0;
	}
	struct rpb_plot_script sc;
	if (!rpb_plot_script_open(&sc, x->dir, x->c, fig))
		goto fail;
	char qx[160], qy[160];
	fprintf(sc.f, "set xlabel %s\nset ylabel %s\nset yrange [0:*]\nset xrange [0:*]\n",
		rpb_gp_quote(qx, sizeof qx, xlabel), rpb_gp_quote(qy, sizeof qy, ylabel));
	end_marks(sc.f, x->c, s, ns, strcmp(xcol, "elapsed_s") != 0);
	char plot[8192] = "plot ";
	plot_series(plot, sizeof plot, x->c, s, ns, "1:2", "", "");
	return draw(x, fig, &sc, plot, 960, 460);
fail:
	snprintf(x->msg, x->n, "cannot write the script of %s: %s", fig->name, strerror(errno));
	return -1;
}

static int fig_latency_time(const struct ctx *x, struct rpb_figure *fig)
{
	struct series s[RPB_CMP_MAX_BACKENDS];
	const char *ys[] = {"p50_us", "p99_us"};
	char few[512];
	size_t ns = interval_series(x->c, x->dir, fig->name, "elapsed_s", ys, 2, true, 1, s, few,
				    sizeof few);
	few_note(fig, ns, few);
	if (!ns) {
		if (!fig->skipped[0])
			snprintf(fig->skipped, sizeof fig->skipped,
				 "no run has intervals.csv rows with latencies above 0");
		return 0;
	}
	struct rpb_plot_script sc;
	if (!rpb_plot_script_open(&sc, x->dir, x->c, fig)) {
		snprintf(x->msg, x->n, "cannot write the script of %s: %s", fig->name, strerror(errno));
		return -1;
	}
	fprintf(sc.f, "set xlabel 'elapsed time, s'\nset ylabel 'latency, µs (log scale)'\n"
		      "set logscale y\nset xrange [0:*]\n");
	double lo, hi;
	y_span(s, ns, &lo, &hi);
	rpb_plot_log_y_file(sc.f, lo, hi);
	end_marks(sc.f, x->c, s, ns, false);
	char plot[8192] = "plot ";
	for (size_t i = 0; i < ns; i++) { /* each backend's pair together in the key */
		plot_series(plot, sizeof plot, x->c, &s[i], 1, "1:2", " p50", "");
		plot_series(plot, sizeof plot, x->c, &s[i], 1, "1:3", " p99", "dt 2 pt 6");
	}
	return draw(x, fig, &sc, plot, 960, 460);
}

/* HdrHistogram's percentile plot: x = 1 / (1 - p), so each nine takes the
 * same width; the maximum is drawn one decade past p99.99. */
static int fig_percentiles(const struct ctx *x, struct rpb_figure *fig)
{
	static const struct {
		const char *key;
		double x;
	} pts[] = {{"p50_us", 2},      {"p90_us", 10},       {"p95_us", 20},  {"p99_us", 100},
		   {"p99.9_us", 1000}, {"p99.99_us", 10000}, {"max_us", 1e5}};
	struct series s[RPB_CMP_MAX_BACKENDS];
	size_t ns = 0;
	for (size_t b = 0; b < x->c->nbackends; b++) {
		const json_t *lab = json_object_get(
			json_object_get(x->c->runs[x->c->backends[b].rep].root, "labels"), x->c->main_label);
		FILE *f = lab ? open_data(x->dir, &s[ns], fig->name, x->c->backends[b].key, NULL) : NULL;
		if (!f)
			continue;
		s[ns].backend = b;
		fprintf(f, "# 1/(1-p) latency_us  (%s)\n", x->c->main_label);
		for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) {
			double v;
			if (rpb_cmp_number(lab, pts[k].key, &v) && v > 0 && rpb_plot_fit(v)) {
				double row[2] = {pts[k].x, v};
				s[ns].points += write_row(f, row, 1, &s[ns]);
			}
		}
		fclose(f);
		if (s[ns].points)
			ns++;
	}
	if (!ns) {
		snprintf(fig->skipped, sizeof fig->skipped,
			 "no run has percentiles of %s (a killed run has none: its result.json is the "
			 "one written at the start)", x->c->main_label);
		return 0;
	}
	struct rpb_plot_script sc;
	if (!rpb_plot_script_open(&sc, x->dir, x->c, fig)) {
		snprintf(x->msg, x->n, "cannot write the script of %s: %s", fig->name, strerror(errno));
		return -1;
	}
	char q[160];
	fprintf(sc.f, "set xlabel 'percentile (log scale of 1/(1-p))'\n"
		      "set ylabel %s.' latency, µs (log scale)'\n"
		      "set logscale xy\nset xrange [1.5:1.5e5]\n"
		      "set xtics ('50%%%%' 2, '90%%%%' 10, '95%%%%' 20, '99%%%%' 100, '99.9%%%%' 1000, '99.99%%%%' 10000, 'max' 100000)\n",
		rpb_gp_quote(q, sizeof q, x->c->main_label));
	double lo, hi;
	y_span(s, ns, &lo, &hi);
	rpb_plot_log_y_file(sc.f, lo, hi);
	char plot[8192] = "plot ";
	plot_series(plot, sizeof plot, x->c, s, ns, "1:2", "", "");
	return draw(x, fig, &sc, plot, 960, 460);
}

/* probe.csv rows give each thread's own count of acknowledged creates; the
 * objects stored at a probe are approximated by the sum over threads of the
 * latest count each thread reported so far (rows in completion order). Each
 * other thread's count lags its true count by less than probe_every creates. */
static int fig_probes(const struct ctx *x, struct rpb_figure *fig)
{
	enum { MAX_PROBE_LABELS = 6, MAX_THREADS = 4096 };
	char labels[MAX_PROBE_LABELS][72];
	size_t nlabels = 0;
	struct series s[RPB_CMP_MAX_BACKENDS * MAX_PROBE_LABELS];
	size_t ns = 0;
	double *last = calloc(MAX_THREADS, sizeof *last);
	if (!last) {
		snprintf(x->msg, x->n, "out of memory");
		return -1;
	}
	for (size_t b = 0; b < x->c->nbackends; b++) {
		struct rpb_csv in;
		if (!rpb_csv_open_data(&in, x->c->runs[x->c->backends[b].rep].dir, RPB_DATA_PROBE))
			continue;
		int ct = rpb_csv_col(&in, "thread"), cl = rpb_csv_col(&in, "label"),
		    clat = rpb_csv_col(&in, "latency_us"), cst = rpb_csv_col(&in, "status"),
		    cobj = rpb_csv_col(&in, "objects_acked_by_thread");
		FILE *files[MAX_PROBE_LABELS] = {0};
		size_t first = ns;
		memset(last, 0, MAX_THREADS * sizeof *last);
		while (ct >= 0 && cl >= 0 && clat >= 0 && cobj >= 0 && rpb_csv_next_fit(&in, NULL)) {
			double t = rpb_csv_num(&in, ct);
			if (isnan(t) || t < 0 || t >= MAX_THREADS)
				continue;
			last[(size_t)t] = rpb_csv_num(&in, cobj);
			if (cst >= 0 && strcmp(in.field[cst], "ok") != 0)
				continue;
			double total = 0;
			for (size_t k = 0; k < MAX_THREADS; k++)
				total += last[k];
			size_t l = 0;
			while (l < nlabels && strcmp(labels[l], in.field[cl]) != 0)
				l++;
			if (l == nlabels) {
				/* Checked when the run was read; a file changed since is
				 * still only ever drawn with labels. */
				if (nlabels == MAX_PROBE_LABELS || !rpb_cmp_name_ok(in.field[cl]))
					continue;
				snprintf(labels[nlabels++], sizeof labels[0], "%s", in.field[cl]);
			}
			size_t si = first;
			while (si < ns && strcmp(s[si].label, labels[l]) != 0)
				si++;
			if (si == ns) {
				if (!(files[si - first] = open_data(x->dir, &s[si], fig->name,
								    x->c->backends[b].key, labels[l])))
					continue;
				s[si].backend = b;
				fprintf(files[si - first], "# objects_stored_approx latency_us\n");
				ns++;
			}
			double lat = rpb_csv_num(&in, clat);
			if (!(lat > 0))
				continue; /* below the 1 µs resolution: no place on a log axis */
			double row[2] = {total, lat};
			s[si].points += write_row(files[si - first], row, 1, &s[si]);
		}
		for (size_t k = 0; k < MAX_PROBE_LABELS; k++)
			if (files[k])
				fclose(files[k]);
		rpb_csv_close(&in);
	}
	free(last);
	/* A label whose steps all took 0 µs has nothing on the log axis (the
	 * null backend's): its series and its panel go. */
	size_t kept = 0, nl = 0;
	for (size_t i = 0; i < ns; i++)
		if (s[i].points)
			s[kept++] = s[i];
	bool probed = ns > 0;
	ns = kept;
	for (size_t l = 0; l < nlabels; l++) {
		bool used = false;
		for (size_t i = 0; i < ns; i++)
			used |= !strcmp(s[i].label, labels[l]);
		if (used && nl != l)
			memcpy(labels[nl], labels[l], sizeof labels[0]);
		nl += used;
	}
	nlabels = nl;
	if (!ns) {
		snprintf(fig->skipped, sizeof fig->skipped, "%s",
			 probed ? "every successful probe step took 0 µs (below probe.csv's resolution), "
				  "which has no place on the log axis"
				: "no run wrote probe.csv (probe_every = 0 or not an ingest run)");
		return 0;
	}
	struct rpb_plot_script sc;
	if (!rpb_plot_script_open(&sc, x->dir, x->c, fig)) {
		snprintf(x->msg, x->n, "cannot write the script of %s: %s", fig->name, strerror(errno));
		return -1;
	}
	size_t cols = nlabels < 3 ? nlabels : 3, rows = (nlabels + cols - 1) / cols;
	char plot[16384];
	char q[1100];
	size_t len = (size_t)snprintf(plot, sizeof plot, "set multiplot layout %zu,%zu title %s\n",
				      rows, cols, rpb_gp_quote(q, sizeof q, fig->title));
	fprintf(sc.f, "unset title\nset xlabel 'objects stored (approx.)'\nset ylabel 'latency, µs (log scale)'\n"
		      "set logscale y\nset xrange [0:*]\nset key outside top center horizontal noenhanced\n");
	double lo, hi, xmax = 0; /* one range for every panel, so they read alike */
	y_span(s, ns, &lo, &hi);
	rpb_plot_log_y_file(sc.f, lo, hi);
	for (size_t i = 0; i < ns; i++)
		xmax = fmax(xmax, s[i].xmax);
	fprintf(sc.f, "set xrange [0:%.9g]\n", xmax > 0 ? xmax * 1.04 : 1);
	for (size_t l = 0; l < nlabels && len < sizeof plot; l++) {
		len += (size_t)snprintf(plot + len, sizeof plot - len, "set title %s noenhanced\nplot ",
					rpb_gp_quote(q, sizeof q, labels[l]));
		size_t start = len;
		for (size_t i = 0; i < ns && len < sizeof plot; i++)
			if (!strcmp(s[i].label, labels[l])) {
				char file[512], title[128];
				len += (size_t)snprintf(plot + len, sizeof plot - len,
							"%s%s using 1:2 with points ls %zu title %s",
							len > start ? ", " : "",
							rpb_gp_quote(file, sizeof file, s[i].file),
							s[i].backend + 1,
							rpb_gp_quote(title, sizeof title,
								     x->c->backends[s[i].backend].label));
			}
		len += (size_t)snprintf(plot + len, sizeof plot - len, "\n");
	}
	snprintf(plot + len, sizeof plot - len, "unset multiplot");
	return draw(x, fig, &sc, plot, 1100, (int)(60 + 320 * rows));
}

static int fig_bytes(const struct ctx *x, struct rpb_figure *fig)
{
	struct series s[RPB_CMP_MAX_BACKENDS];
	const char *ys[] = {"store_bytes"};
	char few[512];
	size_t ns = interval_series(x->c, x->dir, fig->name, "acked", ys, 1, true, MIB, s, few,
				    sizeof few);
	few_note(fig, ns, few);
	if (!ns) {
		if (!fig->skipped[0])
			snprintf(fig->skipped, sizeof fig->skipped,
				 "no backend reported its size on disk (store_bytes is 0 in intervals.csv)");
		return 0;
	}
	struct rpb_plot_script sc;
	if (!rpb_plot_script_open(&sc, x->dir, x->c, fig)) {
		snprintf(x->msg, x->n, "cannot write the script of %s: %s", fig->name, strerror(errno));
		return -1;
	}
	char q[160];
	fprintf(sc.f, "set xlabel %s\nset ylabel 'bytes on disk, MiB'\n"
		      "set xrange [0:*]\nset yrange [0:*]\n",
		rpb_gp_quote(q, sizeof q, x->acked_axis));
	end_marks(sc.f, x->c, s, ns, true);
	char plot[8192] = "plot ";
	plot_series(plot, sizeof plot, x->c, s, ns, "1:2", "", "");
	/* The payload itself, for scale: objects x mean payload size. */
	double mean = 0;
	const json_t *pat = json_object_get(x->c->runs[x->c->backends[0].rep].root, "pattern");
	if (rpb_cmp_number(pat, "mean_size", &mean) && mean > 0 && rpb_plot_fit(mean)) {
		size_t len = strlen(plot);
		snprintf(plot + len, sizeof plot - len,
			 ", x * %.6g / %.0f with lines lc rgb '#909090' dt 3 lw 2 title 'payload (objects × mean size)'",
			 mean, MIB);
	}
	return draw(x, fig, &sc, plot, 960, 460);
}

/* The figures of the backends' plotted runs. */
static int common_figures(const struct ctx *base, struct rpb_figure *figs, size_t *nfigs)
{
	struct ctx x = *base; /* acked_axis is set below */
	const struct rpb_cmp *c = x.c;
	char cap[768], what[128];
	struct rpb_figure *f;
	/* A pattern whose acknowledged operations each store an object
	 * (ingest's create) counts objects; the others count operations that
	 * store none each (metadata: mkdir ... delete). */
	const struct rpb_pattern *pat = rpb_pattern_find(c->pattern);
	bool objects = pat && pat->stores_objects;
	x.acked_axis = objects ? "objects stored (acked creates)" : "acked operations";

	if (rpb_plot_decision(c, x.dir, x.where, figs, nfigs, x.msg, x.n) != 0)
		return -1;

	f = new_fig(figs, nfigs, &x, "throughput-time", "Throughput over time",
		    "Samples per second of all labels in each interval (intervals.csv: throughput_per_s "
		    "against elapsed_s).");
	if (fig_intervals(&x, f, "elapsed_s", "throughput_per_s", 1, "elapsed time, s",
			  "throughput, samples/s (all labels)") != 0)
		return -1;

	f = new_fig(figs, nfigs, &x, "latency-time", "Latency over time",
		    "p50 (solid) and p99 (dashed) latency of all labels in each interval "
		    "(intervals.csv: p50_us, p99_us against elapsed_s).");
	if (fig_latency_time(&x, f) != 0)
		return -1;

	snprintf(cap, sizeof cap,
		 "Latency of the main label (%s) by percentile over the whole measured run "
		 "(result.json labels.%s: p50, p90, p95, p99, p99.9, p99.99 and max). The x axis "
		 "is 1/(1-p) on a log scale, as in HdrHistogram's plots.",
		 c->main_label, c->main_label);
	f = new_fig(figs, nfigs, &x, "latency-percentiles", "Latency by percentile", cap);
	if (fig_percentiles(&x, f) != 0)
		return -1;

	snprintf(what, sizeof what, "Throughput versus %s", objects ? "objects stored" : "acked operations");
	f = new_fig(figs, nfigs, &x, "throughput-objects", what,
		    "Samples per second of all labels in each interval against the acknowledged main "
		    "operations so far (intervals.csv: throughput_per_s against acked).");
	if (fig_intervals(&x, f, "acked", "throughput_per_s", 1, x.acked_axis,
			  "throughput, samples/s (all labels)") != 0)
		return -1;

	f = new_fig(figs, nfigs, &x, "probe-objects", "Probe latency versus objects stored",
		    "Each successful probe step's latency (probe.csv: latency_us), one panel per probe "
		    "label. Objects stored is approximated: the sum over threads of the latest "
		    "objects_acked_by_thread each thread reported so far, so each other thread's "
		    "count lags by less than probe_every creates. Steps that took 0 µs (probe.csv "
		    "truncates to whole µs) have no place on the log axis and are left out.");
	if (fig_probes(&x, f) != 0)
		return -1;

	snprintf(what, sizeof what, "Bytes on disk versus %s", objects ? "objects stored" : "acked operations");
	f = new_fig(figs, nfigs, &x, "bytes-objects", what,
		    "The store's size as the backend reports it against the acknowledged main "
		    "operations (intervals.csv: store_bytes against acked); dotted grey: the payload "
		    "acknowledged (objects × result.json pattern.mean_size), where the pattern has one.");
	if (fig_bytes(&x, f) != 0)
		return -1;
	if (rpb_plot_labels(c, x.dir, x.where, figs, nfigs, x.msg, x.n) != 0)
		return -1;
	return rpb_plot_nodes(c, x.dir, x.where, figs, nfigs, x.msg, x.n);
}

int rpb_plot_all(const struct rpb_cmp *c, const char *dir, struct rpb_figure *figs,
		 size_t *nfigs, char *msg, size_t n)
{
	*nfigs = 0;
	char path[RPB_CMP_PATH + 32];
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, i ? "figures" : "data");
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			snprintf(msg, n, "cannot create %s: %s; choose a writable --out", path, strerror(errno));
			return -1;
		}
	}
	struct ctx x = {.c = c, .dir = dir, .msg = msg, .n = n};
	if (c->matrix) /* each column names its own */
		snprintf(x.where, sizeof x.where, "%s%s%s%s", c->pattern, c->workload[0] ? " (" : "",
			 c->workload, c->workload[0] ? ")" : "");
	else
		snprintf(x.where, sizeof x.where, "%s%s%s%s, profile %s, sync %s", c->pattern,
			 c->workload[0] ? " (" : "", c->workload, c->workload[0] ? ")" : "",
			 c->profile, c->sync);
	/* The gauges of runs that did not complete still explain them. */
	if ((c->nbackends && common_figures(&x, figs, nfigs) != 0) ||
	    rpb_plot_gauges(c, dir, x.where, figs, nfigs, msg, n) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/figures/gnuplot.log", dir);
	struct stat sb;
	if (stat(path, &sb) == 0 && sb.st_size == 0)
		unlink(path);
	return 0;
}
