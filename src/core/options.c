/* The option-table engine (options.h): value syntax, ranges, canonical text
 * and the wording of --help and of every "...; give ..." message. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsn.h"
#include "options.h"
#include "profile.h"
#include "shown.h"
#include "store.h"
#include "text.h"

/* Enum fields are stored through an unsigned pointer; GCC and Clang give enums
 * without negative values the type unsigned int. */
_Static_assert(sizeof(enum rpb_action) == sizeof(unsigned), "enum size");

void rpb_cat(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	if (len + 1 >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

/* ---- text of values and bounds ---- */

void rpb_fmt_double(char *buf, size_t n, double v)
{
	/* Whole numbers read better without an exponent ("90", not "9e+01"). */
	if (v == floor(v) && fabs(v) < 0x1p53) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* Bounds for messages and --help: large powers of two as 2^N. */
static void fmt_bound(char *buf, size_t n, uint64_t v, bool size)
{
	if (v == UINT64_MAX) {
		snprintf(buf, n, "2^64-1");
		return;
	}
	/* A size reads better with its suffix (64G) up to a petabyte. */
	if (v >= RPB_OPT_P32 && (v & (v - 1)) == 0 && (!size || v >= UINT64_C(1) << 50)) {
		snprintf(buf, n, "2^%d", __builtin_ctzll(v));
		return;
	}
	static const char suffix[] = "kMGT";
	int k = 0;
	while (size && v && k < 4 && v % ((uint64_t)1024 << (10 * k)) == 0)
		k++;
	if (k)
		snprintf(buf, n, "%" PRIu64 "%c", v >> (10 * k), suffix[k - 1]);
	else
		snprintf(buf, n, "%" PRIu64, v);
}

static void list_choices(char *buf, size_t n, const char *const *choices)
{
	for (size_t i = 0; choices[i]; i++)
		rpb_cat(buf, n, "%s%s", i ? ", " : "", choices[i]);
}

void rpb_opt_range(char *buf, size_t n, const struct rpb_optdef *d)
{
	char lo[32], hi[32];
	buf[0] = '\0';
	switch (d->type) {
	case RPB_OPT_COUNT:
	case RPB_OPT_SIZE:
		fmt_bound(lo, sizeof lo, d->umin, d->type == RPB_OPT_SIZE);
		fmt_bound(hi, sizeof hi, d->umax, d->type == RPB_OPT_SIZE);
		snprintf(buf, n, "[%s, %s]%s%s", lo, hi, d->none ? "|" : "", d->none ? d->none : "");
		break;
	case RPB_OPT_DOUBLE:
	case RPB_OPT_SECONDS:
		rpb_fmt_double(lo, sizeof lo, d->dmin);
		rpb_fmt_double(hi, sizeof hi, d->dmax);
		snprintf(buf, n, "[%s, %s]%s", lo, hi, d->type == RPB_OPT_SECONDS ? " s" : "");
		break;
	case RPB_OPT_ENUM:
		for (size_t i = 0; d->choices[i]; i++)
			rpb_cat(buf, n, "%s%s", i ? "|" : "", d->choices[i]);
		break;
	case RPB_OPT_BOOL:
		snprintf(buf, n, "on|off");
		break;
	case RPB_OPT_WARMUP:
		snprintf(buf, n, "ops or time");
		break;
	case RPB_OPT_POLICY:
		snprintf(buf, n, "stop|continue|retry:N");
		break;
	case RPB_OPT_INJECT:
		snprintf(buf, n, "off|stall:MS@N|lock:MS@N|kill:POINT@N");
		break;
	case RPB_OPT_STRING:
		snprintf(buf, n, "text <= %" PRIu64 " B", d->umax);
		break;
	}
}

/* What a valid value looks like, for "...; give ..." in error messages. */
static void fmt_expect(char *buf, size_t n, const struct rpb_optdef *d)
{
	char lo[32], hi[32];
	buf[0] = '\0';
	switch (d->type) {
	case RPB_OPT_COUNT:
	case RPB_OPT_SIZE:
		fmt_bound(lo, sizeof lo, d->umin, d->type == RPB_OPT_SIZE);
		fmt_bound(hi, sizeof hi, d->umax, d->type == RPB_OPT_SIZE);
		snprintf(buf, n, "%s in [%s, %s]%s%s%s",
			 d->type == RPB_OPT_SIZE ? "a size in bytes" : "an integer", lo, hi,
			 d->type == RPB_OPT_SIZE ? " (suffix k, M, G or T)" : "",
			 d->none ? " or " : "", d->none ? d->none : "");
		break;
	case RPB_OPT_DOUBLE:
		rpb_fmt_double(lo, sizeof lo, d->dmin);
		rpb_fmt_double(hi, sizeof hi, d->dmax);
		snprintf(buf, n, "a number in [%s, %s]", lo, hi);
		break;
	case RPB_OPT_SECONDS:
		rpb_fmt_double(lo, sizeof lo, d->dmin);
		rpb_fmt_double(hi, sizeof hi, d->dmax);
		snprintf(buf, n, "seconds in [%s, %s] (suffix ms, s, m or h)%s%s", lo, hi,
			 d->none ? " or " : "", d->none ? d->none : "");
		break;
	case RPB_OPT_ENUM:
		rpb_cat(buf, n, "one of: ");
		list_choices(buf, n, d->choices);
		break;
	case RPB_OPT_BOOL:
		snprintf(buf, n, "one of: on, off, true, false, yes, no, 1, 0");
		break;
	case RPB_OPT_WARMUP:
		fmt_bound(hi, sizeof hi, d->umax, false);
		rpb_fmt_double(lo, sizeof lo, d->dmax);
		snprintf(buf, n, "operations per thread in [0, %s] or a time in [0, %s] seconds with "
			 "a suffix (5s, 500ms, 2m, 1h)", hi, lo);
		break;
	case RPB_OPT_POLICY:
		snprintf(buf, n, "stop, continue or retry:N with N in [%" PRIu64 ", %" PRIu64 "]",
			 d->umin, d->umax);
		break;
	case RPB_OPT_INJECT:
		snprintf(buf, n, "off, stall:MS@N, lock:MS@N or partial:K@N with MS in [%" PRIu64
			 ", %" PRIu64 "] ms and K documents in the same range, or kill:POINT@N with "
			 "POINT one of begin, commit, acked, file, or leak@N; N >= 1 (every Nth "
			 "operation; leak: the Nth)",
			 d->umin, d->umax);
		break;
	case RPB_OPT_STRING:
		snprintf(buf, n, "text of at most %" PRIu64 " bytes, no control character", d->umax);
		break;
	}
}

/* ---- value parsing ---- */

static enum rpb_opt_result parse_u64(const char *s, bool suffixes, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return RPB_OPT_BAD;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	bool overflow = errno == ERANGE;
	unsigned shift = 0;
	if (suffixes && *end) {
		const char *p = strchr("kKmMgGtT", *end);
		if (!p)
			return RPB_OPT_BAD;
		shift = 10 * (unsigned)((p - "kKmMgGtT") / 2 + 1);
		end++;
	}
	if (*end)
		return RPB_OPT_BAD;
	if (overflow || (shift && v > (UINT64_MAX >> shift)))
		return RPB_OPT_RANGE;
	*out = (uint64_t)v << shift;
	return RPB_OPT_OK;
}

bool rpb_parse_u64(const char *s, uint64_t *out)
{
	return parse_u64(s, false, out) == RPB_OPT_OK;
}

/* A finite number; *end is left at the first character after it. */
static enum rpb_opt_result parse_number(const char *s, double *out, const char **end)
{
	if (*s == '\0' || !strchr("0123456789.+-", *s))
		return RPB_OPT_BAD;
	char *e;
	errno = 0;
	double v = strtod(s, &e);
	if (e == s)
		return RPB_OPT_BAD;
	if (!isfinite(v) || errno == ERANGE)
		return RPB_OPT_RANGE;
	*out = v;
	*end = e;
	return RPB_OPT_OK;
}

/* Seconds with an optional unit: ms, s, m or h. */
static enum rpb_opt_result parse_seconds(const char *s, double *out)
{
	const char *end;
	double v;
	enum rpb_opt_result r = parse_number(s, &v, &end);
	if (r != RPB_OPT_OK)
		return r;
	if (strcmp(end, "ms") == 0)
		v /= 1000;
	else if (strcmp(end, "m") == 0)
		v *= 60;
	else if (strcmp(end, "h") == 0)
		v *= 3600;
	else if (*end && strcmp(end, "s") != 0)
		return RPB_OPT_BAD;
	*out = v;
	return RPB_OPT_OK;
}

static bool has_time_unit(const char *s)
{
	size_t n = strlen(s);
	return n && strchr("smh", s[n - 1]);
}

static int find_choice(const char *const *choices, const char *s)
{
	for (int i = 0; choices[i]; i++)
		if (strcmp(choices[i], s) == 0)
			return i;
	return -1;
}

static enum rpb_opt_result parse_policy(const struct rpb_optdef *d, const char *s,
					struct rpb_policy *p)
{
	if (strcmp(s, "stop") == 0) {
		*p = (struct rpb_policy){RPB_ACT_STOP, 0};
		return RPB_OPT_OK;
	}
	if (strcmp(s, "continue") == 0) {
		*p = (struct rpb_policy){RPB_ACT_CONTINUE, 0};
		return RPB_OPT_OK;
	}
	if (strncmp(s, "retry:", 6) != 0)
		return RPB_OPT_BAD;
	uint64_t n;
	enum rpb_opt_result r = parse_u64(s + 6, false, &n);
	if (r != RPB_OPT_OK)
		return r;
	if (n < d->umin || n > d->umax)
		return RPB_OPT_RANGE;
	*p = (struct rpb_policy){RPB_ACT_RETRY, (unsigned)n};
	return RPB_OPT_OK;
}

const char *const rpb_kill_point_names[RPB_KILL_POINTS] = {"begin", "commit", "acked", "file"};

/* "off", "stall:MS@N", "lock:MS@N", "partial:K@N", "kill:POINT@N" or "leak@N". */
static enum rpb_opt_result parse_inject(const struct rpb_optdef *d, const char *s,
					struct rpb_inject *in)
{
	if (strcmp(s, "off") == 0) {
		*in = (struct rpb_inject){RPB_INJECT_OFF, 0, 0, 0};
		return RPB_OPT_OK;
	}
	if (strncmp(s, "leak@", 5) == 0) {
		uint64_t at;
		enum rpb_opt_result r = parse_u64(s + 5, false, &at);
		if (r != RPB_OPT_OK)
			return r;
		if (at < 1)
			return RPB_OPT_RANGE;
		*in = (struct rpb_inject){RPB_INJECT_LEAK, 0, at, 0};
		return RPB_OPT_OK;
	}
	if (strncmp(s, "kill:", 5) == 0) {
		const char *at = strchr(s, '@');
		uint64_t every;
		if (!at)
			return RPB_OPT_BAD;
		for (unsigned p = 0; p < RPB_KILL_POINTS; p++) {
			size_t len = strlen(rpb_kill_point_names[p]);
			if ((size_t)(at - s - 5) != len || strncmp(s + 5, rpb_kill_point_names[p], len))
				continue;
			enum rpb_opt_result r = parse_u64(at + 1, false, &every);
			if (r != RPB_OPT_OK)
				return r;
			if (every < 1)
				return RPB_OPT_RANGE;
			*in = (struct rpb_inject){RPB_INJECT_KILL, 0, every, (enum rpb_kill_point)p};
			return RPB_OPT_OK;
		}
		return RPB_OPT_BAD;
	}
	enum rpb_inject_kind kind = strncmp(s, "stall:", 6) == 0 ? RPB_INJECT_STALL
				    : strncmp(s, "lock:", 5) == 0  ? RPB_INJECT_LOCK
				    : strncmp(s, "partial:", 8) == 0 ? RPB_INJECT_PARTIAL
								   : RPB_INJECT_OFF;
	if (kind == RPB_INJECT_OFF)
		return RPB_OPT_BAD;
	char ms[32];
	const char *at = strchr(s, '@'), *num = strchr(s, ':') + 1;
	if (!at || at < num || (size_t)(at - num) >= sizeof ms)
		return RPB_OPT_BAD;
	memcpy(ms, num, (size_t)(at - num));
	ms[at - num] = '\0';
	uint64_t m, every;
	enum rpb_opt_result r = parse_u64(ms, false, &m);
	if (r == RPB_OPT_OK)
		r = parse_u64(at + 1, false, &every);
	if (r != RPB_OPT_OK)
		return r;
	if (m < d->umin || m > d->umax || every < 1)
		return RPB_OPT_RANGE;
	*in = (struct rpb_inject){kind, m, every, 0};
	return RPB_OPT_OK;
}

enum rpb_opt_result rpb_opt_store(void *cfg, const struct rpb_optdef *d, const char *value)
{
	void *field = (char *)cfg + d->off;
	uint64_t u = 0;
	double x = 0;
	enum rpb_opt_result r = RPB_OPT_OK;
	switch (d->type) {
	case RPB_OPT_COUNT:
	case RPB_OPT_SIZE:
		if (d->none && strcmp(value, d->none) == 0) {
			*(uint64_t *)field = UINT64_MAX;
			break;
		}
		r = parse_u64(value, d->type == RPB_OPT_SIZE, &u);
		if (r == RPB_OPT_OK && (u < d->umin || u > d->umax))
			r = RPB_OPT_RANGE;
		if (r == RPB_OPT_OK)
			*(uint64_t *)field = u;
		break;
	case RPB_OPT_DOUBLE:
	case RPB_OPT_SECONDS: {
		const char *end = "";
		if (d->none && strcmp(value, d->none) == 0) { /* e.g. interval = auto */
			*(double *)field = RPB_OPT_SECONDS_NONE;
			break;
		}
		r = d->type == RPB_OPT_SECONDS ? parse_seconds(value, &x)
					       : parse_number(value, &x, &end);
		if (r == RPB_OPT_OK && *end)
			r = RPB_OPT_BAD;
		if (r == RPB_OPT_OK && (x < d->dmin || x > d->dmax))
			r = RPB_OPT_RANGE;
		if (r == RPB_OPT_OK)
			*(double *)field = x;
		break;
	}
	case RPB_OPT_ENUM: {
		int i = find_choice(d->choices, value);
		if (i < 0)
			return RPB_OPT_BAD;
		*(unsigned *)field = (unsigned)i;
		break;
	}
	case RPB_OPT_BOOL: {
		static const char *const truth[] = {"on", "true", "yes", "1", NULL};
		static const char *const falsity[] = {"off", "false", "no", "0", NULL};
		if (find_choice(truth, value) >= 0)
			*(bool *)field = true;
		else if (find_choice(falsity, value) >= 0)
			*(bool *)field = false;
		else
			r = RPB_OPT_BAD;
		break;
	}
	case RPB_OPT_WARMUP: {
		struct rpb_warmup w = {0, 0};
		if (has_time_unit(value)) {
			r = parse_seconds(value, &w.seconds);
			if (r == RPB_OPT_OK && (w.seconds < d->dmin || w.seconds > d->dmax))
				r = RPB_OPT_RANGE;
		} else {
			r = parse_u64(value, false, &w.ops);
			if (r == RPB_OPT_OK && (w.ops < d->umin || w.ops > d->umax))
				r = RPB_OPT_RANGE;
		}
		if (r == RPB_OPT_OK)
			*(struct rpb_warmup *)field = w;
		break;
	}
	case RPB_OPT_POLICY: {
		struct rpb_policy p;
		r = parse_policy(d, value, &p);
		if (r != RPB_OPT_OK)
			break;
		if (d->cls >= 0) {
			*(struct rpb_policy *)field = p;
			break;
		}
		/* Every class, not-found too: a store's answer, but an operation
		 * that fails with it (a YCSB read of a record not there) follows
		 * the policy as any other failure does. */
		struct rpb_policy *every = field;
		for (int c = 0; c < RPB_STATUS_COUNT; c++)
			if (c != RPB_OK)
				every[c] = p;
		break;
	}
	case RPB_OPT_INJECT:
		r = parse_inject(d, value, (struct rpb_inject *)field);
		break;
	case RPB_OPT_STRING:
		if (strlen(value) > d->umax)
			return RPB_OPT_RANGE;
		/* result.json records it, and verify reads back only printable text. */
		if (*value && !rpb_text_printable(value, d->umax))
			return RPB_OPT_BAD;
		memcpy(field, value, strlen(value) + 1);
		break;
	}
	return r;
}

void rpb_opt_defaults(void *cfg, const struct rpb_optdef *opts)
{
	/* The defaults go through the parser, so their text and value agree;
	 * the test suite checks that each one parses. */
	for (const struct rpb_optdef *d = opts; d && d->key; d++)
		(void)rpb_opt_store(cfg, d, d->dflt);
}

const char *rpb_opt_default(const struct rpb_optdef *d, const char *profile)
{
	bool f45 = profile && strcmp(profile, rpb_profile_names[RPB_PROFILE_FEDORA45]) == 0;
	return f45 && d->dflt_fedora45 ? d->dflt_fedora45 : d->dflt;
}

void rpb_opt_defaults_for(void *cfg, const struct rpb_optdef *opts, const char *profile)
{
	for (const struct rpb_optdef *d = opts; d && d->key; d++)
		(void)rpb_opt_store(cfg, d, rpb_opt_default(d, profile));
}

void rpb_opt_default_text(char *buf, size_t n, const struct rpb_optdef *d)
{
	snprintf(buf, n, "%s", d->dflt);
	if (d->dflt_fedora45)
		rpb_cat(buf, n, " (%s: %s)", rpb_profile_names[RPB_PROFILE_FEDORA45], d->dflt_fedora45);
}

int rpb_opt_apply(void *cfg, const char *section, const struct rpb_optdef *d, const char *value,
		  char *err, size_t n)
{
	enum rpb_opt_result r = rpb_opt_store(cfg, d, value);
	if (r == RPB_OPT_OK)
		return 0;
	char expect[256], shown[RPB_SHOWN_SIZE];
	fmt_expect(expect, sizeof expect, d);
	/* The value cut short (the reason must fit) and never a secret. */
	snprintf(err, n, "[%s] %s = %s is %s; give %s", section, d->key,
		 rpb_text_shown(shown, sizeof shown, value),
		 r == RPB_OPT_RANGE ? "out of range" : "invalid", expect);
	return -1;
}

void rpb_opt_format(char *buf, size_t n, const void *cfg, const struct rpb_optdef *d)
{
	const void *field = (const char *)cfg + d->off;
	switch (d->type) {
	case RPB_OPT_COUNT:
	case RPB_OPT_SIZE:
		if (d->none && *(const uint64_t *)field == UINT64_MAX)
			snprintf(buf, n, "%s", d->none);
		else
			snprintf(buf, n, "%" PRIu64, *(const uint64_t *)field);
		break;
	case RPB_OPT_DOUBLE:
	case RPB_OPT_SECONDS:
		if (d->none && *(const double *)field == RPB_OPT_SECONDS_NONE)
			snprintf(buf, n, "%s", d->none);
		else
			rpb_fmt_double(buf, n, *(const double *)field);
		break;
	case RPB_OPT_ENUM:
		snprintf(buf, n, "%s", d->choices[*(const unsigned *)field]);
		break;
	case RPB_OPT_BOOL:
		snprintf(buf, n, "%s", *(const bool *)field ? "on" : "off");
		break;
	case RPB_OPT_WARMUP: {
		const struct rpb_warmup *w = field;
		if (w->seconds > 0) {
			rpb_fmt_double(buf, n, w->seconds);
			rpb_cat(buf, n, "s");
		} else {
			snprintf(buf, n, "%" PRIu64, w->ops);
		}
		break;
	}
	case RPB_OPT_POLICY: {
		const struct rpb_policy *p = field;
		if (p->action == RPB_ACT_RETRY)
			snprintf(buf, n, "retry:%u", p->retries);
		else
			snprintf(buf, n, "%s", p->action == RPB_ACT_CONTINUE ? "continue" : "stop");
		break;
	}
	case RPB_OPT_INJECT: {
		const struct rpb_inject *in = field;
		if (in->kind == RPB_INJECT_OFF)
			snprintf(buf, n, "off");
		else if (in->kind == RPB_INJECT_KILL)
			snprintf(buf, n, "kill:%s@%" PRIu64, rpb_kill_point_names[in->point], in->every);
		else if (in->kind == RPB_INJECT_LEAK)
			snprintf(buf, n, "leak@%" PRIu64, in->every);
		else
			snprintf(buf, n, "%s:%" PRIu64 "@%" PRIu64,
				 in->kind == RPB_INJECT_STALL  ? "stall"
				 : in->kind == RPB_INJECT_LOCK ? "lock"
							       : "partial",
				 in->ms, in->every);
		break;
	}
	case RPB_OPT_STRING:
		snprintf(buf, n, "%s", (const char *)field);
		break;
	}
}

const struct rpb_optdef *rpb_opt_find(const struct rpb_optdef *opts, const char *key)
{
	for (const struct rpb_optdef *d = opts; d && d->key; d++)
		if (strcmp(d->key, key) == 0)
			return d;
	return NULL;
}

/* The per-class policies are listed once, as on_error.<class>. */
void rpb_opt_list_keys(char *buf, size_t n, const struct rpb_optdef *opts)
{
	const char *sep = "";
	bool classes = false;
	for (size_t i = 0; opts && opts[i].key; i++) {
		if (opts[i].type == RPB_OPT_POLICY && opts[i].cls >= 0) {
			if (classes)
				continue;
			classes = true;
			rpb_cat(buf, n, "%son_error.<class>", sep);
		} else {
			rpb_cat(buf, n, "%s%s", sep, opts[i].key);
		}
		sep = ", ";
	}
}

void rpb_opt_list_classes(char *buf, size_t n, const struct rpb_optdef *opts)
{
	const char *sep = "";
	for (size_t i = 0; opts && opts[i].key; i++)
		if (opts[i].type == RPB_OPT_POLICY && opts[i].cls >= 0) {
			rpb_cat(buf, n, "%s%s", sep, opts[i].key + strlen("on_error."));
			sep = ", ";
		}
}
