/* The verb preload for the ingest pattern (pattern.h's preload hook): the
 * Fedora model's creates, the same as a measured run makes them, but many
 * in one store transaction (ingest_fedora.c's batches). Only the Fedora
 * model has one: the flat model's measured run is fast enough to fill a
 * store. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ingest.h"

/* Creates per store transaction: large enough that a commit's cost is
 * spread thin, small enough that the open transaction's writes (kept in
 * memory by LevelDB's overlay) stay bounded; ingest_fedora.c also ends a
 * batch at 64 MiB of content. */
#define INGEST_PRELOAD_BATCH 1000

int ingest_preload(void *config, const struct rpb_job *job, uint64_t objects, uint64_t before,
		   char *msg, size_t n)
{
	(void)job;
	(void)objects;
	struct rpb_ingest_opts *o = config;
	if (o->model != INGEST_FEDORA) {
		snprintf(msg, n, "preload: ingest's model = flat has no preload (only model = fedora "
			 "has one); use 'run', or --set ingest.model=fedora");
		return -1;
	}
	/* preload --continue sets start_at to the store's objects; by hand it
	 * would start a new run tag's tree in the middle. */
	if (o->start_at != before) {
		snprintf(msg, n, "preload: ingest.start_at = %" PRIu64 " continues a store; a preload "
			 "goes on from the one its --continue DIR names: remove it, or give --continue",
			 o->start_at);
		return -1;
	}
	/* Reads change nothing: a preload, which only fills the store, skips
	 * them (the run that continues it measures them). */
	o->read_mix[0] = '\0';
	memset(o->reads, 0, sizeof o->reads);
	/* The /members resource references objects already there: the run
	 * that continues the preload writes it. */
	o->members = 0;
	o->preload_batch = INGEST_PRELOAD_BATCH;
	return 0;
}
