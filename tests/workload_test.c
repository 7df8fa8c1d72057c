/* Workload files, --set, the JSON dump and --help (src/core/workload.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "ingest.h"
#include "pattern.h"
#include "help.h"
#include "workload.h"

#define DATA RPB_SOURCE_DIR "/tests/data/"

/* Loads a fixture that must be valid. */
static void load_ok(struct rpb_job *job, const char *name)
{
	char msg[1024] = "";
	rpb_job_defaults(job);
	cr_assert_eq(rpb_job_load(job, name, msg, sizeof msg), 0, "%s: %s", name, msg);
}

/* Loads a fixture that must fail with exactly "DATA/file:want". */
static void load_fails(const char *file, const char *want)
{
	struct rpb_job job;
	char msg[1024] = "", expect[1024];
	rpb_job_defaults(&job);
	snprintf(expect, sizeof expect, "%s%s:%s", DATA, file, want);
	char path[512];
	snprintf(path, sizeof path, "%s%s", DATA, file);
	cr_assert_neq(rpb_job_load(&job, path, msg, sizeof msg), 0, "%s loaded", file);
	cr_assert_str_eq(msg, expect);
	cr_assert_null(strchr(msg, '\n'), "one line");
	rpb_job_free(&job);
}

/* Applies --set to a job that must accept it. */
static void set_ok(struct rpb_job *job, const char *a)
{
	char msg[1024] = "";
	cr_assert_eq(rpb_job_set(job, a, msg, sizeof msg), 0, "%s: %s", a, msg);
}

/* --set must fail with "--set 'a': want". */
static void set_fails(struct rpb_job *job, const char *a, const char *want)
{
	char msg[1024] = "", expect[1024];
	snprintf(expect, sizeof expect, "--set '%s': %s", a, want);
	cr_assert_neq(rpb_job_set(job, a, msg, sizeof msg), 0, "%s accepted", a);
	cr_assert_str_eq(msg, expect);
}

/* The canonical text of one option in the JSON dump. */
static const char *dumped(json_t *obj, const char *name)
{
	const char *v = json_string_value(json_object_get(obj, name));
	cr_assert_not_null(v, "%s missing from the dump", name);
	return v;
}

Test(workload, defaults)
{
	struct rpb_job job;
	rpb_job_defaults(&job);
	cr_assert_null(job.pattern);
	cr_assert_eq(job.run.threads, 1);
	cr_assert_eq(job.run.clients, 1);
	cr_assert_eq(job.run.ops, 0);
	cr_assert_eq(job.run.duration, 0);
	cr_assert_eq(job.run.bytes, 0);
	cr_assert_eq(job.run.warmup.ops, 0);
	cr_assert_eq(job.run.warmup.seconds, 0);
	cr_assert_eq(job.run.rate, 0);
	cr_assert_eq(job.run.interval, RPB_OPT_SECONDS_NONE, "auto, resolved by rpb_job_finish");
	cr_assert_eq(job.run.seed, 42);
	cr_assert_eq(job.run.sync, RPB_SYNC_AUTO, "resolved by rpb_job_finish");
	cr_assert_eq(job.run.txn_timeout, 0);
	cr_assert_eq(job.run.slow_ms, 60300);
	cr_assert_eq(job.run.max_slow, 3);
	for (int c = 0; c < RPB_STATUS_COUNT; c++)
		cr_assert_eq(job.run.on_error[c].action, RPB_ACT_STOP);
	cr_assert_not(job.run.jtl);
	cr_assert_eq(job.nbackends, 0);
	cr_assert_str_eq(rpb_job_pattern_name(&job), "none");
	char err[256];
	cr_assert_eq(rpb_job_choose(&job, rpb_pattern_find("ingest"), err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(rpb_job_pattern_name(&job), "ingest");
	cr_assert_eq(ingest_opts(&job)->size_min, 0);
	cr_assert_eq(ingest_opts(&job)->size_max, 4096);
	cr_assert_eq(ingest_opts(&job)->content, RPB_CONTENT_ASCII);
	cr_assert_eq(ingest_opts(&job)->containers, 1);
	cr_assert_eq(ingest_opts(&job)->probe_every, 1000);
	rpb_job_free(&job);
}

Test(workload, full_file)
{
	struct rpb_job job;
	char msg[1024] = "";
	load_ok(&job, DATA "full.ini");
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	cr_assert_str_eq(job.source, DATA "full.ini");
	cr_assert_eq(job.pattern, rpb_pattern_find("ingest"));
	cr_assert_eq(job.run.threads, 8);
	cr_assert_eq(job.run.clients, 4);
	cr_assert_eq(job.run.ops, 100000);
	cr_assert_eq(job.run.duration, 90);
	cr_assert_eq(job.run.bytes, 2ull << 30);
	cr_assert_eq(job.run.warmup.ops, 0);
	cr_assert_eq(job.run.warmup.seconds, 5);
	cr_assert_eq(job.run.rate, 2500.5);
	cr_assert_eq(job.run.interval, 0.5);
	cr_assert_eq(job.run.seed, 7);
	cr_assert_eq(job.run.sync, RPB_SYNC_NONE);
	cr_assert_eq(job.run.txn_timeout, 30000);
	cr_assert_eq(job.run.slow_ms, 1000);
	cr_assert_eq(job.run.max_slow, 0);
	/* on_error sets every class; the later per-class keys override it. */
	cr_assert_eq(job.run.on_error[RPB_IO].action, RPB_ACT_CONTINUE);
	cr_assert_eq(job.run.on_error[RPB_CONFLICT].action, RPB_ACT_RETRY);
	cr_assert_eq(job.run.on_error[RPB_CONFLICT].retries, 3);
	cr_assert_eq(job.run.on_error[RPB_DISK_FULL].action, RPB_ACT_STOP);
	cr_assert(job.run.jtl);
	cr_assert_eq(ingest_opts(&job)->size_min, 1024);
	cr_assert_eq(ingest_opts(&job)->size_max, 64u << 20);
	cr_assert_eq(ingest_opts(&job)->content, RPB_CONTENT_BINARY);
	cr_assert_eq(ingest_opts(&job)->containers, 1000);
	cr_assert_eq(ingest_opts(&job)->probe_every, 0);
	const struct rpb_backend_section *s = rpb_job_backend(&job, "sqlite");
	cr_assert_not_null(s);
	cr_assert_eq(s->n, 2);
	cr_assert_str_eq(s->kv[0].key, "cache_size");
	cr_assert_str_eq(s->kv[0].value, "1M");
	cr_assert_str_eq(s->kv[1].key, "journal_mode");
	cr_assert_str_eq(s->kv[1].value, "wal");
	cr_assert_null(rpb_job_backend(&job, "leveldb"));
	rpb_job_free(&job);
}

Test(workload, empty_pattern_section_selects_it)
{
	struct rpb_job job;
	char msg[1024] = "";
	load_ok(&job, DATA "empty_ingest.ini");
	cr_assert_eq(job.pattern, rpb_pattern_find("ingest"));
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(ingest_opts(&job)->size_max, 4096);
	rpb_job_free(&job);
}

Test(workload, backend_sections_verbatim)
{
	struct rpb_job job;
	load_ok(&job, DATA "backends.ini");
	const struct rpb_backend_section *s = rpb_job_backend(&job, "sqlite");
	cr_assert_not_null(s);
	cr_assert_eq(s->n, 3, "a repeated key replaces, a reopened section adds");
	cr_assert_str_eq(s->kv[0].key, "cache_size");
	cr_assert_str_eq(s->kv[0].value, "2M");
	cr_assert_str_eq(s->kv[1].value, "off");
	cr_assert_str_eq(s->kv[2].key, "mmap_size");
	s = rpb_job_backend(&job, "leveldb");
	cr_assert_not_null(s);
	cr_assert_eq(s->n, 1);
	cr_assert_str_eq(s->kv[0].value, "4M");
	cr_assert_null(rpb_job_backend(&job, "postgres"));
	rpb_job_free(&job);
}

Test(workload, cannot_open)
{
	struct rpb_job job;
	char msg[1024] = "";
	rpb_job_defaults(&job);
	cr_assert_neq(rpb_job_load(&job, DATA "missing.ini", msg, sizeof msg), 0);
	cr_assert_str_eq(msg, "cannot read workload " DATA "missing.ini: No such file or directory");
}

Test(workload, unknown_key)
{
	load_fails("unknown_key.ini", "3: unknown key 'sise_max' in [ingest] (did you mean "
				      "size_max?); valid keys: size_min, size_max, content, containers, probe_every, model, "
				      "pairtree_length, pairtree_count, child_block, collection, members, "
				      "binary_threshold, binary_dir, digest, doc_cache, start_at, read_mix, "
				      "read_at, list_page, preload_content");
	load_fails("unknown_run_key.ini", "3: unknown key 'thread' in [run] (did you mean "
					  "threads?); valid keys: threads, clients, ops, duration, bytes, "
					  "warmup, rate, latency, interval, seed, "
					  "sync, profile, txn_timeout, inject, slow_ms, max_slow, on_error, "
					  "on_error.<class>, jtl, jtl_columns, jtl_us");
	load_fails("bad_class.ini", "2: unknown error class 'disk_full' in [run] on_error.disk_full "
				    "(did you mean disk-full?); give one of: not-found, exists, disk-full, "
				    "txn-timeout, conflict, conn-lost, io, corrupt, invalid, nomem");
}

Test(workload, out_of_range)
{
	load_fails("out_of_range.ini", "3: [run] threads = 0 is out of range; give an integer in [1, 1024]");
	load_fails("retry0.ini", "2: [run] on_error.conflict = retry:0 is out of range; "
				 "give stop, continue or retry:N with N in [1, 1000]");
}

Test(workload, bad_enum)
{
	load_fails("bad_enum.ini", "2: [run] sync = maybe is invalid; give one of: none, commit, native, auto");
}

/* The sections a workload may have: [run], the patterns', then every
 * backend the registry declares (built in or not, the tests' own too). */
static const char *valid_sections(void)
{
	static char list[512];
	snprintf(list, sizeof list, "run, ingest, metadata, harvest, raw, ycsb");
	for (size_t i = 0; rpb_backend_names[i]; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), ", %s", rpb_backend_names[i]);
	return list;
}

Test(workload, unknown_section)
{
	char want[640];
	snprintf(want, sizeof want, "4: unknown section [ingset] (did you mean [ingest]?); valid "
		 "sections: %s", valid_sections());
	cr_assert(strstr(want, "ycsb, leveldb, sqlite, postgres, "), "%s", want);
	load_fails("unknown_section.ini", want);
	load_fails("unknown_empty_section.ini", want);
}

Test(workload, malformed)
{
	/* The first problem wins, though inih reads on past it. */
	load_fails("malformed.ini", "3: malformed line; write key = value under a [section]");
	load_fails("malformed_section.ini", "2: malformed line; write key = value under a [section]");
	load_fails("outside.ini", "1: key 'threads' is outside any section; put it under [run] or "
				  "a pattern section");
	load_fails("indented.ini", "3: indented line continues the value above; remove the indentation");
	/* A long line is read whole; the message cuts the value it quotes. */
	char want[512];
	snprintf(want, sizeof want, "2: [run] seed = %.200s... is out of range; give an integer in "
		 "[0, 2^64-1]", "11111111111111111111111111111111111111111111111111111111111111111111"
		 "11111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
		 "1111111111111111111111111111111111111111111111111111111111111111111111111111111111");
	load_fails("long_line.ini", want);
}

Test(workload, no_pattern)
{
	struct rpb_job job;
	char msg[1024] = "";
	load_ok(&job, DATA "no_pattern.ini");
	cr_assert_neq(rpb_job_finish(&job, msg, sizeof msg), 0);
	cr_assert_str_eq(msg, DATA "no_pattern.ini: no pattern: add an [ingest] section "
				   "(known patterns: ingest, metadata, harvest, raw, ycsb)");
	/* A --set of a pattern key chooses the pattern. */
	set_ok(&job, "ingest.size_max=10");
	cr_assert_eq(job.pattern, rpb_pattern_find("ingest"));
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	rpb_job_free(&job);

	rpb_job_defaults(&job);
	cr_assert_neq(rpb_job_finish(&job, msg, sizeof msg), 0);
	cr_assert_str_eq(msg, "no pattern: add an [ingest] section (known patterns: ingest, "
			      "metadata, harvest, raw, ycsb)");
	set_ok(&job, "size_min=1");
	cr_assert_eq(job.pattern, rpb_pattern_find("ingest"), "a bare pattern key chooses it too");
}

Test(workload, size_order)
{
	struct rpb_job job;
	char msg[1024] = "";
	load_ok(&job, DATA "size_order.ini");
	cr_assert_neq(rpb_job_finish(&job, msg, sizeof msg), 0);
	cr_assert_str_eq(msg, DATA "size_order.ini: [ingest] size_min = 8192 exceeds size_max = 4096; "
				   "make size_min < size_max, or equal for a fixed size");
	load_ok(&job, DATA "size_fixed.ini");
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
}

Test(workload, set_forms)
{
	struct rpb_job job;
	load_ok(&job, DATA "overridable.ini");
	set_ok(&job, "run.threads=16");
	cr_assert_eq(job.run.threads, 16);
	set_ok(&job, " clients = 3 ");
	cr_assert_eq(job.run.clients, 3);
	set_ok(&job, "ingest.content=binary");
	cr_assert_eq(ingest_opts(&job)->content, RPB_CONTENT_BINARY);
	set_ok(&job, "probe_every=5");
	cr_assert_eq(ingest_opts(&job)->probe_every, 5);
	set_ok(&job, "on_error.conn-lost=retry:7");
	cr_assert_eq(job.run.on_error[RPB_CONN_LOST].action, RPB_ACT_RETRY);
	cr_assert_eq(job.run.on_error[RPB_CONN_LOST].retries, 7);
	set_ok(&job, "run.on_error.io=continue");
	cr_assert_eq(job.run.on_error[RPB_IO].action, RPB_ACT_CONTINUE);
	set_ok(&job, "sqlite.cache_size=1M");
	set_ok(&job, "sqlite.cache_size=2M");
	set_ok(&job, "postgres.dsn_extra=a=b c");
	const struct rpb_backend_section *s = rpb_job_backend(&job, "sqlite");
	cr_assert_not_null(s);
	cr_assert_eq(s->n, 1);
	cr_assert_str_eq(s->kv[0].value, "2M");
	s = rpb_job_backend(&job, "postgres");
	cr_assert_str_eq(s->kv[0].value, "a=b c", "only the first '=' splits");

	set_fails(&job, "threads", "no '='; write section.key=value or key=value");
	set_fails(&job, "run.threads=0", "[run] threads = 0 is out of range; give an integer in [1, 1024]");
	set_fails(&job, "thread=2", "unknown key 'thread' in [run] and the pattern section "
				    "(did you mean threads?); "
				    "write backend.thread for a backend option, see --help for the others");
	set_fails(&job, "run.thread=2", "unknown key 'thread' in [run] (did you mean threads?); "
					"valid keys: threads, clients, ops, duration, bytes, warmup, rate, latency, interval, seed, sync, "
					"profile, txn_timeout, inject, slow_ms, max_slow, on_error, on_error.<class>, jtl, jtl_columns, jtl_us");
	char sections[640];
	snprintf(sections, sizeof sections, "unknown section [ingset] (did you mean [ingest]?); "
		 "valid sections: %s", valid_sections());
	set_fails(&job, "ingset.size_max=1", sections);
	set_fails(&job, "on_error.oops=stop", "unknown error class 'oops' in [run] on_error.oops; give one "
					      "of: not-found, exists, disk-full, txn-timeout, conflict, conn-lost, "
					      "io, corrupt, invalid, nomem");
	set_fails(&job, "sync=maybe", "[run] sync = maybe is invalid; give one of: none, commit, native, auto");
	set_fails(&job, "run.=1", "no key after 'run.'; write section.key=value");
	/* Only [run] and pattern keys may be bare; their names never collide
	 * today, so "ambiguous" cannot be provoked through this table. */
	set_fails(&job, "cache_size=1M", "unknown key 'cache_size' in [run] and the pattern section; "
					 "write backend.cache_size for a backend option, see --help "
					 "for the others");
	rpb_job_free(&job);
}

Test(workload, every_error_class_has_a_policy)
{
	struct rpb_job job;
	rpb_job_defaults(&job);
	for (int c = 0; c < RPB_STATUS_COUNT; c++) {
		if (c == RPB_OK)
			continue;
		char a[128];
		snprintf(a, sizeof a, "on_error.%s=retry:%d", rpb_status_name(c), c);
		set_ok(&job, a);
		cr_assert_eq(job.run.on_error[c].action, RPB_ACT_RETRY, "%s", a);
		cr_assert_eq(job.run.on_error[c].retries, (unsigned)c);
	}
	set_fails(&job, "on_error.ok=stop", "unknown error class 'ok' in [run] on_error.ok; give one "
					    "of: not-found, exists, disk-full, txn-timeout, conflict, conn-lost, "
					    "io, corrupt, invalid, nomem");
	set_ok(&job, "on_error=continue");
	for (int c = 0; c < RPB_STATUS_COUNT; c++)
		if (c != RPB_OK) /* not-found too: an operation that fails with it */
			cr_assert_eq(job.run.on_error[c].action, RPB_ACT_CONTINUE);
}

Test(workload, policies)
{
	struct rpb_job job;
	rpb_job_defaults(&job);
	set_ok(&job, "on_error.conflict=retry:1");
	cr_assert_eq(job.run.on_error[RPB_CONFLICT].retries, 1);
	set_ok(&job, "on_error.conflict=retry:1000");
	cr_assert_eq(job.run.on_error[RPB_CONFLICT].retries, 1000);
	set_ok(&job, "on_error.conflict=stop");
	cr_assert_eq(job.run.on_error[RPB_CONFLICT].action, RPB_ACT_STOP);
	const char *range = "give stop, continue or retry:N with N in [1, 1000]";
	char want[256];
	snprintf(want, sizeof want, "[run] on_error.conflict = retry:0 is out of range; %s", range);
	set_fails(&job, "on_error.conflict=retry:0", want);
	snprintf(want, sizeof want, "[run] on_error.conflict = retry:1001 is out of range; %s", range);
	set_fails(&job, "on_error.conflict=retry:1001", want);
	snprintf(want, sizeof want, "[run] on_error.conflict = retry: is invalid; %s", range);
	set_fails(&job, "on_error.conflict=retry:", want);
	snprintf(want, sizeof want, "[run] on_error.conflict = retry:-1 is invalid; %s", range);
	set_fails(&job, "on_error.conflict=retry:-1", want);
	snprintf(want, sizeof want, "[run] on_error = ignore is invalid; %s", range);
	set_fails(&job, "on_error=ignore", want);
	cr_assert_eq(job.run.on_error[RPB_CONFLICT].action, RPB_ACT_STOP, "failures change nothing");
}

Test(workload, inject)
{
	struct rpb_job job;
	rpb_job_defaults(&job);
	cr_assert_eq(job.run.inject.kind, RPB_INJECT_OFF);
	set_ok(&job, "inject=stall:60000@3");
	cr_assert_eq(job.run.inject.kind, RPB_INJECT_STALL);
	cr_assert_eq(job.run.inject.ms, 60000);
	cr_assert_eq(job.run.inject.every, 3);
	set_ok(&job, "run.inject=lock:1@1");
	cr_assert_eq(job.run.inject.kind, RPB_INJECT_LOCK);
	cr_assert_eq(job.run.inject.ms, 1);
	json_t *dump = rpb_job_to_json(&job);
	cr_assert_str_eq(dumped(dump, "run.inject"), "lock:1@1");
	json_decref(dump);
	set_ok(&job, "inject=partial:2@7");
	cr_assert_eq(job.run.inject.kind, RPB_INJECT_PARTIAL);
	cr_assert_eq(job.run.inject.ms, 2);
	cr_assert_eq(job.run.inject.every, 7);
	dump = rpb_job_to_json(&job);
	cr_assert_str_eq(dumped(dump, "run.inject"), "partial:2@7");
	json_decref(dump);
	set_ok(&job, "inject=leak@4");
	cr_assert_eq(job.run.inject.kind, RPB_INJECT_LEAK);
	cr_assert_eq(job.run.inject.every, 4);
	dump = rpb_job_to_json(&job);
	cr_assert_str_eq(dumped(dump, "run.inject"), "leak@4");
	json_decref(dump);
	set_ok(&job, "inject=kill:file@5");
	cr_assert_eq(job.run.inject.kind, RPB_INJECT_KILL);
	cr_assert_eq(job.run.inject.point, RPB_KILL_FILE);
	cr_assert_eq(job.run.inject.every, 5);
	dump = rpb_job_to_json(&job);
	cr_assert_str_eq(dumped(dump, "run.inject"), "kill:file@5");
	json_decref(dump);
	for (unsigned p = 0; p < RPB_KILL_POINTS; p++) {
		char a[64];
		snprintf(a, sizeof a, "inject=kill:%s@1", rpb_kill_point_names[p]);
		set_ok(&job, a);
		cr_assert_eq(job.run.inject.point, (enum rpb_kill_point)p, "%s", a);
	}
	const char *range = "give off, stall:MS@N, lock:MS@N or partial:K@N with MS in [1, "
			    "86400000] ms and K documents in the same range, or kill:POINT@N with "
			    "POINT one of begin, commit, acked, file, or leak@N; N >= 1 (every Nth "
			    "operation; leak: the Nth)";
	static const struct {
		const char *value, *what;
	} bad[] = {
		{"stall:0@1", "out of range"}, {"stall:5@0", "out of range"},
		{"stall:5", "invalid"},        {"crash:5@1", "invalid"},
		{"lock:@3", "invalid"},        {"stall:86400001@1", "out of range"},
		{"partial:0@1", "out of range"},
		{"kill:nowhere@1", "invalid"}, {"kill:file@0", "out of range"},
		{"kill:file", "invalid"},      {"kill:@2", "invalid"},
		{"leak@0", "out of range"},    {"leak@", "invalid"},
		{"leak:5@1", "invalid"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char a[64], want[512];
		snprintf(a, sizeof a, "inject=%s", bad[i].value);
		snprintf(want, sizeof want, "[run] inject = %s is %s; %s", bad[i].value, bad[i].what,
			 range);
		set_fails(&job, a, want);
	}
	set_ok(&job, "inject=off");
	cr_assert_eq(job.run.inject.kind, RPB_INJECT_OFF);
	rpb_job_free(&job);
}

Test(workload, size_suffixes)
{
	struct rpb_job job;
	rpb_job_defaults(&job);
	static const struct { const char *text; uint64_t want; } ok[] = {
		{"0", 0}, {"512", 512}, {"1k", 1024}, {"1K", 1024}, {"3M", 3u << 20},
		{"2G", 2ull << 30}, {"5T", 5ull << 40}, {"4194304T", 1ull << 62},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char a[64];
		snprintf(a, sizeof a, "bytes=%s", ok[i].text);
		set_ok(&job, a);
		cr_assert_eq(job.run.bytes, ok[i].want, "%s", a);
	}
	const char *range = "give a size in bytes in [0, 2^62] (suffix k, M, G or T)";
	static const struct { const char *text; const char *why; } bad[] = {
		{"1x", "invalid"}, {"k", "invalid"}, {"-1", "invalid"}, {"1kk", "invalid"},
		{" ", "invalid"}, {"1.5M", "invalid"}, {"4194305T", "out of range"},
		{"99999999999T", "out of range"}, {"99999999999999999999", "out of range"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char a[64], want[256];
		snprintf(a, sizeof a, "bytes=%s", bad[i].text);
		snprintf(want, sizeof want, "[run] bytes = %s is %s; %s",
			 strcmp(bad[i].text, " ") ? bad[i].text : "(empty)", bad[i].why, range);
		set_fails(&job, a, want);
	}
	set_ok(&job, "size_max=64M");
	cr_assert_eq(ingest_opts(&job)->size_max, 64u << 20);
	set_fails(&job, "size_max=65M", "[ingest] size_max = 65M is out of range; give a size in bytes "
					"in [1, 64M] (suffix k, M, G or T)");
	set_fails(&job, "size_max=0", "[ingest] size_max = 0 is out of range; give a size in bytes "
				      "in [1, 64M] (suffix k, M, G or T)");
	/* Counts take no suffix. */
	set_fails(&job, "ops=1k", "[run] ops = 1k is invalid; give an integer in [0, 2^62]");
}

Test(workload, seconds_suffixes)
{
	struct rpb_job job;
	rpb_job_defaults(&job);
	static const struct { const char *text; double want; } ok[] = {
		{"90", 90}, {"90s", 90}, {"1.5m", 90}, {"2h", 7200}, {"500ms", 0.5}, {"0", 0},
		{"744h", 31 * 86400},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char a[64];
		snprintf(a, sizeof a, "duration=%s", ok[i].text);
		set_ok(&job, a);
		cr_assert_eq(job.run.duration, ok[i].want, "%s", a);
	}
	const char *range = "give seconds in [0, 2678400] (suffix ms, s, m or h)";
	static const struct { const char *text; const char *why; } bad[] = {
		{"5d", "invalid"}, {"s", "invalid"}, {"1.5.2", "invalid"}, {"nan", "invalid"},
		{"-1", "out of range"}, {"745h", "out of range"}, {"1e999", "out of range"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char a[64], want[256];
		snprintf(a, sizeof a, "duration=%s", bad[i].text);
		snprintf(want, sizeof want, "[run] duration = %s is %s; %s", bad[i].text, bad[i].why, range);
		set_fails(&job, a, want);
	}
	set_ok(&job, "interval=100ms");
	cr_assert_eq(job.run.interval, 0.1);
	set_fails(&job, "interval=50ms", "[run] interval = 50ms is out of range; give seconds in "
					 "[0.1, 86400] (suffix ms, s, m or h) or auto");
	set_ok(&job, "rate=1e9");
	cr_assert_eq(job.run.rate, 1e9);
	set_fails(&job, "rate=2e9", "[run] rate = 2e9 is out of range; give a number in [0, 1000000000]");
	set_fails(&job, "rate=10/s", "[run] rate = 10/s is invalid; give a number in [0, 1000000000]");
}

Test(workload, warmup_and_bools)
{
	struct rpb_job job;
	rpb_job_defaults(&job);
	set_ok(&job, "warmup=100");
	cr_assert_eq(job.run.warmup.ops, 100);
	cr_assert_eq(job.run.warmup.seconds, 0);
	set_ok(&job, "warmup=5s");
	cr_assert_eq(job.run.warmup.ops, 0, "a time replaces an operation count");
	cr_assert_eq(job.run.warmup.seconds, 5);
	set_ok(&job, "warmup=2m");
	cr_assert_eq(job.run.warmup.seconds, 120);
	set_fails(&job, "warmup=5x", "[run] warmup = 5x is invalid; give operations per thread in "
				     "[0, 2^62] or a time in [0, 2678400] seconds with a suffix "
				     "(5s, 500ms, 2m, 1h)");
	static const char *const on[] = {"on", "true", "yes", "1"};
	static const char *const off[] = {"off", "false", "no", "0"};
	for (size_t i = 0; i < 4; i++) {
		char a[32];
		snprintf(a, sizeof a, "jtl=%s", on[i]);
		set_ok(&job, a);
		cr_assert(job.run.jtl, "%s", a);
		snprintf(a, sizeof a, "jtl=%s", off[i]);
		set_ok(&job, a);
		cr_assert_not(job.run.jtl, "%s", a);
	}
	set_fails(&job, "jtl=maybe", "[run] jtl = maybe is invalid; give one of: on, off, true, "
				     "false, yes, no, 1, 0");
	set_ok(&job, "max_slow=4294967296");
	set_fails(&job, "max_slow=4294967297", "[run] max_slow = 4294967297 is out of range; give an "
					       "integer in [0, 2^32]");
	set_ok(&job, "seed=18446744073709551615");
	cr_assert_eq(job.run.seed, UINT64_MAX);
}

Test(workload, json_round_trip)
{
	struct rpb_job a, b;
	char msg[1024] = "";
	load_ok(&a, DATA "full.ini");
	set_ok(&a, "leveldb.block_size=4k");
	json_t *ja = rpb_job_to_json(&a);
	cr_assert_not_null(ja);
	cr_assert_str_eq(dumped(ja, "pattern"), "ingest");
	cr_assert_str_eq(dumped(ja, "run.threads"), "8");
	cr_assert_str_eq(dumped(ja, "run.duration"), "90");
	cr_assert_str_eq(dumped(ja, "run.bytes"), "2147483648");
	cr_assert_str_eq(dumped(ja, "run.warmup"), "5s");
	cr_assert_str_eq(dumped(ja, "run.rate"), "2500.5");
	cr_assert_str_eq(dumped(ja, "run.interval"), "0.5");
	cr_assert_str_eq(dumped(ja, "run.sync"), "none");
	cr_assert_str_eq(dumped(ja, "run.on_error.conflict"), "retry:3");
	cr_assert_str_eq(dumped(ja, "run.on_error.io"), "continue");
	cr_assert_str_eq(dumped(ja, "run.on_error.disk-full"), "stop");
	cr_assert_str_eq(dumped(ja, "run.jtl"), "on");
	cr_assert_str_eq(dumped(ja, "ingest.content"), "binary");
	cr_assert_str_eq(dumped(ja, "ingest.size_max"), "67108864");
	cr_assert_str_eq(dumped(ja, "sqlite.cache_size"), "1M");
	cr_assert_str_eq(dumped(ja, "leveldb.block_size"), "4k");

	cr_assert_eq(rpb_job_from_json(&b, ja, msg, sizeof msg), 0, "%s", msg);
	json_t *jb = rpb_job_to_json(&b);
	cr_assert(json_equal(ja, jb), "the rebuilt job dumps the same");
	cr_assert_eq(memcmp(&a.run, &b.run, sizeof a.run), 0);
	cr_assert_eq(memcmp(a.config, b.config, sizeof(struct rpb_ingest_opts)), 0);
	json_decref(jb);
	rpb_job_free(&b);

	/* Warm-up by operations, and odd doubles, survive as well. */
	set_ok(&a, "warmup=100");
	set_ok(&a, "rate=0.1");
	set_ok(&a, "duration=1234.56789ms");
	json_decref(ja);
	ja = rpb_job_to_json(&a);
	cr_assert_str_eq(dumped(ja, "run.warmup"), "100");
	cr_assert_eq(rpb_job_from_json(&b, ja, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(b.run.duration, a.run.duration);
	cr_assert_eq(b.run.rate, 0.1);
	jb = rpb_job_to_json(&b);
	cr_assert(json_equal(ja, jb));
	json_decref(jb);
	rpb_job_free(&b);

	json_object_set_new(ja, "run.threads", json_string("0"));
	cr_assert_neq(rpb_job_from_json(&b, ja, msg, sizeof msg), 0);
	cr_assert_str_eq(msg, "job JSON 'run.threads': [run] threads = 0 is out of range; give an "
			      "integer in [1, 1024]");
	rpb_job_free(&b);
	json_decref(ja);
	rpb_job_free(&a);
}

Test(workload, help_lists_every_key)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	cr_assert_not_null(out);
	struct rpb_help h = {.f = out, .format = RPB_HELP_TEXT};
	rpb_job_print_help(&h);
	fclose(out);

	struct rpb_job job;
	rpb_job_defaults(&job);
	set_ok(&job, "ingest.size_max=10");
	json_t *all = rpb_job_to_json(&job);
	const char *name;
	json_t *val;
	json_object_foreach(all, name, val) {
		if (strcmp(name, "pattern") == 0)
			continue;
		const char *key = strchr(name, '.') + 1;
		char needle[128];
		snprintf(needle, sizeof needle, "\n  %s ", key);
		cr_assert_not_null(strstr(text, needle), "--help lacks %s", name);
	}
	cr_assert_not_null(strstr(text, "\n  on_error "));
	cr_assert_not_null(strstr(text, "\n[run]\n"));
	cr_assert_not_null(strstr(text, "\n[ingest]"));
	cr_assert_not_null(strstr(text, "[sqlite]"));
	cr_assert_not_null(strstr(text, "[1, 1024]"), "ranges are shown");
	cr_assert_not_null(strstr(text, "none|commit"), "choices are shown");
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		cr_assert_leq(n, 100, "line too wide: %.*s", (int)n, line);
		line += n + (nl != NULL);
	}
	json_decref(all);
	free(text);
}

/* sync's default follows the profile; a sync given wins under either. */
static enum rpb_sync finished_sync(const char *profile, const char *sync)
{
	struct rpb_job job;
	char msg[512], set[64];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, RPB_SOURCE_DIR "/data/workloads/ci-ingest.ini", msg,
				  sizeof msg), 0, "%s", msg);
	/* the file's own sync line, if any, is what a later --set overrides */
	snprintf(set, sizeof set, "sync=%s", sync ? sync : "auto");
	cr_assert_eq(rpb_job_set(&job, set, msg, sizeof msg), 0, "%s", msg);
	snprintf(set, sizeof set, "profile=%s", profile);
	cr_assert_eq(rpb_job_set(&job, set, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	enum rpb_sync s = job.run.sync;
	rpb_job_free(&job);
	return s;
}

Test(workload, sync_auto_follows_profile)
{
	cr_assert_eq(finished_sync("durable", NULL), RPB_SYNC_COMMIT);
	cr_assert_eq(finished_sync("fedora-4.5", NULL), RPB_SYNC_NATIVE);
	cr_assert_eq(finished_sync("fedora-4.5", "commit"), RPB_SYNC_COMMIT);
	cr_assert_eq(finished_sync("durable", "none"), RPB_SYNC_NONE);
}

/* interval = auto follows the run's length: a 30th of its duration within
 * [0.1 s, 10 s], 10 s when no duration bounds it; a given one wins. */
static double finished_interval(const char *duration, const char *interval)
{
	struct rpb_job job;
	char msg[512], set[64];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, RPB_SOURCE_DIR "/data/workloads/ci-ingest.ini", msg,
				  sizeof msg), 0, "%s", msg);
	snprintf(set, sizeof set, "duration=%s", duration);
	cr_assert_eq(rpb_job_set(&job, set, msg, sizeof msg), 0, "%s", msg);
	snprintf(set, sizeof set, "interval=%s", interval);
	cr_assert_eq(rpb_job_set(&job, set, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	double v = job.run.interval;
	rpb_job_free(&job);
	return v;
}

Test(workload, interval_auto_follows_duration)
{
	cr_assert_float_eq(finished_interval("3", "auto"), 0.1, 1e-9);
	cr_assert_float_eq(finished_interval("60", "auto"), 2.0, 1e-9);
	cr_assert_float_eq(finished_interval("1h", "auto"), 10.0, 1e-9);
	cr_assert_float_eq(finished_interval("0", "auto"), 10.0, 1e-9);
	cr_assert_float_eq(finished_interval("60", "5"), 5.0, 1e-9);
}
