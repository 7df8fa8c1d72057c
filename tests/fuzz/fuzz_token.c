/* Harvest resumption tokens (hv_token_decode): any text is refused with
 * badResumptionToken or decodes to a token that encodes back to exactly
 * that text (no two texts name one state); and every state a harvest can
 * hold survives encode then decode. */
#include <stdint.h>

#include "fuzz.h"
#include "harvest.h"

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* A token state from 48 bytes of input. */
static void state_from(const uint8_t *p, struct hv_token *t)
{
	t->strategy = p[0] % (RPB_HV_SNAPSHOT + 1);
	t->set = (unsigned)(p[1] | p[2] << 8);
	t->page = (uint32_t)get64(p + 3);
	t->from_s = (int64_t)get64(p + 7);
	t->until_s = (int64_t)get64(p + 15);
	if (t->from_s > t->until_s) {
		int64_t x = t->from_s;
		t->from_s = t->until_s;
		t->until_s = x;
	}
	t->last_ds = (int64_t)get64(p + 23);
	t->last_n = get64(p + 31);
	t->harvest = get64(p + 39);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t key;
	if (!key)
		key = hv_token_key("0badc0de");
	struct hv_token t;
	struct rpb_err err = {0};
	char text[HV_TOKEN_CHARS + 1];
	if (hv_token_decode((const char *)data, size, key, &t, &err) == RPB_OK) {
		hv_token_encode(&t, key, text);
		FUZZ_ASSERT(size == HV_TOKEN_CHARS && memcmp(text, data, size) == 0,
			    "a token decodes but encodes to %s", text);
	} else {
		FUZZ_ASSERT(strncmp(err.msg, "badResumptionToken: ", 20) == 0, "refusal: %s", err.msg);
		fuzz_one_line(err.msg);
	}
	if (size >= 47) {
		struct hv_token in, out;
		state_from(data, &in);
		hv_token_encode(&in, key, text);
		FUZZ_ASSERT(hv_token_decode(text, HV_TOKEN_CHARS, key, &out, &err) == RPB_OK,
			    "own token refused: %s", err.msg);
		FUZZ_ASSERT(in.strategy == out.strategy && in.set == out.set && in.page == out.page &&
				    in.from_s == out.from_s && in.until_s == out.until_s &&
				    in.last_ds == out.last_ds && in.last_n == out.last_n &&
				    in.harvest == out.harvest,
			    "token %s decodes to another state", text);
		/* Another run's key refuses it. */
		FUZZ_ASSERT(hv_token_decode(text, HV_TOKEN_CHARS, key + 1, &out, &err) != RPB_OK,
			    "token %s accepted under another run's key", text);
	}
	return 0;
}
