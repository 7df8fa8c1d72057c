/* What a reader sees of a run: the header line (when it stops, where the
 * results go), the first progress line, the latency table in summary.txt
 * and on stdout, and the manifest's facts about the machine, the build,
 * the store's mount and a server. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

static const char table_head[] = "count       mean     stddev        min        p50        p90 "
				  "       p99      p99.9        max\n";

/* Counts the lines of text starting with prefix. */
static unsigned lines_with(const char *text, const char *prefix)
{
	unsigned n = 0;
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] ? 1 : 0))
		n += strncmp(l, prefix, strlen(prefix)) == 0;
	return n;
}

#ifdef RPB_HAVE_SQLITE
Test(e2e_outputs, header_progress_and_latency_table, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	/* A 3-second run with a 60-second interval: the first progress line,
	 * after one second, is the only one before the end. */
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "run", E2E_CI_INGEST, "--out", e.out, "--set", "duration=3",
		      "--set", "ops=0", "--set", "interval=60", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	char want[E2E_PATH + 64];
	snprintf(want, sizeof want, "stops after 3 s, or on an error or a signal; results: %s\n",
		 e.out);
	cr_assert_not_null(strstr(p.out, want), "no header line \"%s\" in:\n%s", want, p.out);
	cr_assert_geq(lines_with(p.out, "summary + "), 2,
		      "no progress line before the end (interval 60 s, duration 3 s):\n%s", p.out);
	cr_assert_eq(lines_with(p.out, "summary = "), 2, "%s", p.out);

	/* The table, on stdout and in summary.txt, one row per label sampled. */
	char *summary = e2e_slurp_in(e.out, "summary.txt");
	cr_assert_not_null(summary);
	json_t *r = e2e_result(e.out);
	const char *text[] = {p.out, summary};
	for (int t = 0; t < 2; t++) {
		const char *head = strstr(text[t], "\nLatency us ");
		cr_assert(head && strstr(head, table_head), "no latency table in:\n%s", text[t]);
		unsigned rows = 0;
		const char *key;
		json_t *label;
		json_object_foreach(json_object_get(r, "labels"), key, label) {
			json_int_t n = json_integer_value(json_object_get(label, "measured"));
			if (!n)
				continue;
			char row[64];
			snprintf(row, sizeof row, "\n%s ", key);
			const char *at = strstr(head, row);
			cr_assert_not_null(at, "no row \"%s\" in:\n%s", key, head);
			cr_assert_eq(strtoll(at + strlen(row), NULL, 10), n, "%s: count, want %lld:\n%s",
				     key, (long long)n, head);
			cr_assert(json_is_real(json_object_get(label, "stddev_us")), "%s.stddev_us", key);
			rows++;
		}
		cr_assert_gt(rows, 0);
	}
	json_decref(r);
	free(summary);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(e2e_outputs, manifest_machine_build_and_mount, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	e2e_run_ci(&e, "--set", "ops=20", NULL);
	json_t *r = e2e_result(e.out);
	cr_assert(*e2e_jstr(r, "manifest.host.cpu_model"));
	cr_assert_eq(strncmp(e2e_jstr(r, "manifest.host.kernel"), "Linux ", 6), 0);
	const char *commit = e2e_jstr(r, "manifest.build.commit");
	cr_assert(!strcmp(commit, "unknown") || strspn(commit, "0123456789abcdef") == 40,
		  "build.commit %s", commit);
	cr_assert(*e2e_jstr(r, "manifest.build.compiler"));
	cr_assert_not_null(strstr(e2e_jstr(r, "manifest.build.flags"), "-Wall"));
	const char *point = e2e_jstr(r, "manifest.store.mount.point");
	const char *dir = e2e_jstr(r, "manifest.store.dir");
	cr_assert(!strcmp(point, "/") || !strncmp(dir, point, strlen(point)),
		  "mount point %s is not above the store %s", point, dir);
	cr_assert(*e2e_jstr(r, "manifest.store.mount.fs_type"));
	cr_assert(*e2e_jstr(r, "manifest.store.mount.options"));
	cr_assert_null(json_object_get(json_object_get(r, "manifest"), "server"),
		       "SQLite has no server");
	/* The resident set's parts: each sampled peak within the process's
	 * peak, the heap's never zero. */
	json_int_t peak = e2e_jint(r, "totals.peak_rss_bytes");
	json_int_t anon = e2e_jint(r, "totals.peak_rss_anon_bytes");
	json_int_t file = e2e_jint(r, "totals.peak_rss_file_bytes");
	cr_assert(anon > 0 && anon <= peak, "RssAnon peak %lld, peak RSS %lld", (long long)anon,
		  (long long)peak);
	cr_assert(file >= 0 && file <= peak, "RssFile peak %lld, peak RSS %lld", (long long)file,
		  (long long)peak);
	json_decref(r);
	e2e_env_fini(&e);
}

#endif

#ifdef RPB_HAVE_POSTGRES
Test(e2e_outputs, manifest_postgres_server, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "postgres");
	e2e_run_ci(&e, "--set", "ops=20", NULL);
	json_t *r = e2e_result(e.out);
	static const char *const keys[] = {"server_version", "synchronous_commit", "fsync",
					   "wal_level", "shared_buffers"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		char path[64];
		snprintf(path, sizeof path, "manifest.server.%s", keys[i]);
		cr_assert(*e2e_jstr(r, path), "%s is empty", path);
	}
	/* The server's version, not libpq's: a number first. */
	cr_assert(strspn(e2e_jstr(r, "manifest.server.server_version"), "0123456789") > 0);
	json_decref(r);
	e2e_env_fini(&e);
}
#endif
