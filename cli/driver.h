/* The one driver every rpbench-<backend> binary hands its backend to. */
#ifndef RPB_DRIVER_H
#define RPB_DRIVER_H

#include "store.h"

int rpb_main(const struct rpb_backend *b, int argc, char **argv);

#endif
