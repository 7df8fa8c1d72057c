/* Start-up validation of a pattern table, as backend_validate.c does for a
 * backend's: a missing hook or a table that contradicts itself is one
 * clear message before anything runs, never a NULL call in a run. */
#include <string.h>

#include "pattern.h"
#include "runner.h"

static enum rpb_status invalid(struct rpb_err *err, const char *name, const char *what)
{
	return rpb_err_set(err, RPB_INVALID, 0, NULL, "pattern %s: %s (src/core/pattern.h)",
			   name, what);
}

static bool section_name(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

enum rpb_status rpb_pattern_validate(const struct rpb_pattern *p, struct rpb_err *err)
{
	if (!p || !section_name(p->name))
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "pattern table without a name of lower-case letters, digits "
				   "and _ (its workload section)");
	if (!p->noun || !*p->noun)
		return invalid(err, p->name, "no noun for its main operations");
	if (!p->labels || p->nlabels == 0 || p->nlabels > RPB_MAX_LABELS)
		return invalid(err, p->name, "needs 1 to RPB_MAX_LABELS labels");
	if (!p->label_dirs)
		return invalid(err, p->name, "no label_dirs: each label's byte direction");
	for (unsigned l = 0; l < p->nlabels; l++) {
		if (!p->labels[l] || !*p->labels[l])
			return invalid(err, p->name, "a label without a name");
		enum rpb_bytes_dir d = p->label_dirs[l];
		if (d != RPB_BYTES_SENT && d != RPB_BYTES_RECEIVED && d != RPB_BYTES_NONE)
			return rpb_err_set(err, RPB_INVALID, 0, NULL,
					   "pattern %s: label %s has no byte direction in "
					   "label_dirs (src/core/pattern.h)", p->name, p->labels[l]);
	}
	if (!p->op)
		return invalid(err, p->name, "lacks the required hook op");
	if (p->options && p->config_size == 0)
		return invalid(err, p->name, "has options but config_size 0");
	if (p->loads_first && !p->load_phase)
		return invalid(err, p->name, "loads_first needs a load_phase");
	if (p->verify_stale && !p->verify)
		return invalid(err, p->name, "verify_stale without a verify hook");
	if (p->worker_fini && !p->worker_init)
		return invalid(err, p->name, "worker_fini without worker_init");
	return RPB_OK;
}
