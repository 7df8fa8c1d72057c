/* The raw pattern's benchmark names, keys, values and result lines, shared
 * by the options (raw_options.c), the run (raw.c) and verify (raw_verify.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw.h"

const char *const raw_bench_names[RAW_NBENCH] = {
	"fillseq", "fillrandom", "overwrite", "readrandom",
	"readseq", "readreverse", "deleterandom", "fillsync",
};

uint64_t raw_bench_ops(const struct rpb_raw_opts *o, enum raw_bench b)
{
	if (b != RAW_FILLSYNC)
		return o->num;
	return o->num >= 1000 ? o->num / 1000 : 1;
}

uint64_t raw_bench_batch(const struct rpb_raw_opts *o, enum raw_bench b)
{
	return b == RAW_FILLSYNC ? 1 : o->batch;
}

bool raw_key_parse(const void *key, size_t len, const struct rpb_raw_opts *o, uint64_t *k)
{
	const unsigned char *p = key;
	if (len != o->key_size)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	*k = v;
	return v < o->num;
}

/* db_bench's value source: 100-byte pieces, each a random printable run of
 * 100 * ratio bytes repeated to fill the piece, so a compressor halves it at
 * ratio 0.5. At least 1 MiB, so consecutive values differ. */
int raw_values_init(struct raw_values *v, const struct rpb_raw_opts *o, uint64_t seed)
{
	enum { PIECE = 100 };
	size_t size = o->value_size > (1u << 20) ? (size_t)o->value_size : (1u << 20);
	size = (size + PIECE - 1) / PIECE * PIECE;
	v->data = malloc(size);
	if (!v->data)
		return -1;
	v->size = size;
	v->slots = size / o->value_size;
	size_t raw = (size_t)(PIECE * o->compression_ratio);
	if (raw < 1)
		raw = 1;
	struct rpb_rng r;
	rpb_rng_seed(&r, seed, RAW_STREAM_VALUES, 0);
	for (size_t at = 0; at < size; at += PIECE) {
		unsigned char *piece = v->data + at;
		for (size_t i = 0; i < raw; i++)
			piece[i] = (unsigned char)(' ' + rpb_rng_range(&r, 0, 95));
		for (size_t i = raw; i < PIECE; i++)
			piece[i] = piece[i - raw];
	}
	return 0;
}

void raw_values_free(struct raw_values *v)
{
	free(v->data);
	v->data = NULL;
}

uint64_t raw_readseq_ops(const struct rpb_raw_opts *o, uint64_t entries)
{
	uint64_t chunk = raw_seq_chunk(o);
	if (entries >= o->num)
		return raw_div_up(o->num, chunk);
	return entries / chunk + 1;
}

size_t raw_format_line(char *buf, size_t n, const json_t *bench)
{
	const char *name = json_string_value(json_object_get(bench, "name"));
	double us = json_number_value(json_object_get(bench, "micros_per_op"));
	json_int_t bytes = json_integer_value(json_object_get(bench, "bytes"));
	const json_t *found = json_object_get(bench, "found");
	char extra[128] = "";
	if (bytes > 0)
		snprintf(extra, sizeof extra, " %6.1f MB/s",
			 json_number_value(json_object_get(bench, "mb_per_s")));
	if (json_is_integer(found)) {
		size_t len = strlen(extra);
		snprintf(extra + len, sizeof extra - len, " (%" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT
			 " found)", json_integer_value(found),
			 json_integer_value(json_object_get(bench, "ops")));
	}
	int len = snprintf(buf, n, "%-12s : %11.3f micros/op;%s", name ? name : "?", us, extra);
	return len < 0 ? 0 : (size_t)len < n ? (size_t)len : n - 1;
}
