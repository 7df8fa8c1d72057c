/* YCSB's output as YCSB's users and parsers read it, end to end on the
 * null backend (the harness alone, quick): every measurementtype read back
 * by the reader of tests/ycsb_output.c (written from YCSB's exporters),
 * its throughput recomputed; the JSON exporters' output valid JSON in
 * Jackson's layout, the same records as ycsb.txt; measurement.interval's
 * three maps; master's format; the status lines (-s on stderr, the first
 * at 0 sec, the last with the final figures' rounding); statuses of failed
 * operations; YCSB's command-line flags and properties. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "ycsb.h"
#include "ycsb_output.h"

#define YCSB_WL(x) E2E_WORKLOAD("ycsb/workload" x)

/* Runs BIN run|load WL with the tiny size plus args up to NULL, into out;
 * returns the process (the caller frees it). */
static void ycsb_spawn(struct e2e_proc *p, const struct e2e_env *e, const char *verb,
		       const char *wl, const char *out, ...) __attribute__((sentinel));
static void ycsb_spawn(struct e2e_proc *p, const struct e2e_env *e, const char *verb,
		       const char *wl, const char *out, ...)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, e->bin, verb, wl, "--out", out, NULL);
	va_list ap;
	va_start(ap, out);
	e2e_args_addv(&a, ap);
	va_end(ap);
	e2e_exec(p, e->cap, &a);
}

/* Reads and checks ycsb.txt of out as type x; returns the reading. */
static void read_txt(const char *out, const struct yo_expect *x, struct yo_out *o, uint64_t want_ops)
{
	char *text = e2e_slurp_in(out, "ycsb.txt"), why[512];
	uint64_t ops = 0;
	cr_assert_eq(yo_read_text(text, o, why, sizeof why), 0, "%s/ycsb.txt: %s\n%s", out, why, text);
	cr_assert_eq(yo_check(o, x, &ops, why, sizeof why), 0, "%s/ycsb.txt: %s\n%s", out, why, text);
	cr_assert_eq(ops, want_ops, "%s/ycsb.txt: %llu operations, expected %llu\n%s", out,
		     (unsigned long long)ops, (unsigned long long)want_ops, text);
	free(text);
}

static const struct {
	const char *name;
	enum yo_type type;
} types[] = {
	{"hdrhistogram", YO_HDR},	      {"histogram", YO_HISTOGRAM},
	{"hdrhistogram+histogram", YO_HDR_HISTOGRAM}, {"hdrhistogram+raw", YO_HDR_RAW},
	{"timeseries", YO_TIMESERIES},	      {"raw", YO_RAW},
};

/* Every measurementtype on workload F (READ, UPDATE and READ-MODIFY-WRITE),
 * two threads: ycsb.txt in the type's layout, 3000 operations found from
 * its statuses and the throughput recomputed from them exactly; each
 * exporter's file holds the same records as ycsb.txt, the JSON ones valid
 * JSON in Jackson's layout; stdout is the chosen exporter's (after a raw
 * measurement's samples). */
Test(e2e_null, ycsb_output_every_measurementtype, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	static const char *const exporters[] = {"TextMeasurementsExporter", "JSONMeasurementsExporter",
						"JSONArrayMeasurementsExporter"};
	for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
		for (size_t k = 0; k < 3; k++) {
			char out[E2E_PATH + 32], mt[64], ex[128], why[512];
			snprintf(out, sizeof out, "%s/%zu-%zu", e.tmp, t, k);
			snprintf(mt, sizeof mt, "measurementtype=%s", types[t].name);
			snprintf(ex, sizeof ex, "exporter=site.ycsb.measurements.exporter.%s", exporters[k]);
			struct e2e_proc p;
			ycsb_spawn(&p, &e, "run", YCSB_WL("f"), out, "-p", "operationcount=3000", "-p",
				   "threadcount=2", "-p", mt, "-p", ex, "-p", "exportfile=export.out", "-p",
				   "timeseries.granularity=2", NULL);
			e2e_assert_code(&p, 0);
			struct yo_expect x = {.type = types[t].type, .npct = 2, .pct = {"95th", "99th"},
					      .granularity = 2, .raw_summary = true};
			struct yo_out txt, exp;
			read_txt(out, &x, &txt, 3000);
			char *file = e2e_slurp_in(out, "export.out");
			int rc = k == 0 ? yo_read_text(file, &exp, why, sizeof why)
					: yo_read_json(file, k == 2, &exp, why, sizeof why);
			cr_assert_eq(rc, 0, "%s %s: %s\n%s", types[t].name, exporters[k], why, file);
			cr_assert(yo_same(&txt, &exp, why, sizeof why), "%s %s: export.out against ycsb.txt: "
				  "%s", types[t].name, exporters[k], why);
			/* Nothing but the raw samples (and their notices) on stdout: the
			 * exporter's output went to its file. */
			bool raw = x.type == YO_RAW || x.type == YO_HDR_RAW;
			cr_assert_eq(!*p.out, !raw, "%s: stdout: %s", types[t].name, p.out);
			if (raw) {
				cr_assert(strstr(p.out, "Raw data measurement: will output to stdout.\n"),
					  "%s", p.out);
				cr_assert_gt(txt.ns, 3000, "every sample of every raw measurement");
				cr_assert_eq(txt.raw_headers, 3, "%s: one per measurement", types[t].name);
			}
			free(file);
			yo_free(&txt);
			yo_free(&exp);
			e2e_proc_free(&p);
		}
	}
	e2e_env_fini(&e);
}

/* stdout without exportfile is the exporter's output, as YCSB's stdout:
 * the JSON array exporter's is one JSON document and equals ycsb.txt's
 * records. */
Test(e2e_null, ycsb_output_json_on_stdout, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_proc p;
	ycsb_spawn(&p, &e, "run", YCSB_WL("a"), e.out, "-p",
		   "exporter=site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter", NULL);
	e2e_assert_code(&p, 0);
	char why[512];
	struct yo_out js, txt;
	cr_assert_eq(yo_read_json(p.out, true, &js, why, sizeof why), 0, "%s\n%s", why, p.out);
	struct yo_expect x = {.type = YO_HDR, .npct = 2, .pct = {"95th", "99th"}};
	read_txt(e.out, &x, &txt, 1000);
	cr_assert(yo_same(&txt, &js, why, sizeof why), "%s", why);
	json_error_t err;
	json_t *doc = json_loads(p.out, 0, &err);
	cr_assert_not_null(doc, "stdout is one JSON document: %s", err.text);
	json_decref(doc);
	yo_free(&js);
	yo_free(&txt);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* measurement.interval: op keeps the actual start's map, intended the
 * intended start's under the plain names, both both, the second as
 * Intended-<name> (statuses with the first). hdrhistogram.percentiles
 * names its lines by ordinal. */
Test(e2e_null, ycsb_output_interval_and_percentiles, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	static const char *const intervals[] = {"op", "intended", "both"};
	for (int i = 0; i < 3; i++) {
		char out[E2E_PATH + 16], mi[64];
		snprintf(out, sizeof out, "%s/i%d", e.tmp, i);
		snprintf(mi, sizeof mi, "measurement.interval=%s", intervals[i]);
		struct e2e_proc p;
		ycsb_spawn(&p, &e, "run", YCSB_WL("f"), out, "-p", mi, "--quiet", NULL);
		e2e_assert_code(&p, 0);
		e2e_proc_free(&p);
		struct yo_expect x = {.type = YO_HDR, .npct = 2, .pct = {"95th", "99th"}};
		struct yo_out o;
		read_txt(out, &x, &o, 1000);
		cr_assert_not_null(yo_find(&o, "READ-MODIFY-WRITE", "Operations"), "%s", intervals[i]);
		cr_assert_eq(yo_find(&o, "Intended-READ", "Operations") != NULL, i == 2, "%s",
			     intervals[i]);
		cr_assert_null(yo_find(&o, "Intended-READ", "Return=OK"), "statuses go to one map");
		yo_free(&o);
	}
	struct e2e_proc p;
	char out[E2E_PATH + 16];
	snprintf(out, sizeof out, "%s/pct", e.tmp);
	ycsb_spawn(&p, &e, "run", YCSB_WL("c"), out, "-p", "hdrhistogram.percentiles=1,12.5,99.9,100",
		   "--quiet", NULL);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	struct yo_expect y = {.type = YO_HDR, .npct = 4, .pct = {"1st", "12.5", "99.9", "100th"}};
	struct yo_out o;
	read_txt(out, &y, &o, 1000);
	cr_assert_eq(yo_find(&o, "READ", "100thPercentileLatency(us)")->l,
		     yo_find(&o, "READ", "MaxLatency(us)")->l, "the 100th is the maximum");
	yo_free(&o);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_SQLITE
/* YCSB master's format: the 50th percentile by default, in ycsb.txt and
 * in the status lines, and SCAN-LATENCY-PER-RECORD after every scan
 * (workload E on a loaded store: every scan returns records). */
Test(e2e_sqlite, ycsb_output_master, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char load[E2E_PATH];
	e2e_path(&e, load, "load");
	struct e2e_proc p;
	ycsb_spawn(&p, &e, "load", YCSB_WL("e"), load, "--dir", e.store, "-p", "recordcount=200",
		   "--quiet", "--set", "sync=none", NULL);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	char out[E2E_PATH];
	e2e_path(&e, out, "run");
	ycsb_spawn(&p, &e, "run", YCSB_WL("e"), out, "--dir", e.store, "-p", "recordcount=200", "-p",
		   "operationcount=300", "-p", "format=master", "-s", "--set", "sync=none", NULL);
	e2e_assert_code(&p, 0);
	struct yo_expect x = {.type = YO_HDR, .npct = 3, .pct = {"50th", "95th", "99th"}};
	struct yo_out o;
	read_txt(out, &x, &o, 300);
	const struct yo_rec *scans = yo_find(&o, "SCAN", "Operations"),
			    *per = yo_find(&o, "SCAN-LATENCY-PER-RECORD", "Operations");
	cr_assert(scans && per && per->l == scans->l, "one per-record latency per scan");
	cr_assert_null(yo_find(&o, "SCAN-LATENCY-PER-RECORD", "Return=OK"), "no status for it");
	cr_assert(strstr(p.err, ", 50="), "master's status lines have the 50th: %s", p.err);
	yo_free(&o);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}
#endif

/* The status line's text after its time stamp ("0 sec: ..."), or NULL. */
static const char *status_text(const char *line)
{
	/* yyyy-MM-dd HH:mm:ss:SSS, then a space */
	return strlen(line) > 24 && line[4] == '-' && line[10] == ' ' && line[19] == ':' &&
			       line[23] == ' '
		       ? line + 24
		       : NULL;
}

/* -s: YCSB's status lines on stderr (stdout keeps the exporter's output
 * alone): the first at 0 sec before any operation, with YCSB's
 * RemainingFormatter ("0 second " with a trailing space), the last with
 * every operation; its latencies are the final figures' (Count, Max and
 * Min as ycsb.txt has them: the same rounding), each measurement followed
 * by a space. -l puts a label before each line. */
Test(e2e_null, ycsb_status_lines, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_proc p;
	ycsb_spawn(&p, &e, "run", YCSB_WL("a"), e.out, "-s", "-l", "lbl", "-p",
		   "operationcount=2000", NULL);
	e2e_assert_code(&p, 0);
	cr_assert_null(strstr(p.out, " sec: "), "status lines are stderr's: %s", p.out);
	char *lines[8];
	int n = 0;
	for (char *save = NULL, *l = strtok_r(p.err, "\n", &save); l && n < 8;
	     l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "lbl", 3) && status_text(l + 3))
			lines[n++] = l + 3;
	cr_assert_eq(n, 2, "a line at the start and one at the end: %d", n);
	cr_assert_str_eq(status_text(lines[0]), "0 sec: 0 operations; est completion in 0 second ");
	const char *last = status_text(lines[1]);
	cr_assert(strstr(last, " sec: 2000 operations; ") && strstr(last, " current ops/sec; [READ: "),
		  "%s", last);
	cr_assert_null(strstr(last, "est completion"), "nothing left to do: %s", last);
	cr_assert(last[strlen(last) - 1] == ' ' && last[strlen(last) - 2] == ']', "%s", last);
	struct yo_expect x = {.type = YO_HDR, .npct = 2, .pct = {"95th", "99th"}};
	struct yo_out o;
	read_txt(e.out, &x, &o, 2000);
	static const char *const ops[] = {"READ", "UPDATE"};
	for (int i = 0; i < 2; i++) {
		char want[256];
		snprintf(want, sizeof want, "[%s: Count=%lld, Max=%lld, Min=%lld, Avg=", ops[i],
			 (long long)yo_find(&o, ops[i], "Operations")->l,
			 (long long)yo_find(&o, ops[i], "MaxLatency(us)")->l,
			 (long long)yo_find(&o, ops[i], "MinLatency(us)")->l);
		cr_assert(strstr(last, want), "'%s' in %s", want, last);
		snprintf(want, sizeof want, ", 99=%lld, ", (long long)yo_find(&o, ops[i],
			 "99thPercentileLatency(us)")->l);
		cr_assert(strstr(strstr(last, ops[i]), want), "'%s' in %s", want, last);
	}
	yo_free(&o);
	e2e_proc_free(&p);
	/* timeseries: on stdout too, as YCSB's standardstatus */
	char out[E2E_PATH + 16];
	snprintf(out, sizeof out, "%s/ts", e.tmp);
	ycsb_spawn(&p, &e, "run", YCSB_WL("a"), out, "-s", "-p", "measurementtype=timeseries", NULL);
	e2e_assert_code(&p, 0);
	cr_assert(strstr(p.out, " 0 sec: 0 operations; "), "%s", p.out);
	cr_assert(strstr(p.out, "[READ AverageLatency(us)="), "%s", p.out);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* YCSB's command line as it is: no verb, -threads, -target, -s, -db, -p
 * properties rpbench does not use (named on stderr, ignored, exit 0);
 * -load is the verb load; rpbench's -s KEY=VALUE still means --set; -load
 * beside the verb run is refused in one line. */
Test(e2e_null, ycsb_command_line, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "-P", YCSB_WL("a"), "-threads", "4", "-target", "1000000", "-s", "-p",
		     "measurementtype=hdrhistogram", "-db", "site.ycsb.BasicDB", "-p",
		     "hdrhistogram.fileoutput=false", "--out", e.out, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	cr_assert(strstr(p.err, "warning: -p: YCSB properties rpbench does not use, ignored: db, "
			 "hdrhistogram.fileoutput\n"), "%s", p.err);
	cr_assert(strstr(p.err, " 0 sec: 0 operations; "), "-s: %s", p.err);
	e2e_proc_free(&p);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "pattern.phase"), "run");
	json_t *opts = json_object_get(json_object_get(r, "manifest"), "options");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "run.threads")), "4");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "run.rate")), "1000000");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "ycsb.status")), "on");
	cr_assert(strstr(e2e_jstr(r, "manifest.command"), " -p threadcount=4 "), "%s",
		  e2e_jstr(r, "manifest.command"));
	json_decref(r);

	char out[E2E_PATH + 16];
	snprintf(out, sizeof out, "%s/load", e.tmp);
	struct e2e_args l = {0};
	e2e_args_add(&l, e.bin, "-load", "-P", YCSB_WL("a"), "-s", "sync=none", "--out", out,
		     "--quiet", NULL);
	e2e_exec(&p, e.cap, &l);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	r = e2e_result(out);
	cr_assert_str_eq(e2e_jstr(r, "pattern.phase"), "load");
	opts = json_object_get(json_object_get(r, "manifest"), "options");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "run.sync")), "none");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "ycsb.status")), "off");
	json_decref(r);

	struct e2e_args bad = {0};
	e2e_args_add(&bad, e.bin, "run", "-load", "-P", YCSB_WL("a"), NULL);
	e2e_exec(&p, e.cap, &bad);
	e2e_assert_refusal(&p, 1, "-load", "the verb load", "run", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* Statuses as YCSB counts them, on a store whose records 100..149 of 200
 * were never loaded: with on_error = continue the run goes on past a read
 * that finds nothing (exit 0); its latency is under [READ-FAILED], its
 * status, NOT_FOUND, under [READ] beside the OK ones;
 * reportlatencyforeacherror names the failure [READ-NOT_FOUND]. */
#ifdef RPB_HAVE_LEVELDB
Test(e2e_leveldb, ycsb_failed_reads_counted, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	char store[E2E_PATH], l1[E2E_PATH], l2[E2E_PATH];
	e2e_path(&e, store, "store");
	e2e_path(&e, l1, "l1");
	e2e_path(&e, l2, "l2");
	struct e2e_proc p;
	/* keys 0..99 and 150..199 of 200: reads of 100..149 find nothing */
	ycsb_spawn(&p, &e, "load", YCSB_WL("c"), l1, "--dir", store, "-p", "recordcount=200", "-p",
		   "insertcount=100", "--quiet", "--set", "sync=none", NULL);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	ycsb_spawn(&p, &e, "load", YCSB_WL("c"), l2, "--dir", store, "-p", "recordcount=200", "-p",
		   "insertstart=150", "-p", "insertcount=50", "--quiet", "--set", "sync=none", NULL);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	for (int each = 0; each < 2; each++) {
		char out[E2E_PATH + 16];
		snprintf(out, sizeof out, "%s/run%d", e.tmp, each);
		ycsb_spawn(&p, &e, "run", YCSB_WL("c"), out, "--dir", store, "-p", "recordcount=200",
			   "-p", "requestdistribution=uniform", "-p",
			   each ? "reportlatencyforeacherror=true" : "reportlatencyforeacherror=false",
			   "--set", "on_error=continue", "--quiet", NULL);
		e2e_assert_code(&p, 0);
		e2e_proc_free(&p);
		struct yo_expect x = {.type = YO_HDR, .npct = 2, .pct = {"95th", "99th"}};
		struct yo_out o;
		read_txt(out, &x, &o, 1000);
		const char *name = each ? "READ-NOT_FOUND" : "READ-FAILED";
		const struct yo_rec *failed = yo_find(&o, name, "Operations"),
				    *nf = yo_find(&o, "READ", "Return=NOT_FOUND"),
				    *ok = yo_find(&o, "READ", "Return=OK"),
				    *good = yo_find(&o, "READ", "Operations");
		cr_assert(failed && nf && ok && good, "[%s] and READ's NOT_FOUND status", name);
		cr_assert_eq(failed->l, nf->l);
		cr_assert_eq(good->l, ok->l);
		cr_assert_eq(ok->l + nf->l, 1000);
		cr_assert_gt(nf->l, 100, "a quarter of the keys are missing: %lld", (long long)nf->l);
		yo_free(&o);
	}
	e2e_env_fini(&e);
}
#endif

#ifdef RPB_HAVE_LEVELDB
struct bytes_seen {
	uint64_t bad_for_ycsb, records;
	const char *key_prefix;
};

/* Every field value byte against RandomByteIterator's sets by position. */
static void check_values(void *ctx, rpb_slice key, rpb_slice val)
{
	struct bytes_seen *b = ctx;
	static const unsigned mask[6] = {31, 63, 95, 31, 63, 95};
	struct ycsb_field f;
	size_t at = 0;
	(void)key;
	b->records++;
	while (ycsb_field_next((const unsigned char *)val.data, val.len, &at, &f) > 0)
		for (size_t i = 0; i < f.len; i++)
			b->bad_for_ycsb += f.val[i] < 32 || ((unsigned)(f.val[i] - 32) & ~mask[i % 6]);
}

/* values = ycsb (the default) stores RandomByteIterator's bytes, each in
 * its position's set; values = windows rpbench's earlier uniform printable
 * bytes, which are not. A load with insertstart and no insertcount inserts
 * recordcount records from insertstart, as YCSB's Client does; a record of
 * 300 fields loads and verifies; dataintegrity's check after each read is
 * YCSB's [VERIFY], one OK status per read. */
Test(e2e_leveldb, ycsb_values_and_loads, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	static const char *const kinds[] = {"values=ycsb", "values=windows"};
	for (int k = 0; k < 2; k++) {
		char out[E2E_PATH + 16], store[E2E_PATH + 16];
		snprintf(out, sizeof out, "%s/l%d", e.tmp, k);
		snprintf(store, sizeof store, "%s/s%d", e.tmp, k);
		struct e2e_proc p;
		ycsb_spawn(&p, &e, "load", YCSB_WL("a"), out, "--dir", store, "-p", "recordcount=100",
			   "-p", "insertstart=50", "-p", kinds[k], "--quiet", "--set", "sync=none", NULL);
		e2e_assert_code(&p, 0);
		e2e_proc_free(&p);
		struct e2e_store s;
		struct bytes_seen b = {0};
		e2e_store_open(&s, "leveldb", store);
		e2e_scan_prefix(&s, RPB_T_RAW, "user", check_values, &b);
		e2e_store_close(&s);
		cr_assert_eq(b.records, 100, "recordcount records from insertstart");
		if (k == 0)
			cr_assert_eq(b.bad_for_ycsb, 0, "every byte is RandomByteIterator's");
		else
			cr_assert_gt(b.bad_for_ycsb, 1000, "windows are uniform printable bytes");
		char *text = e2e_verify(&e, out, 0);
		cr_assert(!strncmp(text, "verified 100 objects: 0 missing", 31), "%s", text);
		free(text);
		json_t *r = e2e_result(out);
		cr_assert_eq(e2e_jint(r, "totals.acked"), 100);
		json_decref(r);
	}
	char out[E2E_PATH], store[E2E_PATH];
	e2e_path(&e, out, "wide");
	e2e_path(&e, store, "wide-store");
	struct e2e_proc p;
	ycsb_spawn(&p, &e, "load", YCSB_WL("c"), out, "--dir", store, "-p", "recordcount=20", "-p",
		   "fieldcount=300", "-p", "fieldlength=4", "-p", "dataintegrity=true", "--quiet", NULL);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	char *text = e2e_verify(&e, out, 0);
	cr_assert(!strncmp(text, "verified 20 objects: 0 missing, 0 corrupt", 41), "%s", text);
	free(text);
	char run[E2E_PATH];
	e2e_path(&e, run, "wide-run");
	ycsb_spawn(&p, &e, "run", YCSB_WL("c"), run, "--dir", store, "-p", "recordcount=20", "-p",
		   "fieldcount=300", "-p", "fieldlength=4", "-p", "dataintegrity=true",
		   "-p", "operationcount=200", "--quiet", NULL);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	struct yo_expect x = {.type = YO_HDR, .npct = 2, .pct = {"95th", "99th"}};
	struct yo_out o;
	read_txt(run, &x, &o, 200);
	const struct yo_rec *v = yo_find(&o, "VERIFY", "Return=OK"), *n = yo_find(&o, "VERIFY", "Operations");
	cr_assert(v && n && v->l == 200 && n->l == 200, "one VERIFY, OK, per read");
	yo_free(&o);
	e2e_env_fini(&e);
}
#endif

#ifdef RPB_HAVE_SQLITE
/* YCSB's workloads by name from the build tree, as YCSB's users name them:
 * share/rpbench/workloads/ycsb/workloada (the deb's are tested by
 * scripts/deb-test.sh); a name that is none lists them. */
Test(e2e_sqlite, ycsb_workload_by_name, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char load[E2E_PATH], run[E2E_PATH];
	e2e_path(&e, load, "load");
	e2e_path(&e, run, "run");
	struct e2e_proc p;
	ycsb_spawn(&p, &e, "load", "workloada", load, "--dir", e.store, "-p", "recordcount=50",
		   "--quiet", "--set", "sync=none", NULL);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	ycsb_spawn(&p, &e, "run", "workloada", run, "--dir", e.store, "-p", "recordcount=50", "-p",
		   "operationcount=100", "--quiet", "--set", "sync=none", NULL);
	e2e_assert_code(&p, 0);
	e2e_proc_free(&p);
	json_t *r = e2e_result(run);
	const char *wl = e2e_jstr(r, "manifest.workload");
	cr_assert(strstr(wl, "/workloads/ycsb/workloada"), "%s", wl);
	json_decref(r);
	e2e_verify_clean(&e, run, 50);
	ycsb_spawn(&p, &e, "run", "workloadz", run, NULL);
	e2e_assert_refusal(&p, 1, "no workload of that name", "workloada", "did you mean", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}
#endif
