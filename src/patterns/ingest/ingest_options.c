/* The [ingest] section: Fedora's "Create Binary Resource" test plan's knobs. */
#include <inttypes.h>
#include <stdio.h>

#include "ingest.h"

#define ING(f) offsetof(struct rpb_ingest_opts, f)

static const char *const content_names[] = {"ascii", "binary", NULL};
_Static_assert(sizeof(enum rpb_content) == sizeof(unsigned), "enum size");

const struct rpb_optdef ingest_options[] = {
	{ .key = "size_min", .type = RPB_OPT_SIZE, .dflt = "0",
	  .umin = 0, .umax = RPB_OPT_64M, .off = ING(size_min),
	  .help = "smallest object size in bytes" },
	{ .key = "size_max", .type = RPB_OPT_SIZE, .dflt = "4096",
	  .umin = 1, .umax = RPB_OPT_64M, .off = ING(size_max),
	  .help = "sizes are below this; equal to size_min: fixed size" },
	{ .key = "content", .type = RPB_OPT_ENUM, .dflt = "ascii",
	  .choices = content_names, .off = ING(content),
	  .help = "printable ASCII or random binary bytes" },
	{ .key = "containers", .type = RPB_OPT_COUNT, .dflt = "1",
	  .umin = 1, .umax = 1000000, .off = ING(containers),
	  .help = "creates are spread over this many containers" },
	{ .key = "probe_every", .type = RPB_OPT_COUNT, .dflt = "1000",
	  .umin = 0, .umax = RPB_OPT_P32, .off = ING(probe_every),
	  .help = "creates between probe sequences; 0 = none" },
	{ .key = NULL },
};

int ingest_finish(void *config, const struct rpb_job *job, const char *where, char *msg,
		  size_t n)
{
	(void)job;
	const struct rpb_ingest_opts *o = config;
	if (o->size_min > o->size_max) {
		snprintf(msg, n, "%s[ingest] size_min = %" PRIu64 " exceeds size_max = %" PRIu64
			 "; make size_min < size_max, or equal for a fixed size",
			 where, o->size_min, o->size_max);
		return -1;
	}
	return 0;
}

bool ingest_binary_payload(const void *config)
{
	return ((const struct rpb_ingest_opts *)config)->content == RPB_CONTENT_BINARY;
}
