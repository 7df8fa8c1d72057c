/* The merged result of a run of several ranks, from every rank's own
 * result.json and the labels' histograms summed bucket by bucket
 * (docs/distributed.md). No MPI here: dist_mpi.c moves the bytes. */
#ifndef RPB_DIST_MERGE_H
#define RPB_DIST_MERGE_H

#include <jansson.h>
#include <stddef.h>

#include "hist.h"

struct rpb_dist_merge_in {
	json_t *const *ranks;               /* rank i's result.json root, or NULL (not written) */
	int nranks;
	const char *const *labels;          /* the pattern's label names */
	unsigned nlabels;
	const struct rpb_hist_snap *merged; /* nlabels histograms, summed over all ranks */
	int stopper;                        /* rank whose stop ended the run, or -1 */
	const char *thread_level;
	double reduce_s, gather_s;          /* what the merge cost at rank 0 */
};

/* OUT/result.json's root: rank 0's manifest, totals and errors summed over
 * ranks, labels from the merged histograms, the stop of the rank that
 * stopped the run, and a nodes array (rank, host, cores, threads and each
 * rank's own totals and labels). NULL when out of memory. */
json_t *rpb_dist_merged_json(const struct rpb_dist_merge_in *in);
/* OUT/summary.txt's text for that root (malloc'd), with a row per node. */
char *rpb_dist_summary(const json_t *root);

#endif
