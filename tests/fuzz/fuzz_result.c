/* result.json as verify reads it (rpb_result_parse): any bytes are refused
 * with one line naming the file, or give a job with a pattern and, for a
 * finished run, a ledger within the manifest's bounds. */
#include <stdint.h>

#include "fuzz_ledger.h"

#define NOW_MS UINT64_C(1893456000000) /* 2030-01-01: after every seed's start */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpb_result_file rf;
	char msg[4096] = "";
	if (rpb_result_parse(&rf, (const char *)data, size, "r/result.json", NOW_MS, msg, sizeof msg) != 0) {
		fuzz_one_line(msg);
		FUZZ_ASSERT(strncmp(msg, "r/result.json", 13) == 0, "refusal names no file: %s", msg);
	} else if (!rf.ledger.interrupted) {
		fuzz_ledger_ok(&rf);
	}
	rpb_result_free(&rf);
	return 0;
}
