/* runs.csv: the runs of a comparison, one row each (runs_csv.h). */
#include "runs_csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_table.h"

/* The per-label figures, in column order for each label. */
static const char *const label_figures[] = {"throughput_per_s", "p50_us", "p99_us", "p99.9_us"};
#define NFIG (sizeof label_figures / sizeof label_figures[0])

void rpb_csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A separator, then the field. */
static void field(FILE *f, const char *s)
{
	fputc(',', f);
	rpb_csv_field(f, s);
}

/* A JSON number as the run wrote it (an integer exactly, a real to 15
 * significant digits, enough for the digits result.json holds); empty when
 * absent or not a number. */
static void number_field(FILE *f, const json_t *v)
{
	char buf[64] = "";
	if (json_is_integer(v))
		snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sizeof buf, "%.15g", json_real_value(v));
	field(f, buf);
}

static void double_field(FILE *f, bool have, double v)
{
	char buf[64] = "";
	if (have)
		snprintf(buf, sizeof buf, "%.15g", v);
	field(f, buf);
}

static const json_t *member(const json_t *root, const char *object, const char *key)
{
	return json_object_get(json_object_get(root, object), key);
}

/* The labels of every run, in order of first appearance; NULL when out of
 * memory. The names belong to the runs' result.json. */
static const char **all_labels(const struct rpb_cmp *c, size_t *count)
{
	size_t cap = 8, nl = 0;
	const char **names = malloc(cap * sizeof *names);
	for (size_t k = 0; names && k < c->nruns; k++) {
		const char *key;
		const json_t *v;
		json_object_foreach(json_object_get(c->runs[k].root, "labels"), key, v) {
			size_t i = 0;
			while (i < nl && strcmp(names[i], key) != 0)
				i++;
			if (i < nl)
				continue;
			if (nl == cap) {
				const char **more = realloc(names, 2 * cap * sizeof *names);
				if (!more) {
					free(names);
					return NULL;
				}
				names = more;
				cap *= 2;
			}
			names[nl++] = key;
		}
	}
	*count = nl;
	return names;
}

/* The run's place among the runs of its backend, profile and sync, from 1. */
static size_t repeat_of(const struct rpb_cmp *c, size_t k)
{
	const struct rpb_cmp_run *r = &c->runs[k];
	size_t rep = 1;
	for (size_t i = 0; i < k; i++) {
		const struct rpb_cmp_run *o = &c->runs[i];
		rep += !strcmp(o->backend, r->backend) && !strcmp(o->profile, r->profile) &&
		       !strcmp(o->sync, r->sync);
	}
	return rep;
}

static void header(FILE *f, const char *const *labels, size_t nl)
{
	fputs("run,backend,profile,sync,repeat,pattern,workload,completed,exit_code,acked", f);
	for (size_t l = 0; l < nl; l++)
		for (size_t i = 0; i < NFIG; i++) {
			char name[128];
			snprintf(name, sizeof name, "%s:%s", label_figures[i], labels[l]);
			field(f, name);
		}
	fputs(",store_bytes,bytes_per_object,stop,dir\r\n", f);
}

static void row(FILE *f, const struct rpb_cmp *c, size_t k, const char *dir, const char *const *labels,
		size_t nl)
{
	const struct rpb_cmp_run *r = &c->runs[k];
	const json_t *man = json_object_get(r->root, "manifest");
	char buf[64], rel[RPB_CMP_PATH];
	const char *pattern = json_string_value(json_object_get(man, "pattern"));
	const char *workload = json_string_value(json_object_get(man, "workload"));
	rpb_csv_field(f, r->name);
	field(f, r->backend);
	field(f, r->profile);
	field(f, r->sync);
	snprintf(buf, sizeof buf, "%zu", repeat_of(c, k));
	field(f, buf);
	field(f, pattern ? pattern : "");
	field(f, workload ? workload : "");
	field(f, r->completed ? "true" : "false");
	if (r->exit_code >= 0)
		snprintf(buf, sizeof buf, "%d", r->exit_code);
	else
		buf[0] = '\0';
	field(f, buf);
	number_field(f, member(r->root, "totals", "acked"));
	for (size_t l = 0; l < nl; l++) {
		const json_t *lab = member(r->root, "labels", labels[l]);
		for (size_t i = 0; i < NFIG; i++)
			number_field(f, json_object_get(lab, label_figures[i]));
	}
	number_field(f, member(r->root, "totals", "store_bytes"));
	double_field(f, r->have[RPB_M_BYTES_PER_OBJECT], r->v[RPB_M_BYTES_PER_OBJECT]);
	field(f, r->stop);
	rpb_relpath(dir, r->dir, rel, sizeof rel);
	field(f, rel);
	fputs("\r\n", f);
}

int rpb_runs_csv_write(const struct rpb_cmp *c, const char *dir, char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 16];
	snprintf(path, sizeof path, "%s/runs.csv", dir);
	size_t nl = 0;
	const char **labels = all_labels(c, &nl);
	if (!labels) {
		snprintf(msg, n, "cannot write %s: out of memory", path);
		return -1;
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
		free(labels);
		return -1;
	}
	header(f, labels, nl);
	for (size_t k = 0; k < c->nruns; k++)
		row(f, c, k, dir, labels, nl);
	free(labels);
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(msg, n, "cannot write %s: %s; free space or choose another --out", path,
			 strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
