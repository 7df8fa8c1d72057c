/* index.html of a report: the comparison tables, the figures and the
 * manifests, in one page that needs nothing but the files beside it (no
 * script, no external style or font). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmdline.h"
#include "data_skips.h"
#include "dsn.h"
#include "hostinfo.h"
#include "plot.h"
#include "plot_decision.h"
#include "report_html.h"
#include "report_notes.h"
#include "report_table.h"

/* Every text in the page goes through here: whatever a result file holds
 * reads as text, never as markup. */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
}

static const char css[] =
	"body{font-family:'DejaVu Sans',Arial,sans-serif;margin:24px auto;max-width:1200px;"
	"color:#222;background:#fff;line-height:1.4}"
	"h1{font-size:1.5em;margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.6em 0}"
	"th,td{border:1px solid #ccc;padding:3px 8px;vertical-align:top}"
	"th{background:#f2f2f2;text-align:left}td.num{text-align:right;white-space:nowrap}"
	".swatch{display:inline-block;width:.9em;height:.9em;margin-right:.35em;"
	"vertical-align:-.1em;border-radius:2px}"
	".best{font-weight:bold}.note{color:#555;font-size:.92em}"
	".warn{background:#fff3cd;border:1px solid #e0c060;padding:6px 10px}"
	"figure{margin:1.2em 0}figure img{max-width:100%;border:1px solid #ddd}"
	".figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(540px,1fr));gap:0 18px}"
	".figs figure{margin:.6em 0}.figs figcaption{font-size:.85em}figure.lead img{max-width:820px}"
	"figcaption{color:#444;font-size:.92em;max-width:960px}"
	"code{background:#f5f5f5;padding:0 3px}tr th:first-child{white-space:nowrap}"
	"table.runs{font-size:.9em}table.runs td{white-space:nowrap}table.runs td.store{white-space:normal}"
	"pre{background:#f5f5f5;padding:6px 10px;white-space:pre-wrap;word-break:break-all;font-size:.88em}"
	"ul.opts{columns:3;list-style:none;padding:0;font-size:.92em}ul.opts li{margin:1px 0}";

static void swatch(FILE *f, const struct rpb_cmp *c, const char *backend)
{
	fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span>",
		rpb_plot_colour(c, backend));
}

/* A table; the first row is the head, whose cells after the first name
 * backends when backend_head is set. */
static void html_table(FILE *f, const struct rpb_cmp *c, const struct rpb_grid *t,
		       bool backend_head)
{
	fputs("<table>\n<tr>", f);
	for (size_t k = 0; k < t->cols; k++) {
		fputs("<th>", f);
		if (backend_head && k > 0)
			swatch(f, c, t->cell[0][k]);
		esc(f, t->cell[0][k]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t r = 1; r < t->rows; r++) {
		fputs("<tr>", f);
		for (size_t k = 0; k < t->cols; k++) {
			const char *cell = t->cell[r][k];
			if (k == 0)
				fputs("<th>", f);
			else
				fprintf(f, "<td%s%s>", t->numeric_row[r] ? " class=\"num" : "",
					!t->numeric_row[r] ? ""
					: strstr(cell, " best") ? " best\"" : "\"");
			esc(f, cell);
			fputs(k == 0 ? "</th>" : "</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void file_link(FILE *f, const char *dir, const char *target, const char *text)
{
	char rel[RPB_CMP_PATH];
	rpb_relpath(dir, target, rel, sizeof rel);
	fputs("<a href=\"", f);
	esc(f, rel);
	fputs("\">", f);
	esc(f, text);
	fputs("</a>", f);
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static void runs_table(FILE *f, const struct rpb_cmp *c, const char *dir)
{
	fputs("<table class=\"runs\">\n<tr><th>run</th><th>version</th><th>results</th><th>start (UTC)</th>"
	      "<th>elapsed, s</th><th>stop</th><th>exit</th><th>store</th></tr>\n",
	      f);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rpb_cmp_run *r = &c->runs[i];
		const json_t *m = json_object_get(r->root, "manifest");
		const json_t *store = json_object_get(m, "store");
		char path[RPB_CMP_PATH + 32];
		fputs("<tr><td>", f);
		swatch(f, c, rpb_cmp_run_column(c, r));
		esc(f, r->name);
		fputs("</td><td>", f);
		esc(f, r->backend_version);
		fputs("</td><td>", f);
		snprintf(path, sizeof path, "%s/result.json", r->dir);
		if (access(path, R_OK) == 0)
			file_link(f, dir, path, "result.json");
		snprintf(path, sizeof path, "%s/summary.txt", r->dir);
		if (access(path, R_OK) == 0) {
			fputs(" ", f);
			file_link(f, dir, path, "summary.txt");
		}
		fputs("</td><td>", f);
		esc(f, jstr(m, "start"));
		double elapsed;
		if (rpb_cmp_number(r->root, "totals/elapsed_s", &elapsed))
			fprintf(f, "</td><td class=\"num\">%.1f</td><td>", elapsed);
		else if (r->have_intervals) /* killed: as far as its intervals go */
			fprintf(f, "</td><td class=\"num\">≥ %.1f</td><td>", r->end_s);
		else
			fputs("</td><td class=\"num\">—</td><td>", f);
		bool killed = !strcmp(r->stop, "killed") && r->end_mark[0]; /* the mark says it */
		esc(f, killed ? "" : r->stop);
		if (r->end_mark[0]) {
			fputs(killed ? "" : ": ", f);
			esc(f, r->end_mark);
		}
		fprintf(f, "</td><td class=\"num\">");
		if (r->exit_code >= 0)
			fprintf(f, "%d", r->exit_code);
		else
			fputs("—", f);
		fputs("</td><td class=\"store\">", f);
		if (json_object_get(store, "dir")) {
			esc(f, jstr(store, "dir"));
			fputs(" (", f);
			esc(f, jstr(store, "fs_type"));
			fputs(")", f);
		} else if (store) {
			fputs("schema ", f);
			esc(f, jstr(store, "name"));
			fputs(" at ", f);
			/* Redacted again: a result file of an older rpbench may
			 * hold a password. */
			char *dsn = rpb_dsn_redacted(jstr(store, "dsn"));
			esc(f, dsn ? dsn : "***");
			free(dsn);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);

	/* The host, once per distinct description. */
	json_t *hosts = json_object();
	for (size_t i = 0; i < c->nruns; i++) {
		const json_t *host = json_object_get(json_object_get(c->runs[i].root, "manifest"), "host");
		double cores = 0, mem = 0;
		if (!host)
			continue;
		rpb_cmp_number(host, "cores", &cores);
		rpb_cmp_number(host, "memory_bytes", &mem);
		char text[128];
		snprintf(text, sizeof text, "%.0f cores, %.1f GiB memory", cores, mem / (1024.0 * 1024 * 1024));
		json_object_set_new(hosts, text, json_true());
	}
	fputs("<p>Host: ", f);
	const char *h;
	const json_t *v;
	size_t k = 0;
	json_object_foreach(hosts, h, v) {
		fputs(k++ ? "; " : "", f);
		esc(f, h);
	}
	json_decref(hosts);
	fputs("</p>\n<details><summary>Commands</summary>\n<pre>", f);
	for (size_t i = 0; i < c->nruns; i++) {
		/* Redacted again, as the store's DSN above. */
		char *cmd = rpb_cmd_redacted(jstr(json_object_get(c->runs[i].root, "manifest"), "command"));
		esc(f, cmd ? cmd : "***");
		free(cmd);
		fputs("\n", f);
	}
	fputs("</pre>\n</details>\n", f);
}

static void options_list(FILE *f, const struct rpb_cmp *c)
{
	fputs("<details><summary>Every option</summary>\n<ul class=\"opts\">\n", f);
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)c->options, key, v) {
		fputs("<li><code>", f);
		esc(f, key);
		fputs("</code> = ", f);
		esc(f, json_string_value(v));
		fputs("</li>\n", f);
	}
	fputs("</ul>\n</details>\n", f);
}

enum fig_part { FIG_LEAD, FIG_COMMON, FIG_GAUGES };

static enum fig_part fig_part(const struct rpb_figure *g)
{
	return !strcmp(g->name, RPB_PLOT_DECISION) ? FIG_LEAD
	       : !strncmp(g->name, "gauges-", 7)   ? FIG_GAUGES
						   : FIG_COMMON;
}

/* The figures of one part: the decision figure above the tables, the
 * others two a row (the browser's width allowing). A figure with nothing
 * to draw takes no room: one line under the part names each and why. */
static void figures(FILE *f, const struct rpb_figure *figs, size_t nfigs, enum fig_part part)
{
	fputs(part != FIG_LEAD ? "<div class=\"figs\">\n" : "", f);
	size_t missing = 0;
	for (size_t i = 0; i < nfigs; i++) {
		const struct rpb_figure *g = &figs[i];
		if (fig_part(g) != part)
			continue;
		if (!g->made) {
			missing++;
			continue;
		}
		fputs(part == FIG_LEAD ? "<figure class=\"lead\">\n" : "<figure>\n", f);
		fprintf(f, "<img src=\"figures/%s.svg\" alt=\"", g->name);
		esc(f, g->title);
		fputs("\">\n<figcaption>", f);
		esc(f, g->caption);
		fprintf(f, " <a href=\"figures/%s.png\">PNG</a>, "
			   "<a href=\"figures/%s.gp\">gnuplot script</a></figcaption>\n",
			g->name, g->name);
		fputs("</figure>\n", f);
	}
	fputs(part != FIG_LEAD ? "</div>\n" : "", f);
	if (!missing)
		return;
	fputs("<p class=\"note skipped\">Nothing to draw: ", f);
	size_t k = 0;
	for (size_t i = 0; i < nfigs; i++) {
		const struct rpb_figure *g = &figs[i];
		if (fig_part(g) != part || g->made)
			continue;
		fputs(k++ ? "; " : "", f);
		fputs("<b>", f);
		esc(f, g->title);
		fputs("</b>: ", f);
		esc(f, g->skipped);
	}
	fputs(".</p>\n", f);
}

/* The runs that did not complete: those shown up to their end (included),
 * or those left out, having left neither results nor intervals. */
static void early_runs(FILE *f, const struct rpb_cmp *c, bool included)
{
	size_t k = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct rpb_cmp_run *r = &c->runs[i];
		if (r->completed || r->included != included)
			continue;
		fputs(k++ ? "; " : included ? "<p class=\"warn\">Ended early, so shown up to their end, "
					     "which every figure over time marks: "
					   : "<p class=\"warn\">Left out of the tables and figures, "
					     "having left no results and no intervals: ", f);
		fputs("<b>", f);
		esc(f, r->name);
		fputs("</b> (", f);
		esc(f, r->end_mark[0] ? r->end_mark : r->stop);
		if (r->exit_code >= 0)
			fprintf(f, ", exit %d", r->exit_code);
		fputs(")", f);
	}
	if (k)
		fputs(".</p>\n", f);
}

/* The rows of data files that held values no figure can use (data_skips.h). */
static void skipped_rows(FILE *f, const struct rpb_cmp *c)
{
	char text[4096];
	if (!rpb_cmp_skips_text(c, text, sizeof text))
		return;
	fputs("<p class=\"warn\">Rows that hold values no figure can use (not a number, not "
	      "finite, beyond ±1e19, a label not in result.json) are left out of every figure: ", f);
	esc(f, text);
	fputs(".</p>\n", f);
}

int rpb_report_html(const struct rpb_cmp *c, const char *dir, const struct rpb_figure *figs,
		    size_t nfigs, char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 32], head[512], now[40];
	snprintf(path, sizeof path, "%s/index.html", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
		return -1;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	rpb_iso_time(now, sizeof now, (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
	rpb_report_headline(c, head, sizeof head);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>rpbench: ", f);
	esc(f, head);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>rpbench: ", css);
	esc(f, head);
	fprintf(f, "</h1>\n<p class=\"note\">rpbench %s report, written %s, from %zu run(s).</p>\n",
		RPB_VERSION, now, c->nruns);

	early_runs(f, c, true);
	early_runs(f, c, false);
	skipped_rows(f, c);
	/* The answer first: the figure to decide by, then the numbers. */
	figures(f, figs, nfigs, FIG_LEAD);

	struct rpb_grid t = {0};
	fputs("<h2>Comparison</h2>\n", f);
	if (!c->nbackends)
		fputs("<p>No run left results or intervals: nothing to compare.</p>\n", f);
	else if (rpb_report_table(c, &t) == 0)
		html_table(f, c, &t, true);
	rpb_grid_free(&t);
	char notes[RPB_NOTE_MAX][RPB_NOTE_SIZE];
	for (size_t i = 0, k = rpb_report_notes(c, notes); i < k; i++) {
		fputs("<p class=\"note\">", f);
		esc(f, notes[i]);
		fputs("</p>\n", f);
	}
	fputs("<p class=\"note\">Main label: <code>", f);
	esc(f, c->main_label);
	fputs("</code> (the first label of result.json). Median over the runs, [min–max] with "
	      "repeats. <b>best</b> marks the best backend of a row; ×N means N times worse than "
	      "the best (throughput: best ÷ value; latency and bytes: value ÷ best). Space "
	      "amplification is bytes on disk ÷ acknowledged payload bytes (n/a when nothing was "
	      "acknowledged as payload). Errors count failed samples per class over all runs. "
	      "Rounding: ops/s and µs to 0.1, MiB to 0.01, ratios to 0.01.</p>\n",
	      f);
	if (rpb_report_label_table(c, &t) == 0 && t.rows > 2) {
		fputs("<h2>Every label</h2>\n<p class=\"note\">The plotted run of each backend.</p>\n", f);
		html_table(f, c, &t, false);
	}
	rpb_grid_free(&t);

	fputs("<h2>Figures</h2>\n<p class=\"note\">Each backend is drawn from one run: with "
	      "repeats, the run of median throughput.</p>\n",
	      f);
	figures(f, figs, nfigs, FIG_COMMON);
	figures(f, figs, nfigs, FIG_GAUGES);

	fputs("<h2>Runs</h2>\n", f);
	runs_table(f, c, dir);
	fputs("<h2>Workload options</h2>\n<p class=\"note\">Resolved options, identical in every "
	      "run (manifest.options).</p>\n",
	      f);
	options_list(f, c);
	fputs("</body>\n</html>\n", f);
	bool bad_write = ferror(f);
	if (fclose(f) != 0 || bad_write) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
