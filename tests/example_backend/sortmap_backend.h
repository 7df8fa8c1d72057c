/* The sortmap backend (tests only): an in-memory ordered map saved to one
 * file, the example of a backend added as one folder and one line. */
#ifndef RPB_SORTMAP_BACKEND_H
#define RPB_SORTMAP_BACKEND_H

#include "store.h"

extern const struct rpb_backend rpb_backend_sortmap;

/* The class of an errno from the store's file (ENOSPC: disk-full, ...). */
enum rpb_status rpb_sortmap_classify(int errnum);

#endif
