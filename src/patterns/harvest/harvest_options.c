/* The [harvest] section: FOLIO's harvest knobs, the corpus, and the rules
 * that resolve the date bounds. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harvest.h"

#define HV(f) offsetof(struct rpb_harvest_opts, f)

static const char *const hv_format_names[] = {"marc21", "oai_dc", NULL};
static const char *const hv_token_names[] = {"keyset", "snapshot", NULL};
static const char *const hv_build_names[] = {"sync", "background", NULL};
static const char *const hv_bad_names[] = {"off", "tamper", "truncate", "foreign", "garbage", NULL};
_Static_assert(sizeof(enum rpb_hv_format) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_hv_token) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_hv_build) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_hv_bad) == sizeof(unsigned), "enum size");

const struct rpb_optdef harvest_options[] = {
	{ .key = "records", .type = RPB_OPT_COUNT, .dflt = "20000",
	  .umin = 1, .umax = 1000000000, .off = HV(records),
	  .help = "corpus size in records (each harvester keeps a bitmap of records/8 bytes)" },
	{ .key = "sets", .type = RPB_OPT_COUNT, .dflt = "10",
	  .umin = 1, .umax = 65535, .off = HV(sets),
	  .help = "number of OAI sets; each record is in 1 to 3 of them" },
	{ .key = "deleted", .type = RPB_OPT_DOUBLE, .dflt = "0.05",
	  .dmin = 0, .dmax = 1, .off = HV(deleted),
	  .help = "fraction of records kept as tombstones (header status=deleted)" },
	{ .key = "period", .type = RPB_OPT_COUNT, .dflt = "365",
	  .umin = 1, .umax = 36500, .off = HV(period),
	  .help = "datestamps spread over this many days from 2020-01-01 (day 0)" },
	{ .key = "size_median", .type = RPB_OPT_SIZE, .dflt = "2k",
	  .umin = 64, .umax = UINT64_C(1) << 20, .off = HV(size_median),
	  .help = "median metadata payload bytes (log-normal around it)" },
	{ .key = "size_sigma", .type = RPB_OPT_DOUBLE, .dflt = "0.5",
	  .dmin = 0, .dmax = 3, .off = HV(size_sigma),
	  .help = "sigma of the log-normal payload size; 0 = every payload near size_median" },
	{ .key = "format", .type = RPB_OPT_ENUM, .dflt = "marc21",
	  .choices = hv_format_names, .off = HV(format),
	  .help = "metadataPrefix of the corpus: MARCXML or Dublin Core (data/records/)" },
	{ .key = "page_size", .type = RPB_OPT_COUNT, .dflt = "100",
	  .umin = 1, .umax = 10000, .off = HV(page_size),
	  .help = "records per response (FOLIO's maxRecordsPerResponse)" },
	{ .key = "from", .type = RPB_OPT_STRING, .dflt = "",
	  .umax = RPB_HV_DATE_MAX, .off = HV(from),
	  .help = "harvest from this day: an offset into the period (0 = 2020-01-01) or YYYY-MM-DD; "
		  "empty = the earliest record" },
	{ .key = "until", .type = RPB_OPT_STRING, .dflt = "",
	  .umax = RPB_HV_DATE_MAX, .off = HV(until),
	  .help = "harvest until this day, inclusive (same forms as from); empty = the latest" },
	{ .key = "set", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = 65535, .off = HV(set),
	  .help = "harvest only this set (1 to sets); 0 = every record" },
	{ .key = "token", .type = RPB_OPT_ENUM, .dflt = "keyset",
	  .choices = hv_token_names, .off = HV(token),
	  .help = "resumption strategy: keyset (the token holds the last datestamp and id) or "
		  "snapshot (ids copied into a per-harvest table at the start, paged by position)" },
	{ .key = "snapshot_build", .type = RPB_OPT_ENUM, .dflt = "sync",
	  .choices = hv_build_names, .off = HV(snapshot_build),
	  .help = "token = snapshot: sync copies the ids inside the harvest's first request; "
		  "background has a worker per harvester copy them in transactions of 1000 while "
		  "requests are answered from what has arrived (a request waits at the fill frontier)" },
	{ .key = "reuse", .type = RPB_OPT_BOOL, .dflt = "off",
	  .off = HV(reuse),
	  .help = "on: harvest the corpus already in the store (same seed and corpus options) "
		  "without reloading it" },
	{ .key = "load_batch", .type = RPB_OPT_COUNT, .dflt = "1000",
	  .umin = 1, .umax = 1000000, .off = HV(load_batch),
	  .help = "records per load transaction" },
	{ .key = "bad_token", .type = RPB_OPT_ENUM, .dflt = "off",
	  .choices = hv_bad_names, .off = HV(bad_token),
	  .help = "test aid: thread 0's second request sends a spoiled resumption token" },
	{ .key = "writers", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = 64, .off = HV(writers),
	  .help = "workers beside the harvesters that create and update records while they "
		  "harvest, one record per transaction; they stop when the harvesters are done" },
	{ .key = "writer_rate", .type = RPB_OPT_DOUBLE, .dflt = "0",
	  .dmin = 0, .dmax = 1e6, .off = HV(writer_rate),
	  .help = "operations per second of each writer; 0 = as fast as it can" },
	{ .key = "writer_lead", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = 1000000, .off = HV(writer_lead),
	  .help = "test aid: the harvesters send their first request once the writers have "
		  "finished this many operations in all, so every harvest meets their writes" },
	{ .key = NULL },
};

/* Days in month m of year y in the civil (proleptic Gregorian) calendar. */
static int days_in_month(int y, int m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : days[m - 1];
}

/* A harvest day bound: a day offset into the corpus period, or an ISO
 * date YYYY-MM-DD that exists in the calendar (days counted from
 * 2020-01-01, day 0). */
static bool hv_parse_day(const char *s, int64_t *day)
{
	int y, m, d, len = 0;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &len) == 3 && len == 10 && (size_t)len == strlen(s)) {
		if (m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
			return false;
		/* Days from the civil date (proleptic Gregorian, March-based year). */
		int64_t yy = y - (m <= 2), era = (yy >= 0 ? yy : yy - 399) / 400;
		int64_t yoe = yy - era * 400, mp = (m + 9) % 12;
		int64_t doy = (153 * mp + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
		*day = era * 146097 + doe - 719468 - RPB_HV_EPOCH / 86400;
		return true;
	}
	uint64_t v;
	if (!rpb_parse_u64(s, &v) || v > 36500)
		return false;
	*day = (int64_t)v;
	return true;
}

int harvest_finish(void *config, const struct rpb_job *job, const char *where, char *msg,
		  size_t n)
{
	(void)job;
	struct rpb_harvest_opts *h = config;
	int64_t from = 0, until = (int64_t)h->period - 1;
	const char *bad = h->from[0] && !hv_parse_day(h->from, &from)	  ? "from"
			  : h->until[0] && !hv_parse_day(h->until, &until) ? "until"
									   : NULL;
	if (bad) {
		snprintf(msg, n, "%s[harvest] %s = %s is invalid; give a day offset in [0, 36500] or a "
			 "calendar date YYYY-MM-DD", where, bad, bad[0] == 'f' ? h->from : h->until);
		return -1;
	}
	if (from > until && !h->until[0]) {
		snprintf(msg, n, "%s[harvest] from = %s is after the corpus's last day (until is not "
			 "set: day %" PRId64 ", the last of period = %" PRIu64 "); give an earlier from, "
			 "or a longer period", where, h->from, until, (uint64_t)h->period);
		return -1;
	}
	if (from > until) {
		snprintf(msg, n, "%s[harvest] from = %s is after until = %s; give from <= until", where,
			 h->from, h->until);
		return -1;
	}
	if (h->snapshot_build == RPB_HV_BUILD_BACKGROUND && h->token != RPB_HV_SNAPSHOT) {
		snprintf(msg, n, "%s[harvest] snapshot_build = background needs token = snapshot; set "
			 "token = snapshot or snapshot_build = sync", where);
		return -1;
	}
	if (h->set > h->sets) {
		snprintf(msg, n, "%s[harvest] set = %" PRIu64 " is beyond sets = %" PRIu64
			 "; give a set in [1, %" PRIu64 "] or 0 for every record",
			 where, h->set, h->sets, h->sets);
		return -1;
	}
	h->from_s = RPB_HV_EPOCH + from * 86400;
	h->until_s = RPB_HV_EPOCH + until * 86400 + 86399;
	return 0;
}
