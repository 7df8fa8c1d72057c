/* rpbench scale's figures and page (scale_figure.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "figure.h"
#include "gnuplot_text.h"
#include "scale_figure.h"

/* figures/scale-<backend>.dat: objects, then each metric (NaN: none). */
static int write_data(const char *out, const struct rpb_scale_backend *sb, char *msg, size_t n)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/figures/scale-%s.dat", out, sb->name);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# objects");
	for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++)
		fprintf(f, " %s", rpb_scale_metrics[m].key);
	fputc('\n', f);
	for (size_t i = 0; i < sb->npts; i++) {
		fprintf(f, "%llu", (unsigned long long)sb->pts[i].objects);
		for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++)
			fprintf(f, isfinite(sb->pts[i].v[m]) ? " %.17g" : " NaN",
				sb->pts[i].v[m] * rpb_scale_metrics[m].scale);
		fputc('\n', f);
	}
	if (fclose(f) != 0) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int draw_metric(const struct rpb_scale_plan *p, const struct rpb_scale_backend *sbs,
		       size_t nb, size_t m, struct rpb_figure *fig, char *msg, size_t n)
{
	const struct rpb_scale_metric *mt = &rpb_scale_metrics[m];
	snprintf(fig->name, sizeof fig->name, "scale-%zu", m);
	snprintf(fig->title, sizeof fig->title, "%s against objects in the store", mt->unit);
	snprintf(fig->caption, sizeof fig->caption, "%s (scale.json's %s) at each size's window, "
		 "joined; dashed: the least-squares trend on log10(objects), projected to 10^7 "
		 "objects", mt->title, mt->key);
	struct rpb_plot_script sc;
	snprintf(sc.path, sizeof sc.path, "%s/figures/%s.gp", p->out, fig->name);
	if (!(sc.f = fopen(sc.path, "w"))) {
		snprintf(msg, n, "cannot write %s: %s", sc.path, strerror(errno));
		return -1;
	}
	char q[1100];
	fprintf(sc.f, "# %s, drawn by rpbench scale; run from its directory: gnuplot figures/%s.gp\n"
		"set encoding utf8\nset grid lc rgb '#d0d0d0'\nset key outside right top noenhanced\n"
		"set logscale x\nset format x '1e%%T'\nset xlabel 'objects in the store'\n"
		"set ylabel %s noenhanced\nset title %s noenhanced\nset datafile missing 'NaN'\n"
		"set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n", fig->name, fig->name,
		rpb_gp_quote(q, sizeof q, mt->unit), rpb_gp_quote(q + 550, sizeof q - 550, fig->title));
	char plot[8192];
	size_t len = (size_t)snprintf(plot, sizeof plot, "plot");
	bool any = false;
	for (size_t b = 0; b < nb && len < sizeof plot; b++) {
		const struct rpb_scale_backend *sb = &sbs[b];
		if (!sb->npts)
			continue;
		const char *c = rpb_palette_colour(sb->name);
		len += (size_t)snprintf(plot + len, sizeof plot - len,
					"%s 'figures/scale-%s.dat' using 1:%zu with linespoints lw 2 "
					"pt 7 lc rgb '%s' title '%s'",
					any ? "," : "", sb->name, m + 2, c, sb->name);
		any = true;
		const struct rpb_scale_fit *f = &sb->fit[m];
		if (f->ok && len < sizeof plot)
			len += (size_t)snprintf(plot + len, sizeof plot - len,
						", [x=%llu:%g] '+' using (x):((%.17g + %.17g * log10(x)) * %g) "
						"with lines dt 2 lw 2 lc rgb '%s' title '%s, projected'",
						(unsigned long long)sb->pts[0].objects, RPB_SCALE_PROJECT_AT,
						f->a, f->b, mt->scale, c, sb->name);
	}
	if (!any) { /* no backend measured a size */
		fclose(sc.f);
		snprintf(fig->skipped, sizeof fig->skipped, "no size was measured");
		return 0;
	}
	return rpb_plot_draw(p->out, fig, &sc, plot, 900, 500, msg, n);
}

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

static int write_page(const struct rpb_scale_plan *p, const struct rpb_figure *figs, char *msg,
		      size_t n)
{
	char path[PATH_MAX], txt[PATH_MAX], line[512];
	snprintf(path, sizeof path, "%s/index.html", p->out);
	snprintf(txt, sizeof txt, "%s/scale.txt", p->out);
	FILE *f = fopen(path, "w"), *t = fopen(txt, "r");
	if (!f || !t) {
		if (f)
			fclose(f);
		if (t)
			fclose(t);
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>rpbench scale: ", f);
	esc(f, p->workload);
	fputs("</title>\n</head>\n<body>\n<h1>rpbench scale: ", f);
	esc(f, p->workload);
	fprintf(f, "</h1>\n<p>Each size: a measured window of %llu creates on the store grown to "
		"that size. Dashed lines and the lines below are projections, not measurements "
		"(docs/scaling.md).</p>\n<pre>", (unsigned long long)p->window);
	while (fgets(line, sizeof line, t))
		esc(f, line);
	fclose(t);
	fputs("</pre>\n", f);
	for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++) {
		fputs("<figure>\n", f);
		if (figs[m].made)
			fprintf(f, "<a href=\"figures/%s.svg\"><img src=\"figures/%s.svg\" alt=\"\"></a>\n",
				figs[m].name, figs[m].name);
		else {
			fputs("<p>Not drawn: ", f);
			esc(f, figs[m].skipped);
			fputs("</p>\n", f);
		}
		fputs("<figcaption>", f);
		esc(f, figs[m].caption);
		fputs("</figcaption>\n</figure>\n", f);
	}
	fputs("<p>Every figure: <a href=\"scale.json\">scale.json</a>, "
	      "<a href=\"scale.txt\">scale.txt</a>.</p>\n</body>\n</html>\n", f);
	if (fclose(f) != 0) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int rpb_scale_figures(const struct rpb_scale_plan *p, const struct rpb_scale_backend *sbs,
		      size_t nb, char *msg, size_t n)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s/figures", p->out);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		snprintf(msg, n, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	for (size_t b = 0; b < nb; b++)
		if (sbs[b].npts && write_data(p->out, &sbs[b], msg, n) != 0)
			return -1;
	struct rpb_figure figs[RPB_SCALE_NMETRICS];
	memset(figs, 0, sizeof figs);
	for (size_t m = 0; m < RPB_SCALE_NMETRICS; m++)
		if (draw_metric(p, sbs, nb, m, &figs[m], msg, n) != 0)
			return -1;
	return write_page(p, figs, msg, n);
}
