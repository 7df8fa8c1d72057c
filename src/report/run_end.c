/* The end of a run as the report marks it (run_end.h). Every word of a mark
 * is rpbench's own: the stop reason and class are checked against the
 * known ones, the counts are numbers formatted here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "csv_read.h"
#include "run_end.h"
#include "runner.h"
#include "store.h"

#define U64_LIMIT 1.8e19 /* below 2^64: a larger count is no count to convert */

void rpb_thousands(char *buf, size_t n, unsigned long long v)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%llu", v);
	size_t k = 0;
	for (int i = 0; i < len && k + 1 < n; i++) {
		if (i && (len - i) % 3 == 0 && k + 2 < n)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k < n ? k : n - 1] = '\0';
}

/* The last row of intervals.csv; for a run without results also the sums
 * its figures come from. */
static void read_intervals(struct rpb_cmp_run *r)
{
	struct rpb_csv in;
	if (!rpb_csv_open_data(&in, r->dir, RPB_DATA_INTERVALS))
		return;
	int ct = rpb_csv_col(&in, "elapsed_s"), cs = rpb_csv_col(&in, "samples"),
	    ca = rpb_csv_col(&in, "acked"), cb = rpb_csv_col(&in, "store_bytes");
	double samples = 0, bytes = 0;
	while (ct >= 0 && rpb_csv_next_fit(&in, NULL)) { /* rows no figure uses: data_skips.c */
		double t = rpb_csv_num(&in, ct), a = rpb_csv_num(&in, ca), s = rpb_csv_num(&in, cs),
		       b = rpb_csv_num(&in, cb);
		if (isnan(t) || t < 0)
			continue;
		r->have_intervals = true;
		r->nintervals++;
		r->end_s = t > r->end_s ? t : r->end_s;
		if (!isnan(a) && a >= 0 && a < U64_LIMIT)
			r->end_acked = (uint64_t)a;
		samples += isnan(s) || s < 0 ? 0 : s;
		if (!isnan(b) && b > 0)
			bytes = b;
	}
	rpb_csv_close(&in);
	if (r->have_results || !r->have_intervals)
		return;
	/* Killed: what the intervals say up to the last one written. */
	if (r->end_s > 0) {
		r->have[RPB_M_ALL_THROUGHPUT] = true;
		r->v[RPB_M_ALL_THROUGHPUT] = samples / r->end_s;
	}
	r->have[RPB_M_ACKED] = true;
	r->v[RPB_M_ACKED] = (double)r->end_acked;
	r->acked = r->end_acked;
	if (bytes > 0) {
		r->have[RPB_M_STORE_BYTES] = true;
		r->v[RPB_M_STORE_BYTES] = bytes;
	}
}

/* A count of power_cut.verify, or -1 when it is not one. */
static double cut_count(const json_t *v, const char *key)
{
	const json_t *x = json_object_get(v, key);
	return json_is_integer(x) && json_integer_value(x) >= 0 ? (double)json_integer_value(x) : -1;
}

/* bench/quota-run's power cut (result.json's power_cut, written by verify
 * on the crash image): when, fsck's verdict, what verify found. Only words
 * and numbers rpbench writes are shown. */
static void power_cut_mark(struct rpb_cmp_run *r)
{
	static const char *const verdicts[] = {"clean", "journal-replayed", "repaired", "damaged"};
	const json_t *pc = json_object_get(r->root, "power_cut");
	const json_t *at = json_object_get(pc, "moment_s"), *v = json_object_get(pc, "verify");
	const char *fsck = json_string_value(json_object_get(pc, "fsck"));
	size_t k = 0;
	while (fsck && k < sizeof verdicts / sizeof *verdicts && strcmp(fsck, verdicts[k]))
		k++;
	if (!json_is_number(at) || json_number_value(at) < 0 || json_number_value(at) > 1e7)
		return;
	double checked = cut_count(v, "checked"), missing = cut_count(v, "missing");
	char counts[64] = "";
	if (checked >= 0 && missing >= 0)
		snprintf(counts, sizeof counts, ", verify %.0f checked, %.0f missing", checked, missing);
	snprintf(r->end_mark, sizeof r->end_mark, "power cut at t = %.1f s (fsck: %s%s)",
		 json_number_value(at), fsck && k < sizeof verdicts / sizeof *verdicts ? verdicts[k] : "?",
		 counts);
}

void rpb_run_end_read(struct rpb_cmp_run *r, const char *noun)
{
	read_intervals(r);
	r->end_mark[0] = '\0';
	const json_t *stop = json_object_get(r->root, "stop");
	const char *reason = json_string_value(json_object_get(stop, "reason"));
	const char *cls = json_string_value(json_object_get(stop, "class"));
	if (!reason || !rpb_stop_reason_known(reason) || !strcmp(reason, "completed") ||
	    !strcmp(reason, "duration") || !strcmp(reason, "bytes"))
		return;
	if (!strcmp(reason, "running")) {
		/* result.json as written at the start: the run was killed (or
		 * crashed) and only its live files tell how far it got. */
		snprintf(r->end_mark, sizeof r->end_mark, "killed: results up to t = %.*f s",
			 r->end_s < 10 ? 1 : 0, r->end_s);
		power_cut_mark(r);
		return;
	}
	char count[40], what[64];
	/* jansson directly, not compare.c's helpers: compare.c calls this file. */
	const json_t *acked = json_object_get(json_object_get(r->root, "totals"), "acked");
	rpb_thousands(count, sizeof count,
		      json_is_number(acked) && json_number_value(acked) >= 0 &&
				      json_number_value(acked) < U64_LIMIT
			      ? (unsigned long long)json_number_value(acked)
			      : (unsigned long long)r->end_acked);
	enum rpb_status st = cls ? rpb_status_parse(cls) : RPB_STATUS_COUNT;
	bool known = st != RPB_OK && st < RPB_STATUS_COUNT;
	if (!strcmp(reason, "signal")) {
		double sig = json_number_value(json_object_get(stop, "native"));
		snprintf(what, sizeof what, "stopped by %s", sig == 15 ? "SIGTERM" : "SIGINT");
	} else if (!strcmp(reason, "slow"))
		snprintf(what, sizeof what, "max_slow reached");
	else if (known && !strcmp(cls, "disk-full"))
		snprintf(what, sizeof what, "disk full");
	else if (known && !strcmp(cls, "txn-timeout"))
		snprintf(what, sizeof what, "transaction timeout");
	else if (known && !strcmp(cls, "conn-lost"))
		snprintf(what, sizeof what, "connection lost");
	else
		snprintf(what, sizeof what, "%s%s", known ? "error " : "ended on an error",
			 known ? cls : "");
	snprintf(r->end_mark, sizeof r->end_mark, "%s after %s %s", what, count, noun);
}
