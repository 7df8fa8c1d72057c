#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "hostinfo.h"

unsigned rpb_host_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

uint64_t rpb_host_memory(void)
{
	struct sysinfo si;
	if (sysinfo(&si) != 0)
		return 0;
	return (uint64_t)si.totalram * si.mem_unit;
}

uint64_t rpb_rss_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, resident = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

void rpb_rss_sample(struct rpb_rss_peak *p)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return;
	char line[256];
	unsigned long long kb;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "RssAnon: %llu kB", &kb) == 1) {
			p->seen = true;
			if (kb * 1024u > p->anon)
				p->anon = kb * 1024u;
		} else if (sscanf(line, "RssFile: %llu kB", &kb) == 1 && kb * 1024u > p->file)
			p->file = kb * 1024u;
	}
	fclose(f);
}

uint64_t rpb_peak_rss_bytes(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_maxrss * 1024u;
}

void rpb_fs_info(const char *path, char *type, size_t n, uint64_t *free_bytes,
		 uint64_t *total_bytes)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} known[] = {
		{0xEF53, "ext4"},      {0x58465342, "xfs"},   {0x01021994, "tmpfs"},
		{0x9123683E, "btrfs"}, {0x794C7630, "overlay"}, {0x6969, "nfs"},
		{0x2FC12FC1, "zfs"},   {0x65735546, "fuse"},  {0xF2F52010, "f2fs"},
	};
	struct statfs sf;
	snprintf(type, n, "unknown");
	*free_bytes = *total_bytes = 0;
	if (!path || statfs(path, &sf) != 0)
		return;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if ((unsigned long)sf.f_type == known[i].magic)
			snprintf(type, n, "%s", known[i].name);
	if (strcmp(type, "unknown") == 0)
		snprintf(type, n, "0x%lx", (unsigned long)sf.f_type);
	*free_bytes = (uint64_t)sf.f_bavail * (uint64_t)sf.f_bsize;
	*total_bytes = (uint64_t)sf.f_blocks * (uint64_t)sf.f_bsize;
}

void rpb_iso_time(char *buf, size_t n, uint64_t wall_ms)
{
	time_t t = (time_t)(wall_ms / 1000u);
	struct tm tm;
	gmtime_r(&t, &tm);
	char base[32];
	strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, n, "%s.%03uZ", base, (unsigned)(wall_ms % 1000u));
}

void rpb_cpu_model(char *buf, size_t n)
{
	snprintf(buf, n, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (strncmp(line, "model name", 10) != 0 || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		if (*colon)
			snprintf(buf, n, "%s", colon);
		break;
	}
	fclose(f);
}

void rpb_kernel(char *buf, size_t n)
{
	struct utsname u;
	if (uname(&u) != 0)
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
}

/* The next space-separated field of a mountinfo line, into out. */
static const char *next_field(const char *p, char *out, size_t n)
{
	p += strspn(p, " ");
	size_t len = strcspn(p, " \n");
	snprintf(out, n, "%.*s", (int)len, p);
	return p + len;
}

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Whether mount point mp is path or above it. */
static bool covers(const char *mp, const char *path)
{
	size_t len = strlen(mp);
	if (strcmp(mp, "/") == 0)
		return true;
	return strncmp(mp, path, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

int rpb_mount_find(const char *mountinfo, const char *real_path, struct rpb_mount *m)
{
	size_t best = 0;
	bool found = false;
	for (const char *line = mountinfo; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] ? 1 : 0)) {
		/* id parent major:minor root point options [optional...] - type source super */
		struct rpb_mount e;
		char skip[1024];
		const char *p = line;
		for (int i = 0; i < 4; i++)
			p = next_field(p, skip, sizeof skip);
		p = next_field(p, e.point, sizeof e.point);
		unescape(e.point);
		p = next_field(p, e.options, sizeof e.options);
		const char *dash = strstr(p, " - ");
		const char *eol = p + strcspn(p, "\n");
		if (!dash || dash > eol || !*e.point)
			continue;
		p = next_field(dash + 3, e.fs_type, sizeof e.fs_type);
		p = next_field(p, e.source, sizeof e.source);
		next_field(p, e.super_options, sizeof e.super_options);
		size_t len = strlen(e.point);
		if (covers(e.point, real_path) && len >= best) {
			best = len;
			*m = e;
			found = true;
		}
	}
	return found ? 0 : -1;
}

int rpb_mount_of(const char *path, struct rpb_mount *m)
{
	char real[PATH_MAX];
	if (!path || !realpath(path, real))
		return -1;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return -1;
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap);
	while (text) {
		len += fread(text + len, 1, cap - len - 1, f);
		if (len < cap - 1)
			break;
		char *bigger = realloc(text, cap * 2);
		if (!bigger)
			free(text);
		text = bigger;
		cap *= 2;
	}
	fclose(f);
	if (!text)
		return -1;
	text[len] = '\0';
	int rc = rpb_mount_find(text, real, m);
	free(text);
	return rc;
}

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U /* Linux 6.8 */
#endif

void rpb_fs_instance_of(const char *path, struct rpb_fs_instance *fi)
{
	memset(fi, 0, sizeof *fi);
	char text[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	bool ok = f && fgets(text, sizeof text, f);
	if (f)
		fclose(f);
	/* 8-4-4-4-12 hex digits */
	unsigned k = 0;
	for (const char *p = text; ok && *p && *p != '\n' && k < 32; p++) {
		if (*p == '-')
			continue;
		int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (d < 0)
			ok = false;
		else
			fi->boot_id[k / 2] |= (unsigned char)(k % 2 ? d : d << 4), k++;
	}
	if (!ok || k != 32) {
		memset(fi, 0, sizeof *fi);
		return;
	}
	struct statx sx;
	if (statx(AT_FDCWD, path, 0, STATX_MNT_ID_UNIQUE, &sx) == 0 && (sx.stx_mask & STATX_MNT_ID_UNIQUE))
		fi->mount_id = sx.stx_mnt_id;
	else if (statx(AT_FDCWD, path, 0, STATX_MNT_ID, &sx) == 0 && (sx.stx_mask & STATX_MNT_ID))
		fi->mount_id = sx.stx_mnt_id;
	else
		memset(fi, 0, sizeof *fi);
}

bool rpb_fs_instance_known(const struct rpb_fs_instance *fi)
{
	for (size_t i = 0; i < sizeof fi->boot_id; i++)
		if (fi->boot_id[i])
			return true;
	return false;
}
