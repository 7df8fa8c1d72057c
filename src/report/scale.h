/* rpbench scale: one Fedora-model store per backend, grown through a list
 * of sizes (preload, then preload --continue), and at each size a measured
 * window of creates (run --continue); per size the throughput, the create
 * latencies, the bytes per object and the backend gauges, a least-squares
 * trend of each against log10(objects) and its projection to 10^7 objects
 * (docs/scaling.md). */
#ifndef RPB_SCALE_H
#define RPB_SCALE_H

#include "scale_model.h"

/* Runs every backend's chain, writes OUT/scale.json, OUT/scale.txt and
 * OUT/index.html with its figures. 0 when every run completed, 3 when one
 * did not (that backend's later sizes are left out), -1 with msg when the
 * command could not go on. */
int rpb_scale_run(const struct rpb_scale_plan *p, char *msg, size_t n);

#endif
