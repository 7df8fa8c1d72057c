/* Facts about the machine and the process, for manifests and intervals. */
#ifndef RPB_HOSTINFO_H
#define RPB_HOSTINFO_H

#include <stddef.h>
#include <stdint.h>

unsigned rpb_host_cores(void);
uint64_t rpb_host_memory(void);
/* Current and peak resident set size of this process, in bytes. */
uint64_t rpb_rss_bytes(void);
uint64_t rpb_peak_rss_bytes(void);
/* The file-system type name ("ext4", "tmpfs", ...) and free bytes of the file
 * system holding path; "unknown"/0 when it cannot be read. */
void rpb_fs_info(const char *path, char *type, size_t n, uint64_t *free_bytes,
		 uint64_t *total_bytes);
/* UTC ISO-8601 with milliseconds: 2026-12-01T00:15:00.123Z */
void rpb_iso_time(char *buf, size_t n, uint64_t wall_ms);

#endif
