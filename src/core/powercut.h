/* A power cut's record in result.json: bench/quota-run --power-cut cuts the
 * power under a run, then hands the commands after the cut RPB_POWER_CUT
 * (the technique, the moment, fsck's verdict on the crash image); verify
 * adds that and its own counts as result.json's power_cut, so the result
 * and its report say what the cut did. */
#ifndef RPB_POWERCUT_H
#define RPB_POWERCUT_H

#include <stddef.h>

#include "verify.h"

#define RPB_POWER_CUT_ENV "RPB_POWER_CUT"

/* Adds power_cut to DIR/result.json (rewritten as rpb_results_file writes)
 * from env (RPB_POWER_CUT's value: "key=value" words) and verify's exit
 * code and counts (res NULL: it could not count). 0, or -1 with msg. */
int rpb_power_cut_record(const char *dir, const char *env, int exit_code,
			 const struct rpb_verify_result *res, const struct rpb_ledger *l, char *msg,
			 size_t n);

#endif
