/* YCSB's operation names, key names and field values, and the encoding of a
 * record (its fields in one value), shared by the run (ycsb.c), its output
 * and verify. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ycsb.h"

const char *const ycsb_op_names[YCSB_NOPS] = {"READ", "UPDATE", "INSERT", "SCAN",
					      "READ-MODIFY-WRITE"};

int64_t ycsb_fnv64(int64_t v)
{
	/* YCSB's Utils.fnvhash64: eight octets of the number, low first, each
	 * xor-ed in then multiplied; Java's arithmetic shift and Math.abs. */
	uint64_t h = UINT64_C(0xCBF29CE484222325);
	uint64_t val = (uint64_t)v;
	for (int i = 0; i < 8; i++) {
		h ^= val & 0xff;
		h *= UINT64_C(1099511628211);
		val = (uint64_t)((int64_t)val >> 8);
	}
	int64_t s = (int64_t)h;
	return s < 0 && s != INT64_MIN ? -s : s;
}

size_t ycsb_key(char *buf, size_t n, const struct rpb_ycsb_opts *o, uint64_t k)
{
	int64_t num = o->insertorder == YCSB_HASHED ? ycsb_fnv64((int64_t)k) : (int64_t)k;
	char digits[24];
	int dl = snprintf(digits, sizeof digits, "%" PRId64, num);
	/* YCSB pads with zeros up to zeropadding digits, never cuts. */
	size_t len = (size_t)(dl > 0 ? dl : 0), pad = o->zeropadding > len ? o->zeropadding - len : 0;
	if (4 + pad + len >= n)
		return 0;
	memcpy(buf, "user", 4);
	memset(buf + 4, '0', pad);
	memcpy(buf + 4 + pad, digits, len + 1);
	return 4 + pad + len;
}

size_t ycsb_field_name(char *buf, size_t n, const struct rpb_ycsb_opts *o, unsigned i)
{
	int w = snprintf(buf, n, "%s%u", o->fieldnameprefix, i);
	return w < 0 ? 0 : (size_t)w < n ? (size_t)w : n - 1;
}

void ycsb_integrity_value(unsigned char *out, size_t size, const char *key, size_t keylen,
			  const char *field, size_t fieldlen)
{
	/* Java's String.hashCode of the text so far is kept as it grows:
	 * h = 31 h + c over each appended character, in 32-bit arithmetic. */
	uint32_t h = 0;
	size_t at = 0;
#define PUT(c)                                                                                   \
	do {                                                                                     \
		unsigned char c_ = (unsigned char)(c);                                           \
		h = 31 * h + c_;                                                                 \
		if (at < size)                                                                   \
			out[at] = c_;                                                            \
		at++;                                                                            \
	} while (0)
	for (size_t i = 0; i < keylen; i++)
		PUT(key[i]);
	PUT(':');
	for (size_t i = 0; i < fieldlen; i++)
		PUT(field[i]);
	while (at < size) {
		PUT(':');
		char num[16];
		int len = snprintf(num, sizeof num, "%" PRId32, (int32_t)h);
		for (int i = 0; i < len; i++)
			PUT(num[i]);
	}
#undef PUT
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ycsb_field_next(const unsigned char *p, size_t len, size_t *at, struct ycsb_field *f)
{
	size_t a = *at;
	if (a >= len)
		return 0;
	if (len - a < 1 + (size_t)p[a] + 4)
		return -1;
	size_t nl = p[a];
	uint32_t vl = get_u32(p + a + 1 + nl);
	if (len - a - 1 - nl - 4 < vl)
		return -1;
	f->name = p + a + 1;
	f->namelen = nl;
	f->val = p + a + 1 + nl + 4;
	f->len = vl;
	*at = a + 1 + nl + 4 + vl;
	return 1;
}

int ycsb_count_fields(const unsigned char *p, size_t len)
{
	int n = 0, rc;
	size_t at = 0;
	struct ycsb_field f;
	while ((rc = ycsb_field_next(p, len, &at, &f)) > 0)
		n++;
	return rc < 0 ? -1 : n;
}

size_t ycsb_encode_field(unsigned char *out, const char *name, size_t namelen,
			 const unsigned char *val, size_t len)
{
	out[0] = (unsigned char)namelen;
	memcpy(out + 1, name, namelen);
	unsigned char *l = out + 1 + namelen;
	l[0] = (unsigned char)len;
	l[1] = (unsigned char)(len >> 8);
	l[2] = (unsigned char)(len >> 16);
	l[3] = (unsigned char)(len >> 24);
	if (len)
		memcpy(l + 4, val, len);
	return 1 + namelen + 4 + len;
}

size_t ycsb_record_max(const struct rpb_ycsb_opts *o)
{
	return (size_t)o->fieldcount * (1 + YCSB_NAME_MAX + 4 + (size_t)o->maxfieldlength);
}

int ycsb_record_check(const struct rpb_ycsb_opts *o, const char *key, size_t keylen,
		      const unsigned char *p, size_t len, unsigned char *scratch, char *why,
		      size_t n)
{
	struct ycsb_field f;
	size_t at = 0;
	uint64_t i = 0;
	int rc;
	bool constant = o->fieldlengthdistribution == YCSB_LEN_CONSTANT;
	uint64_t lo = constant ? o->fieldlength : o->fieldlengthdistribution == YCSB_LEN_HISTOGRAM ? 0
									  : o->minfieldlength;
	while ((rc = ycsb_field_next(p, len, &at, &f)) > 0) {
		char name[YCSB_NAME_MAX];
		size_t nl = ycsb_field_name(name, sizeof name, o, (unsigned)i);
		if (i >= o->fieldcount || f.namelen != nl || memcmp(f.name, name, nl) != 0) {
			snprintf(why, n, "%.*s: field %" PRIu64 " is not %s", (int)keylen, key, i,
				 i < o->fieldcount ? name : "there (too many fields)");
			return -1;
		}
		if (f.len < lo || f.len > o->maxfieldlength) {
			snprintf(why, n, "%.*s: %s holds %zu bytes, expected %s%" PRIu64, (int)keylen, key, name,
				 f.len, constant ? "" : "at most ", o->maxfieldlength);
			return -1;
		}
		if (o->dataintegrity) {
			ycsb_integrity_value(scratch, f.len, key, keylen, name, nl);
			if (memcmp(scratch, f.val, f.len) != 0) {
				snprintf(why, n, "%.*s: %s differs from the value derived from key and field",
					 (int)keylen, key, name);
				return -1;
			}
		}
		i++;
	}
	if (rc < 0) {
		snprintf(why, n, "%.*s: the value is not a record of fields", (int)keylen, key);
		return -1;
	}
	if (i != o->fieldcount) {
		snprintf(why, n, "%.*s: %" PRIu64 " fields, expected %" PRIu64, (int)keylen, key, i,
			 o->fieldcount);
		return -1;
	}
	return 0;
}

/* RandomByteIterator.fillBytesImpl's six bytes from one int: its low 5
 * bits, then 6, 6 (& 95), 5, 6, 6 (& 95), each plus ' '. */
static inline void six_bytes(unsigned char *o, uint32_t b, size_t k)
{
	unsigned char v[6] = {
		(unsigned char)((b & 31) + ' '),	 (unsigned char)(((b >> 5) & 63) + ' '),
		(unsigned char)(((b >> 10) & 95) + ' '), (unsigned char)(((b >> 15) & 31) + ' '),
		(unsigned char)(((b >> 20) & 63) + ' '), (unsigned char)(((b >> 25) & 95) + ' '),
	};
	memcpy(o, v, k);
}

void ycsb_random_bytes(struct rpb_rng *r, unsigned char *out, size_t len)
{
	/* One 64-bit draw is two of RandomByteIterator's ints; a last run
	 * shorter than six takes the first bytes of the pattern. */
	size_t i = 0;
	for (; i + 12 <= len; i += 12) {
		uint64_t x = rpb_rng_next(r);
		six_bytes(out + i, (uint32_t)(x >> 32), 6);
		six_bytes(out + i + 6, (uint32_t)x, 6);
	}
	if (i < len) {
		uint64_t x = rpb_rng_next(r);
		six_bytes(out + i, (uint32_t)(x >> 32), len - i < 6 ? len - i : 6);
		if (len - i > 6)
			six_bytes(out + i + 6, (uint32_t)x, len - i - 6);
	}
}
