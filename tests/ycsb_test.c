/* Unit tests of the ycsb pattern: YCSB's key names and integrity values,
 * the generators against their mass functions (chi-square at a small item
 * count, fixed seeds), the scrambled zipfian's spread, latest never ahead
 * of the acknowledged inserts under concurrent inserters, the insert
 * counter's file as verify reads it back, the operation mix of workloads
 * A-F and each operation's label, the property-file reader and the record
 * checks. */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"
#include "testutil.h"
#include "workload.h"
#include "ycsb.h"

#define DRAWS 100000

/* A job of the ycsb pattern at its defaults, then resolved. */
static struct rpb_ycsb_opts *make_job(struct rpb_job *job)
{
	char msg[512];
	rpb_job_defaults(job);
	cr_assert_eq(rpb_job_choose(job, rpb_pattern_find("ycsb"), msg, sizeof msg), 0, "%s", msg);
	return job->config;
}

static void finish(struct rpb_job *job)
{
	char msg[512];
	cr_assert_eq(ycsb_finish(job->config, job, "", msg, sizeof msg), 0, "%s", msg);
}

/* Pearson's statistic of counts against probabilities. */
static double chi2(const uint64_t *obs, const double *p, size_t k, uint64_t n)
{
	double x = 0;
	for (size_t i = 0; i < k; i++) {
		double e = p[i] * (double)n;
		x += ((double)obs[i] - e) * ((double)obs[i] - e) / e;
	}
	return x;
}

/* Chi-square critical values at p = 0.001 (9 and 19 degrees of freedom). */
#define CHI2_DF9 27.88
#define CHI2_DF19 43.82

Test(ycsb, key_names_as_ycsb)
{
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	finish(&job);
	char key[64];
	/* YCSB's first key of every hashed load. */
	ycsb_key(key, sizeof key, o, 0);
	cr_assert_str_eq(key, "user6284781860667377211");
	o->insertorder = YCSB_ORDERED;
	o->zeropadding = 5;
	ycsb_key(key, sizeof key, o, 42);
	cr_assert_str_eq(key, "user00042");
	o->zeropadding = 1;
	ycsb_key(key, sizeof key, o, 123);
	cr_assert_str_eq(key, "user123");
	cr_assert_geq(ycsb_fnv64(INT64_C(-1)), 0);
	rpb_job_free(&job);
}

Test(ycsb, integrity_value_as_ycsb)
{
	/* Java: key:field, then ':' + String.hashCode() of the text so far. */
	const char *want = "user6284781860667377211:field0:-56807877:2032869390:-165488160:"
			   "1762371712:-169193395:-1039977118:-10";
	unsigned char got[100];
	ycsb_integrity_value(got, sizeof got, "user6284781860667377211", 23, "field0", 6);
	cr_assert_eq(memcmp(got, want, sizeof got), 0, "%.100s", (char *)got);
}

Test(ycsb, uniform_chi_square)
{
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	o->recordcount = 20;
	finish(&job);
	struct ycsb_gen g;
	ycsb_gen_init(&g, o, NULL, 7, 0);
	uint64_t obs[20] = {0};
	double p[20];
	for (int i = 0; i < 20; i++)
		p[i] = 1.0 / 20;
	for (int i = 0; i < DRAWS; i++) {
		uint64_t k = ycsb_next_keynum(&g);
		cr_assert_lt(k, 20);
		obs[k]++;
	}
	cr_assert_lt(chi2(obs, p, 20, DRAWS), CHI2_DF19);
	rpb_job_free(&job);
}

/* YCSB's ZipfianGenerator is Gray et al.'s method: ranks 0 and 1 exactly
 * as Zipf's law, the others from a closed form that approximates it. Its
 * own mass function follows from u: rank v >= 2 takes the u in [u2, 1)
 * whose n (eta u - eta + 1)^alpha lies in [v, v + 1). */
static void gray_pmf(const struct ycsb_zipf *z, uint64_t n, double *p)
{
	double u1 = 1 / z->zetan, u2 = (1 + pow(0.5, z->theta)) / z->zetan;
	for (uint64_t v = 0; v < n; v++) {
		double lo = (pow((double)v / (double)n, 1 / z->alpha) - 1 + z->eta) / z->eta;
		double hi = (pow((double)(v + 1) / (double)n, 1 / z->alpha) - 1 + z->eta) / z->eta;
		lo = lo > u2 ? lo : u2;
		hi = hi < 1 ? hi : 1;
		p[v] = hi > lo ? hi - lo : 0;
	}
	p[0] += u1;
	p[1] += u2 - u1;
}

Test(ycsb, zipfian_chi_square)
{
	struct ycsb_zipf z;
	struct rpb_rng r;
	rpb_rng_seed(&r, 11, 1, 0);
	ycsb_zipf_init(&z, 0, 9, 0.99);
	uint64_t obs[10] = {0};
	double p[10], zeta = ycsb_zeta(0, 10, 0.99, 0), sum = 0;
	gray_pmf(&z, 10, p);
	for (int i = 0; i < 10; i++)
		sum += p[i];
	cr_assert_float_eq(sum, 1.0, 1e-9);
	/* The first two ranks are Zipf's law itself. */
	cr_assert_float_eq(p[0], 1 / zeta, 1e-12);
	cr_assert_float_eq(p[1], pow(0.5, 0.99) / zeta, 1e-12);
	for (int i = 0; i < DRAWS; i++) {
		uint64_t v = ycsb_zipf_next(&z, &r, 10);
		cr_assert_lt(v, 10);
		obs[v]++;
	}
	double x = chi2(obs, p, 10, DRAWS);
	cr_assert_lt(x, CHI2_DF9, "chi-square %g: %llu %llu %llu ...", x, (unsigned long long)obs[0],
		     (unsigned long long)obs[1], (unsigned long long)obs[2]);
}

Test(ycsb, hotspot_chi_square)
{
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	o->recordcount = 20;
	strcpy(o->requestdist, "hotspot");
	finish(&job);
	struct ycsb_gen g;
	ycsb_gen_init(&g, o, NULL, 3, 0);
	uint64_t obs[20] = {0};
	double p[20];
	/* 20% of the records (4) take 80% of the operations. */
	for (int i = 0; i < 20; i++)
		p[i] = i < 4 ? 0.8 / 4 : 0.2 / 16;
	for (int i = 0; i < DRAWS; i++)
		obs[ycsb_next_keynum(&g)]++;
	cr_assert_lt(chi2(obs, p, 20, DRAWS), CHI2_DF19);
	rpb_job_free(&job);
}

/* The scrambled zipfian's most popular item is where the hash puts item 0,
 * not the first key, and the popular ones are spread over the range. */
Test(ycsb, scrambled_zipfian_spread)
{
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	o->recordcount = 1000;
	strcpy(o->requestdist, "zipfian");
	finish(&job);
	struct ycsb_gen g;
	ycsb_gen_init(&g, o, NULL, 5, 0);
	static uint64_t obs[1000];
	for (int i = 0; i < DRAWS; i++)
		obs[ycsb_next_keynum(&g)]++;
	uint64_t top = 0;
	for (int i = 1; i < 1000; i++)
		top = obs[i] > obs[top] ? (uint64_t)i : top;
	cr_assert_eq(top, (uint64_t)ycsb_fnv64(0) % 1001, "most popular %llu",
		     (unsigned long long)top);
	uint64_t low = 0;
	for (int i = 0; i < 100; i++)
		low += obs[i];
	/* A plain zipfian would put about 30% of the draws on the first 10%. */
	cr_assert_lt(low, DRAWS / 5, "first tenth drew %llu", (unsigned long long)low);
	rpb_job_free(&job);
}

/* ---- latest under concurrent inserts ---- */

#define LATEST_START 100
#define LATEST_INSERTS 50000
struct latest_ctx {
	struct ycsb_ack ack;
	_Atomic unsigned char *done; /* set before the insert is acknowledged */
	_Atomic bool stop;
};

static void *inserter(void *arg)
{
	struct latest_ctx *c = arg;
	for (;;) {
		uint64_t k = ycsb_ack_take(&c->ack);
		if (k >= LATEST_START + LATEST_INSERTS)
			break;
		if (k % 7 == 0)
			sched_yield(); /* acknowledgements out of order */
		atomic_store(&c->done[k], 1);
		cr_assert(ycsb_ack_done(&c->ack, k));
	}
	return NULL;
}

Test(ycsb, latest_never_unacknowledged)
{
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	o->recordcount = LATEST_START;
	strcpy(o->requestdist, "latest");
	finish(&job);
	struct latest_ctx c;
	cr_assert_eq(ycsb_ack_init(&c.ack, LATEST_START), 0);
	c.done = calloc(LATEST_START + LATEST_INSERTS, 1);
	for (int i = 0; i < LATEST_START; i++)
		c.done[i] = 1;
	struct ycsb_gen g;
	ycsb_gen_init(&g, o, &c.ack, 9, 0);
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, inserter, &c);
	uint64_t draws = 0, highest = 0;
	while (ycsb_ack_last(&c.ack) < LATEST_START + LATEST_INSERTS - 1) {
		uint64_t k = ycsb_next_keynum(&g);
		cr_assert(atomic_load(&c.done[k]), "latest drew %llu before its insert was acknowledged",
			  (unsigned long long)k);
		highest = k > highest ? k : highest;
		draws++;
	}
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	cr_assert_eq(ycsb_ack_last(&c.ack), LATEST_START + LATEST_INSERTS - 1);
	cr_assert_gt(highest, LATEST_START, "latest followed the inserts");
	free((void *)c.done);
	ycsb_ack_free(&c.ack);
	rpb_job_free(&job);
}

/* ---- the insert counter's file ---- */

/* Numbers taken, some done out of order, one given up: the file alone says
 * which are done (the limit and the marks after it) and which were given
 * up, as a killed run leaves them. */
Test(ycsb, insert_counter_file_read_back)
{
	char dir[] = "/tmp/rpbt-ycsb-XXXXXX", path[128], msg[512];
	cr_assert_not_null(mkdtemp(dir));
	struct ycsb_ack a;
	cr_assert_eq(ycsb_ack_init_file(&a, 100, dir, msg, sizeof msg), 0, "%s", msg);
	for (int i = 0; i < 10; i++)
		cr_assert_eq(ycsb_ack_take(&a), 100u + (unsigned)i);
	static const uint64_t done[] = {101, 100, 105, 103};
	for (size_t i = 0; i < sizeof done / sizeof *done; i++)
		cr_assert(ycsb_ack_done(&a, done[i]));
	ycsb_ack_given_up(&a, 102);
	cr_assert(ycsb_ack_done(&a, 102));
	cr_assert_eq(ycsb_ack_last(&a), 103);
	struct ycsb_ack again;
	cr_assert_neq(ycsb_ack_init_file(&again, 100, dir, msg, sizeof msg), 0);
	cr_assert(strstr(msg, YCSB_ACK_FILE) && !strchr(msg, '\n'), "%s", msg);
	ycsb_ack_free(&a); /* what stays is the file */

	snprintf(path, sizeof path, "%s/%s", dir, YCSB_ACK_FILE);
	size_t len;
	const char *why = NULL;
	struct ycsb_ack_head *h = (struct ycsb_ack_head *)rpb_file_slurp(path, 1u << 21, &len, &why);
	cr_assert_not_null(h, "%s %s", path, why);
	cr_assert_eq(len, sizeof *h + YCSB_ACK_WINDOW);
	cr_assert_eq(memcmp(h->magic, YCSB_ACK_MAGIC, 8), 0);
	cr_assert_eq(atomic_load(&h->next), 110);
	for (uint64_t k = 100; k < 110; k++)
		cr_assert_eq(ycsb_ack_is_done(h, k), k <= 103 || k == 105, "number %llu",
			     (unsigned long long)k);
	free(h);
	snprintf(path, sizeof path, "%s/%s", dir, YCSB_GIVEN_UP_FILE);
	char *log = rpb_file_slurp(path, 4096, &len, &why);
	cr_assert_not_null(log, "%s %s", path, why);
	cr_assert_str_eq(log, "102\n");
	free(log);
	rpbt_rmtree(dir);
}

/* ---- workload files and the operation mix ---- */

static void load_workload(struct rpb_job *job, const char *name)
{
	char path[512], msg[1024];
	snprintf(path, sizeof path, "%s/data/workloads/ycsb/%s", RPB_SOURCE_DIR, name);
	rpb_job_defaults(job);
	cr_assert_eq(rpb_job_load(job, path, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(job, msg, sizeof msg), 0, "%s", msg);
	cr_assert_str_eq(rpb_job_pattern_name(job), "ycsb");
}

Test(ycsb, operation_mix_within_one_percent)
{
	static const char *const files[] = {"workloada", "workloadb", "workloadc",
					    "workloadd", "workloade", "workloadf"};
	static const double want[6][YCSB_NOPS] = {
		{0.5, 0.5, 0, 0, 0},    {0.95, 0.05, 0, 0, 0}, {1, 0, 0, 0, 0},
		{0.95, 0, 0.05, 0, 0}, {0, 0, 0.05, 0.95, 0}, {0.5, 0, 0, 0, 0.5},
	};
	for (int f = 0; f < 6; f++) {
		struct rpb_job job;
		load_workload(&job, files[f]);
		const struct rpb_ycsb_opts *o = ycsb_opts(&job);
		cr_assert_eq(o->recordcount, 1000);
		struct ycsb_gen g;
		ycsb_gen_init(&g, o, NULL, 42, 0);
		uint64_t n[YCSB_NOPS] = {0};
		for (int i = 0; i < DRAWS; i++)
			n[ycsb_op_kind(g.cum, 42, (unsigned)i % 3, (uint64_t)i / 3)]++;
		for (int op = 0; op < YCSB_NOPS; op++)
			cr_assert(fabs((double)n[op] / DRAWS - want[f][op]) < 0.01, "%s: %s %.4f, want %g",
				  files[f], ycsb_op_names[op], (double)n[op] / DRAWS, want[f][op]);
		rpb_job_free(&job);
	}
}

/* A load's operations are inserts; a run's label is the kind its operation
 * draws, the same for the same (seed, thread, index) and not one sequence
 * for every thread. */
Test(ycsb, op_label_is_the_operation_kind)
{
	struct rpb_job job;
	load_workload(&job, "workloadf");
	const struct rpb_ycsb_opts *o = ycsb_opts(&job);
	double cum[YCSB_NOPS];
	ycsb_op_weights(o, cum);
	unsigned same = 0;
	for (uint64_t i = 0; i < 1000; i++) {
		unsigned l = ycsb_op_label(&job, 1, i);
		cr_assert_eq(l, (unsigned)ycsb_op_kind(cum, job.run.seed, 1, i));
		cr_assert(l == YCSB_READ || l == YCSB_RMW, "workload F drew %s", ycsb_op_names[l]);
		same += l == ycsb_op_label(&job, 2, i);
	}
	cr_assert_lt(same, 600, "threads 1 and 2 drew the same kinds %u times of 1000", same);
	((struct rpb_ycsb_opts *)job.config)->phase = YCSB_LOAD;
	cr_assert_eq(ycsb_op_label(&job, 0, 5), YCSB_INSERT);
	rpb_job_free(&job);
}

Test(ycsb, properties_and_ini_forms)
{
	char dir[] = "/tmp/rpbt-ycsb-XXXXXX", path[128], msg[1024];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/props", dir);
	FILE *f = fopen(path, "w");
	fputs("# comment\n! comment\nrecordcount = 77\nthreadcount: 3\ntarget=500\n"
	      "requestdistribution=latest\ndb=site.ycsb.BasicDB\n", f);
	fclose(f);
	struct rpb_job job;
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, path, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(ycsb_opts(&job)->recordcount, 77);
	cr_assert_str_eq(ycsb_opts(&job)->requestdist, "latest");
	cr_assert_eq(job.run.threads, 3);
	cr_assert_eq(job.run.rate, 500);
	/* -p threadcount=N is --set's synonym for [run] threads. */
	cr_assert_eq(rpb_job_set(&job, "threadcount=4", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(job.run.threads, 4);
	rpb_job_free(&job);
	f = fopen(path, "w");
	fputs("recordcount=oops\n", f);
	fclose(f);
	rpb_job_defaults(&job);
	cr_assert_neq(rpb_job_load(&job, path, msg, sizeof msg), 0);
	cr_assert(strstr(msg, "props:1: [ycsb] recordcount = oops is invalid"), "%s", msg);
	rpb_job_free(&job);
	f = fopen(path, "w");
	fputs("; rpbench's own form\n[run]\nthreads = 2\n[ycsb]\nrecordcount = 9\n", f);
	fclose(f);
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, path, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(ycsb_opts(&job)->recordcount, 9);
	rpb_job_free(&job);
	unlink(path);
	rmdir(dir);
}

/* YCSB splits the operations: the first opcount % threads threads do one more. */
Test(ycsb, thread_split)
{
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	job.run.threads = 3;
	o->operationcount = 10;
	o->recordcount = 8;
	finish(&job);
	cr_assert_eq(ycsb_thread_ops(&job, 0), 4);
	cr_assert_eq(ycsb_thread_ops(&job, 1), 3);
	cr_assert_eq(ycsb_thread_ops(&job, 2), 3);
	o->phase = YCSB_LOAD;
	cr_assert_eq(ycsb_thread_ops(&job, 0) + ycsb_thread_ops(&job, 1) + ycsb_thread_ops(&job, 2), 8);
	cr_assert_eq(ycsb_thread_first(o, 2), 6);
	rpb_job_free(&job);
}

Test(ycsb, record_check_finds_damage)
{
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	o->fieldcount = 2;
	o->fieldlength = 10;
	o->dataintegrity = true;
	finish(&job);
	unsigned char rec[256], val[10], scratch[10];
	char why[256];
	size_t at = 0;
	ycsb_integrity_value(val, 10, "user1", 5, "field0", 6);
	at += ycsb_encode_field(rec + at, "field0", 6, val, 10);
	ycsb_integrity_value(val, 10, "user1", 5, "field1", 6);
	at += ycsb_encode_field(rec + at, "field1", 6, val, 10);
	cr_assert_eq(ycsb_record_check(o, "user1", 5, rec, at, scratch, why, sizeof why), 0, "%s", why);
	rec[at - 1] ^= 1;
	cr_assert_eq(ycsb_record_check(o, "user1", 5, rec, at, scratch, why, sizeof why), -1);
	cr_assert(strstr(why, "field1 differs"), "%s", why);
	cr_assert_eq(ycsb_record_check(o, "user1", 5, rec, at - 17, scratch, why, sizeof why), -1);
	rpb_job_free(&job);
}

/* Writes text to dir/name; returns the path (static). */
static const char *write_props(const char *dir, const char *text)
{
	static char path[160];
	snprintf(path, sizeof path, "%s/props", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* java.util.Properties' syntax, as YCSB's -P reads its files: CRLF, key
 * separators '=', ':' or blanks, a backslash continuing a line (the next
 * line's leading blanks dropped), escapes (\=, \t, \uXXXX), comment
 * lines that never continue; a malformed \u is refused with its line. */
Test(ycsb, properties_java_syntax)
{
	char dir[] = "/tmp/rpbt-ycsb-XXXXXX", msg[1024];
	cr_assert_not_null(mkdtemp(dir));
	const char *path = write_props(dir,
		"# a comment ending in a backslash does not go on \\\r\n"
		"recordcount=77\r\n"
		"  operationcount   500\r\n"
		"fieldnameprefix = f\\\n"
		"      ld\n"
		"table=a\\=b\\u0041\\\\!\n"
		"! readallfields=false\n"
		"maxscanlength:33\n");
	struct rpb_job job;
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, path, msg, sizeof msg), 0, "%s", msg);
	const struct rpb_ycsb_opts *o = ycsb_opts(&job);
	cr_assert_eq(o->recordcount, 77);
	cr_assert_eq(o->operationcount, 500);
	cr_assert_str_eq(o->fieldnameprefix, "fld");
	cr_assert_eq(o->maxscanlength, 33);
	cr_assert_str_eq(o->table, "a=bA\\!");
	cr_assert(o->readallfields, "a comment line sets nothing");
	rpb_job_free(&job);
	/* \t is a tab, which is no text result.json records: refused. */
	path = write_props(dir, "table=a\\tb\n");
	rpb_job_defaults(&job);
	cr_assert_neq(rpb_job_load(&job, path, msg, sizeof msg), 0);
	cr_assert(strstr(msg, "props:1: [ycsb] table = a?b is invalid"), "%s", msg);
	rpb_job_free(&job);
	path = write_props(dir, "recordcount=1\ntable=\\u004\n");
	rpb_job_defaults(&job);
	cr_assert_neq(rpb_job_load(&job, path, msg, sizeof msg), 0);
	cr_assert(strstr(msg, "props:2: malformed \\uxxxx escape"), "%s", msg);
	rpb_job_free(&job);
	unlink(path);
	rmdir(dir);
}

/* Boolean.parseBoolean: "true" in any case is true, anything else false
 * (yes and 1 too, which rpbench's own syntax takes as true), in a file
 * and on -p alike. */
Test(ycsb, properties_java_booleans)
{
	char dir[] = "/tmp/rpbt-ycsb-XXXXXX", msg[1024];
	cr_assert_not_null(mkdtemp(dir));
	const char *path = write_props(dir, "readallfields=yes\nwriteallfields=TRUE\ndataintegrity=1\n");
	struct rpb_job job;
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, path, msg, sizeof msg), 0, "%s", msg);
	const struct rpb_ycsb_opts *o = ycsb_opts(&job);
	cr_assert(!o->readallfields, "readallfields=yes is false for YCSB");
	cr_assert(o->writeallfields, "TRUE is true");
	cr_assert(!o->dataintegrity, "1 is false for YCSB");
	const struct rpb_pattern *p = rpb_pattern_find("ycsb");
	cr_assert_eq(p->property(&job, "readallfields", "True", rpb_job_set, msg, sizeof msg), 0, "%s", msg);
	cr_assert(o->readallfields);
	cr_assert_eq(p->property(&job, "readallfields", "False", rpb_job_set, msg, sizeof msg), 0);
	cr_assert(!o->readallfields);
	/* Any other property: accepted, unused (1); rpbench's own still work. */
	cr_assert_eq(p->property(&job, "db", "site.ycsb.BasicDB", rpb_job_set, msg, sizeof msg), 1);
	cr_assert_eq(p->property(&job, "sync", "none", rpb_job_set, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(job.run.sync, RPB_SYNC_NONE);
	cr_assert_eq(p->property(&job, "measurement.interval", "later", rpb_job_set, msg, sizeof msg), -1);
	rpb_job_free(&job);
	unlink(path);
	rmdir(dir);
}

/* RandomByteIterator's bytes: each run of six from one int, its low 5
 * bits, then 6, 6 (& 95), 5, 6, 6 (& 95), each plus ' ': every byte in its
 * position's set (32..63, 32..95, 32..63 and 96..127), each value of the
 * set about equally often, 5.67 bits of entropy per byte where uniform
 * printable bytes have 6.57. */
Test(ycsb, values_as_random_byte_iterator)
{
	enum { LEN = 96, ROUNDS = 20000 };
	static uint64_t seen[6][256];
	memset(seen, 0, sizeof seen);
	struct rpb_rng r;
	rpb_rng_seed(&r, 1, 2, 3);
	unsigned char v[LEN];
	for (int k = 0; k < ROUNDS; k++) {
		ycsb_random_bytes(&r, v, LEN);
		for (int i = 0; i < LEN; i++)
			seen[i % 6][v[i]]++;
	}
	static const unsigned mask[6] = {31, 63, 95, 31, 63, 95};
	double bits = 0;
	for (int pos = 0; pos < 6; pos++) {
		uint64_t total = (uint64_t)ROUNDS * LEN / 6;
		unsigned values = 0;
		for (int b = 0; b < 256; b++) {
			bool allowed = b >= 32 && ((unsigned)(b - 32) & ~mask[pos]) == 0;
			cr_assert(allowed || !seen[pos][b], "byte %d at position %d", b, pos);
			values += allowed;
			if (seen[pos][b]) {
				double p = (double)seen[pos][b] / (double)total;
				bits -= p * log2(p) / 6;
			}
		}
		for (int b = 32; b < 128; b++)
			if (((unsigned)(b - 32) & ~mask[pos]) == 0)
				cr_assert(fabs((double)seen[pos][b] / ((double)total / values) - 1) < 0.1,
					  "byte %d at position %d: %llu times", b, pos,
					  (unsigned long long)seen[pos][b]);
	}
	cr_assert(fabs(bits - 17.0 / 3) < 0.01, "%.3f bits per byte", bits);
	/* A short tail takes the first bytes of the pattern. */
	ycsb_random_bytes(&r, v, 4);
	cr_assert(v[0] < 64 && v[3] < 64);
}

/* Values YCSB takes: recordcount = 0 is 2^31 - 1 records; zeropadding = 0
 * pads nothing; weights above 1 are weights (3:1 is 75% reads); more than
 * 255 fields; a load with insertstart and no insertcount inserts
 * recordcount records from insertstart, while the run's key range is
 * recordcount - insertstart (CoreWorkload's insertcount). */
Test(ycsb, values_ycsb_accepts)
{
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	o->recordcount = 0;
	o->insertcount = 10;
	finish(&job);
	cr_assert_eq(o->records, 2147483647);
	cr_assert_eq(o->loadcount, 10);
	o->zeropadding = 0;
	char a[64], b[64];
	ycsb_key(a, sizeof a, o, 7);
	o->zeropadding = 1;
	ycsb_key(b, sizeof b, o, 7);
	cr_assert_str_eq(a, b);
	o->proportion[YCSB_READ] = 3;
	o->proportion[YCSB_UPDATE] = 1;
	double cum[YCSB_NOPS];
	ycsb_op_weights(o, cum);
	cr_assert_float_eq(cum[YCSB_READ], 0.75, 1e-12);
	o->fieldcount = 300;
	finish(&job);
	cr_assert_gt(ycsb_record_max(o), 300 * 100);
	rpb_job_free(&job);

	o = make_job(&job);
	o->recordcount = 100;
	o->insertstart = 50;
	o->phase = YCSB_LOAD;
	job.run.threads = 2;
	finish(&job);
	cr_assert_eq(ycsb_thread_ops(&job, 0) + ycsb_thread_ops(&job, 1), 100, "recordcount records");
	cr_assert_eq(ycsb_thread_first(o, 0), 50);
	cr_assert_eq(ycsb_thread_first(o, 1), 100);
	cr_assert_eq(o->inserts, 50, "the run's range from insertstart");
	o->insertcount = 60; /* 50 + 60 > recordcount: YCSB refuses it too */
	char msg[512];
	cr_assert_neq(ycsb_finish(o, &job, "", msg, sizeof msg), 0);
	cr_assert(strstr(msg, "recordcount must be bigger than insertstart + insertcount"), "%s", msg);
	rpb_job_free(&job);
}

/* fieldlengthdistribution = histogram: HistogramGenerator's file and its
 * draws, bucket i giving (i + 1) blocks but the last bucket's (buckets -
 * 1) blocks, each as often as its count says. */
Test(ycsb, field_length_histogram)
{
	char dir[] = "/tmp/rpbt-ycsb-XXXXXX", path[128], msg[512];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/hist.txt", dir);
	FILE *f = fopen(path, "w");
	fputs("BlockSize\t10\n0\t1\n1\t2\n2\t1\n", f);
	fclose(f);
	struct rpb_job job;
	struct rpb_ycsb_opts *o = make_job(&job);
	o->fieldlengthdistribution = YCSB_LEN_HISTOGRAM;
	snprintf(o->fieldlengthhistogram, sizeof o->fieldlengthhistogram, "%s", path);
	finish(&job);
	cr_assert_eq(o->nhist, 3);
	cr_assert_eq(o->maxfieldlength, 20);
	struct ycsb_gen g;
	ycsb_gen_init(&g, o, NULL, 42, 0);
	uint64_t n10 = 0, n20 = 0;
	for (int i = 0; i < DRAWS; i++) {
		uint64_t len = ycsb_next_fieldlen(&g);
		cr_assert(len == 10 || len == 20, "%llu", (unsigned long long)len);
		n10 += len == 10;
		n20 += len == 20;
	}
	/* number in [0, 4): 0 and 1 stop at bucket 0 (10), 2 and 3 at bucket 1 (20) */
	cr_assert(fabs((double)n10 / DRAWS - 0.5) < 0.01, "%llu of %d", (unsigned long long)n10, DRAWS);
	f = fopen(path, "w");
	fputs("BlockSize 10\n", f);
	fclose(f);
	cr_assert_neq(ycsb_finish(o, &job, "", msg, sizeof msg), 0);
	cr_assert(strstr(msg, "hist.txt:1: not 'BlockSize<TAB>N'"), "%s", msg);
	rpb_job_free(&job);
	unlink(path);
	rmdir(dir);
}
