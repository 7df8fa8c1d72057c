/* Numbers and times as YCSB's Java code prints them (ycsb_meas.h): the text
 * exporter's and Jackson's Double.toString, StatusThread's and
 * OneMeasurementHdrHistogram's DecimalFormat("#.##"), OneMeasurementRaw's
 * String.format("%.2f"), Client.java's RemainingFormatter and
 * OneMeasurementHdrHistogram's percentile ordinals. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "ycsb_meas.h"

/* The shortest decimal that reads back as v (v finite and > 0): its
 * significant digits and the position of the decimal point after the
 * first pt of them (v = 0.digits x 10^pt). With one digit, the closest
 * decimal of two digits when it differs, as Java 19's Double.toString
 * chooses (4.9E-324, not 5.0E-324). */
static void shortest(double v, char digits[24], int *pt)
{
	char text[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(text, sizeof text, "%.*e", p - 1, v);
		if (strtod(text, NULL) != v && p < 17)
			continue;
		if (p == 1) {
			char two[40];
			snprintf(two, sizeof two, "%.1e", v);
			if (two[2] != '0')
				memcpy(text, two, sizeof text);
		}
		break;
	}
	/* "d.ddde[+-]XX" */
	size_t n = 0;
	const char *s = text;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			digits[n++] = *s;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	*pt = (*s == 'e' ? atoi(s + 1) : 0) + 1;
}

void ycsb_jdouble(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		snprintf(buf, n, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, n, "%sInfinity", v < 0 ? "-" : "");
		return;
	}
	if (v == 0) {
		snprintf(buf, n, "%s0.0", signbit(v) ? "-" : "");
		return;
	}
	char d[24];
	int pt;
	shortest(fabs(v), d, &pt);
	const char *sign = v < 0 ? "-" : "";
	int nd = (int)strlen(d);
	double a = fabs(v);
	if (a >= 1e-3 && a < 1e7) {
		/* Plain: the integer part, then at least one fraction digit. */
		char out[64];
		size_t at = 0;
		if (pt <= 0) {
			out[at++] = '0';
			out[at++] = '.';
			for (int i = 0; i < -pt; i++)
				out[at++] = '0';
			for (int i = 0; i < nd; i++)
				out[at++] = d[i];
		} else {
			for (int i = 0; i < pt; i++)
				out[at++] = i < nd ? d[i] : '0';
			out[at++] = '.';
			if (nd > pt)
				for (int i = pt; i < nd; i++)
					out[at++] = d[i];
			else
				out[at++] = '0';
		}
		out[at] = '\0';
		snprintf(buf, n, "%s%s", sign, out);
		return;
	}
	/* Computerized scientific notation: d.ddd, at least one fraction digit. */
	snprintf(buf, n, "%s%c.%sE%d", sign, d[0], nd > 1 ? d + 1 : "0", pt - 1);
}

void ycsb_jdecimal2(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		snprintf(buf, n, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, n, "%s\xe2\x88\x9e", v < 0 ? "-" : ""); /* U+221E */
		return;
	}
	/* Half-even on the exact value, as DecimalFormat rounds since Java 8. */
	snprintf(buf, n, "%.2f", v);
	char *dot = strchr(buf, '.');
	if (!dot)
		return;
	char *end = buf + strlen(buf);
	while (end > dot + 1 && end[-1] == '0')
		*--end = '\0';
	if (end == dot + 1)
		*dot = '\0';
}

void ycsb_jfixed2(char *buf, size_t n, double v)
{
	if (!isfinite(v)) {
		ycsb_jdouble(buf, n, v);
		return;
	}
	if (v == 0) {
		snprintf(buf, n, "%s0.00", signbit(v) ? "-" : "");
		return;
	}
	/* Java's Formatter rounds Double.toString's digits half-up: keep the
	 * digits up to the second decimal (pt + 2 of them), then look at the next. */
	char d[24], dig[400], out[420];
	int pt;
	shortest(fabs(v), d, &pt);
	int nd = (int)strlen(d), keep = pt + 2, len = keep > 0 ? keep : 0;
	for (int i = 0; i < len; i++)
		dig[i] = i < nd ? d[i] : '0';
	if (keep >= 0 && keep < nd && d[keep] >= '5') {
		int i = len - 1;
		while (i >= 0 && dig[i] == '9')
			dig[i--] = '0';
		if (i >= 0) {
			dig[i]++;
		} else { /* 9.995 -> 10.00, 0.005 -> 0.01: a new leading digit */
			memmove(dig + 1, dig, (size_t)len);
			dig[0] = '1';
			len++;
		}
	}
	size_t at = 0;
	if (v < 0)
		out[at++] = '-';
	int ip = len - 2; /* integer digits */
	if (ip <= 0)
		out[at++] = '0';
	for (int i = 0; i < ip; i++)
		out[at++] = dig[i];
	out[at++] = '.';
	for (int k = ip; k < ip + 2; k++)
		out[at++] = k >= 0 ? dig[k] : '0';
	out[at] = '\0';
	snprintf(buf, n, "%s", out);
}

void ycsb_jremaining(char *buf, size_t n, int64_t seconds)
{
	buf[0] = '\0';
	int64_t days = seconds / 86400;
	if (days > 0) {
		rpb_cat(buf, n, "%" PRId64 "%s", days, days == 1 ? " day " : " days ");
		seconds -= days * 86400;
	}
	int64_t hours = seconds / 3600;
	if (hours > 0) {
		rpb_cat(buf, n, "%" PRId64 "%s", hours, hours == 1 ? " hour " : " hours ");
		seconds -= hours * 3600;
	}
	int64_t minutes = seconds / 60;
	if (days < 1 && minutes > 0) /* minutes only below a day */
		rpb_cat(buf, n, "%" PRId64 "%s", minutes, minutes == 1 ? " minute " : " minutes ");
	if (!buf[0]) {
		/* Seconds only when nothing else was printed. The plural is chosen
		 * by the length of the text so far, which is the digits just
		 * appended: "5 second ", "45 seconds ". */
		char digits[24];
		int len = snprintf(digits, sizeof digits, "%" PRId64, seconds);
		rpb_cat(buf, n, "%s%s", digits, len == 1 ? " second " : " seconds ");
	}
}

void ycsb_jordinal(char *buf, size_t n, double p)
{
	if (p == floor(p) && fabs(p) < 1e15) {
		static const char *const suffixes[] = {"th", "st", "nd", "rd", "th",
						       "th", "th", "th", "th", "th"};
		long long j = (long long)p;
		long long r = j % 100;
		if (r == 11 || r == 12 || r == 13)
			snprintf(buf, n, "%lldth", j);
		else
			snprintf(buf, n, "%lld%s", j, suffixes[(j % 10 + 10) % 10]);
		return;
	}
	ycsb_jdouble(buf, n, p);
}
