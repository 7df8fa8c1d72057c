/* The embedded ordered backends' key layout (src/core/tablekey.h): the
 * store's own records first, every table ordered as store.h orders keys,
 * and the keys and bounds it refuses. */
#include <criterion/criterion.h>
#include <string.h>

#include "tablekey.h"

Test(tablekey, meta_sorts_first_then_tables_in_order)
{
	cr_expect_eq(rpb_tkey_byte(RPB_T_META), 0);
	for (int t = 0; t < RPB_TABLE_COUNT; t++)
		if (t != RPB_T_META)
			cr_expect_gt(rpb_tkey_byte((enum rpb_table)t), 0, "table %d", t);
}

Test(tablekey, encode_prefixes_the_table_byte)
{
	unsigned char buf[RPB_TKEY_MAX];
	rpb_slice k;
	struct rpb_err err = {0};
	cr_assert_eq(rpb_tkey_encode(buf, RPB_T_META, rpb_slice_make("ab", 2), false, &k, &err),
		     RPB_OK);
	cr_expect_eq(k.len, 3);
	cr_expect_eq(memcmp(k.data, "\0ab", 3), 0);
	/* An empty bound is the table's start: its byte alone. */
	cr_assert_eq(rpb_tkey_encode(buf, RPB_T_META, rpb_slice_make(NULL, 0), true, &k, &err),
		     RPB_OK);
	cr_expect_eq(k.len, 1);
}

Test(tablekey, refuses_empty_long_and_unknown)
{
	unsigned char buf[RPB_TKEY_MAX], big[RPB_KEY_MAX + 1] = {0};
	rpb_slice k;
	struct rpb_err err = {0};
	cr_expect_eq(rpb_tkey_encode(buf, RPB_T_META, rpb_slice_make(NULL, 0), false, &k, &err),
		     RPB_INVALID);
	cr_expect(strstr(err.msg, "keys are 1.."), "%s", err.msg);
	cr_expect_eq(rpb_tkey_encode(buf, RPB_T_META, rpb_slice_make(big, sizeof big), false, &k,
				     &err), RPB_INVALID);
	cr_expect_eq(rpb_tkey_encode(buf, RPB_TABLE_COUNT, rpb_slice_make("a", 1), false, &k, &err),
		     RPB_INVALID);
	cr_expect(strstr(err.msg, "unknown table"), "%s", err.msg);
}

Test(tablekey, cmp_is_memcmp_shorter_first)
{
	cr_expect_lt(rpb_tkey_cmp("ab", 2, "abc", 3), 0);
	cr_expect_gt(rpb_tkey_cmp("abc", 3, "ab", 2), 0);
	cr_expect_eq(rpb_tkey_cmp("ab", 2, "ab", 2), 0);
	cr_expect_gt(rpb_tkey_cmp("\xff", 1, "\x01\x02", 2), 0, "bytes compare unsigned");
}
