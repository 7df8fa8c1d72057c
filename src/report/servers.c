/* Each server backend's DSN, given or of a throwaway server. */
#include <string.h>

#include "servers.h"

const char *rpb_servers_dsn(const struct rpb_servers *sv, const char *backend)
{
	if (!sv)
		return NULL;
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->s[i].backend, backend) == 0)
			return sv->s[i].dsn;
	return NULL;
}
