/* Text in messages and result files: quoted values cut short with their
 * reason kept (src/core/shown.c); bytes that are not UTF-8 and numbers past
 * 2^63 kept exactly in JSON (src/core/jsontext.c). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "shown.h"

Test(text, shown_values)
{
	char out[RPB_SHOWN_SIZE], small[16], longer[400];
	cr_assert_str_eq(rpb_shown(out, sizeof out, ""), "(empty)");
	cr_assert_str_eq(rpb_shown(out, sizeof out, NULL), "(empty)");
	cr_assert_str_eq(rpb_shown(out, sizeof out, "4"), "4");
	cr_assert_str_eq(rpb_shown(out, sizeof out, "a\nb\x1b[2J\x7f"), "a?b?[2J?",
			 "a control character would split the line or reach the terminal");
	memset(longer, 'x', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	rpb_shown(out, sizeof out, longer);
	cr_assert_eq(strlen(out), RPB_SHOWN_MAX + 3);
	cr_assert_str_eq(out + RPB_SHOWN_MAX, "...");
	longer[RPB_SHOWN_MAX] = '\0';
	cr_assert_str_eq(rpb_shown(out, sizeof out, longer), longer, "exactly the limit: whole");
	cr_assert_str_eq(rpb_shown(small, sizeof small, "0123456789abcdefgh"), "0123456789ab...");
	/* Never half a character: é is two bytes. */
	cr_assert_str_eq(rpb_shown(small, sizeof small, "0123456789a\xc3\xa9xyz"), "0123456789a...");
}

Test(text, utf8_as_json_takes_it)
{
	cr_assert(rpb_utf8_valid("plain"));
	cr_assert(rpb_utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	static const char *const bad[] = {
		"caf\xe9", "\xc3", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xff", "\x80",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_not(rpb_utf8_valid(bad[i]), "case %zu", i);
		json_t *j = json_string(bad[i]);
		cr_assert_null(j, "jansson takes case %zu", i);
	}
}

Test(text, exact_bytes_round_trip)
{
	static const char *const texts[] = {
		"/tmp/plain", "/tmp/caf\xc3\xa9", "/tmp/caf\xe9/store", "100%\xff", "tab\tand\nline",
		"%41 stays %41",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		json_t *o = json_object();
		cr_assert_eq(rpb_json_set_exact(o, "dir", texts[i]), 0);
		/* The file must be valid JSON: dump and load it again. */
		char *dump = json_dumps(o, 0);
		cr_assert_not_null(dump, "case %zu cannot be encoded", i);
		json_t *back = json_loads(dump, 0, NULL);
		cr_assert_not_null(back);
		cr_assert_not_null(json_string_value(json_object_get(back, "dir")), "dir dropped");
		cr_assert_eq(json_object_get(back, "dir_pct") != NULL, !rpb_utf8_valid(texts[i]));
		char *exact = rpb_json_get_exact(back, "dir");
		cr_assert_str_eq(exact, texts[i], "%s", dump);
		free(exact);
		free(dump);
		json_decref(back);
		json_decref(o);
	}
	json_t *o = json_object();
	rpb_json_set_exact(o, "dir", "/tmp/caf\xe9");
	cr_assert_str_eq(json_string_value(json_object_get(o, "dir")), "/tmp/caf\xef\xbf\xbd");
	cr_assert_str_eq(json_string_value(json_object_get(o, "dir_pct")), "/tmp/caf%E9");
	cr_assert_null(rpb_json_get_exact(o, "absent"));
	json_object_set_new(o, "bad_pct", json_string("%zz"));
	json_object_set_new(o, "bad", json_string("x"));
	cr_assert_null(rpb_json_get_exact(o, "bad"), "a malformed twin is refused");
	json_decref(o);
}

Test(text, u64_exact)
{
	static const uint64_t values[] = {0, 42, INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX};
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		json_t *j = rpb_json_u64(values[i]);
		char *dump = json_dumps(j, JSON_ENCODE_ANY);
		json_t *back = json_loads(dump, JSON_DECODE_ANY, NULL);
		uint64_t v = 1;
		cr_assert(rpb_json_get_u64(back, &v));
		cr_assert_eq(v, values[i], "%s", dump);
		free(dump);
		json_decref(back);
		json_decref(j);
	}
	uint64_t v;
	json_t *old = json_integer(42);
	cr_assert(rpb_json_get_u64(old, &v) && v == 42, "a number from an older result");
	json_decref(old);
	json_t *neg = json_integer(-1), *text = json_string("x");
	cr_assert_not(rpb_json_get_u64(neg, &v));
	cr_assert_not(rpb_json_get_u64(text, &v));
	json_decref(neg);
	json_decref(text);
}
