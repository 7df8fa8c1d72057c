/* Unit tests of the core pieces that know no backend. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "options.h"
#include "fsutil.h"
#include "null_backend.h"
#include "pattern.h"
#include "runner.h"
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

/* A backend's typed table: defaults per profile, sizes, ranges, "none",
 * "auto" as the profile's default, unknown keys with the nearest. */
struct cfg_test {
	uint64_t size, count;
	unsigned mode;
};

static const char *const cfg_test_modes[] = {"auto", "kv", "ispn", NULL};
static const struct rpb_optdef cfg_test_table[] = {
	{ .key = "size", .type = RPB_OPT_SIZE, .dflt = "16M", .dflt_fedora45 = "none",
	  .umin = 1024, .umax = 1u << 30, .none = "none", .off = offsetof(struct cfg_test, size),
	  .help = "a size" },
	{ .key = "count", .type = RPB_OPT_COUNT, .dflt = "7", .umin = 0, .umax = 10,
	  .off = offsetof(struct cfg_test, count), .help = "a count" },
	{ .key = "mode", .type = RPB_OPT_ENUM, .dflt = "kv", .dflt_fedora45 = "ispn",
	  .choices = cfg_test_modes, .off = offsetof(struct cfg_test, mode), .help = "a mode" },
	{ .key = NULL },
};

static enum rpb_status cfg_test_parse(const char *profile, const char *key, const char *value,
				      struct cfg_test *out, struct rpb_err *err)
{
	struct rpb_kv kv = {key, value};
	struct rpb_store_cfg cfg = {.opts = &kv, .nopts = key ? 1 : 0, .profile = profile};
	return rpb_cfg_parse(&cfg, "x", cfg_test_table, out, err);
}

Test(core, cfg_parse_reads_a_typed_table)
{
	struct rpb_err err;
	struct cfg_test t;
	cr_assert_eq(cfg_test_parse(NULL, NULL, NULL, &t, &err), RPB_OK);
	cr_assert(t.size == 16u << 20 && t.count == 7 && t.mode == 1, "the defaults");
	cr_assert_eq(cfg_test_parse("fedora-4.5", NULL, NULL, &t, &err), RPB_OK);
	cr_assert(t.size == UINT64_MAX && t.count == 7 && t.mode == 2, "fedora-4.5's defaults");
	cr_assert_eq(cfg_test_parse("fedora-4.5", "size", "2k", &t, &err), RPB_OK);
	cr_assert_eq(t.size, 2048, "a value given wins over the profile's default");
	cr_assert_eq(cfg_test_parse("durable", "size", "none", &t, &err), RPB_OK);
	cr_assert_eq(t.size, UINT64_MAX);
	cr_assert_eq(cfg_test_parse("fedora-4.5", "mode", "auto", &t, &err), RPB_OK);
	cr_assert_eq(t.mode, 2, "auto is the profile's default");
	cr_assert_eq(cfg_test_parse("durable", "mode", "auto", &t, &err), RPB_OK);
	cr_assert_eq(t.mode, 1);
	cr_assert_eq(cfg_test_parse(NULL, "count", "12", &t, &err), RPB_INVALID);
	cr_assert(err.user_input);
	cr_assert_str_eq(err.msg, "[x] count = 12 is out of range; give an integer in [0, 10]");
	cr_assert_eq(cfg_test_parse(NULL, "size", "-1", &t, &err), RPB_INVALID);
	cr_assert_str_eq(err.msg, "[x] size = -1 is invalid; give a size in bytes in [1k, 1G] "
			 "(suffix k, M, G or T) or none");
	cr_assert_eq(cfg_test_parse(NULL, "mode", "ispn2", &t, &err), RPB_INVALID);
	cr_assert_str_eq(err.msg, "[x] mode = ispn2 is invalid; give one of: auto, kv, ispn");
	cr_assert_eq(cfg_test_parse(NULL, "cuont", "1", &t, &err), RPB_INVALID);
	cr_assert_str_eq(err.msg, "unknown key 'cuont' in [x] (did you mean count?); valid keys: "
			 "size, count, mode");
	struct rpb_kv kv = {"any", "1"};
	struct rpb_store_cfg cfg = {.opts = &kv, .nopts = 1};
	cr_assert_eq(rpb_cfg_parse(&cfg, "null", NULL, NULL, &err), RPB_INVALID);
	cr_assert_str_eq(err.msg, "unknown key 'any' in [null]; [null] has no keys, remove it");
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

Test(core, every_registered_pattern_validates)
{
	for (size_t i = 0; i < rpb_pattern_count(); i++) {
		struct rpb_err err = {0};
		cr_assert_eq(rpb_pattern_validate(rpb_pattern_at(i), &err), RPB_OK, "%s", err.msg);
	}
}

/* Each rule names what is wrong with the table. */
Test(core, pattern_validation_names_what_is_missing)
{
	const struct rpb_pattern *ingest = rpb_pattern_find("ingest");
	cr_assert_not_null(ingest);
	static const enum rpb_bytes_dir no_dirs[RPB_MAX_LABELS];
	struct {
		struct rpb_pattern p;
		const char *words;
	} cases[] = {
		{.words = "op"}, {.words = "noun"}, {.words = "byte direction"},
		{.words = "labels"}, {.words = "load_phase"}, {.words = "verify_stale"},
		{.words = "config_size"}, {.words = "name"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		cases[i].p = *ingest;
	cases[0].p.op = NULL;
	cases[1].p.noun = "";
	cases[2].p.label_dirs = no_dirs;
	cases[3].p.nlabels = RPB_MAX_LABELS + 1;
	cases[4].p.loads_first = true;
	cases[4].p.load_phase = NULL;
	cases[5].p.verify_stale = true;
	cases[5].p.verify = NULL;
	cases[6].p.config_size = 0;
	cases[7].p.name = "In-gest";
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct rpb_err err = {0};
		cr_assert_eq(rpb_pattern_validate(&cases[i].p, &err), RPB_INVALID, "case %zu", i);
		cr_assert(strstr(err.msg, cases[i].words), "case %zu: %s", i, err.msg);
	}
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
		/* The low 16 digits, exactly 16 wide (the raw pattern's keys). */
		char wide[32], low[20];
		snprintf(wide, sizeof wide, "%020" PRIu64, vals[i]);
		low[16] = '\0';
		cr_assert_eq(rpb_fmt_dec_back(low + 16, vals[i], 16), low);
		cr_assert_str_eq(low, wide + 4, "value %" PRIu64, vals[i]);
	}
	/* Every hex digit in every position, letters included. */
	for (uint64_t x = 0; x < 4096; x++) {
		uint64_t v = x * UINT64_C(0x9e3779b97f4a7c15) ^ UINT64_C(0x0123456789abcdef);
		char want[20], got[20];
		snprintf(want, sizeof want, "%016" PRIx64, v);
		*rpb_fmt_hex64(got, v) = '\0';
		cr_assert_str_eq(got, want);
	}
	/* Copies of every short length land exactly, nothing past the end. */
	char src[80], dst[80], ref[80];
	for (int i = 0; i < 80; i++)
		src[i] = (char)(i * 7 + 1);
	for (size_t n = 0; n <= 40; n++) {
		memset(dst, 0, sizeof dst);
		memset(ref, 0, sizeof ref);
		memcpy(ref + 3, src + 5, n);
		cr_assert_eq(rpb_fmt_mem(dst + 3, src + 5, n), dst + 3 + n);
		cr_assert(memcmp(dst, ref, sizeof dst) == 0, "a copy of %zu bytes", n);
	}
}
