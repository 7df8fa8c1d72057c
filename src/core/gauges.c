/* Backend gauge statistics: accumulate, sample, write. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gauges.h"
#include "hostinfo.h"
#include "runner.h"

void rpb_gauges_init(struct rpb_gauge_stats *s)
{
	memset(s, 0, sizeof *s);
}

static struct rpb_gauge_stat *find(struct rpb_gauge_stats *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->g[i].name, name))
			return &s->g[i];
	if (s->n == RPB_GAUGES_MAX)
		return NULL;
	struct rpb_gauge_stat *g = &s->g[s->n++];
	memset(g, 0, sizeof *g);
	g->name = name;
	return g;
}

void rpb_gauges_add(struct rpb_gauge_stats *s, const struct rpb_gauge *in, size_t n)
{
	s->failing = 0;
	for (size_t i = 0; i < n; i++) {
		if (!in[i].name || !isfinite(in[i].value))
			continue;
		struct rpb_gauge_stat *g = find(s, in[i].name);
		if (!g)
			continue;
		double v = in[i].value;
		if (!g->samples || v < g->min)
			g->min = v;
		if (!g->samples || v > g->max)
			g->max = v;
		g->sum += v;
		g->last = v;
		g->samples++;
	}
}

void rpb_gauges_fail(struct rpb_gauge_stats *s, const struct rpb_err *err)
{
	if (!s->failed++)
		s->first_failure = *err;
	s->failing++;
}

void rpb_gauges_sample(struct rpb_runner *rn)
{
	rpb_rss_sample(&rn->rss_peak);
	if (!rn->backend->gauges)
		return;
	struct rpb_gauge out[RPB_GAUGES_MAX];
	size_t n = 0;
	struct rpb_err err = {0};
	enum rpb_status st = rn->backend->gauges(rn->store, out, &n, &err);
	if (st != RPB_OK) {
		if (!err.msg[0])
			rpb_err_set(&err, st, 0, NULL, "%s gauges: %s", rn->backend->name,
				    rpb_status_name(st));
		rpb_gauges_fail(&rn->gauges, &err);
		return;
	}
	rpb_gauges_add(&rn->gauges, out, n < RPB_GAUGES_MAX ? n : RPB_GAUGES_MAX);
}

bool rpb_gauges_any(const struct rpb_gauge_stats *s)
{
	if (s->failed) /* a replica unreachable all along must show too */
		return true;
	for (size_t i = 0; i < s->n; i++)
		if (s->g[i].samples)
			return true;
	return false;
}

bool rpb_gauges_last(const struct rpb_gauge_stats *s, const char *name, double *out)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->g[i].samples && !strcmp(s->g[i].name, name)) {
			*out = s->g[i].last;
			return true;
		}
	return false;
}

json_t *rpb_gauges_json(const struct rpb_gauge_stats *s)
{
	if (!rpb_gauges_any(s))
		return NULL;
	json_t *o = json_object();
	if (!o)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct rpb_gauge_stat *g = &s->g[i];
		if (!g->samples)
			continue;
		json_t *one = json_pack("{s:I, s:f, s:f, s:f, s:f}", "samples", (json_int_t)g->samples,
					"mean", g->sum / (double)g->samples, "min", g->min, "max",
					g->max, "last", g->last);
		if (!one || json_object_set_new(o, g->name, one)) {
			json_decref(o);
			return NULL;
		}
	}
	if (json_object_set_new(o, "failed_readings", json_integer((json_int_t)s->failed)) ||
	    (s->failed && json_object_set_new(o, "first_failure", json_string(s->first_failure.msg)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A value as its unit suggests: whole bytes, seconds to the millisecond
 * (trailing zeros dropped, so 0 reads "0" and 0.05 "0.05"), else %g. */
static void fmt_value(char *buf, size_t n, const char *name, double v)
{
	if (ends_with(name, "_bytes")) {
		snprintf(buf, n, "%.0f", v);
	} else if (ends_with(name, "_s")) {
		snprintf(buf, n, "%.3f", v);
		char *dot = strchr(buf, '.');
		if (dot) {
			char *end = dot + strlen(dot) - 1;
			while (end > dot && *end == '0')
				*end-- = '\0';
			if (end == dot)
				*dot = '\0';
		}
		if (!strcmp(buf, "-0"))
			strcpy(buf, "0");
	} else {
		snprintf(buf, n, "%.6g", v);
	}
}

/* Appends to buf at *len, keeping it NUL-terminated and within n. */
__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t n, size_t *len,
							 const char *fmt, ...)
{
	if (*len >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	if (k > 0)
		*len = *len + (size_t)k < n ? *len + (size_t)k : n - 1;
}

void rpb_gauges_summary(const struct rpb_gauge_stats *s, char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		const struct rpb_gauge_stat *g = &s->g[i];
		if (!g->samples)
			continue;
		char mx[32], mean[32], last[32];
		fmt_value(mx, sizeof mx, g->name, g->max);
		fmt_value(mean, sizeof mean, g->name, g->sum / (double)g->samples);
		fmt_value(last, sizeof last, g->name, g->last);
		append(buf, n, &len, "%s%s max %s mean %s last %s", len ? "; " : "", g->name, mx, mean,
		       last);
	}
	if (s->failed)
		append(buf, n, &len, "%sfailed readings %llu (first: %s)", len ? "; " : "",
		       (unsigned long long)s->failed, s->first_failure.msg);
}

void rpb_gauges_latest(const struct rpb_gauge_stats *s, char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		const struct rpb_gauge_stat *g = &s->g[i];
		if (!g->samples)
			continue;
		char v[32];
		fmt_value(v, sizeof v, g->name, g->last);
		append(buf, n, &len, "%s%s %s", len ? ", " : "", g->name, v);
	}
	if (len && s->failing)
		append(buf, n, &len, " (last %llu readings failed)", (unsigned long long)s->failing);
}
