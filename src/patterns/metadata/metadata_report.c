/* report.txt of the metadata pattern: tachyon-perf's Connect "total report"
 * (TachyonPerfCollector), its section headers kept verbatim, misspellings
 * included, so whatever reads those reports reads this one. Every figure
 * comes from the result JSON just built, so the two always agree. After the
 * original's sections come the additions it lacks, under their own header. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "metadata.h"
#include "runner.h"

static double jreal(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* Line 2: "Finished Successfully", or one "Failed: ..." line per thread that
 * a failure ended (or for whatever else stopped the run). */
static void status_lines(FILE *f, const json_t *result, const json_t *pat, uint64_t ops)
{
	const json_t *failed = json_object_get(pat, "failed_threads");
	size_t i;
	const json_t *ft;
	json_array_foreach(failed, i, ft) {
		/* Operations counted from 1 here, as ops.per.thread counts them. */
		char of[32] = "";
		if (ops) /* a run limited by duration has no planned count */
			snprintf(of, sizeof of, " of %" PRIu64, ops);
		fprintf(f, "Failed: thread %" JSON_INTEGER_FORMAT ", operation %" JSON_INTEGER_FORMAT
			   "%s (%s): %s: %s\n",
			json_integer_value(json_object_get(ft, "thread")),
			json_integer_value(json_object_get(ft, "op")) + 1, of, jstr(ft, "operation"),
			jstr(ft, "class"), jstr(ft, "message"));
	}
	if (json_array_size(failed))
		return;
	const char *why = jstr(json_object_get(result, "stop"), "reason");
	if (!strcmp(why, "completed") || !strcmp(why, "duration") || !strcmp(why, "bytes"))
		fputs("Finished Successfully\n", f);
	else
		fprintf(f, "Failed: %s\n", jstr(result, "status"));
}

static void latency_table(FILE *f, const json_t *labels)
{
	fputs("Latency(us)\tSamples\tErrors\tMean\tp50\tp90\tp99\tp99.9\tMax\n", f);
	for (unsigned l = 0; l < MD_NOPS; l++) {
		const json_t *o = json_object_get(labels, md_op_names[l]);
		if (!o)
			continue;
		fprintf(f, "%s\t%" JSON_INTEGER_FORMAT "\t%" JSON_INTEGER_FORMAT
			   "\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n",
			md_op_names[l], json_integer_value(json_object_get(o, "measured")),
			json_integer_value(json_object_get(o, "errors")), jreal(o, "mean_us"),
			jreal(o, "p50_us"), jreal(o, "p90_us"), jreal(o, "p99_us"),
			jreal(o, "p99.9_us"), jreal(o, "max_us"));
	}
}

static void write_body(FILE *f, struct rpb_runner *rn, const json_t *result)
{
	const struct rpb_job *job = rn->job;
	const json_t *pat = json_object_get(result, "pattern");
	const json_t *man = json_object_get(result, "manifest");
	const json_t *totals = json_object_get(result, "totals");
	const char *node = jstr(pat, "node");
	json_int_t cores = json_integer_value(json_object_get(json_object_get(man, "host"), "cores"));

	fprintf(f, "Connect Test - ID : %" JSON_INTEGER_FORMAT "\n",
		json_integer_value(json_object_get(pat, "test_id")));
	status_lines(f, result, pat, job->run.ops);
	fprintf(f, "********** System Configuratiom **********\n"
		   "NodeName\tCores\n%s\t%" JSON_INTEGER_FORMAT "\nTotal\t%" JSON_INTEGER_FORMAT "\n",
		node, cores, cores);
	fprintf(f, "********** Connect Test Settings **********\n"
		   "rpbench.backend\t%s (%s), sync = %s\n"
		   "clients.per.thread\t%" PRIu64 "\nops.per.thread\t%" PRIu64 "\nthreads.num\t%" PRIu64 "\n",
		jstr(man, "backend"), jstr(man, "backend_version"), jstr(man, "sync"),
		job->run.clients, job->run.ops, job->run.threads);
	double node_rate = jreal(pat, "node_ops_per_s");
	fprintf(f, "********** Metadata Operation Performace **********\n"
		   "NodeName\tMetadataOperationPerformance(ops/sec)\n%s\t%.3f\nTotal\t%.3f\n",
		node, node_rate, node_rate);
	fprintf(f, "********** Node Details **********\n"
		   "%s's metadata operation performance(ops/sec) for each threads:\n\t",
		node);
	size_t i;
	const json_t *r;
	json_array_foreach(json_object_get(pat, "thread_ops_per_s"), i, r)
		fprintf(f, "[ %.3f ]", json_number_value(r));
	fputc('\n', f);

	fprintf(f, "********** Additions (not in tachyon-perf's report) **********\n"
		   "Total above = sum of the per-thread rates (ops / the thread's own time), as "
		   "tachyon-perf computes it;\n"
		   "total ops / wall time is the aggregate actually delivered; the two differ when "
		   "threads end at different times.\n"
		   "Total operations\t%" JSON_INTEGER_FORMAT "\n"
		   "Wall time(sec)\t%.3f\n"
		   "Total ops / wall time(ops/sec)\t%.3f\n"
		   "Run tag\t%s\nWorkspace\t%s/%s\nPreload(entries per thread)\t%" PRIu64 "\n"
		   "Status\t%s\n",
		json_integer_value(json_object_get(totals, "acked")), jreal(totals, "elapsed_s"),
		jreal(pat, "wall_ops_per_s"), rn->run_tag, jstr(pat, "workspace"), node,
		md_opts(job)->preload, jstr(result, "status"));
	latency_table(f, json_object_get(result, "labels"));
}

void metadata_write_report(struct rpb_runner *rn, const json_t *result, FILE *f)
{
	write_body(f, rn, result);
}
