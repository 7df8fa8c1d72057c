/* The persistence profiles of a run ([run] profile), named once for the
 * workload parser, the results and the patterns alike. */
#ifndef RPB_PROFILE_H
#define RPB_PROFILE_H

/* How a pattern persists its operations (docs/workloads.md, "profile"):
 * durable, each operation one atomic, durable transaction; fedora-4.5, as
 * Fedora 4.5 persisted through ModeShape and Infinispan (one unsynced
 * store transaction per modified document, not atomic across documents). */
enum rpb_profile { RPB_PROFILE_DURABLE = 0, RPB_PROFILE_FEDORA45 };
extern const char *const rpb_profile_names[];

#endif
