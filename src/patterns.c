/* The list of patterns, by workload id. */
#include <stddef.h>

#include "runner.h"

const struct rpb_pattern *rpb_pattern_for(enum rpb_pattern_id id)
{
	switch (id) {
	case RPB_PAT_INGEST:
		return &rpb_pattern_ingest;
	case RPB_PAT_METADATA:
		return &rpb_pattern_metadata;
	default:
		return NULL;
	}
}
