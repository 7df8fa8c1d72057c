/* The backends built into this program, from the generated registry
 * (backends/registry.c.in, filled from the folders backends/CMakeLists.txt
 * lists). A backend's own declarations (its table, its pure error
 * classifier, its debug counters) are in its folder's <name>_backend.h. */
#ifndef RPB_BACKENDS_H
#define RPB_BACKENDS_H

#include "store.h"

/* NULL-terminated list of the backends built in, null last. */
extern const struct rpb_backend *const rpb_backends[];
/* NULL-terminated list of every backend the sources declare (a folder of
 * backends/), built in or switched off. */
extern const char *const rpb_backend_names[];
/* Finds a built-in backend by name; NULL when not built in. */
const struct rpb_backend *rpb_backend_find(const char *name);

#endif
