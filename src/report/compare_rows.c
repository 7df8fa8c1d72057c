/* The table's further rows (compare_rows.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_rows.h"
#include "fsutil.h"
#include "result_check.h"

#define LOAD_RESULT_MAX (UINT64_C(1) << 32)

/* obj's number called key; false when it is not one. */
static bool member(const json_t *obj, const char *key, double *out)
{
	const json_t *v = json_object_get(obj, key);
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

void rpb_cmp_rows_load(struct rpb_cmp *c, struct rpb_cmp_run *r)
{
	const json_t *man = json_object_get(r->root, "manifest");
	const char *pattern = json_string_value(json_object_get(man, "pattern"));
	const char *phase =
		json_string_value(json_object_get(json_object_get(r->root, "pattern"), "phase"));
	if (!pattern || strcmp(pattern, "ycsb") || !phase || strcmp(phase, "run"))
		return;
	char path[RPB_CMP_PATH + 32];
	snprintf(path, sizeof path, "%s-load/result.json", r->dir);
	const char *why;
	size_t len = 0;
	char *text = rpb_file_slurp(path, LOAD_RESULT_MAX, &len, &why);
	json_t *root = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL) : NULL;
	free(text);
	char msg[512];
	/* Not this run's load unless it is a result of the same backend. */
	if (root && (rpb_cmp_result_check(root, path, c->backend_known, msg, sizeof msg) != 0 ||
		     strcmp(json_string_value(json_object_get(json_object_get(root, "manifest"),
							      "backend")),
			    r->backend))) {
		json_decref(root);
		root = NULL;
	}
	r->load_root = root;
}

/* The index of the row called key, added with title when new; -1 when the
 * table is full. */
static int row_of(struct rpb_cmp *c, const char *key, const char *title, bool higher_better,
		  int digits)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].key, key))
			return (int)i;
	if (c->nrows == RPB_CMP_MAX_ROWS)
		return -1;
	struct rpb_cmp_row *w = &c->rows[c->nrows];
	snprintf(w->key, sizeof w->key, "%s", key);
	snprintf(w->title, sizeof w->title, "%s", title);
	w->higher_better = higher_better;
	w->digits = digits;
	return (int)c->nrows++;
}

static void put(struct rpb_cmp_run *r, int row, double v)
{
	if (row < 0)
		return;
	r->rhave[row] = true;
	r->rv[row] = v;
}

/* Throughput and p99 of every label of labels but skip; prefix names
 * the phase in keys and titles ("" for the run itself). */
static void label_rows(struct rpb_cmp *c, struct rpb_cmp_run *r, const json_t *labels,
		       const char *skip, const char *prefix)
{
	const char *l;
	const json_t *lab;
	json_object_foreach((json_t *)labels, l, lab) {
		double x;
		/* A label without samples (the first is always written) says nothing. */
		if ((skip && !strcmp(l, skip)) || (member(lab, "samples", &x) && x == 0))
			continue;
		char key[96], title[128];
		snprintf(key, sizeof key, "%s%s/throughput_per_s", prefix, l);
		snprintf(title, sizeof title, "%s%s throughput, ops/s", prefix, l);
		int t = row_of(c, key, title, true, 1);
		snprintf(key, sizeof key, "%s%s/p99_us", prefix, l);
		snprintf(title, sizeof title, "%s%s latency p99, µs", prefix, l);
		int p = row_of(c, key, title, false, 1);
		if (member(lab, "throughput_per_s", &x))
			put(r, t, x);
		if (member(lab, "p99_us", &x))
			put(r, p, x);
	}
}

/* Harvests of the whole corpus: the completed ones (a harvest cut by ops
 * or duration covered part of it), their records per second of harvest
 * time and their mean time. */
static void harvest_rows(struct rpb_cmp *c, struct rpb_cmp_run *r)
{
	const json_t *pat = json_object_get(r->root, "pattern");
	const json_t *harvests = json_object_get(pat, "harvests");
	if (!json_is_array(harvests))
		return;
	int rate = row_of(c, "harvest/records_per_s", "whole-corpus harvest, records/s", true, 1);
	int time = row_of(c, "harvest/duration_s", "whole-corpus harvest, s", false, 3);
	double records = 0, secs = 0;
	size_t n = 0, i;
	const json_t *h;
	json_array_foreach(harvests, i, h) {
		double rec, d;
		if (!json_is_true(json_object_get(h, "completed")) ||
		    !member(h, "records", &rec) || !member(h, "duration_s", &d))
			continue;
		records += rec;
		secs += d;
		n++;
	}
	if (!n || secs <= 0)
		return;
	put(r, rate, records / secs);
	put(r, time, secs / (double)n);
}

void rpb_cmp_rows(struct rpb_cmp *c)
{
	c->nrows = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		struct rpb_cmp_run *r = &c->runs[i];
		memset(r->rhave, 0, sizeof r->rhave);
		if (!r->included || !r->have_results)
			continue;
		label_rows(c, r, json_object_get(r->root, "labels"), c->main_label, "");
		if (r->load_root)
			label_rows(c, r, json_object_get(r->load_root, "labels"), NULL, "load: ");
		if (!strcmp(c->pattern, "harvest"))
			harvest_rows(c, r);
	}
}
