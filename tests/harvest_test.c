/* Unit tests of the harvest pattern's parts: resumption tokens (round trip,
 * and every way a token can be spoiled refused with badResumptionToken),
 * the memcmp order of the index keys, and the corpus generator (records
 * deterministic, sets distinct, payload sizes, no unfilled placeholder). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "harvest.h"

static const struct hv_token sample = {
	.strategy = RPB_HV_KEYSET,
	.set = 7,
	.page = 81851,
	.from_s = RPB_HV_EPOCH,
	.until_s = RPB_HV_EPOCH + 365 * 86400 - 1,
	.last_ds = RPB_HV_EPOCH + 12345678,
	.last_n = 8199999,
	.harvest = (UINT64_C(3) << 40) | 17,
};

static void assert_refused(const char *tok, size_t len, uint64_t key, const char *why)
{
	struct hv_token t;
	struct rpb_err err = {0};
	cr_assert_eq(hv_token_decode(tok, len, key, &t, &err), RPB_INVALID, "accepted: %.*s", (int)len,
		     tok);
	cr_assert_eq(err.status, RPB_INVALID);
	cr_assert(strncmp(err.msg, "badResumptionToken: ", 20) == 0, "message: %s", err.msg);
	if (why)
		cr_assert(strstr(err.msg, why), "'%s' lacks '%s'", err.msg, why);
}

Test(harvest_token, round_trip)
{
	uint64_t key = hv_token_key("0a1b2c3d");
	char tok[HV_TOKEN_CHARS + 1];
	hv_token_encode(&sample, key, tok);
	cr_assert_eq(strlen(tok), HV_TOKEN_CHARS);
	cr_assert_eq(strspn(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
		     HV_TOKEN_CHARS, "base64url only: %s", tok);
	struct hv_token t;
	struct rpb_err err = {0};
	cr_assert_eq(hv_token_decode(tok, strlen(tok), key, &t, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(t.strategy, sample.strategy);
	cr_assert_eq(t.set, sample.set);
	cr_assert_eq(t.page, sample.page);
	cr_assert_eq(t.from_s, sample.from_s);
	cr_assert_eq(t.until_s, sample.until_s);
	cr_assert_eq(t.last_ds, sample.last_ds);
	cr_assert_eq(t.last_n, sample.last_n);
	cr_assert_eq(t.harvest, sample.harvest);
}

Test(harvest_token, every_altered_character_is_refused)
{
	uint64_t key = hv_token_key("0a1b2c3d");
	char tok[HV_TOKEN_CHARS + 1];
	hv_token_encode(&sample, key, tok);
	for (size_t i = 0; i < HV_TOKEN_CHARS; i++) {
		char bad[HV_TOKEN_CHARS + 1];
		memcpy(bad, tok, sizeof bad);
		bad[i] = bad[i] == 'A' ? 'B' : 'A';
		assert_refused(bad, HV_TOKEN_CHARS, key, NULL);
	}
}

Test(harvest_token, altered_state_reports_checksum)
{
	uint64_t key = hv_token_key("0a1b2c3d");
	char tok[HV_TOKEN_CHARS + 1];
	hv_token_encode(&sample, key, tok);
	tok[30] = tok[30] == 'A' ? 'B' : 'A'; /* inside the until field */
	assert_refused(tok, HV_TOKEN_CHARS, key, "checksum mismatch");
}

Test(harvest_token, truncated_and_extended_are_refused)
{
	uint64_t key = hv_token_key("0a1b2c3d");
	char tok[HV_TOKEN_CHARS + 2];
	hv_token_encode(&sample, key, tok);
	for (size_t len = 0; len < HV_TOKEN_CHARS; len++)
		assert_refused(tok, len, key, "truncated");
	tok[HV_TOKEN_CHARS] = 'A';
	tok[HV_TOKEN_CHARS + 1] = '\0';
	assert_refused(tok, HV_TOKEN_CHARS + 1, key, "extended");
}

Test(harvest_token, foreign_run_is_refused)
{
	char tok[HV_TOKEN_CHARS + 1];
	hv_token_encode(&sample, hv_token_key("0a1b2c3d"), tok);
	assert_refused(tok, HV_TOKEN_CHARS, hv_token_key("ffff0000"), "another run");
}

Test(harvest_token, garbage_is_refused)
{
	uint64_t key = hv_token_key("0a1b2c3d");
	char junk[HV_TOKEN_CHARS + 1];
	memset(junk, '!', HV_TOKEN_CHARS);
	junk[HV_TOKEN_CHARS] = '\0';
	assert_refused(junk, HV_TOKEN_CHARS, key, "not base64url at character 1");
	memset(junk, 'A', HV_TOKEN_CHARS); /* well-formed base64url, all zero bytes */
	assert_refused(junk, HV_TOKEN_CHARS, key, NULL);
	assert_refused("", 0, key, NULL);
}

/* ---- keys ---- */

static struct rpb_harvest_opts opts(void)
{
	struct rpb_job job;
	rpb_job_defaults(&job);
	char msg[256];
	cr_assert_eq(rpb_job_choose(&job, rpb_pattern_find("harvest"), msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	struct rpb_harvest_opts o = *hv_opts(&job);
	rpb_job_free(&job);
	return o;
}

static int cmp3(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t b0, uint64_t b1, uint64_t b2)
{
	if (a0 != b0)
		return a0 < b0 ? -1 : 1;
	if (a1 != b1)
		return a1 < b1 ? -1 : 1;
	return a2 < b2 ? -1 : a2 > b2;
}

static int sgn(int v)
{
	return (v > 0) - (v < 0);
}

Test(harvest_keys, memcmp_order_is_numeric_order)
{
	struct rpb_harvest_opts o = opts();
	struct hv_corpus c;
	cr_assert(hv_corpus_init(&c, &o, 42));
	struct rpb_rng rng;
	rpb_rng_seed(&rng, 1, 2, 3);
	/* Values across byte boundaries, where text order and numeric differ. */
	static const uint64_t edge[] = {0, 1, 255, 256, 65535, 65536, 9, 10, 99, 100};
	for (int i = 0; i < 20000; i++) {
		uint64_t a[3], b[3];
		for (int k = 0; k < 3; k++) {
			a[k] = i % 3 ? rpb_rng_range(&rng, 0, UINT64_C(1) << 40) : edge[rpb_rng_range(&rng, 0, 10)];
			b[k] = i % 5 ? rpb_rng_range(&rng, 0, UINT64_C(1) << 40) : edge[rpb_rng_range(&rng, 0, 10)];
		}
		a[0] &= 0xffff, b[0] &= 0xffff;
		unsigned char ka[HV_SET_KEY], kb[HV_SET_KEY];
		size_t la = hv_key_ds(&c, ka, (int64_t)a[1], a[2]), lb = hv_key_ds(&c, kb, (int64_t)b[1], b[2]);
		cr_assert_eq(la, lb);
		cr_assert_eq(sgn(memcmp(ka, kb, la)), cmp3(0, a[1], a[2], 0, b[1], b[2]));
		la = hv_key_set(&c, ka, (unsigned)a[0], (int64_t)a[1], a[2]);
		lb = hv_key_set(&c, kb, (unsigned)b[0], (int64_t)b[1], b[2]);
		cr_assert_eq(sgn(memcmp(ka, kb, la)), cmp3(a[0], a[1], a[2], b[0], b[1], b[2]));
		la = hv_key_rec(&c, ka, a[2]);
		lb = hv_key_rec(&c, kb, b[2]);
		cr_assert_eq(sgn(memcmp(ka, kb, la)), cmp3(0, 0, a[2], 0, 0, b[2]));
	}
}

Test(harvest_keys, corpus_prefix_names_the_corpus)
{
	struct rpb_harvest_opts o = opts();
	struct hv_corpus a, b;
	cr_assert(hv_corpus_init(&a, &o, 42));
	cr_assert(hv_corpus_init(&b, &o, 42));
	cr_assert_str_eq(a.prefix, b.prefix);
	cr_assert_eq(strlen(a.prefix), HV_PREFIX_LEN);
	o.records++;
	cr_assert(hv_corpus_init(&b, &o, 42));
	cr_assert_str_neq(a.prefix, b.prefix, "another corpus size is another corpus");
	o.records--;
	cr_assert(hv_corpus_init(&b, &o, 43));
	cr_assert_str_neq(a.prefix, b.prefix, "another seed is another corpus");
}

/* ---- the corpus ---- */

static void check_records(enum rpb_hv_format format)
{
	struct rpb_harvest_opts o = opts();
	o.format = format;
	o.deleted = 0.2;
	struct hv_corpus c;
	cr_assert(hv_corpus_init(&c, &o, 7));
	size_t cap = HV_HDR + hv_payload_max(&c);
	unsigned char *a = malloc(cap), *b = malloc(cap);
	cr_assert(a && b);
	unsigned deleted = 0;
	for (uint64_t n = 0; n < 2000; n++) {
		struct hv_rec r, r2, h;
		size_t la = hv_record(&c, n, &r, a, cap), lb = hv_record(&c, n, &r2, b, cap);
		cr_assert_eq(la, lb);
		cr_assert_eq(memcmp(a, b, la), 0, "record %lu is not deterministic", (unsigned long)n);
		cr_assert(hv_record_header(a, la, &h));
		cr_assert_eq(h.ds, r.ds);
		cr_assert_eq(h.deleted, r.deleted);
		cr_assert_eq(h.nsets, r.nsets);
		cr_assert(r.ds >= RPB_HV_EPOCH && r.ds < RPB_HV_EPOCH + (int64_t)o.period * 86400);
		cr_assert(r.nsets >= 1 && r.nsets <= 3);
		for (unsigned k = 0; k < r.nsets; k++) {
			cr_assert(r.set[k] >= 1 && r.set[k] <= o.sets);
			cr_assert(k == 0 || r.set[k - 1] < r.set[k], "sets distinct and ascending");
		}
		if (r.deleted) {
			deleted++;
			cr_assert_eq(la, HV_HDR, "a tombstone has no payload");
			continue;
		}
		size_t plen = la - HV_HDR;
		/* At the target (the tail's placeholders may shorten it by a few
		 * bytes), or above it when the filled template alone is larger. */
		cr_assert(plen + 32 >= r.size, "payload %zu below its target %lu", plen,
			  (unsigned long)r.size);
		cr_assert(plen <= r.size + 2048, "payload %zu far above its target %lu", plen,
			  (unsigned long)r.size);
		cr_assert_null(memchr(a + HV_HDR, '@', plen), "an unfilled placeholder in record %lu",
			       (unsigned long)n);
	}
	cr_assert(deleted > 300 && deleted < 500, "deleted = 0.2 of 2000 gave %u", deleted);
	free(a);
	free(b);
}

Test(harvest_corpus, marc21_records)
{
	check_records(RPB_HV_MARC21);
}

Test(harvest_corpus, oai_dc_records)
{
	check_records(RPB_HV_OAI_DC);
}

Test(harvest_corpus, matches_range_and_set)
{
	struct hv_rec r = {.ds = 1000, .nsets = 2, .set = {3, 9}};
	cr_assert(hv_rec_matches(&r, 1000, 1000, 0));
	cr_assert(hv_rec_matches(&r, 0, 2000, 9));
	cr_assert_not(hv_rec_matches(&r, 0, 2000, 4));
	cr_assert_not(hv_rec_matches(&r, 1001, 2000, 0));
	cr_assert_not(hv_rec_matches(&r, 0, 999, 3));
}

Test(harvest_options, from_until_and_set_are_checked)
{
	struct rpb_job job;
	char msg[512];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_choose(&job, rpb_pattern_find("harvest"), msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_set(&job, "harvest.from=2020-02-01", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_set(&job, "harvest.until=40", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(hv_opts(&job)->from_s, RPB_HV_EPOCH + 31 * 86400);
	cr_assert_eq(hv_opts(&job)->until_s, RPB_HV_EPOCH + 41 * 86400 - 1);
	cr_assert_eq(rpb_job_set(&job, "harvest.until=2020-01-15", msg, sizeof msg), 0, "%s", msg);
	cr_assert_neq(rpb_job_finish(&job, msg, sizeof msg), 0);
	cr_assert(strstr(msg, "from = 2020-02-01 is after until"), "%s", msg);
	cr_assert_eq(rpb_job_set(&job, "harvest.until=soon", msg, sizeof msg), 0, "%s", msg);
	cr_assert_neq(rpb_job_finish(&job, msg, sizeof msg), 0);
	cr_assert(strstr(msg, "until = soon is invalid"), "%s", msg);
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_choose(&job, rpb_pattern_find("harvest"), msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_set(&job, "harvest.set=11", msg, sizeof msg), 0, "%s", msg);
	cr_assert_neq(rpb_job_finish(&job, msg, sizeof msg), 0);
	cr_assert(strstr(msg, "set = 11 is beyond sets = 10"), "%s", msg);
	rpb_job_free(&job);
}

/* Whether harvest takes the date as from (and as until), and the day it is. */
static bool date_ok(const char *date, int64_t *day)
{
	struct rpb_job job;
	char msg[512], a[64];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_choose(&job, rpb_pattern_find("harvest"), msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_set(&job, "harvest.period=36500", msg, sizeof msg), 0, "%s", msg);
	snprintf(a, sizeof a, "harvest.from=%s", date);
	cr_assert_eq(rpb_job_set(&job, a, msg, sizeof msg), 0, "%s", msg);
	bool ok = rpb_job_finish(&job, msg, sizeof msg) == 0;
	if (ok)
		*day = (hv_opts(&job)->from_s - RPB_HV_EPOCH) / 86400;
	else
		cr_assert(strstr(msg, "from = ") && strstr(msg, " is invalid; give a day offset in "
							       "[0, 36500] or a calendar date"), "%s", msg);
	rpb_job_free(&job);
	return ok;
}

/* from and until are days of the civil calendar: every month has its own
 * length, February 29 only in leap years (divisible by 4, centuries only by
 * 400). */
Test(harvest_options, dates_exist_in_the_calendar)
{
	static const char *const impossible[] = {
		"2020-02-30", "2020-02-31", "2021-02-29", "2100-02-29", "2020-04-31", "2020-06-31",
		"2020-09-31", "2020-11-31", "2020-13-01", "2020-00-10", "2020-01-00", "2020-01-32",
	};
	int64_t day;
	for (size_t i = 0; i < sizeof impossible / sizeof impossible[0]; i++)
		cr_assert_not(date_ok(impossible[i], &day), "%s was taken", impossible[i]);
	static const struct { const char *date; int64_t day; } real[] = {
		{"2020-01-01", 0},    {"2020-02-29", 59},   {"2020-03-01", 60},   {"2020-12-31", 365},
		{"2021-02-28", 424},  {"2021-03-01", 425},  {"2024-02-29", 1520}, {"2000-02-29", -7246},
		{"2020-04-30", 120},  {"2099-12-31", 29219},
	};
	for (size_t i = 0; i < sizeof real / sizeof real[0]; i++) {
		cr_assert(date_ok(real[i].date, &day), "%s was refused", real[i].date);
		cr_assert_eq(day, real[i].day, "%s is day %lld, not %lld", real[i].date, (long long)day,
			     (long long)real[i].day);
	}
}

/* Writer operations: deterministic, each writer updating only the records it
 * owns, creates beyond the corpus with distinct ids, every datestamp past
 * the corpus and distinct. */
Test(harvest_write, ops_are_deterministic_and_partitioned)
{
	struct rpb_harvest_opts o = {.records = 1000, .sets = 10, .deleted = 0.05, .period = 365,
				     .size_median = 512, .size_sigma = 0.5, .page_size = 100,
				     .writers = 3, .until_s = RPB_HV_EPOCH + 40000 * INT64_C(86400)};
	struct hv_corpus c;
	cr_assert(hv_corpus_init(&c, &o, 42));
	cr_assert_eq(hv_harvest_until(&o), hv_write_base(&o) - 1, "until capped at the corpus end");
	unsigned creates = 0, updates = 0;
	int64_t last_ds = 0;
	for (uint64_t i = 0; i < 200; i++)
		for (unsigned k = 0; k < 3; k++) {
			struct hv_write a, b;
			hv_write_op(&c, k, i, &a);
			hv_write_op(&c, k, i, &b);
			cr_assert(a.create == b.create && a.n == b.n && a.ds == b.ds);
			cr_assert_gt(a.ds, last_ds, "datestamps must increase with i * writers + k");
			cr_assert_geq(a.ds, hv_write_base(&o));
			last_ds = a.ds;
			if (a.create) {
				creates++;
				cr_assert_eq(a.n, o.records + i * 3 + k);
			} else {
				updates++;
				cr_assert_lt(a.n, o.records);
				cr_assert_eq(a.n % 3, k, "writer %u updated a record it does not own", k);
			}
		}
	cr_assert(creates > 60 && updates > 300, "%u creates, %u updates", creates, updates);
}

Test(harvest_write, update_keeps_sets_and_changes_content)
{
	struct rpb_harvest_opts o = {.records = 1000, .sets = 10, .deleted = 0.5, .period = 365,
				     .size_median = 512, .size_sigma = 0.5, .page_size = 100,
				     .writers = 2};
	struct hv_corpus c;
	cr_assert(hv_corpus_init(&c, &o, 42));
	size_t cap = HV_HDR + hv_payload_max(&c);
	unsigned char *before = malloc(cap), *after = malloc(cap);
	cr_assert(before && after);
	for (uint64_t i = 0; i < 50; i++) {
		struct hv_write op;
		hv_write_op(&c, 1, i, &op);
		if (op.create)
			continue;
		struct hv_rec r0, r1, h;
		size_t l0 = hv_record(&c, op.n, &r0, before, cap);
		size_t l1 = hv_write_record(&c, &op, &r1, after, cap);
		cr_assert(hv_record_header(after, l1, &h));
		cr_assert_eq(h.ds, op.ds);
		cr_assert(!h.deleted, "an update makes a live record");
		cr_assert_eq(h.nsets, r0.nsets);
		cr_assert(memcmp(h.set, r0.set, sizeof h.set) == 0, "an update keeps the sets");
		cr_assert(l1 > HV_HDR);
		cr_assert(l0 != l1 || memcmp(before + HV_HDR, after + HV_HDR, l0 - HV_HDR) != 0,
			  "oai:rpbench:%llu: the update did not change the content",
			  (unsigned long long)op.n);
	}
	free(before);
	free(after);
}
