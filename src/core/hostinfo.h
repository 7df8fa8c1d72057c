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
/* The CPU's model name (/proc/cpuinfo's first "model name", or "unknown"). */
void rpb_cpu_model(char *buf, size_t n);
/* The kernel: "Linux 6.1.0-18-amd64 #1 SMP ... x86_64" (uname). */
void rpb_kernel(char *buf, size_t n);

/* The mount holding a path, from /proc/self/mountinfo: the entry with the
 * longest mount point above the path's real location (the last such
 * entry, which covers the others). The mount point is unescaped (\040 is
 * a space); the other fields stay as the kernel writes them. */
struct rpb_mount {
	char point[1024];
	char fs_type[64];
	char source[256];
	char options[512];       /* per-mount options: rw,noatime,... */
	char super_options[512]; /* the file system's own: data=ordered,... */
};
/* 0, or -1 when the path or mountinfo cannot be read. */
int rpb_mount_of(const char *path, struct rpb_mount *m);
/* The same from the text of a mountinfo file, for tests. */
int rpb_mount_find(const char *mountinfo, const char *real_path, struct rpb_mount *m);

/* UTC ISO-8601 with milliseconds: 2026-12-01T00:15:00.123Z */
void rpb_iso_time(char *buf, size_t n, uint64_t wall_ms);

#endif
