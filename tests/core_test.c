/* Unit tests of the core pieces that know no backend. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "fsutil.h"
#include "null_backend.h"
#include "testutil.h"

Test(core, status_names_round_trip)
{
	for (int i = 0; i < RPB_STATUS_COUNT; i++)
		cr_assert_eq(rpb_status_parse(rpb_status_name((enum rpb_status)i)), i);
	cr_assert_eq(rpb_status_parse("no-such-class"), RPB_STATUS_COUNT);
	cr_assert_str_eq(rpb_status_name(RPB_DISK_FULL), "disk-full");
}

Test(core, err_set_keeps_one_line)
{
	struct rpb_err err;
	enum rpb_status st = rpb_err_set(&err, RPB_IO, 5, "58030", "first\nsecond\n");
	cr_assert_eq(st, RPB_IO);
	cr_assert_str_eq(err.msg, "first second");
	cr_assert_str_eq(err.sqlstate, "58030");
	cr_assert_eq(err.native, 5);
	char longer[600];
	memset(longer, 'x', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	rpb_err_set(&err, RPB_IO, 0, NULL, "%s", longer);
	cr_assert_eq(strlen(err.msg), sizeof err.msg - 1, "long messages are cut, not overflowed");
}

Test(core, cfg_u64_parses_sizes_and_ranges)
{
	struct rpb_kv kv[] = {{"a", "64M"}, {"b", "12"}, {"c", "-1"}, {"d", "9x"}, {"e", "2k"}};
	struct rpb_store_cfg cfg = {.opts = kv, .nopts = 5};
	struct rpb_err err;
	uint64_t v;
	cr_assert_eq(rpb_cfg_u64(&cfg, "a", 0, 0, UINT64_MAX, &v, &err), RPB_OK);
	cr_assert_eq(v, 64u << 20);
	cr_assert_eq(rpb_cfg_u64(&cfg, "missing", 7, 0, 10, &v, &err), RPB_OK);
	cr_assert_eq(v, 7);
	cr_assert_eq(rpb_cfg_u64(&cfg, "b", 0, 0, 10, &v, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "[0, 10]"), "the message names the range: %s", err.msg);
	cr_assert_eq(rpb_cfg_u64(&cfg, "c", 0, 0, 10, &v, &err), RPB_INVALID);
	cr_assert_eq(rpb_cfg_u64(&cfg, "d", 0, 0, 100, &v, &err), RPB_INVALID);
	cr_assert_eq(rpb_cfg_u64(&cfg, "e", 0, 0, 4096, &v, &err), RPB_OK);
	cr_assert_eq(v, 2048);
	const struct rpb_optspec specs[] = {{"a", "", ""}, {"b", "", ""}, {NULL, NULL, NULL}};
	cr_assert_eq(rpb_cfg_check(&cfg, "x", specs, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "'c'"), "names the unknown option: %s", err.msg);
}

Test(core, buf_grows_and_copies)
{
	struct rpb_buf b = {0};
	cr_assert_eq(rpb_buf_set(&b, "hello", 5, NULL), RPB_OK);
	cr_assert_eq(b.len, 5);
	cr_assert(memcmp(b.data, "hello", 5) == 0);
	cr_assert_eq(rpb_buf_set(&b, "", 0, NULL), RPB_OK);
	cr_assert_eq(b.len, 0);
	rpb_buf_free(&b);
	cr_assert_null(b.data);
}

Test(core, every_built_in_backend_validates)
{
	struct rpb_err err;
	size_t n = 0;
	for (size_t i = 0; rpb_backends[i]; i++, n++)
		cr_assert_eq(rpb_backend_validate(rpb_backends[i], &err), RPB_OK, "%s", err.msg);
	cr_assert_geq(n, 1);
	cr_assert_eq(rpb_backend_find("null"), &rpb_backend_null);
	cr_assert_null(rpb_backend_find("nosuch"));
}

Test(core, validation_names_a_missing_hook)
{
	struct rpb_backend broken = rpb_backend_null;
	broken.scan = NULL;
	struct rpb_err err;
	cr_assert_eq(rpb_backend_validate(&broken, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "scan"), "%s", err.msg);
	broken = rpb_backend_null;
	broken.abi = 99;
	cr_assert_eq(rpb_backend_validate(&broken, &err), RPB_INVALID);
}

Test(core, dir_prepare_errors_are_one_line_and_harmless)
{
	char dir[256], path[300];
	rpbt_tmpdir(dir, sizeof dir, "core");
	struct rpb_err err;
	/* A file where a directory should be. */
	snprintf(path, sizeof path, "%s/file", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("precious", f);
	fclose(f);
	cr_assert_eq(rpb_dir_prepare(path, true, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "not a directory"), "%s", err.msg);
	/* A directory below a file cannot be created. */
	snprintf(path, sizeof path, "%s/file/sub", dir);
	cr_assert_neq(rpb_dir_prepare(path, true, &err), RPB_OK);
	cr_assert(strstr(err.msg, "cannot create"), "%s", err.msg);
	cr_assert_null(strchr(err.msg, '\n'));
	/* The file is untouched. */
	snprintf(path, sizeof path, "%s/file", dir);
	struct stat sb;
	cr_assert_eq(stat(path, &sb), 0);
	cr_assert_eq(sb.st_size, 8);
	/* Missing without create. */
	snprintf(path, sizeof path, "%s/absent", dir);
	cr_assert_eq(rpb_dir_prepare(path, false, &err), RPB_NOT_FOUND);
	/* Nested creation works. */
	snprintf(path, sizeof path, "%s/a/b/c", dir);
	cr_assert_eq(rpb_dir_prepare(path, true, &err), RPB_OK, "%s", err.msg);
	rpbt_rmtree(dir);
}

/* The hand-written formatters agree with printf for every width and for
 * values around each power of ten and the extremes. */
Test(core, fmt_matches_printf)
{
	uint64_t vals[64];
	size_t nv = 0;
	vals[nv++] = 0;
	vals[nv++] = UINT64_MAX;
	for (uint64_t p = 1; nv + 3 < 64 && p <= UINT64_MAX / 10; p *= 10) {
		vals[nv++] = p - 1;
		vals[nv++] = p;
		vals[nv++] = p + 7;
	}
	for (size_t i = 0; i < nv; i++) {
		for (unsigned width = 0; width <= 22; width++) {
			char want[40], got[40];
			snprintf(want, sizeof want, "%0*" PRIu64, (int)width, vals[i]);
			*rpb_fmt_u64(got, vals[i], width) = '\0';
			cr_assert_str_eq(got, want, "value %" PRIu64 " width %u", vals[i], width);
		}
		char want[20], got[20];
		snprintf(want, sizeof want, "%016" PRIx64, vals[i]);
		*rpb_fmt_hex64(got, vals[i]) = '\0';
		cr_assert_str_eq(got, want);
	}
}
