/* Resumption tokens: the harvest's state, checksummed with a key derived
 * from the run tag, as opaque base64url. A server must refuse any token it
 * did not issue (OAI-PMH's badResumptionToken) rather than serve a page it
 * cannot stand behind: each failure below names what is wrong. */
#include <inttypes.h>
#include <string.h>

#include <xxhash.h>

#include "harvest.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* Byte layout (big-endian): version 1, strategy 1, set 2, page 4, from 8,
 * until 8, last_ds 8, last_n 8, harvest 8, run 8, checksum 8. */
enum { O_VER = 0, O_STRAT = 1, O_SET = 2, O_PAGE = 4, O_FROM = 8, O_UNTIL = 16, O_LDS = 24,
       O_LN = 32, O_HV = 40, O_RUN = 48, O_SUM = 56 };
_Static_assert(O_SUM + 8 == HV_TOKEN_BYTES, "token layout");

uint64_t hv_token_key(const char *run_tag)
{
	return XXH64(run_tag, strlen(run_tag), UINT64_C(0x6f61692d706d68));
}

/* The run field: who issued the token, readable without the key. */
static uint64_t run_id(uint64_t key)
{
	return XXH64(&key, sizeof key, 1);
}

static uint64_t checksum(const unsigned char *raw, uint64_t key)
{
	return XXH64(raw, O_SUM, key);
}

void hv_token_encode(const struct hv_token *t, uint64_t key, char *out)
{
	unsigned char raw[HV_TOKEN_BYTES + 2] = {0};
	raw[O_VER] = HV_TOKEN_VERSION;
	raw[O_STRAT] = (unsigned char)t->strategy;
	hv_put_be(raw + O_SET, t->set, 2);
	hv_put_be(raw + O_PAGE, t->page, 4);
	hv_put_be(raw + O_FROM, (uint64_t)t->from_s, 8);
	hv_put_be(raw + O_UNTIL, (uint64_t)t->until_s, 8);
	hv_put_be(raw + O_LDS, (uint64_t)t->last_ds, 8);
	hv_put_be(raw + O_LN, t->last_n, 8);
	hv_put_be(raw + O_HV, t->harvest, 8);
	hv_put_be(raw + O_RUN, run_id(key), 8);
	hv_put_be(raw + O_SUM, checksum(raw, key), 8);
	size_t o = 0;
	for (size_t i = 0; i < HV_TOKEN_BYTES; i += 3) {
		uint32_t v = (uint32_t)raw[i] << 16 | (uint32_t)raw[i + 1] << 8 | raw[i + 2];
		size_t chars = HV_TOKEN_BYTES - i >= 3 ? 4 : HV_TOKEN_BYTES - i + 1;
		for (size_t c = 0; c < chars; c++)
			out[o++] = b64[(v >> (18 - 6 * c)) & 63];
	}
	out[o] = '\0';
}

static int b64_value(char ch)
{
	const char *p = ch ? strchr(b64, ch) : NULL;
	return p ? (int)(p - b64) : -1;
}

/* at: the offending character, or SIZE_MAX when the token as a whole is bad. */
static enum rpb_status bad(struct rpb_err *err, const char *why, size_t at)
{
	if (at != SIZE_MAX)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "badResumptionToken: %s at character "
				   "%zu; restart the harvest without a token", why, at + 1);
	return rpb_err_set(err, RPB_INVALID, 0, NULL,
			   "badResumptionToken: %s; restart the harvest without a token", why);
}

enum rpb_status hv_token_decode(const char *in, size_t len, uint64_t key, struct hv_token *t,
				struct rpb_err *err)
{
	if (len != HV_TOKEN_CHARS)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "badResumptionToken: %zu characters, a token has %d (truncated or "
				   "extended); restart the harvest without a token",
				   len, HV_TOKEN_CHARS);
	unsigned char raw[HV_TOKEN_BYTES + 2] = {0};
	uint32_t acc = 0;
	unsigned bits = 0;
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		int v = b64_value(in[i]);
		if (v < 0)
			return bad(err, "not base64url", i);
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			raw[o++] = (unsigned char)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	if (acc != 0)
		return bad(err, "stray bits in the last character", len - 1);
	if (hv_get_be(raw + O_RUN, 8) != run_id(key))
		return bad(err, "issued by another run (or its issuer field altered)", SIZE_MAX);
	if (hv_get_be(raw + O_SUM, 8) != checksum(raw, key))
		return bad(err, "checksum mismatch: the token was altered", SIZE_MAX);
	if (raw[O_VER] != HV_TOKEN_VERSION || raw[O_STRAT] > RPB_HV_SNAPSHOT)
		return bad(err, "unknown token version or strategy", SIZE_MAX);
	t->strategy = raw[O_STRAT];
	t->set = (unsigned)hv_get_be(raw + O_SET, 2);
	t->page = (uint32_t)hv_get_be(raw + O_PAGE, 4);
	t->from_s = (int64_t)hv_get_be(raw + O_FROM, 8);
	t->until_s = (int64_t)hv_get_be(raw + O_UNTIL, 8);
	t->last_ds = (int64_t)hv_get_be(raw + O_LDS, 8);
	t->last_n = hv_get_be(raw + O_LN, 8);
	t->harvest = hv_get_be(raw + O_HV, 8);
	if (t->from_s > t->until_s)
		return bad(err, "from is after until", SIZE_MAX);
	return RPB_OK;
}
