#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
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
