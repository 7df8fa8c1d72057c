/* Merging the result.json of every rank into the run's own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist_merge.h"
#include "progress.h"
#include "results.h"

/* Integers that name something rather than count it: kept from the first. */
static bool names_not_counts(const char *key)
{
	return !strcmp(key, "native") || !strcmp(key, "thread") || !strcmp(key, "op") ||
	       !strcmp(key, "cores") || !strcmp(key, "memory_bytes");
}

/* Sums src into dst: counts added, reals (seconds, rates) kept at their
 * largest (the caller recomputes rates), objects merged key by key, any
 * other value kept from the first rank that has it. */
static void sum_into(json_t *dst, const json_t *src)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)src, key, v) {
		json_t *d = json_object_get(dst, key);
		if (!d)
			json_object_set_new(dst, key, json_deep_copy(v));
		else if (json_is_integer(d) && json_is_integer(v) && !names_not_counts(key))
			json_integer_set(d, json_integer_value(d) + json_integer_value(v));
		else if (json_is_real(d) && json_is_number(v) && json_number_value(v) > json_real_value(d))
			json_real_set(d, json_number_value(v));
		else if (json_is_object(d) && json_is_object(v))
			sum_into(d, v);
	}
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static json_t *node_json(const json_t *r, int rank)
{
	const json_t *man = json_object_get(r, "manifest");
	json_t *node = json_pack("{s:i, s:s}", "rank", rank, "dir", "");
	char dir[32];
	snprintf(dir, sizeof dir, "rank-%d", rank);
	json_object_set_new(node, "dir", json_string(dir));
	const json_t *host = json_object_get(man, "host");
	json_t *name = json_object_get(json_object_get(r, "node"), "host");
	json_object_set_new(node, "host", name ? json_deep_copy(name) : json_string("?"));
	json_object_set_new(node, "cores", json_deep_copy(json_object_get(host, "cores")));
	static const char *const from_manifest[] = {"run_tag", "seed", NULL};
	for (int i = 0; from_manifest[i]; i++) {
		json_t *v = json_object_get(man, from_manifest[i]);
		if (v)
			json_object_set(node, from_manifest[i], v);
	}
	json_t *threads = json_object_get(json_object_get(man, "options"), "run.threads");
	if (json_is_string(threads)) /* options are recorded as text */
		json_object_set_new(node, "threads", json_integer(strtoll(json_string_value(threads), NULL, 10)));
	static const char *const from_root[] = {"totals", "labels", "errors", "stop", "status",
						"threads", "pattern", NULL};
	for (int i = 0; from_root[i]; i++) {
		json_t *v = json_object_get(r, from_root[i]);
		if (v)
			json_object_set_new(node, !strcmp(from_root[i], "threads") ? "thread_figures"
										    : from_root[i],
					    json_deep_copy(v));
	}
	return node;
}

static int first_rank(const struct rpb_dist_merge_in *in)
{
	for (int i = 0; i < in->nranks; i++)
		if (in->ranks[i])
			return i;
	return -1;
}

json_t *rpb_dist_merged_json(const struct rpb_dist_merge_in *in)
{
	json_t *first = NULL;
	for (int i = 0; i < in->nranks && !first; i++)
		first = in->ranks[i];
	if (!first)
		return NULL;
	json_t *root = json_object();
	json_t *man = json_deep_copy(json_object_get(first, "manifest"));
	json_object_set_new(man, "ranks", json_integer(in->nranks));
	json_object_set_new(root, "manifest", man);
	json_t *totals = json_object(), *errors = json_object(), *nodes = json_array();
	/* The pattern's own figures are the first rank's (each rank's are in
	 * nodes): they mix rates and percentiles that do not add up. */
	json_t *pattern = json_object_get(first, "pattern") ? json_deep_copy(json_object_get(first, "pattern"))
							    : json_object();
	int written = 0;
	for (int i = 0; i < in->nranks; i++) {
		const json_t *r = in->ranks[i];
		if (!r) {
			json_array_append_new(nodes, json_pack("{s:i, s:b}", "rank", i, "written", 0));
			continue;
		}
		written++;
		sum_into(totals, json_object_get(r, "totals"));
		sum_into(errors, json_object_get(r, "errors"));
		json_array_append_new(nodes, node_json(r, i));
	}
	/* Measured over the longest rank's span: ranks start together. */
	double secs = num(totals, "measured_s");
	json_t *labels = json_object();
	struct rpb_hist_snap *all = malloc(sizeof *all);
	uint64_t measured_errors = 0;
	if (all)
		rpb_snap_init(all);
	for (unsigned l = 0; l < in->nlabels && all; l++) {
		uint64_t samples = 0, errs = 0, bytes = 0;
		bool seen = false;
		for (int i = 0; i < in->nranks; i++) {
			const json_t *o = json_object_get(json_object_get(in->ranks[i], "labels"), in->labels[l]);
			if (!o)
				continue;
			seen = true;
			samples += (uint64_t)json_integer_value(json_object_get(o, "samples"));
			errs += (uint64_t)json_integer_value(json_object_get(o, "errors"));
			bytes += (uint64_t)json_integer_value(json_object_get(o, "bytes"));
		}
		if (!seen)
			continue;
		json_object_set_new(labels, in->labels[l],
				    rpb_hist_json(&in->merged[l], samples, errs, bytes, secs));
		rpb_snap_add(all, &in->merged[l]);
		measured_errors += errs;
	}
	json_object_set_new(totals, "throughput_per_s",
			    json_real(all && secs > 0 ? (double)all->count / secs : 0.0));
	char line[256] = "";
	if (all)
		rpb_summary_line(line, sizeof line, '=', all, measured_errors, secs, -1, 0, 0);
	free(all);
	/* The stop: the rank whose error, slow limit or signal ended the run,
	 * else the first rank's (each rank's own limit). */
	const json_t *stopping = in->stopper >= 0 && in->stopper < in->nranks && in->ranks[in->stopper]
					 ? in->ranks[in->stopper]
					 : first;
	json_t *stop = json_deep_copy(json_object_get(stopping, "stop"));
	if (stop && in->stopper >= 0)
		json_object_set_new(stop, "rank", json_integer(in->stopper));
	json_object_set_new(root, "totals", totals);
	json_object_set_new(root, "labels", labels);
	json_object_set_new(root, "errors", errors);
	json_object_set_new(root, "stop", stop ? stop : json_pack("{s:s}", "reason", "completed"));
	char status[1024];
	snprintf(status, sizeof status, "%s (rank %d of %d ranks; %lld acknowledged in all)",
		 json_string_value(json_object_get(stopping, "status"))
			 ? json_string_value(json_object_get(stopping, "status"))
			 : "",
		 stopping == first ? (int)(first_rank(in)) : in->stopper, in->nranks,
		 (long long)json_integer_value(json_object_get(totals, "acked")));
	json_object_set_new(root, "status", json_string(status));
	json_object_set_new(root, "summary", json_string(line));
	json_object_set_new(root, "distributed",
			    json_pack("{s:i, s:i, s:s, s:I, s:f, s:f}", "ranks", in->nranks,
				      "ranks_written", written, "thread_level", in->thread_level,
				      "histogram_bytes", (json_int_t)sizeof(struct rpb_hist_snap),
				      "reduce_s", in->reduce_s, "gather_s", in->gather_s));
	json_object_set_new(root, "nodes", nodes);
	json_object_set_new(root, "pattern", pattern);
	return root;
}

char *rpb_dist_summary(const json_t *root)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
#define ADD(...)                                                                             \
	do {                                                                                 \
		int k = snprintf(buf + used, cap - used, __VA_ARGS__);                       \
		if (k < 0)                                                                   \
			k = 0;                                                               \
		while (used + (size_t)k >= cap) {                                            \
			char *nb = realloc(buf, cap *= 2);                                   \
			if (!nb) {                                                           \
				free(buf);                                                   \
				return NULL;                                                 \
			}                                                                    \
			buf = nb;                                                            \
			k = snprintf(buf + used, cap - used, __VA_ARGS__);                   \
		}                                                                            \
		used += (size_t)k;                                                           \
	} while (0)
	const json_t *totals = json_object_get(root, "totals");
	ADD("%s\nStatus: %s\n", json_string_value(json_object_get(root, "summary")),
	    json_string_value(json_object_get(root, "status")) ? json_string_value(json_object_get(root, "status")) : "");
	ADD("Ranks: %d, merged exactly: histograms summed bucket by bucket\n\n",
	    (int)json_integer_value(json_object_get(json_object_get(root, "distributed"), "ranks")));
	ADD("%-5s %-24s %5s %7s %12s %12s %10s %10s\n", "rank", "host", "cores", "threads", "acked",
	    "ops/s", "p50 us", "p99 us");
	size_t i;
	const json_t *node;
	const char *label0 = NULL;
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)json_object_get(root, "labels"), key, v) {
		label0 = key;
		break;
	}
	json_array_foreach(json_object_get(root, "nodes"), i, node) {
		const json_t *nt = json_object_get(node, "totals");
		const json_t *nl = label0 ? json_object_get(json_object_get(node, "labels"), label0) : NULL;
		if (!nt) {
			ADD("%-5d (no result files: the rank did not finish)\n",
			    (int)json_integer_value(json_object_get(node, "rank")));
			continue;
		}
		ADD("%-5d %-24.24s %5d %7d %12lld %12.1f %10.1f %10.1f\n",
		    (int)json_integer_value(json_object_get(node, "rank")),
		    json_string_value(json_object_get(node, "host")) ? json_string_value(json_object_get(node, "host")) : "?",
		    (int)json_integer_value(json_object_get(node, "cores")),
		    (int)json_integer_value(json_object_get(node, "threads")),
		    (long long)json_integer_value(json_object_get(nt, "acked")),
		    num(nt, "throughput_per_s"), num(nl, "p50_us"), num(nl, "p99_us"));
	}
	const json_t *tl = label0 ? json_object_get(json_object_get(root, "labels"), label0) : NULL;
	ADD("%-5s %-24s %5s %7s %12lld %12.1f %10.1f %10.1f\n", "Total", "", "", "",
	    (long long)json_integer_value(json_object_get(totals, "acked")),
	    num(totals, "throughput_per_s"), num(tl, "p50_us"), num(tl, "p99_us"));
#undef ADD
	return buf;
}
