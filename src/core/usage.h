/* What a run's data take on disk, for store_bytes in result.json and
 * intervals.csv: the backend's own files plus what the pattern keeps
 * beside them (pattern.h, extra_bytes). */
#ifndef RPB_USAGE_H
#define RPB_USAGE_H

#include <stdbool.h>
#include <stdint.h>

struct rpb_runner;

/* False when the backend cannot tell (no usage hook, or it failed). */
bool rpb_store_bytes(struct rpb_runner *rn, uint64_t *bytes);

#endif
