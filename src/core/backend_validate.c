/* Start-up validation of a backend table, so a missing hook is a clear
 * message instead of a NULL call in the middle of a run. */
#include "store.h"

enum rpb_status rpb_backend_validate(const struct rpb_backend *b, struct rpb_err *err)
{
	if (!b || !b->name)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "backend table without a name");
	if (b->abi != RPB_BACKEND_ABI)
		return rpb_err_set(err, RPB_INVALID, b->abi, NULL,
				   "backend %s speaks interface version %d, rpbench needs %d; rebuild it",
				   b->name, b->abi, RPB_BACKEND_ABI);
	const struct {
		const char *hook;
		bool present;
	} required[] = {
		{"version", b->version != NULL},   {"open", b->open != NULL},
		{"close", b->close != NULL},       {"session_open", b->session_open != NULL},
		{"session_close", b->session_close != NULL}, {"begin", b->begin != NULL},
		{"put", b->put != NULL},           {"get", b->get != NULL},
		{"del", b->del != NULL},           {"scan", b->scan != NULL},
		{"commit", b->commit != NULL},     {"rollback", b->rollback != NULL},
		{"interrupt", b->interrupt != NULL},
	};
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
		if (!required[i].present)
			return rpb_err_set(err, RPB_INVALID, 0, NULL,
					   "backend %s lacks the required hook %s", b->name,
					   required[i].hook);
	return RPB_OK;
}
