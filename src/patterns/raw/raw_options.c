/* The [raw] section: db_bench's flags, and the benchmark list's rules. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "raw.h"

#define RAW(f) offsetof(struct rpb_raw_opts, f)

const struct rpb_optdef raw_options[] = {
	{ .key = "benchmarks", .type = RPB_OPT_STRING,
	  .dflt = "all", .umax = RPB_RAW_LIST_MAX, .off = RAW(benchmarks),
	  .help = "comma list run in order on one store: fillseq, fillrandom, overwrite, "
		  "readrandom, readseq, readreverse, deleterandom, fillsync (needs sync = commit); "
		  "all = these in this order but fillsync" },
	{ .key = "num", .type = RPB_OPT_COUNT, .dflt = "1000000",
	  .umin = 1, .umax = UINT64_C(1) << 40, .off = RAW(num),
	  .help = "keys, and operations of each benchmark (fillsync: num/1000)" },
	{ .key = "value_size", .type = RPB_OPT_SIZE, .dflt = "100",
	  .umin = 1, .umax = RPB_OPT_64M, .off = RAW(value_size), .help = "value bytes" },
	{ .key = "key_size", .type = RPB_OPT_COUNT, .dflt = "16",
	  .umin = 1, .umax = 1024, .off = RAW(key_size),
	  .help = "key bytes: the key index in decimal, zero-padded to this width" },
	{ .key = "compression_ratio", .type = RPB_OPT_DOUBLE, .dflt = "0.5",
	  .dmin = 0, .dmax = 1, .off = RAW(compression_ratio),
	  .help = "values compress to about this fraction of their size" },
	{ .key = "batch", .type = RPB_OPT_COUNT, .dflt = "1",
	  .umin = 1, .umax = 1000000, .off = RAW(batch),
	  .help = "benchmark operations per transaction (one runner operation)" },
	{ .key = "scan_chunk", .type = RPB_OPT_COUNT, .dflt = "1000",
	  .umin = 0, .umax = RPB_OPT_P62, .off = RAW(scan_chunk),
	  .help = "readseq entries per read transaction; 0 = the whole table in one scan" },
	{ .key = NULL },
};

int raw_finish(void *config, const struct rpb_job *job, const char *where, char *msg, size_t n)
{
	struct rpb_raw_opts *o = config;
	o->nbench = 0;
	const char *p = strcmp(o->benchmarks, "all") == 0 ? RAW_ALL : o->benchmarks;
	while (*p) {
		size_t len = strcspn(p, ",");
		size_t b = 0;
		while (b < RAW_NBENCH && !(strlen(raw_bench_names[b]) == len &&
					   memcmp(raw_bench_names[b], p, len) == 0))
			b++;
		if (b == RAW_NBENCH) {
			snprintf(msg, n, "%s[raw] benchmarks: unknown benchmark '%.*s'; give a comma list of "
				 "fillseq, fillrandom, overwrite, readrandom, readseq, readreverse, "
				 "deleterandom, fillsync", where, (int)len, p);
			return -1;
		}
		if (o->nbench == RPB_RAW_BENCH_MAX) {
			snprintf(msg, n, "%s[raw] benchmarks: more than %d; run a shorter list", where,
				 RPB_RAW_BENCH_MAX);
			return -1;
		}
		if (b == RAW_FILLSYNC && job->run.sync != RPB_SYNC_COMMIT) {
			snprintf(msg, n, "%s[raw] fillsync needs [run] sync = commit (a store's sync is set "
				 "when it opens); run fillsync in a job of its own", where);
			return -1;
		}
		o->bench[o->nbench++] = (unsigned char)b;
		p += len + (p[len] == ',');
	}
	if (!o->nbench) {
		snprintf(msg, n, "%s[raw] benchmarks is empty; give e.g. fillrandom,readrandom", where);
		return -1;
	}
	/* Every key index below num must fit key_size digits. */
	uint64_t room = 1;
	for (uint64_t d = 0; d < o->key_size && room <= o->num; d++)
		room *= 10;
	if (room < o->num) {
		snprintf(msg, n, "%s[raw] key_size = %" PRIu64 " cannot hold %" PRIu64 " keys in "
			 "decimal; raise key_size or lower num", where, o->key_size, o->num);
		return -1;
	}
	if (job->run.threads != 1) {
		snprintf(msg, n, "%s[raw] runs its benchmarks in one thread, as db_bench does; set "
			 "[run] threads = 1", where);
		return -1;
	}
	return 0;
}
