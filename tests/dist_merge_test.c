/* The merge of a run of several ranks (src/core/dist_merge.c), without
 * MPI: every rank's result.json and the labels' histograms summed bucket by
 * bucket, as rank 0 receives them. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "dist_merge.h"
#include "results.h"
#include "rng.h"

#define RANKS 3
#define PER_RANK 4000

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Rank r's result.json as a rank writes it (the fields the merge reads). */
static json_t *rank_root(int r, const struct rpb_hist_snap *s, uint64_t acked, const char *reason)
{
	json_t *labels = json_pack("{s:o}", "create", rpb_hist_json(s, s->count, (uint64_t)r, 100 * (uint64_t)r, 2.0));
	char host[16], threads[8];
	snprintf(host, sizeof host, "host%d", r);
	snprintf(threads, sizeof threads, "%d", r + 1);
	return json_pack("{s:{s:{s:i}, s:{s:s}, s:s, s:s}, s:{s:f, s:f, s:I, s:I, s:I, s:f}, s:o,"
			 " s:{s:{s:I, s:s}}, s:{s:s}, s:s, s:{s:s}, s:{s:i, s:s}}",
			 "manifest", "host", "cores", 2 + r, "options", "run.threads", threads, "run_tag",
			 "0000000a", "seed", "42", "totals", "elapsed_s", 2.0 + r, "measured_s", 1.5 + r,
			 "samples", (json_int_t)s->count, "acked", (json_int_t)acked, "bytes",
			 (json_int_t)(10 * acked), "throughput_per_s", 1.0, "labels", labels, "errors",
			 "conflict", "count", (json_int_t)r, "first_message", r ? "later" : "first",
			 "stop", "reason", reason, "status", reason, "pattern", "node", host, "node",
			 "rank", r, "host", host);
}

Test(dist_merge, sums_counts_and_histograms_exactly)
{
	static struct rpb_hist h[RANKS];
	static struct rpb_hist_snap snaps[RANKS], merged;
	uint64_t *all = malloc(RANKS * PER_RANK * sizeof *all);
	cr_assert_not_null(all);
	struct rpb_rng rng;
	rpb_rng_seed(&rng, 7, 0, 0);
	rpb_snap_init(&merged);
	json_t *roots[RANKS];
	uint64_t acked = 0;
	for (int r = 0; r < RANKS; r++) {
		rpb_hist_init(&h[r]);
		/* Each rank its own spread: the merged p99 is not any rank's. */
		for (int i = 0; i < PER_RANK; i++) {
			uint64_t v = rpb_rng_range(&rng, 1000, 1000 + 100000u * (uint64_t)(r * r * 10 + 1));
			rpb_hist_record(&h[r], v);
			all[r * PER_RANK + i] = v;
		}
		rpb_hist_snapshot(&h[r], &snaps[r]);
		rpb_snap_add(&merged, &snaps[r]);
		roots[r] = rank_root(r, &snaps[r], 1000 + (uint64_t)r, r == 1 ? "error" : "completed");
		acked += 1000 + (uint64_t)r;
	}
	const char *labels[] = {"create"};
	struct rpb_dist_merge_in in = {.ranks = roots, .nranks = RANKS, .labels = labels,
				       .nlabels = 1, .merged = &merged, .stopper = 1,
				       .thread_level = "funneled"};
	json_t *top = rpb_dist_merged_json(&in);
	cr_assert_not_null(top);
	const json_t *totals = json_object_get(top, "totals");
	cr_expect_eq(json_integer_value(json_object_get(totals, "acked")), (json_int_t)acked);
	cr_expect_eq(json_integer_value(json_object_get(totals, "samples")), RANKS * PER_RANK);
	cr_expect_float_eq(json_real_value(json_object_get(totals, "elapsed_s")), 4.0, 1e-12,
			   "the longest rank's time");
	const json_t *create = json_object_get(json_object_get(top, "labels"), "create");
	cr_expect_eq(json_integer_value(json_object_get(create, "measured")), RANKS * PER_RANK);
	cr_expect_eq(json_integer_value(json_object_get(create, "errors")), 0 + 1 + 2);
	/* The merged p99 is that of every sample, within a bucket (< 1%). */
	qsort(all, RANKS * PER_RANK, sizeof *all, by_value);
	double exact = (double)all[(size_t)(0.99 * RANKS * PER_RANK) - 1] / 1e3;
	double p99 = json_real_value(json_object_get(create, "p99_us"));
	cr_expect(p99 > exact * 0.99 && p99 < exact * 1.01, "merged p99 %.3f us, all samples' %.3f us",
		  p99, exact);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(json_object_get(top, "errors"),
									  "conflict"), "count")), 3);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(top, "errors"),
									     "conflict"), "first_message")), "first");
	const json_t *stop = json_object_get(top, "stop");
	cr_expect_str_eq(json_string_value(json_object_get(stop, "reason")), "error");
	cr_expect_eq(json_integer_value(json_object_get(stop, "rank")), 1);
	const json_t *nodes = json_object_get(top, "nodes");
	cr_assert_eq(json_array_size(nodes), RANKS);
	for (int r = 0; r < RANKS; r++) {
		const json_t *node = json_array_get(nodes, (size_t)r);
		char host[16];
		snprintf(host, sizeof host, "host%d", r);
		cr_expect_str_eq(json_string_value(json_object_get(node, "host")), host);
		cr_expect_eq(json_integer_value(json_object_get(node, "threads")), r + 1);
		cr_expect_eq(json_integer_value(json_object_get(node, "cores")), 2 + r);
	}
	char *summary = rpb_dist_summary(top);
	cr_assert_not_null(summary);
	cr_expect(strstr(summary, "\nTotal ") != NULL, "%s", summary);
	cr_expect(strstr(summary, "host2") != NULL, "%s", summary);
	free(summary);
	json_decref(top);
	for (int r = 0; r < RANKS; r++)
		json_decref(roots[r]);
	free(all);
}

Test(dist_merge, a_rank_without_results_is_named_not_counted)
{
	static struct rpb_hist_snap s, merged;
	rpb_snap_init(&s);
	rpb_snap_init(&merged);
	json_t *roots[2] = {NULL, rank_root(1, &s, 5, "completed")};
	const char *labels[] = {"create"};
	struct rpb_dist_merge_in in = {.ranks = roots, .nranks = 2, .labels = labels, .nlabels = 1,
				       .merged = &merged, .stopper = -1, .thread_level = "funneled"};
	json_t *top = rpb_dist_merged_json(&in);
	cr_assert_not_null(top);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(top, "distributed"),
							"ranks_written")), 1);
	cr_expect(json_is_false(json_object_get(json_array_get(json_object_get(top, "nodes"), 0),
						"written")));
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(top, "totals"), "acked")), 5);
	json_decref(top);
	json_decref(roots[1]);
}
