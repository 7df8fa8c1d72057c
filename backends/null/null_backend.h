/* The null backend: stores nothing, so a run measures rpbench alone. */
#ifndef RPB_NULL_BACKEND_H
#define RPB_NULL_BACKEND_H

#include "store.h"

extern const struct rpb_backend rpb_backend_null;

#endif
