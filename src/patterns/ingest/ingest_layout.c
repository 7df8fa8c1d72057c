/* The ingest pattern's layout, shared by the run (ingest.c) and verify
 * (ingest_verify.c) so both agree byte for byte: keys, the regeneration of
 * an object's content, and the description record (ingest.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "fmt.h"
#include "ingest.h"
#include "payload.h"
#include "rng.h"

/* "<kind>/<tag>/<thread %04u>/<n %012>": the run tag is at most 15 bytes
 * and the numbers at most 20 digits, so this fits INGEST_KEY_MAX. */
static size_t thread_key(char *buf, char kind, const char *tag, unsigned thread, uint64_t n)
{
	char *p = buf;
	*p++ = kind;
	*p++ = '/';
	p = rpb_fmt_str(p, tag);
	*p++ = '/';
	p = rpb_fmt_u64(p, thread, 4);
	*p++ = '/';
	p = rpb_fmt_u64(p, n, 12);
	*p = '\0';
	return (size_t)(p - buf);
}

size_t ingest_obj_key(char *buf, const char *tag, unsigned thread, uint64_t op)
{
	return thread_key(buf, 'o', tag, thread, op);
}

size_t ingest_probe_key(char *buf, const char *tag, unsigned thread, uint64_t probe)
{
	return thread_key(buf, 'p', tag, thread, probe);
}

size_t ingest_container_key(char *buf, const char *tag, uint64_t op, uint64_t containers)
{
	char *p = rpb_fmt_str(rpb_fmt_str(buf, "c/"), tag);
	*p++ = '/';
	p = rpb_fmt_u64(p, containers > 1 ? op % containers : 0, 0);
	*p = '\0';
	return (size_t)(p - buf);
}

size_t ingest_probe_container_key(char *buf, const char *tag)
{
	char *p = rpb_fmt_str(rpb_fmt_str(rpb_fmt_str(buf, "c/"), tag), "/probe");
	*p = '\0';
	return (size_t)(p - buf);
}

size_t ingest_member_key(char *buf, const char *container, size_t clen,
			 const char *member, size_t mlen)
{
	/* Both ids come from the formatters above, so this always fits. */
	memcpy(buf, container, clen);
	buf[clen] = '/';
	memcpy(buf + clen + 1, member, mlen);
	buf[clen + 1 + mlen] = '\0';
	return clen + 1 + mlen;
}

size_t ingest_content_cap(const struct rpb_ingest_opts *o)
{
	uint64_t cap = o->size_max > o->size_min ? o->size_max - 1 : o->size_min;
	return cap ? (size_t)cap : 1;
}

static uint64_t gen(const struct rpb_job *job, uint64_t stream, uint64_t index,
		    unsigned char *buf)
{
	/* A thread makes many objects of one stream: its base is kept. */
	static _Thread_local uint64_t last_seed, last_stream, last_base;
	static _Thread_local bool have_base;
	if (!have_base || last_seed != job->run.seed || last_stream != stream) {
		last_base = rpb_rng_base(job->run.seed, stream);
		last_seed = job->run.seed;
		last_stream = stream;
		have_base = true;
	}
	struct rpb_rng r;
	rpb_rng_seed_at(&r, last_base, index);
	uint64_t size = rpb_payload_size(&r, ingest_opts(job)->size_min, ingest_opts(job)->size_max);
	rpb_payload_fill(&r, ingest_opts(job)->content, buf, (size_t)size);
	return size;
}

uint64_t ingest_content(const struct rpb_job *job, unsigned thread, uint64_t op,
			unsigned char *buf)
{
	return gen(job, thread, op, buf);
}

uint64_t ingest_probe_content(const struct rpb_job *job, unsigned thread, uint64_t probe,
			      unsigned char *buf)
{
	return gen(job, thread | INGEST_PROBE_STREAM, probe, buf);
}

void ingest_digest_hex(const void *p, size_t n, char out[INGEST_HEX_LEN + 1])
{
	XXH128_hash_t h = XXH3_128bits(p, n);
	*rpb_fmt_hex64(rpb_fmt_hex64(out, (uint64_t)h.high64), (uint64_t)h.low64) = '\0';
}

const char *ingest_mime(enum rpb_content kind)
{
	return kind == RPB_CONTENT_BINARY ? "application/octet-stream" : "text/plain";
}

/* Civil date from days since 1970-01-01 (proleptic Gregorian, eras of 400
 * years). Done by hand because gmtime_r takes glibc's global timezone lock,
 * which every worker would contend on once per create. */
static void civil(int64_t days, int *y, unsigned *m, unsigned *d)
{
	days += 719468; /* shift the epoch to 0000-03-01 */
	int64_t era = (days >= 0 ? days : days - 146096) / 146097;
	unsigned doe = (unsigned)(days - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int)(yoe + era * 400) + (*m <= 2);
}

/* Each thread keeps the text of the last second it formatted: creates in
 * the same second copy it and format only the milliseconds. */
char *ingest_iso_ms(char *p, uint64_t wall_ms)
{
	static _Thread_local uint64_t last_secs = UINT64_MAX;
	static _Thread_local char head[32]; /* "YYYY-MM-DDTHH:MM:SS." */
	static _Thread_local size_t head_len;
	uint64_t secs = wall_ms / 1000;
	if (secs != last_secs) {
		int y;
		unsigned mo, d;
		civil((int64_t)(secs / 86400), &y, &mo, &d);
		unsigned sod = (unsigned)(secs % 86400);
		char *h = rpb_fmt_u64(head, (uint64_t)(y < 0 ? 0 : y), 4);
		h = rpb_fmt_u64(rpb_fmt_str(h, "-"), mo, 2);
		h = rpb_fmt_u64(rpb_fmt_str(h, "-"), d, 2);
		h = rpb_fmt_u64(rpb_fmt_str(h, "T"), sod / 3600, 2);
		h = rpb_fmt_u64(rpb_fmt_str(h, ":"), sod / 60 % 60, 2);
		h = rpb_fmt_u64(rpb_fmt_str(h, ":"), sod % 60, 2);
		h = rpb_fmt_str(h, ".");
		head_len = (size_t)(h - head);
		last_secs = secs;
	}
	memcpy(p, head, head_len);
	p += head_len;
	p = rpb_fmt_dec_back(p + 3, wall_ms % 1000, 3) + 3;
	return rpb_fmt_str(p, "Z");
}

size_t ingest_desc_format(char *buf, rpb_slice id, rpb_slice parent, uint64_t size,
			  const char *hex, const char *mime, uint64_t wall_ms)
{
	/* Two keys (< INGEST_KEY_MAX each), a 20-digit size, the digest, a MIME
	 * type and a timestamp: well inside INGEST_DESC_MAX. */
	char *p = rpb_fmt_mem(rpb_fmt_str(buf, "id="), id.data, id.len);
	p = rpb_fmt_mem(rpb_fmt_str(p, "\nparent="), parent.data, parent.len);
	p = rpb_fmt_u64(rpb_fmt_str(p, "\nsize="), size, 0);
	p = rpb_fmt_mem(rpb_fmt_str(p, "\nxxh3="), hex, INGEST_HEX_LEN);
	p = rpb_fmt_str(rpb_fmt_str(p, "\nmime="), mime);
	p = ingest_iso_ms(rpb_fmt_str(p, "\ncreated="), wall_ms);
	p = rpb_fmt_str(p, "\n");
	*p = '\0';
	return (size_t)(p - buf);
}

bool ingest_field_eq(rpb_slice f, const char *s)
{
	return f.data && strlen(s) == f.len && memcmp(f.data, s, f.len) == 0;
}

bool ingest_desc_parse(const void *rec, size_t n, struct ingest_desc *d)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{"id", offsetof(struct ingest_desc, id)},
		{"parent", offsetof(struct ingest_desc, parent)},
		{"size", offsetof(struct ingest_desc, size)},
		{"xxh3", offsetof(struct ingest_desc, xxh3)},
		{"mime", offsetof(struct ingest_desc, mime)},
		{"created", offsetof(struct ingest_desc, created)},
	};
	memset(d, 0, sizeof *d);
	const char *p = rec, *end = p + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *eq = memchr(p, '=', (size_t)(eol - p));
		for (size_t i = 0; eq && i < sizeof fields / sizeof fields[0]; i++) {
			size_t klen = strlen(fields[i].name);
			if ((size_t)(eq - p) == klen && memcmp(p, fields[i].name, klen) == 0) {
				rpb_slice *f = (rpb_slice *)((char *)d + fields[i].off);
				*f = rpb_slice_make(eq + 1, (size_t)(eol - eq - 1));
			}
		}
		p = nl ? nl + 1 : end;
	}
	return d->id.data && d->parent.data && d->size.data && d->xxh3.data &&
	       d->mime.data && d->created.data;
}
