/* quota-run's environment, checked (quota_env.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quota_env.h"

static const char *const fs_names[] = {"ext4", "xfs", "tmpfs"};

/* Decimal digits only, no sign or leading zero, within a JSON reader's
 * signed 64 bits. */
static bool parse_bytes(const char *s, uint64_t *v)
{
	if (!*s || strlen(s) > 20 || (s[0] == '0' && s[1]) || strspn(s, "0123456789") != strlen(s))
		return false;
	uint64_t x = 0;
	for (; *s; s++) {
		if (x > ((uint64_t)INT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

bool rpb_quota_env(struct rpb_quota *q, char *warn, size_t n)
{
	memset(q, 0, sizeof *q);
	const char *fs = getenv("RPB_QUOTA_FS");
	if (!fs)
		return true;
	for (size_t i = 0; i < sizeof fs_names / sizeof *fs_names; i++)
		if (!strcmp(fs, fs_names[i]))
			q->fs = fs_names[i];
	if (!q->fs) {
		snprintf(warn, n, "warning: RPB_QUOTA_FS is not ext4, xfs or tmpfs, so result.json "
			 "records no manifest.quota; unset it or run under bench/quota-run");
		return false;
	}
	const char *size = getenv("RPB_QUOTA_SIZE");
	if (size && !(q->have_size = parse_bytes(size, &q->size_bytes))) {
		snprintf(warn, n, "warning: RPB_QUOTA_SIZE is not a number of bytes, so result.json "
			 "records no manifest.quota.size_bytes; unset it or run under bench/quota-run");
		return false;
	}
	return true;
}
