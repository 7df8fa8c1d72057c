/* A reader of HdrHistogram interval logs for the tests, written from the
 * format's description (HdrHistogram's HistogramLogReader and V2 encoding),
 * not from rpbench's writer: it decodes what any HdrHistogram would. */
#ifndef RPBT_HDRLOG_DECODE_H
#define RPBT_HDRLOG_DECODE_H

#include <stdbool.h>
#include <stdint.h>

struct hdrt_hist {
	char tag[64];
	double start_s, length_s, max_ms;
	int32_t digits;
	int64_t lowest, highest;
	uint32_t sub_half_mag; /* log2 of half the sub-bucket count */
	uint64_t *counts;
	uint32_t ncounts;
	uint64_t total;
};

/* Decodes one interval line ("Tag=T,start,length,max,BASE64"); false with
 * why set on any malformation. */
bool hdrt_decode_line(const char *line, struct hdrt_hist *h, char *why, unsigned wn);
void hdrt_free(struct hdrt_hist *h);
/* The lowest value of counts index i in h's layout (unit magnitude 0). */
uint64_t hdrt_value(const struct hdrt_hist *h, uint32_t i);
/* The value at percentile p by rpbench's rank rule (ceil(p * n / 100)),
 * the lowest value of the sub-bucket that holds it. */
uint64_t hdrt_percentile(const struct hdrt_hist *h, double p);

#endif
