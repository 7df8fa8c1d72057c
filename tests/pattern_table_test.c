/* What every registered pattern's table must say (src/core/pattern.h),
 * checked over the registry, so a pattern added without it fails here. */
#include <criterion/criterion.h>
#include <string.h>

#include "pattern.h"
#include "runner.h"
#include "workload.h"

/* Every label has the direction of its bytes: the core never guesses one
 * from a label's name. */
Test(pattern_table, every_label_has_a_byte_direction)
{
	cr_assert_gt(rpb_pattern_count(), 0);
	for (size_t i = 0; i < rpb_pattern_count(); i++) {
		const struct rpb_pattern *p = rpb_pattern_at(i);
		cr_assert(p->nlabels > 0 && p->nlabels <= RPB_MAX_LABELS, "%s: %u labels", p->name,
			  p->nlabels);
		cr_assert_not_null(p->label_dirs, "pattern %s has no label_dirs", p->name);
		for (unsigned l = 0; l < p->nlabels; l++) {
			enum rpb_bytes_dir d = p->label_dirs[l];
			cr_assert(d == RPB_BYTES_SENT || d == RPB_BYTES_RECEIVED || d == RPB_BYTES_NONE,
				  "pattern %s: label %s has no byte direction (%d)", p->name,
				  p->labels[l], (int)d);
		}
	}
}

/* A few labels whose direction the name alone would have got wrong, or
 * could not tell. */
static enum rpb_bytes_dir dir_of(const char *pattern, const char *label)
{
	const struct rpb_pattern *p = rpb_pattern_find(pattern);
	cr_assert_not_null(p, "no pattern %s", pattern);
	for (unsigned l = 0; l < p->nlabels; l++)
		if (!strcmp(p->labels[l], label))
			return p->label_dirs[l];
	cr_assert_fail("pattern %s has no label %s", pattern, label);
	return 0;
}

Test(pattern_table, directions_of_labels_a_name_does_not_tell)
{
	cr_assert_eq(dir_of("ycsb", "READ"), RPB_BYTES_RECEIVED);
	cr_assert_eq(dir_of("ycsb", "SCAN"), RPB_BYTES_RECEIVED);
	cr_assert_eq(dir_of("ycsb", "UPDATE"), RPB_BYTES_SENT);
	cr_assert_eq(dir_of("ycsb", "READ-MODIFY-WRITE"), RPB_BYTES_SENT);
	cr_assert_eq(dir_of("raw", "readseq"), RPB_BYTES_RECEIVED);
	cr_assert_eq(dir_of("raw", "fillseq"), RPB_BYTES_SENT);
	cr_assert_eq(dir_of("harvest", "request"), RPB_BYTES_RECEIVED);
	cr_assert_eq(dir_of("harvest", "write-update"), RPB_BYTES_SENT);
	cr_assert_eq(dir_of("ingest", "probe-get"), RPB_BYTES_RECEIVED);
	cr_assert_eq(dir_of("ingest", "create"), RPB_BYTES_SENT);
	cr_assert_eq(dir_of("metadata", "getFileId"), RPB_BYTES_NONE);
}

/* A pattern that must be loaded first has a load phase, and every load
 * phase is an assignment its own section accepts. */
Test(pattern_table, load_phase_is_an_option_of_the_pattern)
{
	size_t with = 0;
	for (size_t i = 0; i < rpb_pattern_count(); i++) {
		const struct rpb_pattern *p = rpb_pattern_at(i);
		cr_assert(!p->loads_first || p->load_phase, "pattern %s loads first but has no "
			  "load_phase", p->name);
		if (!p->load_phase)
			continue;
		with++;
		struct rpb_job job;
		char set[256], msg[1024] = "";
		rpb_job_defaults(&job);
		snprintf(set, sizeof set, "%s.%s", p->name, p->load_phase);
		cr_assert_eq(rpb_job_set(&job, set, msg, sizeof msg), 0, "%s: %s", set, msg);
		cr_assert_eq(job.pattern, p, "%s chose another pattern", set);
		rpb_job_free(&job);
	}
	cr_assert_geq(with, 1, "no pattern has a load phase (ycsb has)");
}
