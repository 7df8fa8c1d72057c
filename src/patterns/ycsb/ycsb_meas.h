/* YCSB's own measurements, as YCSB's Measurements, DBWrapper and
 * OneMeasurement* classes keep them (site.ycsb.measurements, YCSB 0.17.0
 * and master), for ycsb.txt, the exporters and the status lines: int
 * microseconds per operation kind, a "-FAILED" (or "-<STATUS>") name for a
 * failed operation's latency, status counts, the actual-start and the
 * intended-start maps of measurement.interval, and each measurementtype's
 * store (HdrHistogram's buckets, the millisecond histogram, every sample
 * for raw and timeseries). Each worker records into its own slots (no lock,
 * no allocation in the timed loop but on the error path); the main thread
 * reads them for status lines and merges them once at the end.
 *
 * Also here: the Java formatting YCSB's output goes through (ycsb_java.c)
 * and HdrHistogram's arithmetic (ycsb_hdr.c). */
#ifndef RPB_YCSB_MEAS_H
#define RPB_YCSB_MEAS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- Java's number formats (ycsb_java.c) ---- */

/* Double.toString (Java 19 and later: the shortest decimal that reads
 * back; E notation below 1e-3 and from 1e7; "NaN", "Infinity"). */
void ycsb_jdouble(char *buf, size_t n, double v);
/* new DecimalFormat("#.##").format(v): at most two decimals, half-even,
 * no trailing zeros ("NaN" as Java 9 and later print it, "∞"). */
void ycsb_jdecimal2(char *buf, size_t n, double v);
/* String.format("%.2f", v): two decimals, half-up on Double.toString's digits. */
void ycsb_jfixed2(char *buf, size_t n, double v);
/* Client.java's RemainingFormatter ("1 day 2 hours ", "5 second ", "45 seconds "). */
void ycsb_jremaining(char *buf, size_t n, int64_t seconds);
/* OneMeasurementHdrHistogram's ordinal of a percentile ("95th", "1st",
 * "99.9"). */
void ycsb_jordinal(char *buf, size_t n, double p);

/* ---- HdrHistogram, 3 significant digits, over int microseconds (ycsb_hdr.c) ---- */

#define YCSB_HDR_LEN 22528 /* counts for 0 .. 2^31 - 1 */
enum ycsb_hdr_version { YCSB_HDR_2_1_4 = 0, YCSB_HDR_2_1_12 };
unsigned ycsb_hdr_index(int64_t us);
int64_t ycsb_hdr_value(unsigned idx); /* valueFromIndex */
int64_t ycsb_hdr_lowest(int64_t v);
int64_t ycsb_hdr_highest(int64_t v);
uint64_t ycsb_hdr_total(const uint64_t *c);
int64_t ycsb_hdr_max(const uint64_t *c);
int64_t ycsb_hdr_min(const uint64_t *c, enum ycsb_hdr_version ver);
double ycsb_hdr_mean(const uint64_t *c, enum ycsb_hdr_version ver);
int64_t ycsb_hdr_percentile(const uint64_t *c, double p, enum ycsb_hdr_version ver);

/* ---- measurements (ycsb_meas.c) ---- */

/* Measurement names: the operations, the two of CoreWorkload's own, and
 * each operation's failure names. */
enum ycsb_mname {
	YM_READ = 0, YM_UPDATE, YM_INSERT, YM_SCAN, YM_RMW, YM_VERIFY, YM_SCANREC,
	YM_FAIL0, /* YM_FAIL0 + 3 * op + k: op READ..SCAN; k 0 -FAILED, 1 -ERROR, 2 -NOT_FOUND */
	YM_COUNT = YM_FAIL0 + 12
};
/* YCSB's Status values rpbench's operations end with. */
enum ycsb_st { YS_OK = 0, YS_ERROR, YS_NOT_FOUND, YS_UNEXPECTED_STATE, YS_COUNT };
extern const char *const ycsb_status_names[YS_COUNT];
/* measurementtype */
enum ycsb_mtype {
	YT_HISTOGRAM = 0, YT_HDR, YT_HDR_HISTOGRAM, YT_HDR_RAW, YT_TIMESERIES, YT_RAW
};
extern const char *const ycsb_mtype_names[];
/* The two maps of Measurements: latencies from the actual start, and
 * (measurement.interval = intended or both) from the intended start. */
enum { YCSB_MAP_OP = 0, YCSB_MAP_INTENDED, YCSB_MAPS };

/* What a run records, resolved from its options. */
struct ycsb_mconf {
	int type;             /* enum ycsb_mtype */
	int interval;         /* measurement.interval: 0 op, 1 intended, 2 both */
	bool master;          /* output format of YCSB master (else 0.17.0) */
	uint32_t buckets;     /* histogram.buckets */
	bool per_status;      /* reportlatencyforeacherror */
	bool tracked[YS_COUNT]; /* latencytrackederrors */
	uint64_t t0_ns, wall0_ms; /* the run's start on both clocks: samples' ms stamps */
};
static inline bool ycsb_mtype_hdr(int t) { return t == YT_HDR || t == YT_HDR_HISTOGRAM || t == YT_HDR_RAW; }
static inline bool ycsb_mtype_buckets(int t) { return t == YT_HISTOGRAM || t == YT_HDR_HISTOGRAM; }
static inline bool ycsb_mtype_points(int t) { return t == YT_RAW || t == YT_HDR_RAW || t == YT_TIMESERIES; }

/* One sample kept for raw and timeseries. */
struct ycsb_point {
	uint64_t t_ns;   /* when it was recorded (monotonic) */
	int32_t us;
	uint16_t slot;   /* map * YM_COUNT + name */
	uint16_t pad;
};

/* One measurement of one worker. Written by its worker only; count, sum,
 * first_ns and the HdrHistogram counts are read by the status lines. */
struct ycsb_wslot {
	_Atomic uint64_t first_ns;   /* when it came to exist here (0: not yet) */
	uint64_t first_seq;          /* its order among this worker's */
	_Atomic uint64_t count, sum; /* latencies recorded, their sum in us */
	_Atomic uint64_t *hdr;       /* YCSB_HDR_LEN counts (hdr types) */
	uint64_t *buckets, overflow; /* ms buckets (histogram types) */
	int64_t min, max;            /* -1 while none */
	unsigned __int128 sumsq;
	uint64_t status[YS_COUNT];
	bool ready;                  /* storage allocated */
};

struct ycsb_wmeas {
	struct ycsb_wslot s[YCSB_MAPS][YM_COUNT];
	struct ycsb_point *pts;      /* raw, timeseries: a reservation of cap points */
	size_t npts, cap, map_len;
	uint64_t dropped;            /* points beyond cap, or slots that could not be made */
	uint64_t seq;
};

/* The display names ("READ-FAILED"). */
extern const char *const ycsb_mnames[YM_COUNT];
/* The name a failed operation's latency goes under (DBWrapper.measure). */
enum ycsb_mname ycsb_fail_name(const struct ycsb_mconf *c, enum ycsb_mname op, enum ycsb_st st);

/* Sets up a worker's slots: the names in need[] get their storage now,
 * any other on first use (the error path); cap points for raw and
 * timeseries. 0, or -1 when out of memory. */
int ycsb_wmeas_init(struct ycsb_wmeas *m, const struct ycsb_mconf *c, const bool need[YM_COUNT],
		    uint64_t cap);
void ycsb_wmeas_free(struct ycsb_wmeas *m);

/* DBWrapper's read, update, insert, scan: the latency from st (and from
 * ist, the intended start) to en under the operation's name, or its
 * failure name, then the status under the operation's name. */
void ycsb_meas_op(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname op,
		  enum ycsb_st st, uint64_t ist, uint64_t start, uint64_t end);
/* Measurements.measure and measureIntended without a status
 * (READ-MODIFY-WRITE). */
void ycsb_meas_both(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname name,
		    uint64_t ist, uint64_t start, uint64_t end);
/* Measurements.measure only (VERIFY, SCAN-LATENCY-PER-RECORD): us at end. */
void ycsb_meas_value(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname name,
		     int32_t us, uint64_t end);
/* Measurements.reportStatus alone (VERIFY). */
void ycsb_meas_status(struct ycsb_wmeas *m, const struct ycsb_mconf *c, enum ycsb_mname name,
		      enum ycsb_st st, uint64_t end);

/* A measurement merged over the workers. */
struct ycsb_merged {
	bool present;
	uint64_t first_ns, first_seq;
	unsigned first_w;
	uint64_t *hdr;                 /* YCSB_HDR_LEN, hdr types */
	uint64_t *buckets, overflow;   /* histogram types */
	uint64_t count, sum;
	unsigned __int128 sumsq;
	int64_t min, max;
	uint64_t status[YS_COUNT];
	struct ycsb_point *pts;        /* raw, timeseries: sorted by time */
	size_t npts;
};
struct ycsb_result {
	struct ycsb_merged m[YCSB_MAPS][YM_COUNT];
	/* The names present in each map, in the order Java's ConcurrentHashMap
	 * iterates them (YCSB's export and summary order). */
	unsigned order[YCSB_MAPS][YM_COUNT], norder[YCSB_MAPS];
	uint64_t dropped;
	struct ycsb_point *all;        /* every worker's points, grouped by slot */
};
/* Merges the workers' measurements (after they ended); -1 when out of memory. */
int ycsb_meas_merge(struct ycsb_result *r, const struct ycsb_mconf *c, struct ycsb_wmeas *const *w,
		    unsigned nw);
void ycsb_result_free(struct ycsb_result *r);
/* The iteration order of Java 8's ConcurrentHashMap (default capacity,
 * resized at three quarters) after the keys names[0..n-1] (indices into
 * ycsb_mnames) were put in that order: fills out[0..n-1]. */
void ycsb_chm_order(const unsigned *names, unsigned n, unsigned *out);

/* The measurement name a map shows ("READ", "Intended-READ" with
 * interval both), with the measurementtype's prefix ("Hdr", "Bucket",
 * "Raw") for the two-in-one types. */
void ycsb_display_name(char *buf, size_t n, const struct ycsb_mconf *c, int map,
		       enum ycsb_mname name, const char *prefix);

/* ---- exporters (ycsb_export.c) ---- */

/* exporter: TextMeasurementsExporter, JSONMeasurementsExporter (one
 * object after another) or JSONArrayMeasurementsExporter (one array). */
enum ycsb_exporter_kind { YE_TEXT = 0, YE_JSON, YE_JSON_ARRAY };
struct ycsb_exporter {
	FILE *f;
	int kind;
	unsigned written;
};
void ycsb_exp_begin(struct ycsb_exporter *e, FILE *f, int kind);
void ycsb_exp_long(struct ycsb_exporter *e, const char *metric, const char *measurement, int64_t v);
void ycsb_exp_double(struct ycsb_exporter *e, const char *metric, const char *measurement,
		     double v);
void ycsb_exp_end(struct ycsb_exporter *e);

/* What an export shows beyond the measurements. */
struct ycsb_export_in {
	const struct ycsb_mconf *c;
	const struct ycsb_result *r;
	int64_t runtime_ms;
	uint64_t ops;             /* operations done: Throughput's */
	const double *pct;        /* hdrhistogram.percentiles */
	unsigned npct;
	bool verbose;             /* measurement.histogram.verbose */
	bool raw_no_summary;      /* measurement.raw.no_summary */
	uint64_t granularity_ms;  /* timeseries.granularity */
};
/* Client.exportMeasurements: [OVERALL], then every measurement. */
void ycsb_export(struct ycsb_exporter *e, const struct ycsb_export_in *in);
/* OneMeasurementRaw's lines of every raw measurement (its header and each
 * sample "NAME,ms,us"), which YCSB prints before the exporter's output. */
void ycsb_export_raw(FILE *f, const struct ycsb_export_in *in);
/* OneMeasurementRaw's notice at its creation, once per raw measurement
 * ("Raw data measurement: will output to stdout."). */
void ycsb_export_raw_notices(FILE *f, const struct ycsb_export_in *in, const char *file);

#endif
