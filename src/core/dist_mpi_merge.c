/* The merge of a run of several ranks at its end (dist.h): the labels'
 * histograms reduced bucket by bucket, every rank's result.json gathered,
 * the run's own written at rank 0 (dist_merge.c). */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "dist.h"
#include "dist_merge.h"
#include "dist_mpi.h"
#include "paths.h"
#include "results.h"
#include "runner.h"

/* The reduce's operation: histograms of equal shape add up bucket by
 * bucket. MPI's buffers need not be aligned for the 128-bit sum of
 * squares, so each pair is added in aligned copies. */
static void snap_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	static struct rpb_hist_snap a, b;
	for (int i = 0; i < *len; i++) {
		memcpy(&a, (char *)in + (size_t)i * sizeof a, sizeof a);
		memcpy(&b, (char *)inout + (size_t)i * sizeof b, sizeof b);
		rpb_snap_add(&b, &a);
		memcpy((char *)inout + (size_t)i * sizeof b, &b, sizeof b);
	}
}

/* This rank's result.json with the node it ran on, rewritten in place;
 * the text for rank 0, or NULL when it cannot be read. */
static char *own_result(struct rpb_runner *rn)
{
	char path[PATH_MAX], host[256] = "?", msg[512];
	if (rpb_path_join(path, sizeof path, rn->out_dir, "result.json") != 0)
		return NULL;
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root)
		return NULL;
	gethostname(host, sizeof host - 1);
	json_object_set_new(root, "node", json_pack("{s:i, s:i, s:s, s:s}", "rank", rpb_dist_rank(), "ranks",
						    rpb_dist_size(), "host", host, "thread_level", "funneled"));
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (text && rpb_results_file(rn->out_dir, "result.json", text, msg, sizeof msg) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int write_merged(struct rpb_runner *rn, const char *out, char *texts, const int *lens,
			const struct rpb_hist_snap *sum, double reduce_s, double gather_s, char *msg,
			size_t n)
{
	json_t **roots = calloc((size_t)rpb_dist_size(), sizeof *roots);
	if (!roots) {
		snprintf(msg, n, "out of memory merging the ranks' results");
		return -1;
	}
	size_t off = 0;
	for (int i = 0; i < rpb_dist_size(); i++) {
		if (lens[i] > 0)
			roots[i] = json_loadb(texts + off, (size_t)lens[i] - 1, 0, NULL);
		off += (size_t)lens[i];
	}
	struct rpb_dist_merge_in in = {
		.ranks = roots,
		.nranks = rpb_dist_size(),
		.labels = rn->pattern->labels,
		.nlabels = rn->pattern->nlabels,
		.merged = sum,
		.stopper = rpb_dist_stopper(),
		.thread_level = "funneled",
		.reduce_s = reduce_s,
		.gather_s = gather_s,
	};
	json_t *top = rpb_dist_merged_json(&in);
	char *text = top ? json_dumps(top, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
			 : NULL;
	char *summary = top ? rpb_dist_summary(top) : NULL;
	int rc = -1;
	if (!text || !summary)
		snprintf(msg, n, "no rank's result.json could be merged into %s", out);
	else if (!(rc = rpb_results_file(out, "result.json", text, msg, n)))
		rc = rpb_results_file(out, "summary.txt", summary, msg, n);
	if (!rc && rn->pattern->write_report) /* with a row per node */
		rc = rpb_results_report(rn, top, out, msg, n);
	if (!rc && !rn->quiet)
		printf("Merged %d ranks: %s/result.json\n%s", rpb_dist_size(), out, summary);
	else if (!rc && rn->summary_only) /* --quiet: the merged summariser line alone */
		printf("%.*s\n", (int)strcspn(summary, "\n"), summary);
	free(text);
	free(summary);
	json_decref(top);
	for (int i = 0; i < rpb_dist_size(); i++)
		json_decref(roots[i]);
	free(roots);
	return rc;
}

/* Rank 0 cannot merge, or a rank cannot take part: every rank ends, as MPI
 * ends a job (each rank's own files are written already). */
static void cannot_merge(void)
{
	fprintf(stderr, "rpbench: out of memory merging the ranks' results; each rank's own "
		"results are in OUT/rank-N\n");
	MPI_Abort(MPI_COMM_WORLD, 2);
}

int rpb_dist_merge(struct rpb_runner *rn, bool ok, const char *out, char *msg, size_t n)
{
	if (!rpb_dist_on())
		return 0;
	bool root = rpb_dist_rank() == 0;
	int size = rpb_dist_size();
	unsigned nl = rn->pattern->nlabels;
	struct rpb_hist_snap *mine = calloc(nl, sizeof *mine), *sum = root ? calloc(nl, sizeof *sum) : NULL;
	int *lens = root ? calloc((size_t)size, sizeof *lens) : NULL;
	int *displs = root ? calloc((size_t)size, sizeof *displs) : NULL;
	if (!mine || (root && (!sum || !lens || !displs)))
		cannot_merge();
	for (unsigned l = 0; l < nl; l++)
		if (rpb_label_measured_snap(rn, l, &mine[l]) != 0)
			cannot_merge();
	char *text = ok ? own_result(rn) : NULL;

	MPI_Datatype snap_t;
	MPI_Op op;
	MPI_Type_contiguous((int)sizeof(struct rpb_hist_snap), MPI_BYTE, &snap_t);
	MPI_Type_commit(&snap_t);
	MPI_Op_create(snap_sum, 1, &op);
	/* Every rank has written its files: the reduce's time is its own. */
	rpb_dist_agree(true);
	uint64_t t0 = rpb_now_ns();
	MPI_Request r;
	MPI_Ireduce(mine, sum, (int)nl, snap_t, op, 0, MPI_COMM_WORLD, &r);
	rpb_dist_wait(&r);
	double reduce_s = (double)(rpb_now_ns() - t0) / 1e9;
	MPI_Op_free(&op);
	MPI_Type_free(&snap_t);

	t0 = rpb_now_ns();
	int len = text ? (int)strlen(text) + 1 : 0;
	MPI_Igather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
	rpb_dist_wait(&r);
	size_t total = 0;
	for (int i = 0; root && i < size; i++) {
		displs[i] = (int)total;
		total += (size_t)lens[i];
	}
	char *texts = root ? malloc(total ? total : 1) : NULL;
	if (root && !texts)
		cannot_merge();
	MPI_Igatherv(text ? text : "", len, MPI_CHAR, texts, lens, displs, MPI_CHAR, 0,
		     MPI_COMM_WORLD, &r);
	rpb_dist_wait(&r);
	double gather_s = (double)(rpb_now_ns() - t0) / 1e9;
	int rc = root ? write_merged(rn, out, texts, lens, sum, reduce_s, gather_s, msg, n) : 0;
	free(texts);
	free(lens);
	free(displs);
	free(text);
	free(mine);
	free(sum);
	return rc;
}
