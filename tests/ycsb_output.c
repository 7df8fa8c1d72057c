/* A reader of YCSB's output for the tests (ycsb_output.h), from YCSB's
 * exporter code:
 *
 * - TextMeasurementsExporter.write: "[" + metric + "], " + measurement +
 *   ", " + value and a newline; an int or long as Java prints it, a double
 *   by Double.toString (a '.', E notation below 10^-3 and from 10^7, the
 *   shortest digits that read back, NaN, Infinity).
 * - JSONMeasurementsExporter / JSONArrayMeasurementsExporter: Jackson 1.9's
 *   DefaultPrettyPrinter: objects "{" LF "  \"metric\" : ..." "," LF ...
 *   LF "}", one after another with a space between them, or in an array
 *   "[ " ... ", " ... " ]"; NaN and Infinity as strings.
 * - what each OneMeasurement writes, in order: HdrHistogram's Operations,
 *   AverageLatency, MinLatency, MaxLatency, the percentiles, the statuses;
 *   Histogram's Operations, AverageLatency, LatencyVariance, MinLatency,
 *   MaxLatency, the 95th and 99th when reached, the statuses; TimeSeries'
 *   Operations, AverageLatency, MinLatency, MaxLatency, the statuses, then
 *   each unit's average; Raw's samples on their own lines first, then
 *   Total Operations, its summary (-1, Average, Min, Max, p1 ... p99.99),
 *   the statuses; TwoInOneMeasurement's two ("Hdr" and "Bucket" or "Raw"
 *   before the name), the statuses with the first. */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ycsb_output.h"

void yo_free(struct yo_out *o)
{
	free(o->r);
	free(o->s);
	memset(o, 0, sizeof *o);
}

static int fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- Java's numbers ---- */

static bool java_long(const char *t)
{
	const char *p = t + (*t == '-');
	if (!*p)
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/* Double.toString's text: the form for its magnitude, one digit before
 * the point in E notation, at least one after it, and the fewest digits
 * that read back as the same double (the closest such; with a single
 * digit, a second one when that is closer, as Java 19 chooses). */
static bool java_double(const char *t, double *v, char *why, size_t n)
{
	if (!strcmp(t, "NaN") || !strcmp(t, "Infinity") || !strcmp(t, "-Infinity")) {
		*v = t[0] == 'N' ? NAN : t[0] == '-' ? -INFINITY : INFINITY;
		return true;
	}
	const char *p = t + (*t == '-'), *dot = strchr(p, '.'), *e = strchr(p, 'E');
	if (!dot || dot == p || !isdigit((unsigned char)dot[1]) || (e && e < dot)) {
		snprintf(why, n, "'%s' is not Double.toString's text", t);
		return false;
	}
	for (const char *q = p; *q && q != e; q++)
		if (q != dot && !isdigit((unsigned char)*q)) {
			snprintf(why, n, "'%s' is not Double.toString's text", t);
			return false;
		}
	if (e && !java_long(e + 1)) {
		snprintf(why, n, "'%s': not an exponent", t);
		return false;
	}
	char *end;
	*v = strtod(t, &end);
	double a = fabs(*v);
	bool sci = a != 0 && (a < 1e-3 || a >= 1e7);
	if (sci != (e != NULL) || (e && dot - p != 1)) {
		snprintf(why, n, "'%s' is not in the notation Double.toString uses for it", t);
		return false;
	}
	if (*v == 0)
		return strcmp(p, "0.0") == 0;
	/* Its significant digits, the fraction's mandatory 0 not counted. */
	char digits[32];
	size_t nd = 0;
	for (const char *q = p; *q && q != e && nd < sizeof digits - 1; q++)
		if (isdigit((unsigned char)*q))
			digits[nd++] = *q;
	digits[nd] = '\0';
	size_t lead = strspn(digits, "0");
	memmove(digits, digits + lead, nd - lead + 1);
	nd -= lead;
	while (nd > 1 && digits[nd - 1] == '0')
		digits[--nd] = '\0';
	char shorter[48], same[48];
	snprintf(same, sizeof same, "%.*e", (int)nd - 1, a);
	char mine[32];
	size_t m = 0;
	for (const char *q = same; *q && *q != 'e'; q++)
		if (isdigit((unsigned char)*q))
			mine[m++] = *q;
	mine[m] = '\0';
	while (m > 1 && mine[m - 1] == '0')
		mine[--m] = '\0';
	if (strcmp(mine, digits) != 0 || strtod(same, NULL) != a) {
		snprintf(why, n, "'%s': not the closest %zu digits of the double", t, nd);
		return false;
	}
	if (nd >= 3) {
		snprintf(shorter, sizeof shorter, "%.*e", (int)nd - 2, a);
		if (strtod(shorter, NULL) == a) {
			snprintf(why, n, "'%s': %s reads back as the same double", t, shorter);
			return false;
		}
	}
	return true;
}

static int classify(struct yo_rec *r, const char *value, char *why, size_t n)
{
	snprintf(r->text, sizeof r->text, "%s", value);
	if (java_long(value)) {
		r->dbl = false;
		r->l = strtoll(value, NULL, 10);
		r->d = (double)r->l;
		return 0;
	}
	char w[256] = "";
	if (!java_double(value, &r->d, w, sizeof w))
		return fail(why, n, "[%s], %s: %s", r->metric, r->measurement,
			    *w ? w : "not a Java number");
	r->dbl = true;
	return 0;
}

static int push(struct yo_out *o, const struct yo_rec *r)
{
	struct yo_rec *v = realloc(o->r, (o->n + 1) * sizeof *v);
	if (!v)
		return -1;
	o->r = v;
	o->r[o->n++] = *r;
	return 0;
}

/* ---- text ---- */

/* The raw samples before the exporter's lines. */
static const char *raw_samples(const char *p, struct yo_out *o, char *why, size_t n, int *rc)
{
	static const char head[] = " latency raw data: op, timestamp(ms), latency(us)";
	*rc = 0;
	while (*p && *p != '[' && *p != '{') {
		const char *nl = strchr(p, '\n');
		if (!nl) {
			*rc = fail(why, n, "a last line without its newline: '%.60s'", p);
			return p;
		}
		size_t len = (size_t)(nl - p), hl = sizeof head - 1;
		if (len > hl && !strncmp(nl - hl, head, hl)) {
			o->raw_headers++;
		} else {
			struct yo_sample s = {0};
			char line[256];
			snprintf(line, sizeof line, "%.*s", (int)len, p);
			char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
			if (!c1 || !c2 || c1 - line >= (long)sizeof s.metric) {
				*rc = fail(why, n, "not a raw sample (NAME,ms,us): '%s'", line);
				return p;
			}
			*c1 = *c2 = '\0';
			if (!java_long(c1 + 1) || !java_long(c2 + 1)) {
				*rc = fail(why, n, "a raw sample's stamp and latency are integers: '%s'", line);
				return p;
			}
			snprintf(s.metric, sizeof s.metric, "%s", line);
			s.ms = strtoll(c1 + 1, NULL, 10);
			s.us = strtoll(c2 + 1, NULL, 10);
			struct yo_sample *v = realloc(o->s, (o->ns + 1) * sizeof *v);
			if (!v) {
				*rc = fail(why, n, "out of memory");
				return p;
			}
			o->s = v;
			o->s[o->ns++] = s;
		}
		p = nl + 1;
	}
	return p;
}

int yo_read_text(const char *text, struct yo_out *o, char *why, size_t n)
{
	memset(o, 0, sizeof *o);
	int rc;
	const char *p = raw_samples(text, o, why, n, &rc);
	if (rc)
		return rc;
	for (int lineno = 1; *p; lineno++) {
		const char *nl = strchr(p, '\n');
		if (!nl)
			return fail(why, n, "line %d ends without a newline: '%.60s'", lineno, p);
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
		p = nl + 1;
		char *close = strstr(line, "], "), *last = strrchr(line, ',');
		if (line[0] != '[' || !close || !last || last <= close + 2 || last[1] != ' ')
			return fail(why, n, "line %d is not \"[metric], measurement, value\": '%s'", lineno,
				    line);
		struct yo_rec r = {0};
		*close = *last = '\0';
		snprintf(r.metric, sizeof r.metric, "%s", line + 1);
		snprintf(r.measurement, sizeof r.measurement, "%s", close + 3);
		if (classify(&r, last + 2, why, n) || push(o, &r))
			return -1;
	}
	return 0;
}

/* ---- JSON ---- */

/* A string Jackson wrote: no escapes in YCSB's names. */
static const char *json_plain(const char *p, char *out, size_t n)
{
	if (*p != '"')
		return NULL;
	const char *q = strchr(p + 1, '"');
	if (!q || memchr(p + 1, '\\', (size_t)(q - p - 1)) || (size_t)(q - p - 1) >= n)
		return NULL;
	snprintf(out, n, "%.*s", (int)(q - p - 1), p + 1);
	return q + 1;
}

static const char *expect(const char *p, const char *what)
{
	size_t len = strlen(what);
	return p && strncmp(p, what, len) == 0 ? p + len : NULL;
}

int yo_read_json(const char *text, bool array, struct yo_out *o, char *why, size_t n)
{
	memset(o, 0, sizeof *o);
	int rc;
	const char *p = raw_samples(text, o, why, n, &rc), *begin = p;
	if (rc)
		return rc;
	if (array && !(p = expect(p, "[")))
		return fail(why, n, "a JSON array starts with '['");
	for (size_t i = 0;; i++) {
		if (array && !strcmp(p, " ]"))
			break;
		if (!array && !*p)
			break;
		const char *sep = array ? (i ? ", " : " ") : (i ? " " : "");
		const char *q = expect(p, sep);
		q = expect(q, "{\n  \"metric\" : ");
		struct yo_rec r = {0};
		q = q ? json_plain(q, r.metric, sizeof r.metric) : NULL;
		q = expect(q, ",\n  \"measurement\" : ");
		q = q ? json_plain(q, r.measurement, sizeof r.measurement) : NULL;
		q = expect(q, ",\n  \"value\" : ");
		if (!q)
			return fail(why, n, "object %zu is not Jackson's pretty printer's: '%.80s'", i, p);
		const char *end = strstr(q, "\n}");
		if (!end || end - q >= 60)
			return fail(why, n, "object %zu: no value, then LF and '}'", i);
		char value[64];
		snprintf(value, sizeof value, "%.*s", (int)(end - q), q);
		/* NaN and Infinity are strings (QUOTE_NON_NUMERIC_NUMBERS). */
		size_t vl = strlen(value);
		if (value[0] == '"') {
			if (vl < 2 || value[vl - 1] != '"')
				return fail(why, n, "object %zu: value %s", i, value);
			memmove(value, value + 1, vl - 2);
			value[vl - 2] = '\0';
			if (strcmp(value, "NaN") && strcmp(value, "Infinity") && strcmp(value, "-Infinity"))
				return fail(why, n, "object %zu: the only strings are NaN and Infinity, not %s",
					    i, value);
		} else if (!strcmp(value, "NaN") || strstr(value, "Infinity")) {
			return fail(why, n, "object %zu: %s unquoted is not JSON", i, value);
		}
		if (classify(&r, value, why, n) || push(o, &r))
			return -1;
		p = end + 2;
	}
	/* And it is JSON: one array, or one object after another. */
	json_error_t e;
	size_t len = strlen(begin), at = 0, objects = 0;
	while (at < len) {
		json_t *j = json_loadb(begin + at, len - at, JSON_DISABLE_EOF_CHECK, &e);
		if (!j)
			return fail(why, n, "not JSON at byte %zu: %s", at, e.text);
		objects += array ? json_array_size(j) : 1;
		for (size_t k = 0; k < (array ? json_array_size(j) : 1); k++) {
			json_t *obj = array ? json_array_get(j, k) : j;
			if (!json_is_object(obj) || json_object_size(obj) != 3 ||
			    !json_is_string(json_object_get(obj, "metric")) ||
			    !json_is_string(json_object_get(obj, "measurement")) ||
			    !json_object_get(obj, "value")) {
				json_decref(j);
				return fail(why, n, "an element is not {metric, measurement, value}");
			}
		}
		json_decref(j);
		at += e.position;
		while (at < len && begin[at] == ' ')
			at++;
		if (array)
			break;
	}
	if (objects != o->n || (array && at != len))
		return fail(why, n, "jansson read %zu objects, the layout %zu", objects, o->n);
	return 0;
}

/* ---- the measurements ---- */

const struct yo_rec *yo_find(const struct yo_out *o, const char *metric, const char *measurement)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->r[i].metric, metric) && !strcmp(o->r[i].measurement, measurement))
			return &o->r[i];
	return NULL;
}

bool yo_same(const struct yo_out *a, const struct yo_out *b, char *why, size_t n)
{
	if (a->n != b->n) {
		snprintf(why, n, "%zu records against %zu", a->n, b->n);
		return false;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct yo_rec *x = &a->r[i], *y = &b->r[i];
		if (strcmp(x->metric, y->metric) || strcmp(x->measurement, y->measurement) ||
		    x->dbl != y->dbl || strcmp(x->text, y->text)) {
			snprintf(why, n, "record %zu: [%s], %s, %s against [%s], %s, %s", i, x->metric,
				 x->measurement, x->text, y->metric, y->measurement, y->text);
			return false;
		}
	}
	return true;
}

/* Status.java's statuses in the order OneMeasurement's map of them
 * iterates: their hashCode (name and description) puts OK, UNEXPECTED_STATE,
 * NOT_FOUND and ERROR in bins 5, 8, 11 and 15 of 16. */
static int status_rank(const char *s)
{
	static const char *const order[] = {"OK", "UNEXPECTED_STATE", "NOT_FOUND", "ERROR", NULL};
	for (int i = 0; order[i]; i++)
		if (!strcmp(s, order[i]))
			return i;
	return -1;
}

struct block {
	const struct yo_rec *r;
	size_t n;
	size_t at; /* the next record to read */
	char *why;
	size_t wn;
};

static const struct yo_rec *take(struct block *b, const char *measurement, bool dbl)
{
	if (b->at >= b->n) {
		snprintf(b->why, b->wn, "[%s] ends before %s", b->r[0].metric, measurement);
		return NULL;
	}
	const struct yo_rec *r = &b->r[b->at];
	if (strcmp(r->measurement, measurement) != 0 || r->dbl != dbl) {
		snprintf(b->why, b->wn, "[%s] line %zu: '%s, %s' where YCSB writes %s (a %s)", r->metric,
			 b->at, r->measurement, r->text, measurement, dbl ? "double" : "long");
		return NULL;
	}
	b->at++;
	return r;
}

/* exportStatusCounts; the sum of the counts into *sum. */
static bool statuses(struct block *b, int64_t *sum)
{
	int last = -1;
	*sum = 0;
	while (b->at < b->n && !strncmp(b->r[b->at].measurement, "Return=", 7)) {
		const struct yo_rec *r = &b->r[b->at++];
		int rank = status_rank(r->measurement + 7);
		if (rank < 0 || rank <= last || r->dbl || r->l <= 0) {
			snprintf(b->why, b->wn, "[%s] %s, %s: not a status count in YCSB's order",
				 r->metric, r->measurement, r->text);
			return false;
		}
		last = rank;
		*sum += r->l;
	}
	return true;
}

static bool hdr_block(struct block *b, const struct yo_expect *x, bool with_status,
		      int64_t *ops, int64_t *st)
{
	const struct yo_rec *o = take(b, "Operations", false), *avg = o ? take(b, "AverageLatency(us)", true) : NULL;
	const struct yo_rec *mn = avg ? take(b, "MinLatency(us)", false) : NULL;
	const struct yo_rec *mx = mn ? take(b, "MaxLatency(us)", false) : NULL;
	if (!mx)
		return false;
	int64_t prev = mn->l;
	for (unsigned i = 0; i < x->npct; i++) {
		char what[64];
		snprintf(what, sizeof what, "%sPercentileLatency(us)", x->pct[i]);
		const struct yo_rec *p = take(b, what, false);
		if (!p)
			return false;
		if (o->l && (p->l < prev || p->l > mx->l)) {
			snprintf(b->why, b->wn, "[%s] %s = %s outside [%s, %s] or below the one before",
				 p->metric, what, p->text, mn->text, mx->text);
			return false;
		}
		prev = p->l;
	}
	if (o->l && (avg->d < (double)mn->l || avg->d > (double)mx->l)) {
		snprintf(b->why, b->wn, "[%s] AverageLatency %s outside [%s, %s]", o->metric, avg->text,
			 mn->text, mx->text);
		return false;
	}
	*ops = o->l;
	*st = 0;
	if (with_status && !statuses(b, st))
		return false;
	/* measurement.histogram.verbose: each recorded value's count */
	int64_t seen = 0;
	for (; b->at < b->n && java_long(b->r[b->at].measurement) && b->r[b->at].dbl; b->at++)
		seen += (int64_t)b->r[b->at].d;
	if (seen && seen != o->l) {
		snprintf(b->why, b->wn, "[%s] the verbose counts add up to %lld, Operations %lld",
			 o->metric, (long long)seen, (long long)o->l);
		return false;
	}
	return true;
}

static bool bucket_block(struct block *b, bool with_status, int64_t *ops, int64_t *st)
{
	const struct yo_rec *o = take(b, "Operations", false), *avg = o ? take(b, "AverageLatency(us)", true) : NULL;
	const struct yo_rec *var = avg ? take(b, "LatencyVariance(us)", true) : NULL;
	const struct yo_rec *mn = var ? take(b, "MinLatency(us)", false) : NULL;
	const struct yo_rec *mx = mn ? take(b, "MaxLatency(us)", false) : NULL;
	if (!mx)
		return false;
	if (o->l == 0 && (!isnan(avg->d) || mn->l != -1 || mx->l != -1)) {
		snprintf(b->why, b->wn, "[%s] without operations: NaN, -1, -1", o->metric);
		return false;
	}
	int64_t p95 = -1;
	if (b->at < b->n && !strcmp(b->r[b->at].measurement, "95thPercentileLatency(us)"))
		p95 = take(b, "95thPercentileLatency(us)", false)->l;
	if (b->at < b->n && !strcmp(b->r[b->at].measurement, "99thPercentileLatency(us)")) {
		int64_t p99 = take(b, "99thPercentileLatency(us)", false)->l;
		if (p95 < 0 || p99 < p95 || p99 % 1000 || p95 % 1000) {
			snprintf(b->why, b->wn, "[%s] 95th %lld, 99th %lld: whole milliseconds, in order",
				 o->metric, (long long)p95, (long long)p99);
			return false;
		}
	}
	*ops = o->l;
	*st = 0;
	if (with_status && !statuses(b, st))
		return false;
	int64_t seen = 0;
	for (; b->at < b->n && !b->r[b->at].dbl &&
	       (java_long(b->r[b->at].measurement) || b->r[b->at].measurement[0] == '>');
	     b->at++)
		seen += b->r[b->at].l;
	if (seen && seen != o->l) {
		snprintf(b->why, b->wn, "[%s] the buckets hold %lld, Operations %lld", o->metric,
			 (long long)seen, (long long)o->l);
		return false;
	}
	return true;
}

static bool series_block(struct block *b, const struct yo_expect *x, int64_t *ops, int64_t *st)
{
	const struct yo_rec *o = take(b, "Operations", false);
	if (!o || !take(b, "AverageLatency(us)", true) || !take(b, "MinLatency(us)", false) ||
	    !take(b, "MaxLatency(us)", false) || !statuses(b, st))
		return false;
	int64_t last = -1;
	unsigned units = 0;
	for (; b->at < b->n; b->at++, units++) {
		const struct yo_rec *u = &b->r[b->at];
		if (!java_long(u->measurement) || !u->dbl) {
			snprintf(b->why, b->wn, "[%s] %s, %s: not a unit's average", u->metric,
				 u->measurement, u->text);
			return false;
		}
		int64_t t = strtoll(u->measurement, NULL, 10);
		if (t <= last || t % (int64_t)x->granularity) {
			snprintf(b->why, b->wn, "[%s] unit %lld: not a later multiple of %llu ms",
				 u->metric, (long long)t, (unsigned long long)x->granularity);
			return false;
		}
		last = t;
	}
	if (!units) {
		snprintf(b->why, b->wn, "[%s] has no unit", o->metric);
		return false;
	}
	*ops = o->l;
	return true;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static bool raw_block(struct block *b, const struct yo_out *out, const struct yo_expect *x,
		      bool with_status, int64_t *ops, int64_t *st)
{
	const struct yo_rec *o = take(b, "Total Operations", false);
	if (!o)
		return false;
	int64_t *v = malloc((out->ns + 1) * sizeof *v), nv = 0, sum = 0;
	for (size_t i = 0; v && i < out->ns; i++)
		if (!strcmp(out->s[i].metric, o->metric))
			sum += v[nv++] = out->s[i].us;
	bool ok = v && nv == o->l;
	if (!ok)
		snprintf(b->why, b->wn, "[%s] Total Operations %s, %lld samples", o->metric, o->text,
			 (long long)nv);
	if (ok && nv && x->raw_summary) {
		qsort(v, (size_t)nv, sizeof *v, cmp64);
		const struct yo_rec *r = take(b, "Below is a summary of latency in microseconds:", false);
		ok = r && r->l == -1;
		r = ok ? take(b, "Average", true) : NULL;
		ok = r && r->d == (double)sum / (double)nv;
		if (r && !ok)
			snprintf(b->why, b->wn, "[%s] Average %s, the samples' %.17g", o->metric, r->text,
				 (double)sum / (double)nv);
		static const struct { const char *name; double f; } at[] = {
			{"Min", -1}, {"Max", 2},	 {"p1", 0.01},	     {"p5", 0.05},	   {"p50", 0.5},
			{"p90", 0.9}, {"p95", 0.95}, {"p99", 0.99}, {"p99.9", 0.999}, {"p99.99", 0.9999},
		};
		for (size_t i = 0; ok && i < sizeof at / sizeof *at; i++) {
			int64_t want = at[i].f < 0 ? v[0] : at[i].f > 1 ? v[nv - 1]
							    : v[(int64_t)((double)nv * at[i].f)];
			r = take(b, at[i].name, false);
			ok = r && r->l == want;
			if (r && !ok)
				snprintf(b->why, b->wn, "[%s] %s %s, the samples' %lld", o->metric,
					 at[i].name, r->text, (long long)want);
		}
	}
	free(v);
	*ops = o->l;
	*st = 0;
	return ok && (!with_status || statuses(b, st));
}

/* The operation a measurement is of: its name without the type's prefix,
 * or "" for an intended-start measurement (interval both). */
static const char *base_name(const char *metric, const char **kind)
{
	static const char *const prefixes[] = {"Hdr", "Bucket", "Raw", NULL};
	*kind = "";
	for (const char *const *p = prefixes; *p; p++)
		if (!strncmp(metric, *p, strlen(*p))) {
			*kind = *p;
			metric += strlen(*p);
			break;
		}
	return !strncmp(metric, "Intended-", 9) ? "" : metric;
}

int yo_check(const struct yo_out *o, const struct yo_expect *x, uint64_t *ops, char *why, size_t n)
{
	if (o->n < 2 || strcmp(o->r[0].metric, "OVERALL") || strcmp(o->r[0].measurement, "RunTime(ms)") ||
	    o->r[0].dbl || strcmp(o->r[1].metric, "OVERALL") ||
	    strcmp(o->r[1].measurement, "Throughput(ops/sec)") || !o->r[1].dbl)
		return fail(why, n, "the output begins with [OVERALL], RunTime(ms) (a long) and "
			    "[OVERALL], Throughput(ops/sec) (a double)");
	int64_t done = 0, rmw = 0;
	bool kinds = x->type == YO_HDR_HISTOGRAM || x->type == YO_HDR_RAW;
	for (size_t i = 2; i < o->n;) {
		struct block b = {.r = &o->r[i], .why = why, .wn = n};
		while (i + b.n < o->n && !strcmp(o->r[i + b.n].metric, b.r->metric))
			b.n++;
		const char *kind, *name = base_name(b.r->metric, &kind);
		int64_t bops = 0, st = 0;
		bool ok;
		if (kinds != (*kind != '\0'))
			return fail(why, n, "[%s]: %s", b.r->metric,
				    kinds ? "a two-in-one type names each part (Hdr, Bucket, Raw)"
					  : "a prefix of a two-in-one type");
		switch (x->type) {
		case YO_HDR:
			ok = hdr_block(&b, x, true, &bops, &st);
			break;
		case YO_HISTOGRAM:
			ok = bucket_block(&b, true, &bops, &st);
			break;
		case YO_TIMESERIES:
			ok = series_block(&b, x, &bops, &st);
			break;
		case YO_RAW:
			ok = raw_block(&b, o, x, true, &bops, &st);
			break;
		default: /* Hdr first with the statuses, then its Bucket or Raw part */
			if (!strcmp(kind, "Hdr"))
				ok = hdr_block(&b, x, true, &bops, &st);
			else if (!strcmp(kind, x->type == YO_HDR_RAW ? "Raw" : "Bucket"))
				ok = x->type == YO_HDR_RAW ? raw_block(&b, o, x, false, &bops, &st)
							   : bucket_block(&b, false, &bops, &st);
			else
				return fail(why, n, "[%s]: not a part of this type", b.r->metric);
			name = !strcmp(kind, "Hdr") ? name : "";
		}
		if (!ok)
			return -1;
		if (b.at != b.n)
			return fail(why, n, "[%s] has a line YCSB does not write: '%s, %s'", b.r->metric,
				    b.r[b.at].measurement, b.r[b.at].text);
		if (!strcmp(name, "READ") || !strcmp(name, "UPDATE") || !strcmp(name, "INSERT") ||
		    !strcmp(name, "SCAN"))
			done += st;
		if (!strcmp(name, "READ-MODIFY-WRITE"))
			rmw += bops;
		i += b.n;
	}
	/* Client.exportMeasurements: 1000.0 * (opcount) / (runtime). */
	*ops = (uint64_t)(done - rmw);
	double want = 1000.0 * (double)(done - rmw) / (double)o->r[0].l, got = o->r[1].d;
	if (!(got == want || (isnan(got) && isnan(want))))
		return fail(why, n, "Throughput(ops/sec) %s, but 1000.0 x %lld operations / %lld ms is "
			    "%.17g", o->r[1].text, (long long)(done - rmw), (long long)o->r[0].l, want);
	return 0;
}
