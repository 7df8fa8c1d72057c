/* Explicit registration: a constructor in an unreferenced static-library
 * object would never be linked, so the list is spelled out here. */
#include <string.h>

#include "backends.h"

const struct rpb_backend *const rpb_backends[] = {
#ifdef RPB_HAVE_LEVELDB
	&rpb_backend_leveldb,
#endif
#ifdef RPB_HAVE_SQLITE
	&rpb_backend_sqlite,
#endif
#ifdef RPB_HAVE_POSTGRES
	&rpb_backend_postgres,
#endif
	&rpb_backend_null,
	NULL,
};

const struct rpb_backend *rpb_backend_find(const char *name)
{
	for (size_t i = 0; rpb_backends[i]; i++)
		if (strcmp(rpb_backends[i]->name, name) == 0)
			return rpb_backends[i];
	return NULL;
}
