/* What the direct-library baselines share: command line, db_bench keys and
 * values, a key stream, a clock and db_bench's result line. Deliberately
 * independent of rpbench's code: the baselines measure each library alone,
 * so the raw pattern's overhead is the difference.
 *
 * Keys: the key index in decimal, zero-padded to key_size (16); random keys
 * uniform in [0, num). Values: db_bench's buffer of 100-byte pieces, each a
 * random printable run of 100 x ratio bytes repeated; consecutive writes
 * take consecutive slices. Every benchmark commits one transaction per
 * batch of operations, as the raw pattern does. */
#ifndef CALIB_H
#define CALIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CALIB_KEY_MAX 64

struct calib {
	const char *target;     /* directory or DSN */
	const char *benchmarks; /* comma list */
	uint64_t num, value_size, key_size, batch;
	double ratio;
	bool sync;
	uint64_t seed;
	unsigned char *values;
	size_t vsize, vpos;
	uint64_t rng;
};

static inline void calib_help(const char *prog, const char *target)
{
	printf("%s: db_bench's loops against the library alone, the baseline of rpbench's raw\n"
	       "pattern (bench/calibrate.sh)\n\n"
	       "usage: %s --%s X [--benchmarks LIST] [--num N] [--value-size N] [--key-size N]\n"
	       "       %*s [--batch N] [--compression-ratio R] [--sync 0|1] [--seed N]\n"
	       "       %s -h | --help\n\n"
	       "  --%-16s the store: %s\n"
	       "  --benchmarks LIST  fillseq, fillrandom, overwrite, readrandom, readseq, comma-separated\n"
	       "                     (default fillseq,fillrandom,readrandom,readseq)\n"
	       "  --num N            operations per benchmark (default 1000000)\n"
	       "  --value-size N     value bytes (default 100)\n"
	       "  --key-size N       key bytes, at most %d (default 16)\n"
	       "  --batch N          operations per transaction (default 1)\n"
	       "  --compression-ratio R  share of random bytes in a value (default 0.5)\n"
	       "  --sync 0|1         durable commits (default 0)\n"
	       "  --seed N           random seed (default 42)\n",
	       prog, prog, target, (int)strlen(prog), "", prog,
	       strcmp(target, "dsn") == 0 ? "dsn X" : "db X",
	       strcmp(target, "dsn") == 0 ? "libpq connection string" : "database path",
	       CALIB_KEY_MAX);
	exit(0);
}

/* A one-line refusal naming the problem; exit 1. */
static inline void calib_usage(const char *prog, const char *problem, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s; see %s --help\n", prog, problem, arg ? " " : "", arg ? arg : "",
		prog);
	exit(1);
}

static inline uint64_t calib_next(struct calib *c)
{
	/* splitmix64: fast, and good enough for uniform keys */
	uint64_t z = (c->rng += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t calib_uniform(struct calib *c, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)calib_next(c) * n) >> 64);
}

/* Parses the command line; target_opt names the store option ("db", "dsn"). */
static inline void calib_args(struct calib *c, int argc, char **argv, const char *target_opt)
{
	*c = (struct calib){.benchmarks = "fillseq,fillrandom,readrandom,readseq", .num = 1000000,
			    .value_size = 100, .key_size = 16, .batch = 1, .ratio = 0.5, .seed = 42};
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			calib_help(prog, target_opt);
		if (!v)
			calib_usage(prog, "a value is missing after", a);
		if (strncmp(a, "--", 2) == 0 && strcmp(a + 2, target_opt) == 0)
			c->target = v;
		else if (strcmp(a, "--benchmarks") == 0)
			c->benchmarks = v;
		else if (strcmp(a, "--num") == 0)
			c->num = strtoull(v, NULL, 10);
		else if (strcmp(a, "--value-size") == 0)
			c->value_size = strtoull(v, NULL, 10);
		else if (strcmp(a, "--key-size") == 0)
			c->key_size = strtoull(v, NULL, 10);
		else if (strcmp(a, "--batch") == 0)
			c->batch = strtoull(v, NULL, 10);
		else if (strcmp(a, "--compression-ratio") == 0)
			c->ratio = strtod(v, NULL);
		else if (strcmp(a, "--sync") == 0)
			c->sync = strcmp(v, "0") != 0;
		else if (strcmp(a, "--seed") == 0)
			c->seed = strtoull(v, NULL, 10);
		else
			calib_usage(prog, "unknown option (or a value where an option belongs):", a);
		i++;
	}
	if (!c->target)
		calib_usage(prog, strcmp(target_opt, "dsn") == 0 ? "--dsn is required" : "--db is required",
			    NULL);
	if (!c->num || !c->value_size || !c->batch || !c->key_size || c->key_size > CALIB_KEY_MAX)
		calib_usage(prog, "--num, --value-size, --batch and --key-size must be at least 1 "
			    "(--key-size at most 64)", NULL);
	c->rng = c->seed;
	enum { PIECE = 100 };
	size_t size = c->value_size > (1u << 20) ? (size_t)c->value_size : (1u << 20);
	size = (size + PIECE - 1) / PIECE * PIECE;
	c->values = malloc(size);
	if (!c->values) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		exit(2);
	}
	c->vsize = size;
	size_t raw = (size_t)(PIECE * c->ratio);
	raw = raw ? raw : 1;
	for (size_t at = 0; at < size; at += PIECE) {
		for (size_t i = 0; i < raw; i++)
			c->values[at + i] = (unsigned char)(' ' + calib_uniform(c, 95));
		for (size_t i = raw; i < PIECE; i++)
			c->values[at + i] = c->values[at + i - raw];
	}
}

/* The next value slice (db_bench's RandomGenerator::Generate). */
static inline const unsigned char *calib_value(struct calib *c)
{
	if (c->vpos + c->value_size > c->vsize)
		c->vpos = 0;
	c->vpos += c->value_size;
	return c->values + c->vpos - c->value_size;
}

static inline void calib_key(const struct calib *c, unsigned char *buf, uint64_t k)
{
	for (size_t i = c->key_size; i-- > 0;) {
		buf[i] = (unsigned char)('0' + k % 10);
		k /= 10;
	}
}

/* A benchmark's time: wall clock, and the CPU time of the whole process
 * (every thread: the library's background work counts, as it does for
 * rpbench's process), which preemption by other processes does not lengthen. */
struct calib_clock {
	double wall, cpu;
};

static inline double calib_clock_read(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline struct calib_clock calib_start(void)
{
	return (struct calib_clock){calib_clock_read(CLOCK_MONOTONIC),
				    calib_clock_read(CLOCK_PROCESS_CPUTIME_ID)};
}

/* Since t0: both clocks' seconds. */
static inline struct calib_clock calib_since(const struct calib_clock *t0)
{
	struct calib_clock now = calib_start();
	return (struct calib_clock){now.wall - t0->wall, now.cpu - t0->cpu};
}

/* db_bench's line, then "NAME/cpu : X micros/op;" with the CPU time. */
static inline void calib_report(const char *name, struct calib_clock secs, uint64_t done,
				uint64_t bytes, long long found)
{
	char extra[128] = "";
	if (bytes)
		snprintf(extra, sizeof extra, " %6.1f MB/s", (double)bytes / 1048576.0 / secs.wall);
	if (found >= 0) {
		size_t len = strlen(extra);
		snprintf(extra + len, sizeof extra - len, " (%lld of %llu found)", found,
			 (unsigned long long)done);
	}
	double per = 1e6 / (double)(done ? done : 1);
	printf("%-12s : %11.3f micros/op;%s\n", name, secs.wall * per, extra);
	char cpu_name[64];
	snprintf(cpu_name, sizeof cpu_name, "%s/cpu", name);
	printf("%-12s : %11.3f micros/op;\n", cpu_name, secs.cpu * per);
	fflush(stdout);
}

/* One library's loops; fillseq, fillrandom and overwrite share write.
 * fresh closes the store, destroys it and opens an empty one, untimed,
 * before fillseq and fillrandom, as db_bench's fresh_db does (LevelDB
 * 1.23, benchmarks/db_bench.cc, Benchmark::Run: fillseq and fillrandom set
 * fresh_db, overwrite does not; "if (fresh_db) { delete db_; ...
 * DestroyDB(FLAGS_db, Options()); Open(); }"): every fill starts on a new
 * store, and the reads after it read the store it left. */
struct calib_loops {
	const char *prog;
	void (*fresh)(struct calib *c);
	void (*write)(struct calib *c, bool sequential);
	void (*read_random)(struct calib *c);
	void (*read_seq)(struct calib *c);
};

/* Runs each benchmark of the list with a key stream of its own. */
static inline void calib_each(struct calib *c, const struct calib_loops *l)
{
	char list[256];
	snprintf(list, sizeof list, "%s", c->benchmarks);
	for (char *save = NULL, *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
		c->rng = c->seed + 1 + (uint64_t)(b - list); /* a key stream per benchmark */
		c->vpos = 0;
		if (strcmp(b, "fillseq") == 0 || strcmp(b, "fillrandom") == 0)
			l->fresh(c);
		if (strcmp(b, "fillseq") == 0)
			l->write(c, true);
		else if (strcmp(b, "fillrandom") == 0 || strcmp(b, "overwrite") == 0)
			l->write(c, false);
		else if (strcmp(b, "readrandom") == 0)
			l->read_random(c);
		else if (strcmp(b, "readseq") == 0)
			l->read_seq(c);
		else
			fprintf(stderr, "%s: skipping unknown benchmark %s\n", l->prog, b);
	}
}

#endif
