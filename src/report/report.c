/* The comparison table in its text forms, compare.md and compare.json (and
 * runs.csv, runs_csv.c). */
#include <errno.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "plot.h"
#include "report.h"
#include "report_html.h"
#include "report_notes.h"
#include "report_table.h"
#include "runs_csv.h"


static const char legend[] =
	"Median over the runs, [min–max] with repeats. ×N means N times worse than the row's top "
	"median (throughput: top ÷ value; latency and bytes: value ÷ top). \"best\" marks the top "
	"only when it and the runner-up have two runs or more each and their [min–max] do not "
	"overlap; \"within noise\" when they overlap (with one run per column neither is said: "
	"use --repeat). Bytes on disk (tables + WAL) rank only runs that acknowledged as many objects; bytes per "
	"object and per payload byte (space amplification) always. Rounding: ops/s and µs to 0.1, "
	"MiB to 0.01, bytes per object to 1, ratios to 0.01; compare.json holds the exact values.";

static const char no_runs[] = "No run left results or intervals: nothing to compare.";

/* The notes under the table, one paragraph each. */
static void print_notes(const struct rpb_cmp *c, FILE *f)
{
	char lines[RPB_NOTE_MAX][RPB_NOTE_SIZE];
	size_t n = rpb_report_notes(c, lines);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "\n%s\n", lines[i]);
}

void rpb_report_print(const struct rpb_cmp *c, FILE *f)
{
	char head[512];
	struct rpb_grid t = {0};
	rpb_report_headline(c, head, sizeof head);
	fprintf(f, "%s\n", head);
	if (!c->nbackends)
		fprintf(f, "%s\n", no_runs);
	else if (rpb_report_table(c, &t) == 0)
		rpb_grid_markdown(&t, f);
	rpb_grid_free(&t);
	print_notes(c, f);
	fprintf(f, "\n%s\n", legend);
}

/* ---- files ---- */

int rpb_report_new_dir(const char *dir, const char *flag, char *msg, size_t n)
{
	struct rpb_err err;
	if (rpb_dir_prepare(dir, true, &err) != RPB_OK) {
		snprintf(msg, n, "%s cannot be used (%s); choose a writable %s", dir, err.msg, flag);
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(msg, n, "cannot read %s: %s; choose a writable %s", dir, strerror(errno), flag);
		return -1;
	}
	struct dirent *e;
	bool empty = true;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty) {
		snprintf(msg, n, "%s is not empty; choose a new or empty %s", dir, flag);
		return -1;
	}
	return 0;
}

static int close_file(FILE *f, const char *path, char *msg, size_t n)
{
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(msg, n, "cannot write %s: %s; check the output directory", path, strerror(errno));
		return -1;
	}
	return 0;
}

static json_t *stat_json(const struct rpb_cmp_stat *s, bool ranked)
{
	if (!s->have)
		return json_null();
	json_t *o = json_pack("{s:f, s:f, s:f, s:i}", "median", s->median, "min", s->min, "max",
			      s->max, "n", (int)s->n);
	if (ranked) {
		json_object_set_new(o, "ratio_to_best", s->have_ratio ? json_real(s->ratio) : json_null());
		json_object_set_new(o, "top", json_boolean(s->top));
		json_object_set_new(o, "best", json_boolean(s->best));
		json_object_set_new(o, "within_noise", json_boolean(s->noise));
	}
	return o;
}

static json_t *run_json(const struct rpb_cmp *c, const struct rpb_cmp_run *r, const char *dir)
{
	char rel[RPB_CMP_PATH];
	rpb_relpath(dir, r->dir, rel, sizeof rel);
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:b, s:s}", "name", r->name,
			      "backend", r->backend, "profile", r->profile, "sync", r->sync, "dir", rel,
			      "results", r->have_results, "completed", r->completed, "stop", r->stop);
	json_object_set_new(o, "exit_code", r->exit_code >= 0 ? json_integer(r->exit_code) : json_null());
	for (int m = 0; m < RPB_M_COUNT; m++)
		json_object_set_new(o, rpb_cmp_metrics[m].key,
				    r->have[m] ? json_real(r->v[m]) : json_null());
	json_t *rows = json_object();
	for (size_t w = 0; w < c->nrows; w++)
		json_object_set_new(rows, c->rows[w].key, r->rhave[w] ? json_real(r->rv[w]) : json_null());
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "acked_bytes", json_integer((json_int_t)r->acked_bytes));
	json_object_set_new(o, "wal_bytes", r->have_wal ? json_real(r->wal_bytes) : json_null());
	return o;
}

static json_t *compare_json(const struct rpb_cmp *c, const char *dir, const char *command)
{
	json_t *backends = json_array(), *incomplete = json_array();
	for (size_t i = 0; i < c->nbackends; i++) {
		const struct rpb_cmp_backend *b = &c->backends[i];
		json_t *runs = json_array();
		for (size_t k = 0; k < b->nruns; k++)
			json_array_append_new(runs, run_json(c, &c->runs[b->runs[k]], dir));
		char rep[RPB_CMP_PATH];
		rpb_relpath(dir, c->runs[b->rep].dir, rep, sizeof rep);
		json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:s}", "column", b->label,
				      "backend", b->name, "profile", b->profile, "sync", b->sync,
				      "backend_version", b->version, "runs", runs, "plotted_run", rep);
		for (int m = 0; m < RPB_M_COUNT; m++)
			json_object_set_new(o, rpb_cmp_metrics[m].key,
					    stat_json(&b->stat[m], rpb_cmp_metrics[m].ratio));
		json_t *rows = json_object();
		for (size_t w = 0; w < c->nrows; w++)
			json_object_set_new(rows, c->rows[w].key, stat_json(&b->rstat[w], true));
		json_object_set_new(o, "rows", rows);
		json_object_set(o, "errors", b->errors);
		json_object_set_new(o, "stop", json_string(b->stops));
		json_array_append_new(backends, o);
	}
	for (size_t k = 0; k < c->nruns; k++)
		if (!c->runs[k].completed)
			json_array_append_new(incomplete, run_json(c, &c->runs[k], dir));
	/* profile and sync: the comparison's, or null in a durability matrix
	 * (each column has its own). */
	json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:b}", "rpbench_version",
				 RPB_VERSION, "pattern", c->pattern, "workload", c->workload,
				 "main_label", c->main_label, "profile",
				 c->matrix ? json_null() : json_string(c->profile), "sync",
				 c->matrix ? json_null() : json_string(c->sync), "matrix", c->matrix);
	if (command)
		json_object_set_new(root, "command", json_string(command));
	json_object_set_new(root, "rounding",
			    json_string("text tables: ops/s and µs to 0.1, MiB (2^20 bytes) to 0.01, "
					"ratios and space amplification to 0.01; this file keeps exact values"));
	json_t *notes = json_array();
	char lines[RPB_NOTE_MAX][RPB_NOTE_SIZE];
	size_t nnotes = rpb_report_notes(c, lines);
	for (size_t i = 0; i < nnotes; i++)
		json_array_append_new(notes, json_string(lines[i]));
	json_object_set_new(root, "notes", notes);
	json_t *rows = json_array();
	for (size_t w = 0; w < c->nrows; w++)
		json_array_append_new(rows, json_pack("{s:s, s:s, s:b}", "key", c->rows[w].key, "title",
						      c->rows[w].title, "higher_better",
						      c->rows[w].higher_better));
	json_object_set_new(root, "rows", rows);
	json_object_set(root, "options", c->options);
	json_object_set_new(root, "backends", backends);
	json_object_set_new(root, "incomplete", incomplete);
	return root;
}

int rpb_report_compare_files(const struct rpb_cmp *c, const char *dir, const char *command,
			     char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 32];
	snprintf(path, sizeof path, "%s/compare.md", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
		return -1;
	}
	char head[512];
	struct rpb_grid t = {0};
	rpb_report_headline(c, head, sizeof head);
	fprintf(f, "# rpbench compare: %s\n\n", head);
	if (command)
		fprintf(f, "```\n%s\n```\n\n", command);
	if (!c->nbackends)
		fprintf(f, "%s\n", no_runs);
	else if (rpb_report_table(c, &t) == 0)
		rpb_grid_markdown(&t, f);
	rpb_grid_free(&t);
	print_notes(c, f);
	fprintf(f, "\n%s\n", legend);
	if (rpb_report_label_table(c, &t) == 0) {
		fprintf(f, "\n## Every label (the plotted run of each backend)\n\n");
		rpb_grid_markdown(&t, f);
	}
	rpb_grid_free(&t);
	fprintf(f, "\n## Runs\n\n");
	for (size_t k = 0; k < c->nruns; k++) {
		char rel[RPB_CMP_PATH];
		const struct rpb_cmp_run *r = &c->runs[k];
		rpb_relpath(dir, r->dir, rel, sizeof rel);
		fprintf(f, "- %s: `%s`, stop %s", rpb_cmp_run_column(c, r), rel, r->stop);
		if (r->exit_code >= 0)
			fprintf(f, ", exit %d", r->exit_code);
		if (r->completed)
			fprintf(f, "\n");
		else if (r->included)
			fprintf(f, " (ended early%s%s; shown up to its end)\n", r->end_mark[0] ? ": " : "",
				r->end_mark);
		else
			fprintf(f, " (no results; left out)\n");
	}
	if (close_file(f, path, msg, n) != 0)
		return -1;

	snprintf(path, sizeof path, "%s/compare.json", dir);
	json_t *root = compare_json(c, dir, command);
	if (!root || json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
							 JSON_REAL_PRECISION(17)) != 0) {
		snprintf(msg, n, "cannot write %s; choose a writable --out", path);
		json_decref(root);
		return -1;
	}
	json_decref(root);
	return rpb_runs_csv_write(c, dir, msg, n);
}

int rpb_report_write(const struct rpb_cmp *c, const char *dir, char *msg, size_t n)
{
	if (rpb_report_new_dir(dir, "--out", msg, n) != 0)
		return -1;
	struct rpb_figure figs[RPB_PLOT_MAX_FIGURES];
	size_t nfigs = 0;
	if (rpb_plot_all(c, dir, figs, &nfigs, msg, n) != 0)
		return -1;
	return rpb_report_html(c, dir, figs, nfigs, msg, n);
}
