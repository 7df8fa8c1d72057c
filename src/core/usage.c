/* store_bytes (usage.h). */
#include "runner.h"
#include "usage.h"

bool rpb_store_bytes(struct rpb_runner *rn, uint64_t *bytes)
{
	struct rpb_err err;
	*bytes = 0;
	if (!rn->backend->usage || rn->backend->usage(rn->store, bytes, &err) != RPB_OK)
		return false;
	if (rn->pattern->extra_bytes)
		*bytes += rn->pattern->extra_bytes(rn);
	return true;
}
