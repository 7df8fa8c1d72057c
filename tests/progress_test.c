/* The precise progress line and how far a run has come towards its
 * limits: pure functions over counters set here. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "runlimits.h"

Test(progress, precise_line_has_microseconds_and_fractions)
{
	struct rpb_hist_snap *s = calloc(1, sizeof *s);
	cr_assert_not_null(s);
	rpb_snap_init(s);
	s->count = 4;
	s->sum = 4 * 41200; /* 41.2 us each: whole ms would print 0 */
	s->min = 12000;
	s->max = 1203500;
	char line[256];
	rpb_precise_line(line, sizeof line, s, 0.1, 1.3, 0.471, 2.44);
	cr_assert_str_eq(line, "progress: interval 0.100 s, elapsed 1.300 s; Avg: 41.2 Min: 12.0 "
			       "Max: 1203.5 us; 47.1% done, ETA 2.4 s");
	rpb_precise_line(line, sizeof line, s, 0.1, 1.3, 0.2, -1);
	cr_assert(strstr(line, "; 20.0% done, ETA \u2014"), "%s", line);
	rpb_precise_line(line, sizeof line, s, 1, 7300, 0.5, 7300);
	cr_assert(strstr(line, "ETA 02:01:40"), "%s", line);
	rpb_precise_line(line, sizeof line, s, 1, 2, -1, -1);
	cr_assert_null(strstr(line, "done"), "no limit, no share: %s", line);
	free(s);
}

/* A runner of two threads over the counters a run's workers keep. */
struct fake {
	struct rpb_job job;
	struct rpb_pattern pattern;
	struct rpb_worker workers[2];
	struct rpb_runner rn;
};

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof *f);
	f->pattern.name = "ingest";
	f->rn.job = &f->job;
	f->rn.pattern = &f->pattern;
	f->rn.workers = f->workers;
	f->rn.nworkers = f->rn.nthreads = 2;
}

Test(progress, done_and_eta_of_ops_bytes_and_duration)
{
	struct fake *f = malloc(sizeof *f);
	cr_assert_not_null(f);
	fake_init(f);
	double done, eta;
	cr_assert_not(rpb_run_done(&f->rn, 1, &done, &eta), "no limit");

	f->job.run.ops = 100; /* 200 in all, 50 started after 2 s: 6 s to go */
	atomic_store(&f->workers[0].issued, 20);
	atomic_store(&f->workers[1].issued, 30);
	cr_assert(rpb_run_done(&f->rn, 2, &done, &eta));
	cr_assert_float_eq(done, 0.25, 1e-9);
	cr_assert_float_eq(eta, 6, 1e-9);

	f->job.run.duration = 4; /* half of it: the nearer limit */
	cr_assert(rpb_run_done(&f->rn, 2, &done, &eta));
	cr_assert_float_eq(done, 0.5, 1e-9);
	cr_assert_float_eq(eta, 2, 1e-9);

	f->job.run.bytes = 1000; /* 900 bytes: 90 % */
	atomic_store(&f->rn.bytes_total, 900);
	cr_assert(rpb_run_done(&f->rn, 2, &done, &eta));
	cr_assert_float_eq(done, 0.9, 1e-9);
	cr_assert_float_eq(eta, 2.0 * 0.1 / 0.9, 1e-9);
	free(f);
}

Test(progress, disk_full_estimate_from_recent_growth)
{
	double t[5] = {1, 2, 3, 4, 5};
	uint64_t b[5] = {0, 1000000, 2000000, 3000000, 4000000}; /* 1 MB/s */
	cr_assert_eq(rpb_disk_full_minutes(t, b, 3, 600000000), -1, "3 readings: not yet");
	cr_assert_float_eq(rpb_disk_full_minutes(t, b, 5, 600000000), 10, 1e-9);
	uint64_t flat[5] = {5, 5, 5, 5, 5};
	cr_assert_eq(rpb_disk_full_minutes(t, flat, 5, 600000000), -2, "not growing");
	char buf[192];
	rpb_store_part(buf, sizeof buf, 1412, 5767168, true, 13207024435ull, -1);
	cr_assert_str_eq(buf, "; stored 1,412 objects, store 5.5 MiB, 12.3 GiB free, disk full in \u2014");
	rpb_store_part(buf, sizeof buf, 1412, 5767168, true, 13207024435ull, 33.6);
	cr_assert(strstr(buf, "disk full in ~34 min"), "%s", buf);
	rpb_store_part(buf, sizeof buf, 1412, 5767168, true, 13207024435ull, -2);
	cr_assert(strstr(buf, "disk full in not growing"), "%s", buf);
	rpb_store_part(buf, sizeof buf, -1, 5767168, false, 0, -1);
	cr_assert_str_eq(buf, "; stored store 5.5 MiB");
}

Test(progress, behind_rate_over_ten_percent)
{
	char buf[256];
	rpb_behind_line(buf, sizeof buf, 357, 1, 3000);
	cr_assert_str_eq(buf, "warning: behind rate: 357/s of 3000/s asked; the backend cannot keep "
			      "up, latencies include queueing");
	rpb_behind_line(buf, sizeof buf, 2700, 1, 3000);
	cr_assert_str_eq(buf, "", "10 %% behind is within the rule");
	rpb_behind_line(buf, sizeof buf, 0, 0.1, 50);
	cr_assert_str_eq(buf, "", "5 operations asked: too few to judge");
}
