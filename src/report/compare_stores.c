/* compare --verify and --clean-stores (compare_stores.h). */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare_exec.h"
#include "compare_stores.h"
#include "fsutil.h"
#include "paths.h"
#include "storeloc.h"

int rpb_cmp_verify_runs(const struct rpb_cmp *c, const char *bindir, const struct rpb_servers *servers,
			struct rpb_cmp_verified *v, char *msg, size_t n)
{
	v->n = 0;
	for (size_t i = 0; i < c->nruns && v->n < RPB_CMP_MAX_RUNS; i++) {
		const struct rpb_cmp_run *r = &c->runs[i];
		char path[RPB_CMP_PATH + 16];
		snprintf(path, sizeof path, "%s/result.json", r->dir);
		if (access(path, F_OK) != 0)
			continue; /* nothing to check against: the run is named incomplete */
		snprintf(v->runs[v->n].name, sizeof v->runs[v->n].name, "%s", r->name);
		if (rpb_exec_stores_nothing(r->backend)) {
			v->runs[v->n].exit = RPB_VERIFY_SKIPPED;
			snprintf(v->runs[v->n].result, sizeof v->runs[v->n].result,
				 "not verified: the %s backend keeps nothing", r->backend);
		} else {
			int code = rpb_exec_verify(bindir, r->backend, r->dir, rpb_servers_dsn(servers, r->backend), v->runs[v->n].result,
						   sizeof v->runs[v->n].result, msg, n);
			if (code < -1)
				return -1;
			v->runs[v->n].exit = code;
		}
		v->n++;
	}
	return 0;
}

size_t rpb_cmp_verify_failures(const struct rpb_cmp_verified *v)
{
	size_t bad = 0;
	for (size_t i = 0; i < v->n; i++)
		bad += v->runs[i].exit != 0 && v->runs[i].exit != RPB_VERIFY_SKIPPED;
	return bad;
}

void rpb_cmp_verify_print(const struct rpb_cmp_verified *v, FILE *f)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->runs[i].exit == RPB_VERIFY_SKIPPED)
			fprintf(f, "verify %s: %s\n", v->runs[i].name, v->runs[i].result);
		else
			fprintf(f, "verify %s: exit %d: %s\n", v->runs[i].name, v->runs[i].exit,
				v->runs[i].result);
}

static json_t *verify_json(const struct rpb_cmp_verified *v, const char *name)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->runs[i].name, name))
			return json_pack("{s:o, s:s}", "exit",
					 v->runs[i].exit == RPB_VERIFY_SKIPPED ? json_null()
									 : json_integer(v->runs[i].exit),
					 "result", v->runs[i].result);
	return NULL;
}

/* Each run entry of an array gets its "verify". */
static void mark_runs(json_t *runs, const struct rpb_cmp_verified *v)
{
	size_t i;
	json_t *run;
	json_array_foreach(runs, i, run) {
		const char *name = json_string_value(json_object_get(run, "name"));
		json_t *vj = name ? verify_json(v, name) : NULL;
		if (vj)
			json_object_set_new(run, "verify", vj);
	}
}

int rpb_cmp_verify_add(const struct rpb_cmp_verified *v, const char *out, char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 32];
	snprintf(path, sizeof path, "%s/compare.json", out);
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr), *col;
	size_t i;
	if (root) {
		json_array_foreach(json_object_get(root, "backends"), i, col)
			mark_runs(json_object_get(col, "runs"), v);
		mark_runs(json_object_get(root, "incomplete"), v);
	}
	if (!root || json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
							JSON_REAL_PRECISION(17)) != 0) {
		snprintf(msg, n, "cannot add verify's results to %s; choose a writable --out", path);
		json_decref(root);
		return -1;
	}
	json_decref(root);
	snprintf(path, sizeof path, "%s/compare.md", out);
	FILE *f = fopen(path, "a");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable --out", path, strerror(errno));
		return -1;
	}
	fprintf(f, "\n## Verify\n\nEach run's store checked by `rpbench-<backend> verify` after the "
		"runs:\n\n");
	for (i = 0; i < v->n; i++) /* verify's line holds no markdown of its own */
		fprintf(f, "- `%s`: %s%s\n", v->runs[i].name,
			v->runs[i].exit == 0 ? "" : v->runs[i].exit == RPB_VERIFY_SKIPPED ? "" : "FAILED, ",
			v->runs[i].result);
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(msg, n, "cannot write %s: %s; check the output directory", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Calls fn on every OUT/stores/<name>; the count of entries seen. */
static int each_store(const char *out, int (*fn)(const char *dir, void *arg), void *arg)
{
	char stores[RPB_CMP_PATH + 16], dir[RPB_CMP_PATH + 320];
	snprintf(stores, sizeof stores, "%s/stores", out);
	DIR *d = opendir(stores);
	if (!d)
		return 0;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d)) != NULL) {
		struct stat sb;
		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof dir, "%s/%s", stores, de->d_name);
		if (lstat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && fn(dir, arg) != 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

struct tally {
	size_t count, kept;
	const struct rpb_cmp_verified *keep;
	uint64_t bytes;
	char *msg;
	size_t mn;
};

static int count_one(const char *dir, void *arg)
{
	struct tally *t = arg;
	uint64_t b = 0;
	struct rpb_err err;
	if (rpb_dir_usage(dir, &b, &err) == RPB_OK)
		t->bytes += b;
	t->count++;
	return 0;
}

uint64_t rpb_cmp_stores_usage(const char *out, size_t *count)
{
	struct tally t = {0};
	each_store(out, count_one, &t);
	*count = t.count;
	return t.bytes;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

static int clean_one(const char *dir, void *arg)
{
	struct tally *t = arg;
	if (!rpb_dir_has_mark(dir, RPB_DIR_MARK)) { /* not a store a run made: left */
		snprintf(t->msg, t->mn, "%s is not a store rpbench made (no %s mark), so "
			 "--clean-stores left it; remove it yourself if it is yours to remove",
			 dir, RPB_DIR_MARK);
		return -1;
	}
	const char *name = strrchr(dir, '/') + 1;
	for (size_t i = 0; t->keep && i < t->keep->n; i++)
		if (!strcmp(t->keep->runs[i].name, name) && t->keep->runs[i].exit != 0 &&
		    t->keep->runs[i].exit != RPB_VERIFY_SKIPPED) {
			t->kept++;
			return 0;
		}
	uint64_t b = 0;
	struct rpb_err err;
	rpb_dir_usage(dir, &b, &err);
	/* Depth first, never following a link nor leaving the file system. */
	if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) != 0) {
		snprintf(t->msg, t->mn, "cannot remove the store %s: %s; remove it by hand", dir,
			 strerror(errno));
		return -1;
	}
	t->count++;
	t->bytes += b;
	return 0;
}

int rpb_cmp_stores_clean(const char *out, const struct rpb_cmp_verified *keep, size_t *removed,
			 uint64_t *bytes, size_t *kept, char *msg, size_t n)
{
	struct tally t = {.msg = msg, .mn = n, .keep = keep};
	int rc = each_store(out, clean_one, &t);
	char stores[RPB_CMP_PATH + 16];
	snprintf(stores, sizeof stores, "%s/stores", out);
	rmdir(stores); /* only when empty */
	*removed = t.count;
	*bytes = t.bytes;
	*kept = t.kept;
	return rc;
}
