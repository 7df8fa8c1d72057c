/* Output while a run goes on: JMeter summariser lines on stdout, one row per
 * interval in intervals.csv, and samples.jtl rows. */
#ifndef RPB_PROGRESS_H
#define RPB_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "dist.h"
#include "hist.h"
#include "runner.h"

struct rpb_progress {
	FILE *csv;                  /* intervals.csv or NULL */
	struct rpb_hist_snap *prev; /* all labels merged at the previous tick */
	struct rpb_hist_snap *cur;
	uint64_t prev_t, prev_errors;
	size_t gauge_cols;          /* the backend's gauges, one column each */
	/* Several ranks: every rank's samples at the previous tick, and the
	 * extremes so far, for rank 0's merged lines (dist.h). */
	struct rpb_dist_state dist_prev;
	uint64_t dist_min, dist_max;
	double dist_dt, dist_total; /* this tick's interval and time so far (s) */
	/* The store's size at the last RPB_GROWTH_TICKS ticks, oldest first,
	 * for the disk-full estimate; the threads' operations started at the
	 * previous tick, for the open model's rate. */
	double grow_t[5];
	uint64_t grow_bytes[5];
	unsigned grow_n;
	uint64_t prev_issued;
};
#define RPB_GROWTH_TICKS 5

/* Minutes until free bytes are gone at the store's growth over the n
 * readings (t in s, oldest first): -1 before 4 readings (not yet
 * meaningful), 0 when it does not grow (-2 then, to tell it apart). */
double rpb_disk_full_minutes(const double *t, const uint64_t *bytes, unsigned n, uint64_t free);
/* "; stored 1,412 objects, store 5.5 MiB, 12.3 GiB free, disk full in ~34 min"
 * (objects < 0: not counted; have_free false: a server's store, no free
 * space or estimate). */
void rpb_store_part(char *buf, size_t n, int64_t objects, uint64_t store, bool have_free,
		    uint64_t free, double minutes);
/* The open model's warning, or "" when the interval kept up: over dt s the
 * threads started started operations, asked rate/s; judged only over 10
 * operations asked or more. */
void rpb_behind_line(char *buf, size_t n, uint64_t started, double dt, double rate);

/* Opens intervals.csv, whose header has a gauge_<name> column for each
 * gauge the backend has answered with so far (read once before the
 * workers start). */
void rpb_progress_init(struct rpb_progress *pg, struct rpb_runner *rn);
/* Prints "summary +" (the interval), "summary =" (so far) and, when the
 * backend has gauge readings, "gauges: NAME VALUE, ..." (the latest), and
 * writes an intervals.csv row (the gauges' latest readings in their columns); final marks the last call, at the end of the
 * run (only its "summary +" line). */
void rpb_progress_tick(struct rpb_progress *pg, struct rpb_runner *rn, bool final);
void rpb_progress_fini(struct rpb_progress *pg);
/* Flushes stdout; true when it has gone away (a closed pipe: EPIPE, with
 * SIGPIPE ignored). The caller then stops printing (sets rn->quiet): the
 * run goes on, its result files are the record. */
bool rpb_stdout_lost(void);

/* Formats one JMeter summariser line ("summary +" or "summary ="), without
 * the Active/Started/Finished tail when active < 0. */
void rpb_summary_line(char *buf, size_t n, char sign, const struct rpb_hist_snap *s,
		      uint64_t errors, double seconds, int active, int started, int finished);
/* rpbench's own line after JMeter's (which keep whole seconds and ms, as
 * JMeter's parsers read them): "progress: interval 0.100 s, elapsed
 * 1.300 s; Avg: 41.2 Min: 12.0 Max: 1203.5 us; 47.1% done, ETA 2.4 s"
 * (s: the interval's samples; done < 0: no limit to measure against, no
 * share or ETA; eta < 0: not known yet, "—"). */
void rpb_precise_line(char *buf, size_t n, const struct rpb_hist_snap *s, double dt,
		      double elapsed, double done, double eta);
/* When the run will stop, for the header line: "stops after 60 s or
 * 1000 ops per thread, or on an error or a signal"; with no limit, "stops
 * when the pattern's work is done, on an error or a signal". */
void rpb_run_until(char *buf, size_t n, const struct rpb_run_opts *run);
/* Formats seconds as JMeter does: hh:mm:ss. */
void rpb_hms(char *buf, size_t n, double seconds);

/* The JTL header line, in JMeter's default CSV column order: JMeter 5.x's
 * default set, less sentBytes for RPB_JTL_2_13 (JMeter 2.13 refuses a
 * header with a column it does not know). */
const char *rpb_jtl_header(enum rpb_jtl_columns cols);
/* The same with JMeter's Hostname column (after Latency), for a run of
 * several ranks (rn->jtl_host set): one samples.jtl per rank. */
const char *rpb_jtl_header_host(enum rpb_jtl_columns cols);
/* The header's last column with jtl_us = on: quoted, so JMeter's CSV reader
 * takes it for a sample variable's and loads the file (an unquoted name it
 * does not know makes it read the header as a sample, and fail). */
#define RPB_JTL_US_COLUMN ",\"elapsed_us\""
/* The end-of-run line when most of samples.jtl's elapsed values are 0 ms
 * and jtl_us is off, into buf; false when none is due. */
bool rpb_jtl_zero_warning(const struct rpb_runner *rn, char *buf, size_t n);
/* Writes one samples.jtl row (err of a successful sample: the pattern's
 * note for responseMessage, or NULL for "OK") (worker thread; the FILE's own lock orders rows). */
void rpb_jtl_row(struct rpb_worker *w, unsigned label, uint64_t end_ns, uint64_t lat_ns,
		 enum rpb_status st, bool failed, uint64_t bytes, const struct rpb_err *err);

/* Sums every label of every worker into out (raw: warm-up included). */
void rpb_merge_all(struct rpb_runner *rn, struct rpb_hist_snap *out, struct rpb_hist_snap *tmp);
/* Errors of every class, summed over workers. */
uint64_t rpb_total_errors(struct rpb_runner *rn);

#endif
