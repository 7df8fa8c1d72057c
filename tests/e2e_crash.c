/* Crashes at the points that matter, without timing: runs of the Fedora
 * model killed by inject = kill:POINT@N (SIGKILL, as kill -9) after a
 * binary's rename before its transaction (begin), inside the transaction
 * before commit (commit), after commit before the ledger records it
 * (acked), and between a binary's temporary file and its rename (file).
 * Under fedora-4.5 (fedora-test2.ini) a create also leaves a trash marker
 * while it runs and spools its body through <binaries>/tmp. verify of each
 * killed run must find nothing missing, corrupt or unexpected, with the
 * running creates in doubt (their markers and spooled bodies too); the next run on the same
 * store removes what the killed one left (embedded stores) and verifies
 * clean. Suites are named crash_<backend>. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "e2e_util.h"

#define EXIT_KILLED (128 + SIGKILL)

/* The Fedora model with every binary in the file store, two threads, a
 * probe every 3 creates, until killed at point on the 5th create. */
static void killed_run(const struct e2e_env *e, const char *out, const char *point,
		       const char *dir)
{
	struct e2e_args a;
	char inject[64];
	snprintf(inject, sizeof inject, "inject=kill:%s@5", point);
	e2e_run_args(&a, e, E2E_WORKLOAD("fedora-test2.ini"), out);
	e2e_args_add(&a, "--set", "size_min=4096", "--set", "size_max=8192", "--set", "threads=2",
		     "--set", "probe_every=3", "--set", "ops=0", "--set", E2E_UNTIL_KILLED, "--set",
		     inject, NULL);
	if (dir)
		e2e_args_add(&a, "--dir", dir, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
	e2e_assert_code(&p, EXIT_KILLED);
	e2e_proc_free(&p);
}

/* verify of out: exit 0, nothing missing, corrupt or unexpected, and (a
 * killed run) at least one create in doubt. */
static void verify_clean(const struct e2e_env *e, const char *out, bool killed)
{
	char *text = e2e_verify(e, out, 0);
	long long n = -1;
	int used = 0;
	sscanf(text, "verified %lld objects: 0 missing, 0 corrupt, 0 unexpected%n", &n, &used);
	cr_assert_gt(used, 0, "verify of %s printed \"%s\"", out, text);
	if (killed)
		cr_assert(strstr(text, " in doubt: failed inside commit or running when the run died"),
			  "the creates running at the kill are in doubt: %s", text);
	free(text);
}

static void t_kill_point(const char *backend, const char *point)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	char bins[E2E_PATH + 32];
	/* Embedded stores keep the binaries in the store, a server's store in
	 * the results directory. */
	snprintf(bins, sizeof bins, "%s/binaries", e.server ? e.out : e.store);
	killed_run(&e, e.out, point, NULL);
	char trash[E2E_PATH + 64];
	snprintf(trash, sizeof trash, "%s/trash", bins);
	/* A body being spooled when the process died (no kill point stops
	 * there; its file is put in place as one would be left). */
	char spool[E2E_PATH + 64];
	snprintf(spool, sizeof spool, "%s/tmp/body.tmp.999999.1", bins);
	FILE *sf = fopen(spool, "w");
	cr_assert_not_null(sf, "%s", spool);
	fclose(sf);
	long temps = e2e_count_files(bins, ".tmp."), all = e2e_count_files(bins, NULL);
	long marks = e2e_count_files(trash, NULL);
	if (!strcmp(point, "file"))
		cr_assert_geq(temps, 1, "killed between a temporary file and its rename: %ld in %s",
			      temps, bins);
	/* fedora-4.5 marks a binary in the trash tree before its transaction
	 * and clears the mark after commit: a kill in between leaves it. */
	if (!strcmp(point, "begin") || !strcmp(point, "commit"))
		cr_assert_geq(marks, 1, "killed inside a create: its trash marker is in %s", trash);
	verify_clean(&e, e.out, true);
	if (e.server) { /* a new run has a binary store of its own */
		e2e_env_fini(&e);
		return;
	}
	/* The next run on the same store removes the killed run's leftovers
	 * (its temporary files, the file of a create that never committed)
	 * and verifies clean: no orphan of the killed run is counted against
	 * it. */
	char next[E2E_PATH + 32];
	e2e_path(&e, next, "next");
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_WORKLOAD("fedora-test2.ini"), next);
	e2e_args_add(&a, "--set", "size_min=4096", "--set", "size_max=8192", "--set", "ops=10",
		     "--dir", e.store, NULL);
	e2e_exec_ok(e.cap, &a);
	json_t *r = e2e_result(next);
	json_int_t removed = json_integer_value(
		json_object_get(json_object_get(json_object_get(r, "pattern"), "fedora"),
				"leftovers_removed"));
	cr_assert_geq(removed, temps, "the next run removed %lld leftovers; %ld temporary files "
		      "were there", (long long)removed, temps);
	cr_assert_eq(e2e_count_files(bins, ".tmp."), 0, "temporary files left in %s", bins);
	cr_assert_geq(removed, temps + marks, "the sweep removes the trash markers too");
	cr_assert_eq(e2e_count_files(trash, NULL), 0, "trash markers left in %s", trash);
	cr_assert_leq(e2e_count_files(bins, NULL), all - removed + 10);
	json_decref(r);
	verify_clean(&e, next, false);
	verify_clean(&e, e.out, true); /* the killed run still verifies */
	e2e_env_fini(&e);
}

#define T(backend, point) \
	Test(crash_##backend, fedora_killed_at_##point, .fini = e2e_cleanup) \
	{ \
		t_kill_point(#backend, #point); \
	}

#ifdef RPB_HAVE_LEVELDB
T(leveldb, begin)
T(leveldb, commit)
T(leveldb, acked)
T(leveldb, file)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, begin)
T(sqlite, commit)
T(sqlite, acked)
T(sqlite, file)
#endif
#ifdef RPB_HAVE_ROCKSDB
T(rocksdb, begin)
T(rocksdb, commit)
T(rocksdb, acked)
T(rocksdb, file)
#endif
#define CRASH_TESTS(b) T(b, begin) T(b, commit) T(b, acked) T(b, file)
RPBT_EACH_SERVER(CRASH_TESTS)

/* ---- a ledger read as it reached the disk ---- */

/* Overwrites 8 bytes of out/ledger.bin at offset with v. */
static void ledger_poke(const char *out, long offset, uint64_t v)
{
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/ledger.bin", out);
	FILE *f = fopen(path, "r+b");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fseek(f, offset, SEEK_SET), 0);
	cr_assert_eq(fwrite(&v, sizeof v, 1, f), 1);
	cr_assert_eq(fclose(f), 0);
}

static uint64_t ledger_peek(const char *out, long offset)
{
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/ledger.bin", out);
	FILE *f = fopen(path, "rb");
	uint64_t v = 0;
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fseek(f, offset, SEEK_SET), 0);
	cr_assert_eq(fread(&v, sizeof v, 1, f), 1);
	fclose(f);
	return v;
}

/* What a power cut leaves when the results lived on the crashed file
 * system: the store holds creates the ledger on disk does not record (it
 * was written back before them). Made here without root: a killed run's
 * ledger.bin set back to fewer operations, then read as from another mount
 * (its mount id changed) and as from the same one. */
static void t_stale_ledger(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	killed_run(&e, e.out, "acked", NULL); /* 4 creates known when it died */
	enum { MOUNT_ID = 48, SLOTS = 64, SLOT = 64, STARTED = 0, FINISHED = 8, DURABLE = 24 };
	uint64_t mount = ledger_peek(e.out, MOUNT_ID);
	/* The ledger set back must claim only creates that happened: a prefix
	 * of the busier worker's finished ones (how the 4 split between the
	 * two threads depends on scheduling); of two as busy, the one with a
	 * create running at the kill, whose documents (fedora-4.5 writes each
	 * on its own) the ledger then does not record either. */
	long busy = SLOTS, other = SLOTS + SLOT;
	uint64_t fin0 = ledger_peek(e.out, busy + FINISHED), fin1 = ledger_peek(e.out, other + FINISHED);
	if (fin1 > fin0 || (fin1 == fin0 && ledger_peek(e.out, other + STARTED) > fin1))
		busy = other;
	uint64_t done = ledger_peek(e.out, busy + FINISHED);
	cr_assert_geq(done, 2, "one of two threads finished at least 2 of the 4 creates");
	ledger_poke(e.out, busy + STARTED, done - 1);
	ledger_poke(e.out, busy + FINISHED, done - 1);
	ledger_poke(e.out, busy + DURABLE, 1);
	/* Read on the instance it was written on, the page cache's view is the
	 * ledger: creates beyond it are unexpected. */
	char *text = e2e_verify(&e, e.out, 4);
	cr_assert(strstr(text, " unexpected") && !strstr(text, " 0 unexpected"), "%s", text);
	free(text);
	/* Read as from the crash image: unprovable, accepted whole, said so. */
	ledger_poke(e.out, MOUNT_ID, mount + 1);
	text = e2e_verify(&e, e.out, 0);
	cr_assert(strstr(text, "0 missing, 0 corrupt, 0 unexpected"), "%s", text);
	cr_assert(strstr(text, "\nnote: the ledger on disk was last made durable at op "), "%s", text);
	cr_assert(strstr(text, " operations it does not record left records in the store, accepted "
			       "whole but not checked\n"), "%s", text);
	free(text);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
Test(crash_leveldb, stale_ledger_after_power_cut, .fini = e2e_cleanup) { t_stale_ledger("leveldb"); }
#endif
#ifdef RPB_HAVE_SQLITE
Test(crash_sqlite, stale_ledger_after_power_cut, .fini = e2e_cleanup) { t_stale_ledger("sqlite"); }
#endif
#ifdef RPB_HAVE_ROCKSDB
Test(crash_rocksdb, stale_ledger_after_power_cut, .fini = e2e_cleanup) { t_stale_ledger("rocksdb"); }
#endif
