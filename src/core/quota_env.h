/* The file system bench/quota-run mounted for the store, as it tells the
 * commands it runs (RPB_QUOTA_FS, RPB_QUOTA_SIZE), for result.json's
 * manifest.quota. The environment is not rpbench's to trust: only the
 * values quota-run writes are taken. */
#ifndef RPB_QUOTA_ENV_H
#define RPB_QUOTA_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rpb_quota {
	const char *fs;  /* "ext4", "xfs" or "tmpfs" (static text); NULL: no quota */
	bool have_size;
	uint64_t size_bytes;
};

/* Reads the environment into q. Returns false with one line in warn when a
 * variable is set to what quota-run never writes: that value is left out
 * (a bad RPB_QUOTA_FS leaves the whole quota out). The line never quotes
 * the value, which may hold any byte. */
bool rpb_quota_env(struct rpb_quota *q, char *warn, size_t n);

#endif
