/* rpbench scale's model (scale_model.h): sizes, metrics, least squares on
 * log10(objects), projections. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_model.h"

const struct rpb_scale_metric rpb_scale_metrics[RPB_SCALE_NMETRICS] = {
	{"throughput_per_s", "creates/s", "throughput of the window's creates", 1},
	{"p50_us", "p50 ms", "median create latency", 1e-3},
	{"p99_us", "p99 ms", "99th percentile of create latency", 1e-3},
	{"p99.9_us", "p99.9 ms", "99.9th percentile of create latency", 1e-3},
	{"bytes_per_object", "bytes/object", "bytes on disk per object in the store", 1},
};

int rpb_scale_sizes(const char *text, uint64_t *v, size_t *n, char *msg, size_t mn)
{
	*n = 0;
	const char *p = text;
	while (*p) {
		size_t len = strcspn(p, ",");
		char word[64];
		char *end = NULL;
		double x = 0;
		if (len && len < sizeof word && *p >= '0' && *p <= '9') {
			memcpy(word, p, len);
			word[len] = '\0';
			x = strtod(word, &end);
		}
		if (!end || *end || !(x >= 1 && x <= 4.6e18) || x != floor(x)) {
			snprintf(msg, mn, "--objects takes whole counts separated by commas "
				 "(1e3,1e4,100000), not '%.*s'", (int)(len < 40 ? len : 40), p);
			return -1;
		}
		if (*n == RPB_SCALE_MAX_SIZES) {
			snprintf(msg, mn, "--objects has more than %d sizes", RPB_SCALE_MAX_SIZES);
			return -1;
		}
		uint64_t u = (uint64_t)x;
		if (*n && u <= v[*n - 1]) {
			snprintf(msg, mn, "--objects sizes must increase: %llu after %llu; give them in "
				 "growing order, each once", (unsigned long long)u,
				 (unsigned long long)v[*n - 1]);
			return -1;
		}
		v[(*n)++] = u;
		p += len;
		if (*p == ',' && !*++p) {
			snprintf(msg, mn, "--objects ends with a comma; give sizes like 1e3,1e4");
			return -1;
		}
	}
	if (*n < 2) {
		snprintf(msg, mn, "--objects needs at least two sizes for a trend (1e3,1e4)");
		return -1;
	}
	return 0;
}

struct rpb_scale_fit rpb_scale_fit(const double *objects, const double *y, size_t n,
				   double *resid)
{
	struct rpb_scale_fit f = {0};
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(y[i]) || !(objects[i] > 0))
			continue;
		double x = log10(objects[i]);
		sx += x, sy += y[i], sxx += x * x, sxy += x * y[i];
		m++;
	}
	double d = (double)m * sxx - sx * sx;
	if (m < 2 || d == 0)
		return f;
	f.ok = true;
	f.b = ((double)m * sxy - sx * sy) / d;
	f.a = (sy - f.b * sx) / (double)m;
	double ss = 0;
	for (size_t i = 0; i < n; i++) {
		double r = isfinite(y[i]) ? y[i] - rpb_scale_fit_at(&f, objects[i]) : NAN;
		if (resid)
			resid[i] = r;
		if (isfinite(r)) {
			ss += r * r;
			f.max_abs = fabs(r) > f.max_abs ? fabs(r) : f.max_abs;
		}
	}
	f.rms = sqrt(ss / (double)m);
	return f;
}

double rpb_scale_fit_at(const struct rpb_scale_fit *f, double objects)
{
	return f->a + f->b * log10(objects);
}

double rpb_scale_fills_at(const struct rpb_scale_fit *bpo, double from, double volume)
{
	if (!bpo->ok)
		return 0;
	/* Bisection on log10(N): the total is bpo(N) * N, which the fit may make
	 * fall where bytes per object fall fast; the first crossing is wanted, so
	 * step by tenths of a decade to bracket it. */
	double lo = log10(from > 1 ? from : 1);
	for (double x = lo; x < 15; x += 0.1) {
		double nx = x + 0.1;
		double t = rpb_scale_fit_at(bpo, pow(10, nx)) * pow(10, nx);
		if (t >= volume) {
			double a = x, b = nx;
			for (int k = 0; k < 60; k++) {
				double m = (a + b) / 2;
				if (rpb_scale_fit_at(bpo, pow(10, m)) * pow(10, m) >= volume)
					b = m;
				else
					a = m;
			}
			return pow(10, b);
		}
	}
	return 0;
}

struct rpb_scale_projection rpb_scale_project(const struct rpb_scale_backend *sb)
{
	struct rpb_scale_projection pj = {NAN, NAN, NAN, 0};
	if (sb->fit[0].ok)
		pj.tput = rpb_scale_fit_at(&sb->fit[0], RPB_SCALE_PROJECT_AT);
	if (sb->fit[2].ok)
		pj.p99_us = rpb_scale_fit_at(&sb->fit[2], RPB_SCALE_PROJECT_AT);
	if (sb->fit[4].ok) {
		pj.bytes = rpb_scale_fit_at(&sb->fit[4], RPB_SCALE_PROJECT_AT) * RPB_SCALE_PROJECT_AT;
		pj.fills = rpb_scale_fills_at(&sb->fit[4], (double)sb->pts[0].objects,
					      RPB_SCALE_VOLUME_BYTES);
	}
	return pj;
}
