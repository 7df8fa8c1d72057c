/* Backend tuning options: lookup, integer parsing with size suffixes, and the
 * check that every option given is one the backend knows. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "dsn.h"
#include "store.h"

/* A quoted value or key: short enough that the reason always fits an
 * rpb_err message, and never a secret. */
#define CFG_SHOWN 64

static const char *cfg_find(const struct rpb_store_cfg *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nopts; i++)
		if (strcmp(cfg->opts[i].key, name) == 0)
			return cfg->opts[i].value;
	return NULL;
}

enum rpb_status rpb_cfg_u64(const struct rpb_store_cfg *cfg, const char *name,
			    uint64_t dflt, uint64_t min, uint64_t max,
			    uint64_t *out, struct rpb_err *err)
{
	const char *s = cfg_find(cfg, name);
	if (!s) {
		*out = dflt;
		return RPB_OK;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	bool bad = errno || end == s || *end || s[0] == '-' || (v << shift >> shift) != v;
	v <<= shift;
	char shown[CFG_SHOWN];
	if (bad || v < min || v > max)
		return rpb_err_usage(err,
				   "option %s = '%s' is invalid: give an integer in [%" PRIu64 ", %" PRIu64 "]",
				   name, rpb_text_shown(shown, sizeof shown, s), min, max);
	*out = v;
	return RPB_OK;
}

enum rpb_status rpb_cfg_choice(const struct rpb_store_cfg *cfg, const char *name,
			       const char *const *choices, unsigned *out, struct rpb_err *err)
{
	const char *s = cfg_find(cfg, name);
	*out = 0;
	if (!s)
		return RPB_OK;
	char list[256] = "";
	size_t n = 0;
	for (unsigned i = 0; choices[i]; i++) {
		if (strcmp(s, choices[i]) == 0) {
			*out = i;
			return RPB_OK;
		}
		int k = snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", choices[i]);
		if (k > 0 && (size_t)k < sizeof list - n)
			n += (size_t)k;
	}
	char shown[CFG_SHOWN];
	return rpb_err_usage(err, "option %s = '%s' is invalid: give one of %s",
			   name, rpb_text_shown(shown, sizeof shown, s), list);
}

enum rpb_status rpb_cfg_check(const struct rpb_store_cfg *cfg, const char *backend,
			      const struct rpb_optspec *specs, struct rpb_err *err)
{
	for (size_t i = 0; i < cfg->nopts; i++) {
		bool known = false;
		for (const struct rpb_optspec *sp = specs; sp && sp->name; sp++)
			known |= strcmp(sp->name, cfg->opts[i].key) == 0;
		char shown[CFG_SHOWN];
		if (!known)
			return rpb_err_usage(err,
					   "unknown %s option '%s'; see --help for the %s options",
					   backend, rpb_text_shown(shown, sizeof shown, cfg->opts[i].key),
					   backend);
	}
	return RPB_OK;
}
