/* The backends built into this program, from the generated registry
 * (backends/registry.c.in, filled from the folders backends/CMakeLists.txt
 * lists). A backend's own declarations (its table, its pure error
 * classifier, its debug counters) are in its folder's <name>_backend.h. */
#ifndef RPB_BACKENDS_H
#define RPB_BACKENDS_H

#include "store.h"

/* NULL-terminated list of the backends built in, null last (the registry:
 * linking it links every backend's library). */
extern const struct rpb_backend *const rpb_backends[];
/* The same backends' names and flags only, in the same order, ended by a
 * NULL name (the catalogue: no backend's code, so no backend's library). */
extern const struct rpb_backend_kind rpb_backend_kinds[];
/* A built-in backend's kind by name; NULL when not built in. */
const struct rpb_backend_kind *rpb_backend_kind_find(const char *name);
/* NULL-terminated list of every backend the sources declare (a folder of
 * backends/), built in or switched off. */
extern const char *const rpb_backend_names[];
/* Finds a built-in backend by name; NULL when not built in. */
const struct rpb_backend *rpb_backend_find(const char *name);
/* A built-in server backend's throwaway-server script, a path under
 * share/rpbench ("scripts/pg-throwaway"): `start [--durable] DIR` prints its
 * DSN, `stop DIR` removes it, `run DIR -- CMD` runs CMD with
 * RPB_TEST_<NAME>_DSN set. NULL for any other name. */
const char *rpb_backend_server_script(const char *name);

#endif
