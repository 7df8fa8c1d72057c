/* The ycsb pattern's run-time state, shared by its operations (ycsb.c) and
 * its output (ycsb_report.c: YCSB's status lines, ycsb.txt, the exporters). */
#ifndef RPB_YCSB_RUN_H
#define RPB_YCSB_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "runner.h"
#include "ycsb.h"
#include "ycsb_meas.h"
#include "ycsb_status.h"

#define YCSB_FAILED_MAX 64

struct ycsb_shared {
	struct ycsb_ack ack;
	struct ycsb_status status;
	struct ycsb_mconf mc;
	struct ycsb_wmeas **wm;     /* each worker's measurements (nworkers) */
	unsigned nw;
	bool merged;                /* res holds the merged measurements */
	int merge_rc;
	struct ycsb_result res;
};

struct ycsb_worker {
	struct ycsb_gen gen;
	struct rpb_rng saved;       /* the generator state operation cur began with */
	uint64_t cur;
	bool begun;
	bool pending;               /* an insert number taken, not yet given up or done */
	uint64_t pending_key;
	uint64_t load_first;
	struct rpb_buf got;
	unsigned char *rec, *rand, *scratch;
	size_t randsize;
	char key[64];
	size_t keylen;
	uint64_t scanned, scan_bytes;
	uint64_t failed[YCSB_FAILED_MAX]; /* insert numbers given up */
	unsigned nfailed;
	bool failed_overflow;
	struct ycsb_wmeas meas;     /* YCSB's measurements of this worker */
	_Atomic uint64_t done;      /* run: operations done, failed ones too (YCSB's opsdone) */
};

/* YCSB's measurement settings of a run (rn->latency resolved). */
void ycsb_mconf_of(const struct rpb_runner *rn, struct ycsb_mconf *c);
/* YCSB's opsdone over the threads: a run counts every operation done, a
 * load its acknowledged inserts. */
uint64_t ycsb_ops_done(struct rpb_runner *rn);

/* The pattern's hooks in ycsb_report.c. */
void ycsb_progress(struct rpb_runner *rn, double seconds, bool final);
/* Checks the output files the run will write (exportfile,
 * measurement.raw.output_file) are free, and warns about settings YCSB
 * would warn about; 0, or -1 with msg. */
int ycsb_output_check(struct rpb_runner *rn, char *msg, size_t n);

#endif
