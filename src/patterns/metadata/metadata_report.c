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

/* The nodes of the report: a run of several ranks lists each rank's
 * (OUT/result.json's nodes, docs/distributed.md), a run of one its own. */
struct md_node {
	const char *name;
	json_int_t cores;
	const json_t *pat;
	char own[96]; /* the name with its rank, when another node has it */
};

static size_t report_nodes(const json_t *result, struct md_node *v, size_t max)
{
	const json_t *nodes = json_object_get(result, "nodes");
	if (!json_is_array(nodes) || !json_array_size(nodes)) {
		const json_t *man = json_object_get(result, "manifest");
		v[0].pat = json_object_get(result, "pattern");
		v[0].name = jstr(v[0].pat, "node");
		v[0].cores = json_integer_value(json_object_get(json_object_get(man, "host"), "cores"));
		return 1;
	}
	size_t i, n = 0;
	const json_t *node;
	json_array_foreach(nodes, i, node) {
		if (n == max || !json_object_get(node, "pattern"))
			continue; /* a rank that wrote no results has no row */
		v[n].pat = json_object_get(node, "pattern");
		v[n].name = jstr(v[n].pat, "node");
		v[n].cores = json_integer_value(json_object_get(node, "cores"));
		/* Ranks on one host share its name: the rank tells them apart. */
		for (size_t k = 0; k < n; k++)
			if (!strcmp(v[k].name, jstr(v[n].pat, "node"))) {
				snprintf(v[n].own, sizeof v[n].own, "%s-rank%" JSON_INTEGER_FORMAT,
					 jstr(v[n].pat, "node"), json_integer_value(json_object_get(node, "rank")));
				v[n].name = v[n].own;
				break;
			}
		n++;
	}
	return n;
}

static bool dropped(const struct md_node *n)
{
	return json_is_true(json_object_get(n->pat, "node_dropped"));
}

/* Line 2, as ConnectTotalReport writes it: "Finished Successfully", or
 * "Failed: N nodes failed ( <name> <name> ... )" for the nodes a failed
 * thread dropped. A run no thread failed but something else stopped (a
 * signal, max_slow) says so in its own words. */
static void status_line(FILE *f, const json_t *result, const struct md_node *v, size_t n)
{
	size_t failed = 0;
	for (size_t i = 0; i < n; i++)
		failed += dropped(&v[i]);
	if (failed) {
		fprintf(f, "Failed: %zu nodes failed ( ", failed);
		for (size_t i = 0; i < n; i++)
			if (dropped(&v[i]))
				fprintf(f, "%s ", v[i].name);
		fputs(")\n", f);
		return;
	}
	const char *why = jstr(json_object_get(result, "stop"), "reason");
	if (!strcmp(why, "completed") || !strcmp(why, "duration") || !strcmp(why, "bytes"))
		fputs("Finished Successfully\n", f);
	else
		fprintf(f, "Failed: %s\n", jstr(result, "status"));
}

/* Among the additions: which thread failed and how, and the rates of a
 * dropped node's threads, which tachyon-perf's report leaves out. */
static void failed_threads(FILE *f, const struct md_node *v, size_t n, uint64_t ops)
{
	for (size_t k = 0; k < n; k++) {
		size_t i;
		const json_t *ft, *r;
		json_array_foreach(json_object_get(v[k].pat, "failed_threads"), i, ft) {
			/* Operations counted from 1 here, as ops.per.thread counts them. */
			char of[32] = "";
			if (ops) /* a run limited by duration has no planned count */
				snprintf(of, sizeof of, " of %" PRIu64, ops);
			fprintf(f, "Failed: %s thread %" JSON_INTEGER_FORMAT
				   ", operation %" JSON_INTEGER_FORMAT "%s (%s): %s: %s\n",
				v[k].name, json_integer_value(json_object_get(ft, "thread")),
				json_integer_value(json_object_get(ft, "op")) + 1, of,
				jstr(ft, "operation"), jstr(ft, "class"), jstr(ft, "message"));
		}
		if (!dropped(&v[k]))
			continue;
		fprintf(f, "Dropped node %s's per-thread rates(ops/sec)\t", v[k].name);
		json_array_foreach(json_object_get(v[k].pat, "thread_ops_per_s"), i, r)
			fprintf(f, "[ %.3f ]", json_number_value(r));
		fputc('\n', f);
	}
}

static void write_body(FILE *f, struct rpb_runner *rn, const json_t *result)
{
	const struct rpb_job *job = rn->job;
	const json_t *pat = json_object_get(result, "pattern");
	const json_t *man = json_object_get(result, "manifest");
	const json_t *totals = json_object_get(result, "totals");
	const char *node = jstr(pat, "node");
	static struct md_node nodes[1024];
	size_t nn = report_nodes(result, nodes, sizeof nodes / sizeof nodes[0]);
	if (nn > 1) /* the run's first node names the whole */
		pat = nodes[0].pat;

	fprintf(f, "Connect Test - ID : %" JSON_INTEGER_FORMAT "\n",
		json_integer_value(json_object_get(pat, "test_id")));
	status_line(f, result, nodes, nn);
	/* tachyon-perf's multi-node layout: a row per node, then Total, the sum. */
	json_int_t cores = 0;
	fputs("********** System Configuratiom **********\nNodeName\tCores\n", f);
	for (size_t i = 0; i < nn; i++) {
		fprintf(f, "%s\t%" JSON_INTEGER_FORMAT "\n", nodes[i].name, nodes[i].cores);
		cores += nodes[i].cores;
	}
	fprintf(f, "Total\t%" JSON_INTEGER_FORMAT "\n", cores);
	fprintf(f, "********** Connect Test Settings **********\n"
		   "rpbench.backend\t%s (%s), sync = %s\n"
		   "clients.per.thread\t%" PRIu64 "\nops.per.thread\t%" PRIu64 "\nthreads.num\t%" PRIu64 "\n",
		jstr(man, "backend"), jstr(man, "backend_version"), jstr(man, "sync"),
		job->run.clients, job->run.ops, job->run.threads);
	double total_rate = 0;
	fputs("********** Metadata Operation Performace **********\n"
	      "NodeName\tMetadataOperationPerformance(ops/sec)\n", f);
	for (size_t i = 0; i < nn; i++) {
		fprintf(f, "%s\t%.3f\n", nodes[i].name, jreal(nodes[i].pat, "node_ops_per_s"));
		total_rate += jreal(nodes[i].pat, "node_ops_per_s");
	}
	fprintf(f, "Total\t%.3f\n", total_rate);
	fputs("********** Node Details **********\n", f);
	for (size_t k = 0; k < nn; k++) {
		fprintf(f, "%s's metadata operation performance(ops/sec) for each threads:\n\t",
			nodes[k].name);
		size_t i;
		const json_t *r;
		if (!dropped(&nodes[k])) /* a dropped node's list is empty there */
			json_array_foreach(json_object_get(nodes[k].pat, "thread_ops_per_s"), i, r)
				fprintf(f, "[ %.3f ]", json_number_value(r));
		fputc('\n', f);
	}

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
		nn > 1 && jreal(totals, "elapsed_s") > 0
			? (double)json_integer_value(json_object_get(totals, "acked")) / jreal(totals, "elapsed_s")
			: jreal(pat, "wall_ops_per_s"),
		rn->run_tag,
		jstr(pat, "workspace"), node,
		md_opts(job)->preload, jstr(result, "status"));
	failed_threads(f, nodes, nn, job->run.ops);
	latency_table(f, json_object_get(result, "labels"));
}

void metadata_write_report(struct rpb_runner *rn, const json_t *result, FILE *f)
{
	write_body(f, rn, result);
}
