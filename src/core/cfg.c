/* Backend tuning options: a backend's typed option table (options.h) read
 * from the store configuration into the backend's own config struct. */
#include <string.h>

#include "nearest.h"
#include "options.h"
#include "store.h"

enum rpb_status rpb_cfg_parse(const struct rpb_store_cfg *cfg, const char *backend,
			      const struct rpb_optdef *table, void *out, struct rpb_err *err)
{
	rpb_opt_defaults_for(out, table, cfg->profile);
	char msg[sizeof err->msg];
	for (size_t i = 0; i < cfg->nopts; i++) {
		const struct rpb_optdef *d = rpb_opt_find(table, cfg->opts[i].key);
		if (!d) {
			rpb_nearest_unknown_key(msg, sizeof msg, backend, table, cfg->opts[i].key);
			return rpb_err_usage(err, "%s", msg);
		}
		const char *v = cfg->opts[i].value;
		/* "auto" of a row with a per-profile default is that default. */
		if (d->type == RPB_OPT_ENUM && d->dflt_fedora45 && strcmp(v, "auto") == 0)
			v = rpb_opt_default(d, cfg->profile);
		if (rpb_opt_apply(out, backend, d, v, msg, sizeof msg) != 0)
			return rpb_err_usage(err, "%s", msg);
	}
	return RPB_OK;
}
