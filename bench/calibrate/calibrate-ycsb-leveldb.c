/* YCSB workload C as a direct loop over LevelDB's C API, the baseline of
 * rpbench's ycsb pattern (bench/calibrate-ycsb.sh): the same records (YCSB's
 * key names, fieldcount fields of fieldlength bytes in one value of the same
 * encoding), loaded in one write per record, then operationcount gets of
 * keys drawn by YCSB's scrambled zipfian, each record's fields walked as
 * rpbench's read does. Options as rpbench's LevelDB backend's defaults
 * (calib_leveldb.h).
 * Independent of rpbench's code on purpose; prints ops/s of the read phase.
 * With --table-byte B it reads an existing store instead (a copy of one
 * rpbench loaded: its keys carry the table as one leading byte), so both
 * sides read the same data in the same state.
 *
 * usage: calibrate-ycsb-leveldb --db DIR [--table-byte B] [--records N]
 *        [--ops N] [--fieldcount N] [--fieldlength N] */
#include <inttypes.h>
#include <leveldb/c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib_leveldb.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng = 42;
static double uniform01(void)
{
	uint64_t z = (rng += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static int64_t fnv64(int64_t v)
{
	uint64_t h = UINT64_C(0xCBF29CE484222325), x = (uint64_t)v;
	for (int i = 0; i < 8; i++) {
		h = (h ^ (x & 0xff)) * UINT64_C(1099511628211);
		x = (uint64_t)((int64_t)x >> 8);
	}
	int64_t s = (int64_t)h;
	return s < 0 && s != INT64_MIN ? -s : s;
}

static int table_byte = -1;

static size_t key_of(char *buf, uint64_t k)
{
	size_t at = 0;
	if (table_byte >= 0)
		buf[at++] = (char)table_byte;
	return at + (size_t)snprintf(buf + at, 32, "user%" PRId64, fnv64((int64_t)k));
}

/* YCSB's ScrambledZipfianGenerator: Gray's zipfian over 10^10 items with
 * theta 0.99 and YCSB's precomputed zeta, hashed into the records. */
static uint64_t scrambled(uint64_t items)
{
	const double theta = 0.99, zetan = 26.46902820178302, n = 1e10 + 1;
	static double alpha, eta, half;
	if (!alpha) {
		alpha = 1 / (1 - theta);
		half = pow(0.5, theta);
		eta = (1 - pow(2 / n, 1 - theta)) / (1 - (1 + pow(0.5, theta)) / zetan);
	}
	double u = uniform01(), uz = u * zetan;
	uint64_t v = uz < 1 ? 0 : uz < 1 + half ? 1 : (uint64_t)(n * pow(eta * u - eta + 1, alpha));
	return (uint64_t)fnv64((int64_t)v) % items;
}

/* CoreWorkload's key chooser for workload C: records + 1 items (no inserts
 * expected), a number past the last record drawn again. */
static uint64_t next_key(uint64_t records)
{
	uint64_t k;
	do
		k = scrambled(records + 1);
	while (k >= records);
	return k;
}

/* The measured loop, a function of its own so a profiler can count it
 * alone (valgrind --toggle-collect=read_phase). */
__attribute__((noinline)) static void read_phase(leveldb_t *db, leveldb_readoptions_t *ro,
						 uint64_t records, uint64_t ops, uint64_t *found_out,
						 uint64_t *walked_out)
{
	char key[40], *err = NULL;
	uint64_t found = 0, walked = 0;
	for (uint64_t i = 0; i < ops; i++) {
		size_t kl = key_of(key, next_key(records)), len;
		char *v = leveldb_get(db, ro, key, kl, &len, &err);
		if (err) {
			fprintf(stderr, "calibrate-ycsb-leveldb: get: %s\n", err);
			exit(2);
		}
		if (v) {
			found++;
			/* Walk the fields, as a reader of the record does. */
			for (size_t at = 0; at + 1 < len;) {
				size_t nl = (unsigned char)v[at];
				uint32_t vl;
				memcpy(&vl, v + at + 1 + nl, 4);
				at += 1 + nl + 4 + vl;
				walked++;
			}
		}
		leveldb_free(v);
	}
	*found_out = found;
	*walked_out = walked;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	uint64_t records = 100000, ops = 1000000, fields = 10, flen = 100;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--db"))
			dir = argv[i + 1];
		else if (!strcmp(argv[i], "--table-byte"))
			table_byte = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--records"))
			records = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--ops"))
			ops = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--fieldcount"))
			fields = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--fieldlength"))
			flen = strtoull(argv[i + 1], NULL, 10);
	}
	if (!dir || !records || !fields || fields > 255 || !flen) {
		fprintf(stderr, "usage: %s --db DIR [--table-byte B] [--records N] [--ops N] "
			"[--fieldcount N] [--fieldlength N]\n", argv[0]);
		return 1;
	}
	struct calib_leveldb l;
	char *err = calib_leveldb_open(&l, dir, table_byte < 0);
	leveldb_t *db = l.db;
	if (err) {
		fprintf(stderr, "%s: open %s: %s (give a new --db directory)\n", argv[0], dir, err);
		return 2;
	}
	leveldb_writeoptions_t *wo = leveldb_writeoptions_create();
	leveldb_readoptions_t *ro = leveldb_readoptions_create();
	/* Records: per field a name length byte, "field<i>", a 4-byte length
	 * and printable bytes. */
	size_t cap = fields * (1 + 16 + 4 + flen);
	unsigned char *rec = malloc(cap);
	char key[40];
	for (uint64_t k = 0; table_byte < 0 && k < records; k++) {
		size_t at = 0;
		for (uint64_t f = 0; f < fields; f++) {
			int nl = snprintf((char *)rec + at + 1, 16, "field%" PRIu64, f);
			rec[at] = (unsigned char)nl;
			at += 1 + (size_t)nl;
			memcpy(rec + at, &(uint32_t){(uint32_t)flen}, 4);
			at += 4;
			for (uint64_t b = 0; b < flen; b++)
				rec[at + b] = (unsigned char)(' ' + (uint64_t)(uniform01() * 95));
			at += flen;
		}
		size_t kl = key_of(key, k);
		leveldb_put(db, wo, key, kl, (const char *)rec, at, &err);
		if (err) {
			fprintf(stderr, "%s: put: %s\n", argv[0], err);
			return 2;
		}
	}
	uint64_t found = 0, walked = 0;
	double t0 = now();
	read_phase(db, ro, records, ops, &found, &walked);
	double secs = now() - t0;
	printf("direct workloadc: %" PRIu64 " gets in %.3f s = %.1f ops/sec (%" PRIu64
	       " found, %" PRIu64 " fields)\n", ops, secs, (double)ops / secs, found, walked);
	calib_leveldb_close(&l);
	leveldb_writeoptions_destroy(wo);
	leveldb_readoptions_destroy(ro);
	free(rec);
	return found == ops ? 0 : 3;
}
