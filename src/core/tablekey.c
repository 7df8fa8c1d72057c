#include <string.h>

#include "tablekey.h"

enum rpb_status rpb_tkey_encode(unsigned char *buf, enum rpb_table t, rpb_slice key,
				bool is_bound, rpb_slice *out, struct rpb_err *err)
{
	if ((unsigned)t >= RPB_TABLE_COUNT)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "unknown table %d", (int)t);
	if (key.len > RPB_KEY_MAX || (!is_bound && key.len == 0) || (key.len && !key.data))
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "key of %zu bytes; keys are 1..%d bytes", key.len, RPB_KEY_MAX);
	buf[0] = rpb_tkey_byte(t);
	if (key.len)
		memcpy(buf + 1, key.data, key.len);
	*out = rpb_slice_make(buf, key.len + 1);
	return RPB_OK;
}

int rpb_tkey_cmp(const void *a, size_t alen, const void *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	return c ? c : (alen > blen) - (alen < blen);
}
