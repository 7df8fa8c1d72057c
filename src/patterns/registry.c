/* The patterns built in, in the order --help lists them; the one place that
 * knows them all, as backends/registry.c is for backends. A new pattern is
 * one line here (and its folder, and one line in CMakeLists.txt). */
#include <string.h>

#include "pattern.h"

extern const struct rpb_pattern rpb_pattern_ingest, rpb_pattern_metadata, rpb_pattern_harvest,
	rpb_pattern_raw, rpb_pattern_ycsb;
#ifdef RPB_PATTERN_EXAMPLE
extern const struct rpb_pattern rpb_pattern_example;
#endif

static const struct rpb_pattern *const patterns[] = {
	&rpb_pattern_ingest,
	&rpb_pattern_metadata,
	&rpb_pattern_harvest,
	&rpb_pattern_raw,
	&rpb_pattern_ycsb,
#ifdef RPB_PATTERN_EXAMPLE /* the tests' plug-in example (tests/example_pattern/) */
	&rpb_pattern_example,
#endif
};

size_t rpb_pattern_count(void)
{
	return sizeof patterns / sizeof patterns[0];
}

const struct rpb_pattern *rpb_pattern_at(size_t i)
{
	return i < rpb_pattern_count() ? patterns[i] : NULL;
}

const struct rpb_pattern *rpb_pattern_find(const char *name)
{
	for (size_t i = 0; i < rpb_pattern_count(); i++)
		if (strcmp(patterns[i]->name, name) == 0)
			return patterns[i];
	return NULL;
}
