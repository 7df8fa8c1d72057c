/* samples.jtl's columns: the default set is the one JMeter 2.13 (Debian's
 * package) and JMeter 5.x both read, jtl_columns = 5 adds sentBytes. The
 * headers are checked against both column lists; where Debian's jmeter is
 * installed, JMeter's own CSV reader loads the files (tests/jmeter/). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_util.h"
#include "pattern.h"
#include "progress.h"
#include "runner.h"

/* Every run here is a SQLite run (the minimal build has none). */
#ifdef RPB_HAVE_SQLITE

#define JMETER_HOME "/usr/share/jmeter"
#define JMETER_CP JMETER_HOME "/lib/ext/*:" JMETER_HOME "/lib/*:" JMETER_HOME "/bin/*:/usr/share/java/*"

/* JMeter 2.13's default CSV columns (jmeter.properties of 2.13), in order. */
static const char cols_2_13[] =
	"timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
	"failureMessage,bytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";
/* JMeter 5.x's default CSV columns: 2.13's and sentBytes (3.1). */
static const char cols_5[] =
	"timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
	"failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

/* raw-ci (writes and reads) on SQLite with jtl = on, into out. */
static void run_jtl(const struct e2e_env *e, const char *out, const char *columns)
{
	struct e2e_args a = {0};
	e2e_run_args(&a, e, E2E_WORKLOAD("raw-ci.ini"), out);
	e2e_args_add(&a, "--set", "jtl=on", "--set", "num=200", NULL);
	if (columns)
		e2e_args_add(&a, "--set", columns, NULL);
	e2e_exec_ok(e->cap, &a);
}

/* A SQLite test directory with run_jtl's results in o213 (the default
 * columns) and o5 (jtl_columns = 5): the same seed, the same samples. */
static void run_both(struct e2e_env *e, char *o213, char *o5)
{
	e2e_env_init(e, "sqlite");
	e2e_path(e, o213, "o213");
	e2e_path(e, o5, "o5");
	run_jtl(e, o213, NULL);
	run_jtl(e, o5, "jtl_columns=5");
}

static unsigned count_char(const char *s, char c, size_t n)
{
	unsigned k = 0;
	for (size_t i = 0; i < n && s[i]; i++)
		k += s[i] == c;
	return k;
}

/* Asserts the header is want and every row has as many unquoted commas as
 * the header (raw's rows quote only empty or plain messages). Returns the
 * text (malloc'd). */
static char *check_jtl(const char *out, const char *want, size_t *rows)
{
	char *text = e2e_slurp_in(out, "samples.jtl");
	cr_assert_not_null(text, "%s/samples.jtl missing", out);
	size_t hlen = strcspn(text, "\n");
	cr_assert(hlen == strlen(want) && !strncmp(text, want, hlen),
		  "%s/samples.jtl header:\n%.*s\nwant:\n%s", out, (int)hlen, text, want);
	unsigned commas = count_char(want, ',', SIZE_MAX);
	*rows = 0;
	for (char *line = text + hlen + 1; *line; line += strcspn(line, "\n") + 1) {
		size_t len = strcspn(line, "\n");
		cr_assert_eq(count_char(line, ',', len), commas, "row has %u commas, want %u: %.*s",
			     count_char(line, ',', len), commas, (int)len, line);
		(*rows)++;
	}
	cr_assert_gt(*rows, 0, "%s/samples.jtl has no rows", out);
	return text;
}

Test(e2e_jtl, default_columns_are_jmeter_2_13s, .fini = e2e_cleanup)
{
	/* The two lists differ by sentBytes only. */
	cr_assert_eq(strlen(cols_5), strlen(cols_2_13) + strlen("sentBytes,"));
	struct e2e_env e;
	char o213[E2E_PATH], o5[E2E_PATH];
	run_both(&e, o213, o5);
	size_t r213, r5;
	free(check_jtl(o213, cols_2_13, &r213));
	free(check_jtl(o5, cols_5, &r5));
	cr_assert_eq(r213, r5, "the same seed, the same samples: %zu and %zu rows", r213, r5);
	json_t *r = e2e_result(o5);
	cr_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(json_object_get(r, "manifest"), "options"),
				 "run.jtl_columns")),
			 "5");
	json_decref(r);
	e2e_env_fini(&e);
}

/* JMeter's reader over out/samples.jtl: its output lines (malloc'd). */
static char *jmeter_read(const struct e2e_env *e, const char *out)
{
	char jtl[E2E_PATH + 16], got[E2E_PATH + 16];
	snprintf(jtl, sizeof jtl, "%s/samples.jtl", out);
	snprintf(got, sizeof got, "%s/jmeter-read.txt", out);
	struct e2e_args a = {0};
	e2e_args_add(&a, "/usr/bin/java", "-cp", JMETER_CP, "bsh.Interpreter",
		     RPB_SOURCE_DIR "/tests/jmeter/read-jtl.bsh", JMETER_HOME, jtl, got, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	char *text = e2e_slurp(got, NULL);
	cr_assert_not_null(text, "JMeter's reader wrote no %s", got);
	/* Its log lands beside the output, never in the working directory
	 * (the source tree, when the tests run from there). */
	snprintf(got, sizeof got, "%s/jmeter.log", out);
	cr_assert_eq(access(got, F_OK), 0, "JMeter's log is not in %s", got);
	return text;
}

Test(e2e_jtl, jmeter_2_13_reads_the_default, .fini = e2e_cleanup)
{
	if (access(JMETER_HOME "/bin/ApacheJMeter.jar", R_OK) != 0 ||
	    access("/usr/bin/java", X_OK) != 0) {
		fprintf(stderr, "e2e_jtl: SKIPPED: jmeter is not installed (apt-get install jmeter, "
				"scripts/deps.sh): samples.jtl not loaded by JMeter's reader\n");
		cr_skip_test("jmeter is not installed (apt-get install jmeter)");
	}
	struct e2e_env e;
	char o213[E2E_PATH], o5[E2E_PATH];
	run_both(&e, o213, o5);
	size_t rows;
	char *jtl = check_jtl(o213, cols_2_13, &rows);
	char *got = jmeter_read(&e, o213);
	/* Every row read, each as written: label, elapsed, success, bytes. */
	char *line = jtl + strcspn(jtl, "\n") + 1, *g = got;
	for (size_t i = 0; i < rows; i++) {
		char *f[16], row[1024];
		snprintf(row, sizeof row, "%.*s", (int)strcspn(line, "\n"), line);
		int n = 0;
		for (char *save = NULL, *t = strtok_r(row, ",", &save); t && n < 16;
		     t = strtok_r(NULL, ",", &save))
			f[n++] = t;
		cr_assert_eq(n, 16, "row %zu: %s", i + 1, line);
		char want[256];
		snprintf(want, sizeof want, "%s,%s,%s,%s", f[2], f[1], f[7], f[9]);
		size_t glen = strcspn(g, "\n");
		cr_assert(glen == strlen(want) && !strncmp(g, want, glen),
			  "sample %zu read by JMeter as \"%.*s\", written as \"%s\"", i + 1,
			  (int)glen, g, want);
		line += strcspn(line, "\n") + 1;
		g += glen + (g[glen] ? 1 : 0);
	}
	cr_assert_str_eq(g, "END\n", "JMeter's reader after %zu samples: %s", rows, g);
	free(got);
	free(jtl);
	/* The reason for the default: JMeter 2.13 does not know sentBytes, so
	 * it takes the header for a sample and fails on it. */
	got = jmeter_read(&e, o5);
	cr_assert(!strncmp(got, "ERROR ", 6), "JMeter 2.13 read a header with sentBytes: %.200s",
		  got);
	free(got);
	/* jtl_us's column, quoted, is a sample variable's to JMeter: the file
	 * loads, every sample of it. */
	char ous[E2E_PATH];
	e2e_path(&e, ous, "ous");
	run_jtl(&e, ous, "jtl_us=on");
	got = jmeter_read(&e, ous);
	size_t lines = count_char(got, '\n', SIZE_MAX);
	cr_assert(lines == rows + 1 && strstr(got, "\nEND\n"),
		  "JMeter 2.13 with jtl_us = on: %zu lines for %zu rows: %.200s", lines, rows, got);
	free(got);
	e2e_env_fini(&e);
}

/* jtl_us = on: the quoted "elapsed_us" column last, in every row the
 * latency in µs, which rounds to elapsed's ms; recorded in the manifest. */
Test(e2e_jtl, jtl_us_adds_elapsed_us, .fini = e2e_cleanup)
{
	struct e2e_env e;
	char out[E2E_PATH];
	e2e_env_init(&e, "sqlite");
	e2e_path(&e, out, "us");
	run_jtl(&e, out, "jtl_us=on");
	size_t rows, nonzero = 0;
	char head[sizeof cols_2_13 + sizeof RPB_JTL_US_COLUMN];
	snprintf(head, sizeof head, "%s%s", cols_2_13, RPB_JTL_US_COLUMN);
	char *jtl = check_jtl(out, head, &rows);
	for (char *line = jtl + strcspn(jtl, "\n") + 1; *line; line += strcspn(line, "\n") + 1) {
		unsigned long long ms, us;
		const char *last = line + strcspn(line, "\n");
		while (last > line && last[-1] != ',')
			last--;
		cr_assert(sscanf(line, "%*[0-9],%llu,", &ms) == 1 && sscanf(last, "%llu", &us) == 1,
			  "row: %.*s", (int)strcspn(line, "\n"), line);
		cr_assert(us + 501 >= ms * 1000 && us <= ms * 1000 + 501, "%llu us, %llu ms", us, ms);
		nonzero += us > 0;
	}
	cr_assert_gt(nonzero, 0, "every elapsed_us is 0");
	free(jtl);
	json_t *r = e2e_result(out);
	cr_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(json_object_get(r, "manifest"), "options"), "run.jtl_us")),
			 "on");
	json_decref(r);
	e2e_env_fini(&e);
}

/* The line at the end of a run: due when more than half of the rows are
 * 0 ms and jtl_us is off. */
Test(e2e_jtl, zero_ms_warning_rule)
{
	struct rpb_job job = {0};
	struct rpb_runner rn = {.job = &job, .jtl = stderr, .jtl_rows = 100, .jtl_zero_ms = 50};
	char buf[160];
	cr_assert_not(rpb_jtl_zero_warning(&rn, buf, sizeof buf), "half is not more than half");
	rn.jtl_zero_ms = 93;
	cr_assert(rpb_jtl_zero_warning(&rn, buf, sizeof buf));
	cr_assert_str_eq(buf, "samples.jtl: 93% of elapsed values are 0 ms; set jtl_us = on for µs");
	job.run.jtl_us = true;
	cr_assert_not(rpb_jtl_zero_warning(&rn, buf, sizeof buf), "jtl_us is on");
	job.run.jtl_us = false;
	rn.jtl = NULL;
	cr_assert_not(rpb_jtl_zero_warning(&rn, buf, sizeof buf), "jtl is off");
}

/* A real run without --quiet: the warning after the summary says the share
 * of 0 ms rows in its samples.jtl, when that is more than half; with
 * jtl_us = on, none. */
Test(e2e_jtl, zero_ms_warning_at_the_end, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	for (int us = 0; us < 2; us++) {
		char out[E2E_PATH];
		e2e_path(&e, out, us ? "us" : "ms");
		struct e2e_args a = {0};
		e2e_args_add(&a, e.bin, "run", E2E_WORKLOAD("raw-ci.ini"), "--out", out, NULL);
		e2e_args_add(&a, "--set", "jtl=on", "--set", "num=200", "--set",
			     us ? "jtl_us=on" : "jtl_us=off", NULL);
		struct e2e_proc p;
		e2e_exec(&p, e.cap, &a);
		e2e_assert_code(&p, 0);
		char *jtl = e2e_slurp_in(out, "samples.jtl");
		unsigned long long rows = 0, zero = 0;
		for (char *line = jtl + strcspn(jtl, "\n") + 1; *line;
		     line += strcspn(line, "\n") + 1) {
			unsigned long long ms;
			cr_assert(sscanf(line, "%*[0-9],%llu,", &ms) == 1);
			rows++, zero += ms == 0;
		}
		char want[160];
		snprintf(want, sizeof want,
			 "warning: samples.jtl: %llu%% of elapsed values are 0 ms; set jtl_us = on for µs\n",
			 rows ? 100 * zero / rows : 0);
		if (!us && 2 * zero > rows)
			cr_assert(strstr(p.out, want), "stdout: %s\nwant: %s", p.out, want);
		else
			cr_assert_null(strstr(p.out, "elapsed values are 0 ms"), "stdout: %s", p.out);
		e2e_assert_quiet(&p);
		free(jtl);
		e2e_proc_free(&p);
	}
	e2e_env_fini(&e);
}

/* The harvest's requests: their response bytes in samples.jtl and
 * result.json, and in responseMessage the records, deletions and token
 * length of each, all adding up to the harvests' own counts. */
Test(e2e_jtl, harvest_request_bytes_records_and_token, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_run_args(&a, &e, E2E_WORKLOAD("ci-harvest.ini"), e.out);
	e2e_args_add(&a, "--set", "jtl=on", "--set", "records=2000", "--set", "ops=30", NULL);
	e2e_exec_ok(e.cap, &a);
	size_t rows;
	char *jtl = check_jtl(e.out, cols_2_13, &rows);
	unsigned long long bytes = 0, records = 0, deleted = 0, requests = 0, last_pages = 0;
	for (char *line = jtl + strcspn(jtl, "\n") + 1; *line; line += strcspn(line, "\n") + 1) {
		unsigned long long b, r, d;
		unsigned tok;
		int n = 0;
		if (sscanf(line, "%*[0-9],%*[0-9],request,200,\"OK records=%llu deleted=%llu "
				 "token_bytes=%u\",harvest 1-%*[0-9],text,true,\"\",%llu,%n",
			   &r, &d, &tok, &b, &n) != 4 || !n) {
			cr_assert(strstr(line, ",request,") == NULL, "request row: %.*s",
				  (int)strcspn(line, "\n"), line);
			continue;
		}
		cr_assert(tok == 0 || tok == 86, "token_bytes %u: %.*s", tok, (int)strcspn(line, "\n"),
			  line);
		cr_assert_gt(b, 0, "a response of 0 bytes");
		requests++, bytes += b, records += r, deleted += d, last_pages += tok == 0;
	}
	free(jtl);
	json_t *res = e2e_result(e.out);
	cr_assert_eq(requests, (unsigned long long)e2e_jint(res, "labels.request.samples"));
	cr_assert_eq(bytes, (unsigned long long)e2e_jint(res, "labels.request.bytes"),
		     "samples.jtl's request bytes and labels.request.bytes differ");
	unsigned long long h_bytes = 0, h_records = 0, h_deleted = 0, completed = 0;
	json_t *h;
	size_t i;
	json_array_foreach(json_object_get(json_object_get(res, "pattern"), "harvests"), i, h) {
		h_bytes += (unsigned long long)json_integer_value(json_object_get(h, "bytes"));
		h_records += (unsigned long long)json_integer_value(json_object_get(h, "records"));
		h_deleted += (unsigned long long)json_integer_value(json_object_get(h, "deleted"));
		completed += json_is_true(json_object_get(h, "completed"));
	}
	cr_assert_eq(bytes, h_bytes, "request bytes %llu, harvested %llu", bytes, h_bytes);
	cr_assert_eq(records, h_records);
	cr_assert_eq(deleted, h_deleted);
	cr_assert_eq(last_pages, completed, "%llu requests without a token, %llu harvests completed",
		     last_pages, completed);
	/* Requests store nothing: the Status line says no "stored". */
	cr_assert_eq(e2e_jint(res, "totals.acked_bytes"), 0);
	json_decref(res);
	e2e_env_fini(&e);
}

/* Label sums of one samples.jtl of jtl_columns = 5. */
struct dir_sums {
	unsigned long long bytes[RPB_MAX_LABELS], sent[RPB_MAX_LABELS], rows[RPB_MAX_LABELS];
};

/* The next CSV field of line (quotes doubled inside a quoted one) into buf;
 * returns where the one after starts. */
static const char *csv_next(const char *line, char *buf, size_t n)
{
	size_t k = 0;
	bool quoted = *line == '"';
	for (line += quoted; *line && *line != '\n'; line++) {
		if (quoted && *line == '"') {
			if (line[1] != '"') {
				line++;
				break;
			}
			line++;
		} else if (!quoted && *line == ',') {
			break;
		}
		if (k + 1 < n)
			buf[k++] = *line;
	}
	buf[k] = '\0';
	return *line == ',' ? line + 1 : line;
}

/* Reads out/samples.jtl (jtl_columns = 5) of pattern pname: every row's
 * bytes are in the column its label's direction says, the other is 0, and
 * each label's sum is result.json's labels.<label>.bytes. */
static void check_directions(const char *out, const char *pname, struct dir_sums *s)
{
	const struct rpb_pattern *pat = rpb_pattern_find(pname);
	cr_assert_not_null(pat);
	memset(s, 0, sizeof *s);
	size_t nrows;
	char *jtl = check_jtl(out, cols_5, &nrows);
	for (const char *line = jtl + strcspn(jtl, "\n") + 1; *line; line += strcspn(line, "\n") + 1) {
		char f[17][128];
		const char *at = line;
		for (int k = 0; k < 17; k++)
			at = csv_next(at, f[k], sizeof f[k]);
		unsigned l = 0;
		while (l < pat->nlabels && strcmp(pat->labels[l], f[2]) != 0)
			l++;
		cr_assert_lt(l, pat->nlabels, "label %s is not one of %s's", f[2], pname);
		unsigned long long bytes = strtoull(f[9], NULL, 10), sent = strtoull(f[10], NULL, 10);
		enum rpb_bytes_dir d = pat->label_dirs[l];
		cr_assert(d == RPB_BYTES_RECEIVED || bytes == 0, "%s sends, yet bytes = %llu: %.*s",
			  f[2], bytes, (int)strcspn(line, "\n"), line);
		cr_assert(d == RPB_BYTES_SENT || sent == 0, "%s does not send, yet sentBytes = %llu: %.*s",
			  f[2], sent, (int)strcspn(line, "\n"), line);
		s->bytes[l] += bytes, s->sent[l] += sent, s->rows[l]++;
	}
	free(jtl);
	json_t *r = e2e_result(out);
	for (unsigned l = 0; l < pat->nlabels; l++) {
		char path[128];
		snprintf(path, sizeof path, "labels.%s.bytes", pat->labels[l]);
		if (s->rows[l])
			cr_assert_eq(s->bytes[l] + s->sent[l], (unsigned long long)e2e_jint(r, path),
				     "samples.jtl's %s bytes and %s differ", pat->labels[l], path);
	}
	json_decref(r);
}

static unsigned label_of(const char *pname, const char *label)
{
	const struct rpb_pattern *pat = rpb_pattern_find(pname);
	for (unsigned l = 0; l < pat->nlabels; l++)
		if (!strcmp(pat->labels[l], label))
			return l;
	cr_assert_fail("%s has no label %s", pname, label);
	return 0;
}

/* The direction of a label's bytes is the pattern's word (label_dirs), not
 * a guess from its name: raw's scans received what they read, its fills
 * sent what they put. */
Test(e2e_jtl, raw_bytes_follow_the_label_directions, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	run_jtl(&e, e.out, "jtl_columns=5");
	struct dir_sums s;
	check_directions(e.out, "raw", &s);
	unsigned seq = label_of("raw", "readseq"), rev = label_of("raw", "readreverse");
	unsigned fill = label_of("raw", "fillseq"), over = label_of("raw", "overwrite");
	cr_assert_gt(s.bytes[seq], 0, "readseq received nothing");
	cr_assert_gt(s.bytes[rev], 0, "readreverse received nothing");
	cr_assert_eq(s.sent[seq] + s.sent[rev], 0);
	cr_assert_gt(s.sent[fill], 0, "fillseq sent nothing");
	cr_assert_gt(s.sent[over], 0, "overwrite sent nothing");
	cr_assert_eq(s.bytes[fill] + s.bytes[over], 0);
	/* readrandom receives each key it finds and its value, exactly. */
	json_t *r = e2e_result(e.out);
	json_t *bench = NULL, *b;
	size_t i;
	json_array_foreach(json_object_get(json_object_get(r, "pattern"), "benchmarks"), i, b)
		if (!strcmp(json_string_value(json_object_get(b, "name")), "readrandom"))
			bench = b;
	cr_assert_not_null(bench, "no readrandom in pattern.benchmarks");
	unsigned long long found = (unsigned long long)json_integer_value(json_object_get(bench, "found"));
	unsigned long long per = (unsigned long long)(e2e_jint(r, "pattern.key_size") +
						      e2e_jint(r, "pattern.value_size"));
	unsigned rr = label_of("raw", "readrandom");
	cr_assert(found > 0 && s.bytes[rr] == found * per,
		  "readrandom received %llu bytes for %llu keys found of %llu bytes each", s.bytes[rr],
		  found, per);
	json_decref(r);
	e2e_env_fini(&e);
}

/* A run without failures: totals.acked_bytes is what every label sent,
 * whichever labels those are (YCSB's main label, READ, sends nothing). */
static void assert_acked_bytes_sent(const char *out, const struct dir_sums *s)
{
	unsigned long long sent = 0;
	for (unsigned l = 0; l < RPB_MAX_LABELS; l++)
		sent += s->sent[l];
	json_t *res = e2e_result(out);
	cr_assert_eq(e2e_jint(res, "totals.failed_samples"), 0);
	cr_assert_eq((unsigned long long)e2e_jint(res, "totals.acked_bytes"), sent,
		     "%s: acked_bytes is not the sum of the labels' sent bytes (%llu)", out, sent);
	json_decref(res);
}

/* YCSB's labels: the load's INSERTs and the run's UPDATEs send their
 * records; READ and SCAN receive the records they return and send nothing. */
Test(e2e_jtl, ycsb_bytes_follow_the_label_directions, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char store[E2E_PATH], load[E2E_PATH];
	e2e_path(&e, store, "store");
	e2e_path(&e, load, "load");
	for (int phase = 0; phase < 2; phase++) {
		struct e2e_args a;
		e2e_run_args(&a, &e, E2E_WORKLOAD("ycsb/workloada"), phase ? e.out : load);
		a.v[1] = phase ? "run" : "load";
		e2e_args_add(&a, "--dir", store, "--set", "recordcount=100", "--set",
			     "operationcount=200", "--set", "sync=none", "--set", "jtl=on", "--set",
			     "jtl_columns=5", NULL);
		e2e_exec_ok(e.cap, &a);
	}
	struct dir_sums s;
	check_directions(load, "ycsb", &s);
	unsigned ins = label_of("ycsb", "INSERT");
	cr_assert_eq(s.rows[ins], 100);
	cr_assert_gt(s.sent[ins], 0, "INSERT sent nothing");
	assert_acked_bytes_sent(load, &s);
	check_directions(e.out, "ycsb", &s);
	unsigned rd = label_of("ycsb", "READ"), up = label_of("ycsb", "UPDATE");
	cr_assert(s.rows[rd] > 0 && s.rows[up] > 0, "workloada reads and updates");
	cr_assert_gt(s.sent[up], 0, "UPDATE sent nothing");
	cr_assert_eq(s.bytes[up], 0);
	cr_assert_eq(s.sent[rd], 0, "READ sent bytes");
	cr_assert_gt(s.bytes[rd], 0, "READ received nothing");
	assert_acked_bytes_sent(e.out, &s);
	/* Workload E's scans receive the records they return. */
	char scans[E2E_PATH];
	e2e_path(&e, scans, "scans");
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_WORKLOAD("ycsb/workloade"), scans);
	e2e_args_add(&a, "--dir", store, "--set", "recordcount=100", "--set", "operationcount=100",
		     "--set", "sync=none", "--set", "jtl=on", "--set", "jtl_columns=5", NULL);
	e2e_exec_ok(e.cap, &a);
	check_directions(scans, "ycsb", &s);
	unsigned sc = label_of("ycsb", "SCAN");
	cr_assert(s.rows[sc] > 0 && s.bytes[sc] > 0, "SCAN: %llu rows received %llu bytes", s.rows[sc],
		  s.bytes[sc]);
	e2e_env_fini(&e);
}

#endif
