/* Facts about the machine and the process, for manifests and intervals. */
#ifndef RPB_HOSTINFO_H
#define RPB_HOSTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

unsigned rpb_host_cores(void);
uint64_t rpb_host_memory(void);
/* Current and peak resident set size of this process, in bytes. */
uint64_t rpb_rss_bytes(void);
uint64_t rpb_peak_rss_bytes(void);
/* Peaks of the resident set's parts (/proc/self/status): RssAnon, the
 * heap and stacks (rpbench's and the library's own memory), and RssFile,
 * mapped files' pages (a library's mmapped table files: page cache the
 * kernel can drop), as often as rpb_rss_sample is called. */
struct rpb_rss_peak {
	uint64_t anon, file;
	bool seen; /* some reading succeeded */
};
void rpb_rss_sample(struct rpb_rss_peak *p);
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

/* Which instance of a file system a path's bytes live on, to tell whether
 * its page cache could have been lost since: the kernel's boot id and the
 * id of the mount holding the path (statx: the 64-bit unique id where the
 * kernel has one, never reused until the next boot; else the older mount
 * id). Both 0 when they cannot be read. A reboot or a mount made since (a
 * file system mounted again after a power cut, a crash image) changes one
 * of them. */
struct rpb_fs_instance {
	unsigned char boot_id[16];
	uint64_t mount_id;
};
void rpb_fs_instance_of(const char *path, struct rpb_fs_instance *fi);
/* Whether fi was read (a boot id of zeros is none the kernel gives). */
bool rpb_fs_instance_known(const struct rpb_fs_instance *fi);

/* UTC ISO-8601 with milliseconds: 2026-12-01T00:15:00.123Z */
void rpb_iso_time(char *buf, size_t n, uint64_t wall_ms);

#endif
