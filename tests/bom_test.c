/* A UTF-8 byte-order mark at the start of a text file rpbench reads is
 * skipped by every reader (one helper, rpb_skip_bom): a workload INI file,
 * a YCSB property file, YCSB's field length histogram, a results
 * directory's CSV. Each reader's first line keeps its meaning. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_read.h"
#include "pattern.h"
#include "testutil.h"
#include "text.h"
#include "workload.h"
#include "ycsb.h"

#define BOM "\xEF\xBB\xBF"

static char dir[64];

static void setup(void)
{
	rpbt_tmpdir(dir, sizeof dir, "bom");
}

static void teardown(void)
{
	rpbt_rmtree(dir);
}

/* dir/name with text; returns the path (static). */
static const char *write_file(const char *name, const char *text)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

TestSuite(bom, .init = setup, .fini = teardown);

Test(bom, skipped_only_when_there)
{
	FILE *f = fopen(write_file("a", BOM "x"), "r");
	cr_assert(rpb_skip_bom(f));
	cr_assert_eq(fgetc(f), 'x');
	fclose(f);
	f = fopen(write_file("b", "\xEF\xBBx"), "r");
	cr_assert_not(rpb_skip_bom(f));
	cr_assert_eq(fgetc(f), 0xEF, "a file without the mark is read from its first byte");
	fclose(f);
	f = fopen(write_file("c", ""), "r");
	cr_assert_not(rpb_skip_bom(f));
	cr_assert_eq(fgetc(f), EOF);
	fclose(f);
}

Test(bom, workload_ini_keeps_its_first_section)
{
	const char *path = write_file("w.ini", BOM "[run]\nops = 7\n[ingest]\nprobe_every = 0\n");
	struct rpb_job job;
	char msg[1024];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, path, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(job.run.ops, 7);
	cr_assert_str_eq(rpb_job_pattern_name(&job), "ingest");
	rpb_job_free(&job);
}

Test(bom, ycsb_properties_keep_their_first_property)
{
	const char *path = write_file("workload", BOM "recordcount=77\noperationcount=5\n");
	struct rpb_job job;
	char msg[1024];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, path, msg, sizeof msg), 0, "%s", msg);
	cr_assert_str_eq(rpb_job_pattern_name(&job), "ycsb");
	cr_assert_eq(ycsb_opts(&job)->recordcount, 77);
	rpb_job_free(&job);
}

Test(bom, ycsb_histogram_keeps_its_block_size)
{
	const char *path = write_file("hist.txt", BOM "BlockSize\t10\n0\t1\n1\t2\n");
	struct rpb_job job;
	char msg[512];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_choose(&job, rpb_pattern_find("ycsb"), msg, sizeof msg), 0, "%s", msg);
	struct rpb_ycsb_opts *o = job.config;
	o->fieldlengthdistribution = YCSB_LEN_HISTOGRAM;
	snprintf(o->fieldlengthhistogram, sizeof o->fieldlengthhistogram, "%s", path);
	cr_assert_eq(ycsb_finish(o, &job, "", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(o->hist_block, 10);
	cr_assert_eq(o->nhist, 2);
	rpb_job_free(&job);
}

Test(bom, csv_keeps_its_first_column)
{
	write_file("intervals.csv", BOM "t_s,ops\n1,5\n");
	struct rpb_csv c;
	cr_assert(rpb_csv_open(&c, dir, "intervals.csv"));
	cr_assert_eq(rpb_csv_col(&c, "t_s"), 0);
	cr_assert(rpb_csv_next(&c));
	cr_assert_eq(rpb_csv_num(&c, 0), 1.0);
	rpb_csv_close(&c);
}
