/* The raw pattern's pieces (src/patterns/raw/raw_gen.c): keys, the value buffer, the
 * [raw] options, and db_bench's result line for every benchmark. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"
#include "raw.h"

/* db_bench's line: name padded to 12, micros/op with 3 decimals, then MB/s
 * when bytes moved and "(N of M found)" for readrandom. */
#define LINE_RE "^[a-z]+ *: +[0-9]+\\.[0-9]{3} micros/op;( +[0-9]+\\.[0-9] MB/s)?( \\([0-9]+ of [0-9]+ found\\))?$"

static void assert_line(const char *line)
{
	regex_t re;
	cr_assert_eq(regcomp(&re, LINE_RE, REG_EXTENDED | REG_NOSUB), 0);
	cr_assert_eq(regexec(&re, line, 0, NULL, 0), 0, "not a db_bench line: '%s'", line);
	regfree(&re);
	cr_assert_eq(line[12], ' ', "the name is padded to 12: '%s'", line);
	cr_assert_eq(line[13], ':', "'%s'", line);
}

Test(raw, keys)
{
	struct rpb_raw_opts o = {.num = 1000000, .key_size = 16};
	unsigned char k[16];
	raw_key(k, 16, 123456);
	cr_assert_eq(memcmp(k, "0000000000123456", 16), 0);
	uint64_t back;
	cr_assert(raw_key_parse(k, 16, &o, &back));
	cr_assert_eq(back, 123456);
	cr_assert_not(raw_key_parse(k, 15, &o, &back), "wrong length");
	raw_key(k, 16, 1000000);
	cr_assert_not(raw_key_parse(k, 16, &o, &back), "not below num");
	cr_assert_not(raw_key_parse("000000000000x000", 16, &o, &back), "not decimal");
	/* Decimal keys of one width sort as their indices. */
	unsigned char a[16], b[16];
	raw_key(a, 16, 99);
	raw_key(b, 16, 100);
	cr_assert_lt(memcmp(a, b, 16), 0);
}

Test(raw, values_compress_by_ratio)
{
	struct rpb_raw_opts o = {.value_size = 100, .compression_ratio = 0.5};
	struct raw_values v;
	cr_assert_eq(raw_values_init(&v, &o, 42), 0);
	cr_assert_geq(v.size, 1u << 20);
	cr_assert_eq(v.slots, v.size / 100);
	for (size_t at = 0; at < v.size; at += 100) {
		cr_assert_eq(memcmp(v.data + at, v.data + at + 50, 50), 0, "piece %zu repeats", at);
		for (size_t i = 0; i < 100; i++)
			cr_assert(v.data[at + i] >= ' ' && v.data[at + i] <= '~');
	}
	/* Consecutive writes take different slices; the same write the same. */
	cr_assert_neq(memcmp(raw_value(&v, 100, 0, 0), raw_value(&v, 100, 0, 1), 100), 0);
	cr_assert_eq(raw_value(&v, 100, 2, 7), raw_value(&v, 100, 2, 7));
	struct raw_values w;
	cr_assert_eq(raw_values_init(&w, &o, 42), 0);
	cr_assert_eq(memcmp(v.data, w.data, v.size), 0, "the seed fixes the values");
	raw_values_free(&w);
	raw_values_free(&v);
}

/* The job's [raw] options, writable. */
#define RAW_OPTS(job) ((struct rpb_raw_opts *)(job)->config)

static int finish(struct rpb_job *job, const char *benchmarks, char *msg, size_t n)
{
	snprintf(RAW_OPTS(job)->benchmarks, sizeof RAW_OPTS(job)->benchmarks, "%s", benchmarks);
	return raw_finish(job->config, job, "", msg, n);
}

Test(raw, options)
{
	struct rpb_job job;
	char msg[512];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_set(&job, "raw.num=2000", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(job.pattern, rpb_pattern_find("raw"));
	cr_assert_eq(finish(&job, "fillseq,readrandom,readrandom", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(RAW_OPTS(&job)->nbench, 3);
	cr_assert_eq(RAW_OPTS(&job)->bench[0], RAW_FILLSEQ);
	cr_assert_eq(RAW_OPTS(&job)->bench[2], RAW_READRANDOM);
	cr_assert_eq(raw_bench_ops(raw_opts(&job), RAW_FILLSYNC), 2);
	cr_assert_eq(raw_bench_batch(raw_opts(&job), RAW_FILLSYNC), 1);

	cr_assert_neq(finish(&job, "fillseq,compact", msg, sizeof msg), 0);
	cr_assert(strstr(msg, "unknown benchmark 'compact'"), "%s", msg);
	job.run.sync = RPB_SYNC_NONE;
	cr_assert_neq(finish(&job, "fillsync", msg, sizeof msg), 0);
	cr_assert(strstr(msg, "sync = commit"), "%s", msg);
	job.run.sync = RPB_SYNC_COMMIT;
	cr_assert_eq(finish(&job, "fillsync", msg, sizeof msg), 0, "%s", msg);
	RAW_OPTS(&job)->key_size = 3;
	cr_assert_neq(finish(&job, "fillseq", msg, sizeof msg), 0, "2000 keys need 4 digits");
	cr_assert(strstr(msg, "key_size"), "%s", msg);
	RAW_OPTS(&job)->key_size = 4;
	cr_assert_eq(finish(&job, "fillseq", msg, sizeof msg), 0, "%s", msg);
	job.run.threads = 2;
	cr_assert_neq(finish(&job, "fillseq", msg, sizeof msg), 0);
	cr_assert(strstr(msg, "threads = 1"), "%s", msg);
	rpb_job_free(&job);
}

Test(raw, readseq_ops)
{
	struct rpb_raw_opts o = {.num = 2500, .scan_chunk = 1000};
	cr_assert_eq(raw_readseq_ops(&o, 0), 1, "one empty scan");
	cr_assert_eq(raw_readseq_ops(&o, 1000), 2, "a full chunk, then an empty one");
	cr_assert_eq(raw_readseq_ops(&o, 1999), 2);
	cr_assert_eq(raw_readseq_ops(&o, 2500), 3, "stops at num entries");
	cr_assert_eq(raw_readseq_ops(&o, 9000), 3);
	o.scan_chunk = 0; /* the whole table in one scan */
	cr_assert_eq(raw_readseq_ops(&o, 0), 1);
	cr_assert_eq(raw_readseq_ops(&o, 2499), 1);
	cr_assert_eq(raw_readseq_ops(&o, 9000), 1);
}

Test(raw, result_lines)
{
	for (unsigned b = 0; b < RAW_NBENCH; b++) {
		bool reads = b == RAW_READRANDOM, moves = b != RAW_READRANDOM && b != RAW_DELETERANDOM;
		json_t *e = json_pack("{s:s, s:I, s:I, s:f, s:f}", "name", raw_bench_names[b], "ops",
				      (json_int_t)2000, "bytes", (json_int_t)(moves ? 232000 : 0),
				      "micros_per_op", 3.2256, "mb_per_s", 34.31);
		json_object_set_new(e, "found", reads ? json_integer(1999) : json_null());
		char line[256];
		raw_format_line(line, sizeof line, e);
		assert_line(line);
		cr_assert(strstr(line, " micros/op;"), "%s", line);
		cr_assert_eq(strstr(line, "34.3 MB/s") != NULL, moves, "%s", line);
		cr_assert_eq(strstr(line, "(1999 of 2000 found)") != NULL, reads, "%s", line);
		json_decref(e);
	}
	json_t *e = json_pack("{s:s, s:I, s:I, s:f, s:f, s:n}", "name", "fillrandom", "ops",
			      (json_int_t)1, "bytes", (json_int_t)116, "micros_per_op", 3.226,
			      "mb_per_s", 34.3, "found");
	char line[256];
	raw_format_line(line, sizeof line, e);
	cr_assert_str_eq(line, "fillrandom   :       3.226 micros/op;   34.3 MB/s");
	json_decref(e);
}

Test(raw, all_benchmarks)
{
	struct rpb_job job;
	char msg[512];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_set(&job, "raw.num=10", msg, sizeof msg), 0, "%s", msg);
	cr_assert_str_eq(RAW_OPTS(&job)->benchmarks, "all");
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(RAW_OPTS(&job)->nbench, 7, "all but fillsync");
	for (unsigned i = 0; i < 7; i++)
		cr_assert_eq(RAW_OPTS(&job)->bench[i], i, "in enum order");
	rpb_job_free(&job);
}
