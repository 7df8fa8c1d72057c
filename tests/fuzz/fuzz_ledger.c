/* The live ledger of a run that died (rpb_live_ledger_parse: ledger.bin and
 * failures.log), read against a fixed manifest. Input: one byte choosing
 * the manifest, two (little-endian) giving ledger.bin's length, then
 * ledger.bin, then failures.log. Any bytes are refused with one line, or
 * give a ledger within the manifest's bounds. */
#include <stdint.h>

#include "fuzz_ledger.h"
#include "ledger.h"

#define NOW_MS UINT64_C(1764560005000)

/* Runs that did not finish (status "running", no ledger in result.json):
 * 2 ingest threads of at most 100 operations with probes (side steps), a
 * metadata run of 3 threads without an ops limit, and a harvest of 1
 * harvester and 2 writers (extra workers). */
static const char *const manifests[] = {
	"{\"manifest\": {\"backend\": \"sqlite\", \"run_tag\": \"0badc0de\", \"seed\": \"42\","
	" \"options\": {\"pattern\": \"ingest\", \"run.threads\": \"2\", \"run.ops\": \"100\","
	" \"ingest.probe_every\": \"10\"}, \"start\": \"2025-12-01T03:33:20.000Z\"},"
	" \"stop\": {\"reason\": \"running\"}}",
	"{\"manifest\": {\"backend\": \"null\", \"run_tag\": \"0badc0de\", \"seed\": \"42\","
	" \"options\": {\"pattern\": \"metadata\", \"run.threads\": \"3\", \"run.ops\": \"0\","
	" \"run.duration\": \"1\"}, \"start\": \"2025-12-01T03:33:24.990Z\"},"
	" \"stop\": {\"reason\": \"running\"}}",
	"{\"manifest\": {\"backend\": \"leveldb\", \"run_tag\": \"0badc0de\", \"seed\": \"42\","
	" \"options\": {\"pattern\": \"harvest\", \"run.threads\": \"1\", \"run.ops\": \"10\","
	" \"harvest.writers\": \"2\"}, \"start\": \"2025-12-01T03:33:20.000Z\"},"
	" \"stop\": {\"reason\": \"running\"}}",
};
#define NMANIFESTS (sizeof manifests / sizeof manifests[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	const char *text = manifests[data[0] % NMANIFESTS];
	size_t binlen = (size_t)data[1] | (size_t)data[2] << 8;
	data += 3;
	size -= 3;
	if (binlen > size)
		binlen = size;
	struct rpb_result_file rf;
	char msg[4096] = "";
	int rc = rpb_result_parse(&rf, text, strlen(text), "r/result.json", NOW_MS, msg, sizeof msg);
	FUZZ_ASSERT(rc == 0 && rf.ledger.interrupted, "manifest refused: %s", msg);
	/* Copies of exactly their size, so ASan sees any read past either. */
	char *bin = malloc(binlen ? binlen : 1), *log = malloc(size - binlen ? size - binlen : 1);
	if (!bin || !log)
		abort();
	memcpy(bin, data, binlen);
	memcpy(log, data + binlen, size - binlen);
	if (rpb_live_ledger_parse(&rf, bin, binlen, log, size - binlen, "r", msg, sizeof msg) != 0) {
		fuzz_one_line(msg);
		FUZZ_ASSERT(strncmp(msg, "r/", 2) == 0, "refusal names no file: %s", msg);
	} else {
		fuzz_ledger_ok(&rf);
	}
	free(bin);
	free(log);
	rpb_result_free(&rf);
	return 0;
}
