/* The verb preload, end to end: a preloaded store and a measured ingest's
 * of the same workload, seed and number of creates hold the same keys and
 * documents in every table the pattern writes (read through the store
 * interface, key by key in key order, the run tag and the clock's times
 * masked: two runs differ in those and in nothing else) and the same
 * binary files, under both profiles; verify of the preload checks every
 * object; run --continue goes on from the next object and verifies clean;
 * a store grown by preload --continue after such a run is the ingest's too;
 * patterns and models without a preload are refused in one line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "pattern.h"

#define N_OBJECTS "300"

/* The containers' child lists: set by a test before it runs both. */
static const char *collection = "ingest.collection=flat";

/* The workload's options for both: files and inline binaries, probes. */
static void add_workload(struct e2e_args *a, const char *profile)
{
	e2e_args_add(a, "--set", "run.seed=7", "--set", "ingest.binary_threshold=1024",
		     "--set", "ingest.probe_every=100", "--set", profile, "--set", collection, NULL);
}

static void preload(const struct e2e_env *e, const char *out, const char *profile)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, e->bin, "preload", E2E_WORKLOAD("fedora-test2.ini"), "--objects",
		     N_OBJECTS, "--quiet", "--out", out, NULL);
	if (e->server)
		e2e_args_add(&a, "--dsn", e->dsn, "--schema", e->schema, NULL);
	add_workload(&a, profile);
	e2e_exec_ok(e->cap, &a);
}

static void ingest(const struct e2e_env *e, const char *out, const char *profile)
{
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_WORKLOAD("fedora-test2.ini"), out);
	e2e_args_add(&a, "--set", "run.ops=" N_OBJECTS, NULL);
	add_workload(&a, profile);
	e2e_exec_ok(e->cap, &a);
}

/* Every entry of a table, masked, one after another. */
struct dump {
	char *text;
	size_t len, cap;
	const char *tag;
};

static void put_bytes(struct dump *d, const void *p, size_t n)
{
	if (d->len + n + 1 > d->cap) {
		d->cap = (d->len + n + 1) * 2;
		d->text = realloc(d->text, d->cap);
		cr_assert_not_null(d->text);
	}
	memcpy(d->text + d->len, p, n);
	d->len += n;
	d->text[d->len] = '\0';
}

/* The run tag (whole, and in node keys) and every ISO time ("2026-01-02T03:04:05.678Z") masked. */
static void put_masked(struct dump *d, rpb_slice s)
{
	size_t start = d->len;
	put_bytes(d, s.data, s.len);
	char *p = d->text + start, *end = d->text + d->len;
	size_t tl = strlen(d->tag);
	/* ModeShape's node keys (ingest_fedora_doc.c) carry 7 digits of it (first: a
	 * whole tag there may run into the key's hash). */
	for (char *q = p; q + 14 <= end; q++)
		if (!memcmp(q, "87a0a8c", 7) && !memcmp(q + 7, d->tag, 7))
			memset(q + 7, 'T', 7);
	for (char *q = p; q + tl <= end; q++)
		if (!memcmp(q, d->tag, tl))
			memset(q, 'T', tl);
	for (char *q = p; q + 24 <= end; q++)
		if (q[4] == '-' && q[7] == '-' && q[10] == 'T' && q[13] == ':' && q[16] == ':' &&
		    q[19] == '.' && q[23] == 'Z')
			memcpy(q, "YYYY-MM-DDTHH:MM:SS.mmmZ", 24);
}

static int on_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	struct dump *d = ctx;
	put_masked(d, key);
	put_bytes(d, " => ", 4);
	put_masked(d, val);
	put_bytes(d, "\n", 1);
	return 0;
}

static void store_open(struct e2e_store *s, const struct e2e_env *e, const char *profile)
{
	if (!e->server) {
		e2e_store_open(s, e->backend, e->store);
		return;
	}
	memset(s, 0, sizeof *s);
	s->b = rpb_backend_find(e->backend);
	/* The profile chooses PostgreSQL's layout (ispn under fedora-4.5). */
	struct rpb_store_cfg cfg = {.sync = RPB_SYNC_NONE, .dsn = e->dsn, .name = e->schema,
				    .profile = strchr(profile, '=') + 1};
	struct rpb_err err = {0};
	cr_assert_eq(s->b->open(&cfg, &s->st, &err), RPB_OK, "reopening schema %s: %s", e->schema,
		     err.msg);
	cr_assert_eq(s->b->session_open(s->st, &s->s, &err), RPB_OK, "%s", err.msg);
}

/* Table t of the store of e's run in out, masked. The meta table is the
 * store's own (its marker, the runs that used it), not the pattern's. */
static char *dump_table(const struct e2e_env *e, const char *out, const char *profile,
			enum rpb_table t)
{
	json_t *r = e2e_result(out);
	struct dump d = {.tag = e2e_jstr(r, "manifest.run_tag")};
	put_bytes(&d, "", 0);
	struct e2e_store s;
	store_open(&s, e, profile);
	struct rpb_err err = {0};
	cr_assert_eq(s.b->begin(s.s, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(s.b->scan(s.s, t, NULL, NULL, 0, on_entry, &d, &err), RPB_OK, "%s", err.msg);
	s.b->rollback(s.s);
	e2e_store_close(&s);
	json_decref(r);
	return d.text;
}

/* The binary store's files and directories, but rpbench's mark (which
 * names the store that owns it). */
static char *binaries(const char *out)
{
	json_t *r = e2e_result(out);
	char *tree = e2e_tree(e2e_jstr(r, "pattern.fedora.binary_dir"));
	json_decref(r);
	char *w = tree;
	for (char *p = tree; *p;) {
		char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (strncmp(p, ".rpbench", 8) != 0) {
			memmove(w, p, n);
			w += n;
		}
		p += n;
	}
	*w = '\0';
	return tree;
}

/* The store of a's run in aout and b's in bout hold the same, table by
 * table, and the same binary files. */
static void same_stores(const struct e2e_env *pre, const char *aout, const struct e2e_env *ing,
			const char *bout, const char *profile)
{
	const char *backend = pre->backend;
	for (enum rpb_table t = 0; t < RPB_TABLE_COUNT; t++) {
		if (t == RPB_T_META)
			continue;
		char *a = dump_table(pre, aout, profile, t);
		char *b = dump_table(ing, bout, profile, t);
		cr_assert(t != RPB_T_DESCRIPTIONS || strlen(a) > 1000, "no documents preloaded");
		if (strcmp(a, b) != 0) {
			size_t k = 0;
			while (a[k] && a[k] == b[k])
				k++;
			size_t from = k > 200 ? k - 200 : 0;
			cr_assert_fail("%s, %s: table %s differs at byte %zu:\npreload: %.400s\ningest:  "
				       "%.400s", backend, profile, rpb_table_name(t), k, a + from,
				       b + from);
		}
		free(a);
		free(b);
	}
	char *fa = binaries(aout), *fb = binaries(bout);
	cr_assert(strstr(fa, " f ") || strlen(fa) > 100, "no binary files preloaded");
	cr_assert_str_eq(fa, fb, "%s, %s: the binary stores differ", backend, profile);
	free(fa);
	free(fb);
}

static void t_preload_is_an_ingest(const char *backend, const char *profile)
{
	struct e2e_env pre, ing;
	e2e_env_init(&pre, backend);
	e2e_env_init(&ing, backend);
	preload(&pre, pre.out, profile);
	ingest(&ing, ing.out, profile);
	json_t *r = e2e_result(pre.out);
	cr_assert_eq(e2e_jint(r, "pattern.preload.objects"), 300);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 300);
	json_decref(r);
	same_stores(&pre, pre.out, &ing, ing.out, profile);
	e2e_verify_clean(&pre, pre.out, 300);

	/* A measured run continues from object 301 on the preloaded store. */
	char cont[E2E_PATH];
	e2e_path(&pre, cont, "continued");
	struct e2e_args a;
	e2e_run_args(&a, &pre, E2E_WORKLOAD("fedora-test2.ini"), cont);
	e2e_args_add(&a, "--continue", pre.out, "--set", "run.ops=50", NULL);
	if (!pre.server)
		e2e_args_add(&a, "--dir", pre.store, NULL);
	add_workload(&a, profile);
	e2e_exec_ok(pre.cap, &a);
	r = e2e_result(cont);
	json_t *pr = e2e_result(pre.out);
	cr_assert_str_eq(e2e_jstr(r, "manifest.run_tag"), e2e_jstr(pr, "manifest.run_tag"),
			 "the continued run adds to the preload's keys");
	cr_assert_eq(e2e_jint(r, "pattern.continues.objects_before"), 300);
	json_decref(r);
	json_decref(pr);
	e2e_verify_clean(&pre, cont, 50);
	e2e_env_fini(&pre);
	e2e_env_fini(&ing);
}

/* The store of e: its --dir, or its server and schema. */
static void store_args(struct e2e_args *a, const struct e2e_env *e)
{
	if (e->server)
		e2e_args_add(a, "--dsn", e->dsn, "--schema", e->schema, NULL);
	else
		e2e_args_add(a, "--dir", e->store, NULL);
}

/* preload 100, a measured run of 50 on it, preload --continue to 300:
 * the store a measured ingest of 300 leaves (how rpbench scale grows one). */
static void t_grown_is_an_ingest(const char *backend)
{
	const char *profile = "run.profile=durable";
	struct e2e_env pre, ing;
	e2e_env_init(&pre, backend);
	e2e_env_init(&ing, backend);
	ingest(&ing, ing.out, profile);
	char run[E2E_PATH], grown[E2E_PATH];
	e2e_path(&pre, run, "window");
	e2e_path(&pre, grown, "grown");
	struct e2e_args a = {0};
	e2e_args_add(&a, pre.bin, "preload", E2E_WORKLOAD("fedora-test2.ini"), "--objects", "100",
		     "--quiet", "--out", pre.out, NULL);
	store_args(&a, &pre);
	add_workload(&a, profile);
	e2e_exec_ok(pre.cap, &a);
	e2e_run_args(&a, &pre, E2E_WORKLOAD("fedora-test2.ini"), run);
	e2e_args_add(&a, "--continue", pre.out, "--set", "run.ops=50", NULL);
	if (!pre.server)
		e2e_args_add(&a, "--dir", pre.store, NULL);
	add_workload(&a, profile);
	e2e_exec_ok(pre.cap, &a);
	memset(&a, 0, sizeof a);
	e2e_args_add(&a, pre.bin, "preload", E2E_WORKLOAD("fedora-test2.ini"), "--objects", "300",
		     "--continue", run, "--quiet", "--out", grown, NULL);
	store_args(&a, &pre);
	add_workload(&a, profile);
	e2e_exec_ok(pre.cap, &a);
	json_t *r = e2e_result(grown);
	cr_assert_eq(e2e_jint(r, "pattern.continues.objects_before"), 150);
	cr_assert_eq(e2e_jint(r, "pattern.preload.objects"), 150);
	json_decref(r);
	same_stores(&pre, grown, &ing, ing.out, profile);
	e2e_verify_clean(&pre, grown, 150);
	e2e_env_fini(&pre);
	e2e_env_fini(&ing);
}

#define T(backend)                                                                        \
	Test(e2e_##backend, preload_is_an_ingest_durable, .fini = e2e_cleanup)            \
	{                                                                                 \
		t_preload_is_an_ingest(#backend, "run.profile=durable");                  \
	}                                                                                 \
	Test(e2e_##backend, preload_is_an_ingest_fedora45, .fini = e2e_cleanup)           \
	{                                                                                 \
		t_preload_is_an_ingest(#backend, "run.profile=fedora-4.5");               \
	}                                                                                 \
	Test(e2e_##backend, preload_is_an_ingest_buckets, .fini = e2e_cleanup)            \
	{                                                                                 \
		collection = "ingest.collection=tiny"; /* ModeShape's buckets */          \
		t_preload_is_an_ingest(#backend, "run.profile=fedora-4.5");               \
	}                                                                                 \
	Test(e2e_##backend, preload_continue_grows_a_store, .fini = e2e_cleanup)          \
	{                                                                                 \
		t_grown_is_an_ingest(#backend);                                           \
	}
#ifdef RPB_HAVE_LEVELDB
T(leveldb)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite)
#endif
RPBT_EACH_SERVER(T)

/* Patterns and models without a preload: one line naming what works. */
static void refused(const char *workload, const char *extra, const char *needle)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "preload", workload, "--objects", "10", "--out", e.out, NULL);
	if (extra)
		e2e_args_add(&a, "--set", extra, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 1, "preload", needle, NULL);
	e2e_proc_free(&p);
	cr_assert(!e2e_exists(e.out), "a refused preload made its results directory");
	e2e_env_fini(&e);
}

Test(preload, refuses_what_has_none, .fini = e2e_cleanup)
{
	refused(E2E_WORKLOAD("ycsb/workloada"), NULL, "load");
	refused(E2E_WORKLOAD("ci-harvest.ini"), NULL, "harvest loads its corpus");
	refused(E2E_CI_INGEST, NULL, "model = fedora");
	refused(E2E_WORKLOAD("fedora-test2.ini"), "run.threads=7", "multiple");
}
