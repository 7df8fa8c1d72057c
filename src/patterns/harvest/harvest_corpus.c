/* The harvest corpus: what the seed says about each record, its keys, and
 * its metadata payload filled from the templates in data/records/. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <xxhash.h>

#include "harvest.h"
#include "harvest_templates.h"

#define HV_STREAM UINT64_C(0x68617276) /* "harv": the corpus's rng stream */
#define NOTE_TEXT_MAX 400              /* generated words in one note element */
#define FIELD_MAX 160                  /* any other generated field */
#define NOTE_OPEN "<!--note-->"
#define NOTE_CLOSE "<!--/note-->"

static const char *const words[] = {
	"archive", "atlas",   "border",  "bridge",   "canal",   "census",  "chronicle", "coast",
	"colony",  "council", "diary",   "estate",   "famine",  "festival", "frontier", "garden",
	"harbour", "harvest", "history", "island",   "journal", "kingdom", "labour",    "ledger",
	"letters", "library", "manor",   "maps",     "market",  "memoir",  "mill",      "mission",
	"music",   "notes",   "orchard", "parish",   "press",   "railway", "records",   "reform",
	"river",   "road",    "school",  "science",  "sermons", "ships",   "songs",     "survey",
	"theatre", "trade",   "travels", "treaty",   "valley",  "village", "voyage",    "war",
	"weather", "women",   "workers", "year",     "youth",   "zone",    "account",   "study",
};
#define NWORDS (sizeof words / sizeof words[0])

static const char *const surnames[] = {
	"Abbott", "Baker", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad",
	"Ivanova", "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov",
};

void hv_put_be(unsigned char *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
}

uint64_t hv_get_be(const unsigned char *p, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

static bool split_template(struct hv_template *t, const char *text)
{
	const char *open = strstr(text, NOTE_OPEN), *close = open ? strstr(open, NOTE_CLOSE) : NULL;
	if (!close)
		return false;
	t->head = text;
	t->headlen = (size_t)(open - text);
	t->note = open + strlen(NOTE_OPEN);
	t->notelen = (size_t)(close - t->note);
	t->tail = close + strlen(NOTE_CLOSE);
	t->taillen = strlen(t->tail);
	return true;
}

bool hv_corpus_init(struct hv_corpus *c, const struct rpb_harvest_opts *o, uint64_t seed)
{
	memset(c, 0, sizeof *c);
	c->o = o;
	c->seed = seed;
	/* Every option that changes a record names a different corpus. */
	uint64_t id[8] = {seed, o->records, o->sets, 0, o->period, o->size_median, 0, o->format};
	memcpy(&id[3], &o->deleted, sizeof o->deleted);
	memcpy(&id[6], &o->size_sigma, sizeof o->size_sigma);
	snprintf(c->prefix, sizeof c->prefix, "hv%012" PRIx64 "/",
		 XXH64(id, sizeof id, 0) & UINT64_C(0xffffffffffff));
	c->size_cap = o->size_median * 16;
	return split_template(&c->tpl, o->format == RPB_HV_OAI_DC ? hv_template_oai_dc
								: hv_template_marc21);
}

/* A standard normal draw (Box-Muller; two uniform draws). */
static double normal(struct rpb_rng *rng)
{
	double u1 = rpb_rng_double(rng), u2 = rpb_rng_double(rng);
	return sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * M_PI * u2);
}

void hv_rec_attrs(const struct hv_corpus *c, uint64_t n, struct hv_rec *r, struct rpb_rng *rng)
{
	const struct rpb_harvest_opts *o = c->o;
	rpb_rng_seed(rng, c->seed, HV_STREAM, n);
	memset(r, 0, sizeof *r);
	r->n = n;
	r->ds = RPB_HV_EPOCH + (int64_t)rpb_rng_range(rng, 0, o->period * 86400);
	r->deleted = rpb_rng_double(rng) < o->deleted;
	unsigned want = 1 + (unsigned)rpb_rng_range(rng, 0, HV_MAX_SETS);
	if (want > o->sets)
		want = (unsigned)o->sets;
	/* Distinct sets: draw until want differ (few retries with many sets). */
	while (r->nsets < want) {
		uint16_t s = (uint16_t)(1 + rpb_rng_range(rng, 0, o->sets));
		unsigned at = 0;
		while (at < r->nsets && r->set[at] < s)
			at++;
		if (at < r->nsets && r->set[at] == s)
			continue;
		memmove(&r->set[at + 1], &r->set[at], (r->nsets - at) * sizeof r->set[0]);
		r->set[at] = s;
		r->nsets++;
	}
	double z = normal(rng);
	double size = (double)o->size_median * exp(o->size_sigma * z);
	if (size < 64)
		size = 64;
	if (size > (double)c->size_cap)
		size = (double)c->size_cap;
	r->size = r->deleted ? 0 : (uint64_t)size;
}

bool hv_rec_matches(const struct hv_rec *r, int64_t from_s, int64_t until_s, unsigned set)
{
	if (r->ds < from_s || r->ds > until_s)
		return false;
	if (!set)
		return true;
	for (unsigned i = 0; i < r->nsets; i++)
		if (r->set[i] == set)
			return true;
	return false;
}

size_t hv_payload_max(const struct hv_corpus *c)
{
	const struct hv_template *t = &c->tpl;
	/* The fixed parts with every placeholder filled, plus the largest
	 * target, plus one note element of overshoot. */
	return t->headlen + t->taillen + 16 * FIELD_MAX + c->size_cap + t->notelen + NOTE_TEXT_MAX;
}

/* Appends generated words (at least one) up to max bytes. */
static size_t put_words(char *p, size_t max, struct rpb_rng *rng, unsigned nwords, bool capital)
{
	size_t len = 0;
	for (unsigned i = 0; i < nwords; i++) {
		const char *w = words[rpb_rng_range(rng, 0, NWORDS)];
		size_t wl = strlen(w);
		if (len + wl + 1 > max)
			break;
		if (i)
			p[len++] = ' ';
		memcpy(p + len, w, wl);
		if (capital && i == 0)
			p[len] = (char)(p[len] - 'a' + 'A');
		len += wl;
	}
	return len;
}

struct fields {
	char id[24], stamp[24], year[8], creator[FIELD_MAX], title[FIELD_MAX], publisher[FIELD_MAX],
		subject[FIELD_MAX];
	char text[NOTE_TEXT_MAX + 1];
};

static void make_fields(struct fields *f, const struct hv_rec *r, struct rpb_rng *rng)
{
	snprintf(f->id, sizeof f->id, "%" PRIu64, r->n);
	time_t t = (time_t)r->ds;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(f->stamp, sizeof f->stamp, "%Y%m%d%H%M%S.0", &tm);
	snprintf(f->year, sizeof f->year, "%u", 1850 + (unsigned)rpb_rng_range(rng, 0, 170));
	size_t n = (size_t)snprintf(f->creator, sizeof f->creator, "%s, ",
				    surnames[rpb_rng_range(rng, 0, sizeof surnames / sizeof *surnames)]);
	f->creator[n + put_words(f->creator + n, sizeof f->creator - n - 1, rng, 1, true)] = '\0';
	f->title[put_words(f->title, sizeof f->title - 1, rng,
			   3 + (unsigned)rpb_rng_range(rng, 0, 6), true)] = '\0';
	n = put_words(f->publisher, sizeof f->publisher - 8, rng, 1, true);
	memcpy(f->publisher + n, " Press", 7);
	f->subject[put_words(f->subject, sizeof f->subject - 1, rng,
			     1 + (unsigned)rpb_rng_range(rng, 0, 3), true)] = '\0';
}

/* Copies template text, filling @NAME@ placeholders; returns the new length. */
static size_t fill(unsigned char *buf, size_t at, size_t cap, const char *t, size_t tlen,
		   const struct fields *f)
{
	static const struct {
		const char *name;
		size_t off;
	} ph[] = {
		{"@ID@", offsetof(struct fields, id)},
		{"@STAMP@", offsetof(struct fields, stamp)},
		{"@YEAR@", offsetof(struct fields, year)},
		{"@CREATOR@", offsetof(struct fields, creator)},
		{"@TITLE@", offsetof(struct fields, title)},
		{"@PUBLISHER@", offsetof(struct fields, publisher)},
		{"@SUBJECT@", offsetof(struct fields, subject)},
		{"@TEXT@", offsetof(struct fields, text)},
	};
	for (size_t i = 0; i < tlen && at < cap;) {
		if (t[i] == '@') {
			size_t k = 0;
			while (k < sizeof ph / sizeof ph[0] &&
			       strncmp(t + i, ph[k].name, strlen(ph[k].name)) != 0)
				k++;
			if (k < sizeof ph / sizeof ph[0]) {
				const char *v = (const char *)f + ph[k].off;
				size_t vl = strlen(v);
				if (vl > cap - at)
					vl = cap - at;
				memcpy(buf + at, v, vl);
				at += vl;
				i += strlen(ph[k].name);
				continue;
			}
		}
		buf[at++] = (unsigned char)t[i++];
	}
	return at;
}

size_t hv_payload(const struct hv_corpus *c, const struct hv_rec *r, struct rpb_rng *rng,
		  unsigned char *buf, size_t cap)
{
	if (r->deleted)
		return 0;
	const struct hv_template *t = &c->tpl;
	struct fields f;
	make_fields(&f, r, rng);
	size_t len = fill(buf, 0, cap, t->head, t->headlen, &f);
	/* Notes until the target size; each one's text sized to what is left. */
	while (len + t->taillen < r->size && len + t->notelen + NOTE_TEXT_MAX + t->taillen <= cap) {
		size_t want = r->size - len - t->taillen;
		size_t max = want < NOTE_TEXT_MAX ? (want > 8 ? want : 8) : NOTE_TEXT_MAX;
		f.text[put_words(f.text, max, rng, NOTE_TEXT_MAX, true)] = '\0';
		len = fill(buf, len, cap, t->note, t->notelen, &f);
	}
	return fill(buf, len, cap, t->tail, t->taillen, &f);
}

void hv_put_header(unsigned char *buf, const struct hv_rec *r)
{
	hv_put_be(buf, (uint64_t)r->ds, 8);
	buf[8] = r->deleted;
	buf[9] = (unsigned char)r->nsets;
	for (unsigned i = 0; i < HV_MAX_SETS; i++)
		hv_put_be(buf + 10 + 2 * i, i < r->nsets ? r->set[i] : 0, 2);
}

size_t hv_record(const struct hv_corpus *c, uint64_t n, struct hv_rec *r, unsigned char *buf,
		 size_t cap)
{
	struct rpb_rng rng;
	hv_rec_attrs(c, n, r, &rng);
	hv_put_header(buf, r);
	return HV_HDR + hv_payload(c, r, &rng, buf + HV_HDR, cap - HV_HDR);
}

bool hv_record_header(const unsigned char *v, size_t len, struct hv_rec *r)
{
	if (len < HV_HDR || v[9] > HV_MAX_SETS || v[8] > 1)
		return false;
	r->ds = (int64_t)hv_get_be(v, 8);
	r->deleted = v[8];
	r->nsets = v[9];
	for (unsigned i = 0; i < HV_MAX_SETS; i++)
		r->set[i] = (uint16_t)hv_get_be(v + 10 + 2 * i, 2);
	return true;
}

size_t hv_key_rec(const struct hv_corpus *c, unsigned char *k, uint64_t n)
{
	memcpy(k, c->prefix, HV_PREFIX_LEN);
	hv_put_be(k + HV_PREFIX_LEN, n, 8);
	return HV_REC_KEY;
}

size_t hv_key_ds(const struct hv_corpus *c, unsigned char *k, int64_t ds, uint64_t n)
{
	memcpy(k, c->prefix, HV_PREFIX_LEN);
	hv_put_be(k + HV_PREFIX_LEN, (uint64_t)ds, 8);
	hv_put_be(k + HV_PREFIX_LEN + 8, n, 8);
	return HV_DS_KEY;
}

size_t hv_key_set(const struct hv_corpus *c, unsigned char *k, unsigned set, int64_t ds,
		  uint64_t n)
{
	memcpy(k, c->prefix, HV_PREFIX_LEN);
	hv_put_be(k + HV_PREFIX_LEN, set, 2);
	hv_put_be(k + HV_PREFIX_LEN + 2, (uint64_t)ds, 8);
	hv_put_be(k + HV_PREFIX_LEN + 10, n, 8);
	return HV_SET_KEY;
}

size_t hv_key_meta(const struct hv_corpus *c, char *k)
{
	return (size_t)snprintf(k, HV_META_KEY_MAX, "harvest-corpus/%s", c->prefix);
}

void hv_iso(char *buf, size_t n, int64_t s)
{
	time_t t = (time_t)s;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
