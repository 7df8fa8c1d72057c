/* compare's run lifecycle after the runs: --verify checks every run's store
 * (before a throwaway server is removed, while its stores still exist) and
 * records verify's one-line result; --clean-stores removes the store
 * directories compare made, once everything is written; without it the
 * stores' footprint is told. */
#ifndef RPB_COMPARE_STORES_H
#define RPB_COMPARE_STORES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "compare.h"

struct rpb_servers;

/* verify's exit code for a run it was not asked about (null: keeps nothing). */
#define RPB_VERIFY_SKIPPED (-1)

struct rpb_cmp_verified {
	size_t n;
	struct {
		char name[64];
		int exit;          /* verify's exit code, or RPB_VERIFY_SKIPPED */
		char result[1024]; /* its one line */
	} runs[RPB_CMP_MAX_RUNS];
};

/* Runs rpbench-<backend> verify on every run of c that wrote a result.json
 * (a null run is skipped: it keeps nothing). -1 with msg only when a verify
 * could not be started. A server backend's verify gets its DSN from
 * servers. */
int rpb_cmp_verify_runs(const struct rpb_cmp *c, const char *bindir, const struct rpb_servers *servers,
			struct rpb_cmp_verified *v, char *msg, size_t n);

/* How many runs verify failed (any exit but 0). */
size_t rpb_cmp_verify_failures(const struct rpb_cmp_verified *v);

/* One line per run: "verify NAME: exit N: LINE". */
void rpb_cmp_verify_print(const struct rpb_cmp_verified *v, FILE *f);

/* compare.json: "verify": {"exit", "result"} in each runs[] and incomplete[]
 * entry of the run; compare.md: a "Verify" section. */
int rpb_cmp_verify_add(const struct rpb_cmp_verified *v, const char *out, char *msg, size_t n);

/* Bytes on disk under OUT/stores/<name> of every store compare made there;
 * *count stores. */
uint64_t rpb_cmp_stores_usage(const char *out, size_t *count);

/* --clean-stores: removes every OUT/stores/<name> that carries rpbench's
 * store mark (an unmarked one is left and named in msg, -1), but the store
 * of a run whose verify failed (keep may be NULL): that store is the
 * evidence. Then OUT/stores when empty. *removed stores, *bytes freed,
 * *kept left for a failed verify. */
int rpb_cmp_stores_clean(const char *out, const struct rpb_cmp_verified *keep, size_t *removed,
			 uint64_t *bytes, size_t *kept, char *msg, size_t n);

#endif
