/* The list of patterns, by workload id. */
#include <stddef.h>

#include "harvest_run.h"
#include "raw.h"
#include "runner.h"

const struct rpb_pattern *rpb_pattern_for(enum rpb_pattern_id id)
{
	switch (id) {
	case RPB_PAT_INGEST:
		return &rpb_pattern_ingest;
	case RPB_PAT_METADATA:
		return &rpb_pattern_metadata;
	case RPB_PAT_HARVEST:
		return &rpb_pattern_harvest;
	case RPB_PAT_RAW:
		return &rpb_pattern_raw;
	default:
		return NULL;
	}
}
