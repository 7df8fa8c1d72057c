/* Path options made absolute and canonical (options.h): apart from
 * options.c, which the path helpers' own users reach, so the two stay one
 * way. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "paths.h"
#include "shown.h"

int rpb_opt_path_absolute(void *cfg, const char *section, const struct rpb_optdef *d,
			  const char *where, char *msg, size_t n)
{
	char *value = (char *)cfg + d->off, abs[PATH_MAX], shown[RPB_SHOWN_SIZE];
	if (!d->path || d->type != RPB_OPT_STRING || !*value)
		return 0;
	int rc = rpb_path_absolute(value, abs, sizeof abs);
	if (rc != 0 || strlen(abs) > d->umax) {
		bool longer = rc == 0 || errno == ENAMETOOLONG;
		snprintf(msg, n, "%s[%s] %s = %s %s%s%s; give %s", where, section, d->key,
			 rpb_shown(shown, sizeof shown, value),
			 longer ? "is too long as an absolute path" : "cannot be resolved (",
			 longer ? "" : strerror(errno), longer ? "" : ")",
			 longer ? "a shorter path" : "a path whose existing part is directories");
		return -1;
	}
	memcpy(value, abs, strlen(abs) + 1);
	return 0;
}

int rpb_opt_paths_absolute(void *cfg, const char *section, const struct rpb_optdef *opts,
			   const char *where, char *msg, size_t n)
{
	for (const struct rpb_optdef *d = opts; d && d->key; d++)
		if (d->path == RPB_PATH_WRITTEN &&
		    rpb_opt_path_absolute(cfg, section, d, where, msg, n) != 0)
			return -1;
	return 0;
}
