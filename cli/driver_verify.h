/* The verb verify: the store a run left checked against its ledger, one
 * rank's or every rank's. */
#ifndef RPB_DRIVER_VERIFY_H
#define RPB_DRIVER_VERIFY_H

#include "driver_cli.h"
#include "store.h"

int drv_cmd_verify(const struct rpb_backend *b, const struct cli *c, const char *prog);

/* A run of several ranks (docs/distributed.md) keeps each rank's ledger in
 * OUT/rank-N: verify checks every rank's store against its own ledger, in
 * rank order, and answers with the worst outcome. No MPI needed. */
int drv_verify_ranks(const struct rpb_backend *b, const struct cli *c, const char *prog);

#endif
