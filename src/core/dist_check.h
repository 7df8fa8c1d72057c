/* Ranks that disagree are refused (docs/distributed.md): every rank of a
 * run under mpirun must run the same program on the same workload with the
 * same options and locations, or the run would merge unlike measurements
 * under rank 0's name. Each rank lists what it runs as named fields; a
 * digest of rank 0's list is compared first, and only when one differs is
 * rank 0's list itself sent, so the first rank that differs can name the
 * difference. No MPI here (dist.h's calls). */
#ifndef RPB_DIST_CHECK_H
#define RPB_DIST_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A list being written: "name\0value\0" pairs. */
struct rpb_fields {
	FILE *f;
	char *text;
	size_t len;
};
bool rpb_fields_open(struct rpb_fields *l);
void rpb_fields_add(struct rpb_fields *l, const char *name, const char *value);
/* Every scalar of obj as a field of its own, "prefix.key.key" = its JSON. */
void rpb_fields_add_json(struct rpb_fields *l, const char *prefix, const json_t *obj);
/* Ends the list; false when out of memory (the list is then freed). */
bool rpb_fields_close(struct rpb_fields *l);
void rpb_fields_free(struct rpb_fields *l);

/* A file's contents as a digest (XXH3, 16 hex digits); "unreadable" when
 * it cannot be read. */
void rpb_file_digest(const char *path, char out[32]);

/* Every rank passes its list (rpb_fields_close'd). 0 when every rank's is
 * rank 0's; else -1 on every rank, and on the first rank that differs msg
 * says how ("rank 1 differs from rank 0 in NAME: 'A' here, 'B' at rank 0;
 * ..."), on the others msg is "". Standalone: 0. */
int rpb_dist_check(const struct rpb_fields *l, char *msg, size_t n);

#endif
