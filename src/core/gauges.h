/* Backend gauges over a run: the supervisor reads the store's gauges hook
 * (such as a read replica's lag) every RPB_GAUGE_PERIOD_MS and once after
 * the workers have stopped, and keeps per-gauge statistics for result.json,
 * summary.txt and the progress lines. Only the main thread touches them. */
#ifndef RPB_GAUGES_H
#define RPB_GAUGES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define RPB_GAUGE_PERIOD_MS 200

struct rpb_runner;

/* One gauge's readings so far. */
struct rpb_gauge_stat {
	const char *name; /* the backend's static name */
	uint64_t samples;
	double sum, min, max, last;
};

struct rpb_gauge_stats {
	struct rpb_gauge_stat g[RPB_GAUGES_MAX];
	size_t n;                  /* gauges seen */
	uint64_t failed;           /* readings whose hook call failed */
	uint64_t failing;          /* of them, those since the last success */
	struct rpb_err first_failure;
};

void rpb_gauges_init(struct rpb_gauge_stats *s);
/* Adds one successful reading of n gauges. A gauge is matched by name; a
 * new name takes the next free entry (beyond RPB_GAUGES_MAX it is dropped).
 * A value that is not finite is skipped: JSON has no NaN or infinity. */
void rpb_gauges_add(struct rpb_gauge_stats *s, const struct rpb_gauge *in, size_t n);
/* Counts one failed reading; the first failure's error is kept. */
void rpb_gauges_fail(struct rpb_gauge_stats *s, const struct rpb_err *err);
/* Takes one reading of rn's store into rn->gauges when the backend has the
 * hook, and of the process's resident memory into rn->rss_peak. Main
 * thread only, never a worker. */
void rpb_gauges_sample(struct rpb_runner *rn);

/* The last reading of the gauge called name; false when it has none. */
bool rpb_gauges_last(const struct rpb_gauge_stats *s, const char *name, double *out);
/* True when some gauge has a value or some reading failed. */
bool rpb_gauges_any(const struct rpb_gauge_stats *s);
/* result.json's "backend_gauges" object (new reference), or NULL when
 * nothing was read (no hook, or no gauges) or memory ran out. */
json_t *rpb_gauges_json(const struct rpb_gauge_stats *s);
/* "replica_lag_bytes max 123456 mean 2048 last 0; replica_lag_s max ..."
 * (summary.txt); "" when nothing was read. */
void rpb_gauges_summary(const struct rpb_gauge_stats *s, char *buf, size_t n);
/* "replica_lag_bytes 1234, replica_lag_s 0.012": the latest values (progress
 * lines), with "(last N readings failed)" when they are stale; "" when
 * nothing was read. */
void rpb_gauges_latest(const struct rpb_gauge_stats *s, char *buf, size_t n);

#endif
