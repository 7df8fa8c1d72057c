/* The workload file reader (rpb_job_load, then rpb_job_finish): any bytes
 * are refused with one line or accepted; an accepted job survives the trip
 * through result.json's manifest.options unchanged, as verify relies on
 * (but for secrets and connection strings, which are recorded redacted). */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dsn.h"
#include "fuzz.h"
#include "workload.h"

/* The bytes as a regular file: rpb_job_load takes a path. */
static int as_file(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("workload.ini", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	for (size_t off = 0; off < size;) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0)
			abort();
		off += (size_t)w;
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

static void round_trip(const struct rpb_job *job)
{
	json_t *first = rpb_job_to_json(job);
	FUZZ_ASSERT(first, "no JSON for an accepted job");
	struct rpb_job again;
	char msg[2048] = "";
	int rc = rpb_job_from_json(&again, first, msg, sizeof msg);
	FUZZ_ASSERT(rc == 0, "manifest.options of an accepted job refused: %s", msg);
	json_t *second = rpb_job_to_json(&again);
	FUZZ_ASSERT(second && json_object_size(first) == json_object_size(second), "options added or lost");
	const char *key;
	json_t *val;
	json_object_foreach(first, key, val)
		FUZZ_ASSERT(rpb_key_is_secret(key, strlen(key)) || json_equal(val, json_object_get(second, key)),
			    "%s changed on the way back: %s", key, json_string_value(val));
	json_decref(first);
	json_decref(second);
	rpb_job_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], msg[4096] = "";
	int fd = as_file(data, size, path, sizeof path);
	struct rpb_job job;
	rpb_job_defaults(&job);
	int rc = rpb_job_load(&job, path, msg, sizeof msg);
	if (rc == 0)
		rc = rpb_job_finish(&job, msg, sizeof msg);
	if (rc != 0)
		fuzz_one_line(msg);
	else
		round_trip(&job);
	rpb_job_free(&job);
	close(fd);
	return 0;
}
