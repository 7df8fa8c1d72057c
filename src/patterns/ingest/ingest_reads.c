/* The Fedora model's read operations as options: read_mix (which reads
 * follow the creates, how many, how often) and read_at (which container the
 * list operations read), parsed once by the section's finish. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"

const char *const ingest_read_names[INGEST_NREADS] = {"list", "list-paged", "fileget",
						      "members-get"};

#define READS_PER_CREATE_MAX 1000

/* A decimal in [lo, hi] spanning exactly [p, end). */
static bool number(const char *p, const char *end, uint64_t lo, uint64_t hi, uint64_t *v)
{
	if (p == end || *p < '0' || *p > '9' || end - p > 20)
		return false;
	char buf[24];
	memcpy(buf, p, (size_t)(end - p));
	buf[end - p] = '\0';
	char *stop;
	errno = 0;
	unsigned long long x = strtoull(buf, &stop, 10);
	if (errno || *stop || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}

/* One entry name:N or name:N/P, [p, end). */
static int mix_entry(struct rpb_ingest_opts *o, const char *p, const char *end, const char *where,
		     char *msg, size_t n)
{
	const char *colon = memchr(p, ':', (size_t)(end - p));
	size_t nl = colon ? (size_t)(colon - p) : (size_t)(end - p);
	int r = -1;
	for (int k = 0; k < INGEST_NREADS; k++)
		if (strlen(ingest_read_names[k]) == nl && !memcmp(ingest_read_names[k], p, nl))
			r = k;
	if (r < 0) {
		snprintf(msg, n, "%s[ingest] read_mix: '%.*s' is no read; use list, list-paged, "
			 "fileget or members-get, as name:N or name:N/P", where, (int)nl, p);
		return -1;
	}
	if (o->reads[r].every) {
		snprintf(msg, n, "%s[ingest] read_mix names %s twice; give each read once", where,
			 ingest_read_names[r]);
		return -1;
	}
	const char *slash = colon ? memchr(colon, '/', (size_t)(end - colon)) : NULL;
	uint64_t count, every = 1;
	if (!colon || !number(colon + 1, slash ? slash : end, 0, READS_PER_CREATE_MAX, &count) ||
	    (slash && !number(slash + 1, end, 1, UINT64_C(1) << 32, &every))) {
		snprintf(msg, n, "%s[ingest] read_mix: '%.*s' is not name:N (N 0..%d reads after every "
			 "create) or name:N/P (after every Pth, P 1..2^32); write e.g. %s:1/100",
			 where, (int)(end - p), p, READS_PER_CREATE_MAX, ingest_read_names[r]);
		return -1;
	}
	o->reads[r].n = count;
	o->reads[r].every = every;
	return 0;
}

static int parse_mix(struct rpb_ingest_opts *o, const char *where, char *msg, size_t n)
{
	const char *p = o->read_mix;
	while (*p) {
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (end == p) {
			snprintf(msg, n, "%s[ingest] read_mix = '%s' has an empty entry; separate "
				 "name:N entries with single commas", where, o->read_mix);
			return -1;
		}
		if (mix_entry(o, p, end, where, msg, n))
			return -1;
		p = *end ? end + 1 : end;
		if (*p == '\0' && end[0] == ',') {
			snprintf(msg, n, "%s[ingest] read_mix = '%s' ends with a comma; remove it", where,
				 o->read_mix);
			return -1;
		}
	}
	return 0;
}

static int parse_at(struct rpb_ingest_opts *o, const char *where, char *msg, size_t n)
{
	const char *a = o->read_at;
	uint64_t k;
	if (!strcmp(a, "root")) {
		o->read_level = 0;
	} else if (!strcmp(a, "parent")) {
		o->read_level = o->pairtree_count;
	} else if (!strncmp(a, "level:", 6) && number(a + 6, a + strlen(a), 0, 8, &k) &&
		   k <= o->pairtree_count) {
		o->read_level = k;
	} else {
		snprintf(msg, n, "%s[ingest] read_at = '%s' is not root, parent or level:K with K "
			 "0..pairtree_count (%" PRIu64 "); use one of them", where, a,
			 o->pairtree_count);
		return -1;
	}
	return 0;
}

int ingest_reads_finish(struct rpb_ingest_opts *o, const char *where, char *msg, size_t n)
{
	memset(o->reads, 0, sizeof o->reads);
	if (parse_mix(o, where, msg, n) || parse_at(o, where, msg, n))
		return -1;
	if (ingest_reads_any(o) && o->model != INGEST_FEDORA) {
		snprintf(msg, n, "%s[ingest] read_mix = '%s' reads the Fedora model's containers and "
			 "binaries; set model = fedora, or leave read_mix empty", where, o->read_mix);
		return -1;
	}
	if (o->reads[INGEST_READ_MEMBERS].n && !o->members) {
		snprintf(msg, n, "%s[ingest] read_mix names members-get, which reads the /members "
			 "resource: set members = N (its references)", where);
		return -1;
	}
	return 0;
}

bool ingest_reads_any(const struct rpb_ingest_opts *o)
{
	for (int k = 0; k < INGEST_NREADS; k++)
		if (o->reads[k].n)
			return true;
	return false;
}
