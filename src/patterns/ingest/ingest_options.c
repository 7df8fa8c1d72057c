/* The [ingest] section: Fedora's "Create Binary Resource" test plan's knobs. */
#include <inttypes.h>
#include <stdio.h>

#include "ingest.h"

#define ING(f) offsetof(struct rpb_ingest_opts, f)

static const char *const content_names[] = {"ascii", "binary", NULL};
static const char *const model_names[] = {"flat", "fedora", NULL};
static const char *const digest_names[] = {"sha1", "none", NULL};
const char *const ingest_collection_names[] = {"flat", "tiny", "small", "large", "huge", NULL};
static const char *const preload_content_names[] = {"write", "sparse", NULL};
_Static_assert(sizeof(enum rpb_content) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum ingest_model) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum ingest_digest) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum ingest_collection) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum ingest_preload_content) == sizeof(unsigned), "enum size");

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
	{ .key = "model", .type = RPB_OPT_ENUM, .dflt = "flat",
	  .choices = model_names, .off = ING(model),
	  .help = "flat: content, description and membership as three keys; fedora: as Fedora 4.5 "
		  "persisted it (minted pairtree paths, node documents with child references, "
		  "a file binary store, SHA-1 fixity)" },
	{ .key = "pairtree_length", .type = RPB_OPT_COUNT, .dflt = "2",
	  .umin = 1, .umax = 4, .off = ING(pairtree_length),
	  .help = "fedora: hex digits of the minted UUID per pairtree level (Fedora: 2)" },
	{ .key = "pairtree_count", .type = RPB_OPT_COUNT, .dflt = "4",
	  .umin = 0, .umax = 8, .off = ING(pairtree_count),
	  .help = "fedora: pairtree levels (Fedora: 4); 0 = every node directly in the root "
		  "container, the flat worst case" },
	{ .key = "child_block", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = 1000000, .off = ING(child_block),
	  .help = "fedora: child references per block document (ModeShape's childCountTarget, which "
		  "Fedora 4.5 did not configure); 0 = one list inside the parent's document, as "
		  "Fedora 4.5 ran" },
	{ .key = "collection", .type = RPB_OPT_ENUM, .dflt = "flat",
	  .choices = ingest_collection_names, .off = ING(collection),
	  .help = "fedora: ModeShape's unordered collections: every container's child names in "
		  "bucket documents chosen by the first 1 (tiny), 2 (small), 3 (large) or 4 (huge) "
		  "hex digits of the SHA-1 of the name, the bucket ids in the parent; flat = no "
		  "buckets (child_block decides)" },
	{ .key = "members", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = 1000000, .off = ING(members),
	  .help = "fedora: a run on a preloaded store (run --continue) writes the resource "
		  "/members, whose document references the first N objects (Fedora's \"Many "
		  "Members\"), read by read_mix's members-get; 0 = none" },
	{ .key = "binary_threshold", .type = RPB_OPT_SIZE, .dflt = "4096",
	  .umin = 0, .umax = RPB_OPT_64M, .off = ING(binary_threshold),
	  .help = "fedora: binaries of at least this many bytes go to the file binary store "
		  "(ModeShape's minimumBinarySizeInBytes), smaller ones inline; 0 = all inline, "
		  "1 = every non-empty binary in a file" },
	{ .key = "binary_dir", .type = RPB_OPT_STRING, .dflt = "",
	  .umax = INGEST_BINARY_DIR_MAX, .off = ING(binary_dir),
	  .help = "fedora: the file binary store's directory, new, empty or marked as this "
		  "store's (.rpbench-binaries); empty = STORE/binaries, or RESULTS/binaries for a "
		  "server's store", .path = RPB_PATH_WRITTEN },
	{ .key = "digest", .type = RPB_OPT_ENUM, .dflt = "sha1",
	  .choices = digest_names, .off = ING(digest),
	  .help = "fedora: the fixity digest every binary gets (SHA-1 with OpenSSL, as Fedora); "
		  "none = no digest (the binary store then names files by XXH3-128)" },
	{ .key = "doc_cache", .type = RPB_OPT_COUNT, .dflt = "500",
	  .umin = 0, .umax = 10000000, .off = ING(doc_cache),
	  .help = "fedora, profile = fedora-4.5: node documents kept in an LRU cache in front of the "
		  "store (Infinispan's eviction max-entries in Fedora 4.5); 0 = none" },
	{ .key = "start_at", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = RPB_OPT_P62, .off = ING(start_at),
	  .help = "fedora: creates already in the store under the run tag of the preload it "
		  "continues (run --continue sets both); each thread's creates begin at object "
		  "start_at / threads" },
	{ .key = "read_mix", .type = RPB_OPT_STRING, .dflt = "",
	  .umax = INGEST_READ_MIX_MAX, .off = ING(read_mix),
	  .help = "fedora: reads measured after the creates, name:N (N after every create) or "
		  "name:N/P (N after every Pth), comma-separated: list (a container's whole child "
		  "list), list-paged (its first list_page children), fileget (a binary's "
		  "description and content), members-get (the /members resource and every node it "
		  "references: members); empty = none" },
	{ .key = "read_at", .type = RPB_OPT_STRING, .dflt = "parent",
	  .umax = INGEST_READ_AT_MAX, .off = ING(read_at),
	  .help = "fedora: the container list and list-paged read, on the path of the node the "
		  "create just made: root, level:K (K pairtree levels below the root), parent (the "
		  "container the create added to, level:pairtree_count)" },
	{ .key = "list_page", .type = RPB_OPT_COUNT, .dflt = "1000",
	  .umin = 1, .umax = 1000000, .off = ING(list_page),
	  .help = "fedora: children list-paged reads: the first list_page of the container's" },
	{ .key = "preload_content", .type = RPB_OPT_ENUM, .dflt = "write",
	  .choices = preload_content_names, .off = ING(preload_content),
	  .help = "fedora: what the verb preload writes into each binary file: write (the "
		  "content), sparse (a file of the content's size with no blocks: 10^6 objects of "
		  "fedora-test3 without 50 GB of writes; the bytes count it at its size, verify "
		  "checks its size only and counts it elided); run --continue carries it" },
	{ .key = NULL },
};

int ingest_finish(void *config, const struct rpb_job *job, const char *where, char *msg,
		  size_t n)
{
	const struct rpb_ingest_opts *o = config;
	if (o->model != INGEST_FEDORA && job->run.inject.kind == RPB_INJECT_LEAK) {
		snprintf(msg, n, "%sinject = leak needs [ingest] model = fedora (the create that "
			 "abandons its transaction is the Fedora model's); add model = fedora",
			 where);
		return -1;
	}
	if (o->model != INGEST_FEDORA && job->run.inject.kind == RPB_INJECT_PARTIAL) {
		snprintf(msg, n, "%sinject = partial needs [ingest] model = fedora (the flat model "
			 "commits a create at once); use inject = stall or lock", where);
		return -1;
	}
	if (o->size_min > o->size_max) {
		snprintf(msg, n, "%s[ingest] size_min = %" PRIu64 " exceeds size_max = %" PRIu64
			 "; make size_min < size_max, or equal for a fixed size",
			 where, o->size_min, o->size_max);
		return -1;
	}
	if (o->model == INGEST_FEDORA && o->pairtree_length * o->pairtree_count > 32) {
		snprintf(msg, n, "%s[ingest] pairtree_length x pairtree_count = %" PRIu64
			 " is more than the 32 hex digits of a UUID; lower one of them",
			 where, o->pairtree_length * o->pairtree_count);
		return -1;
	}
	if (o->model == INGEST_FEDORA && o->containers != 1) {
		snprintf(msg, n, "%s[ingest] containers = %" PRIu64 " is for the flat model; the Fedora "
			 "model creates in the root container through its pairtree (pairtree_count)",
			 where, o->containers);
		return -1;
	}
	if (o->collection && o->model != INGEST_FEDORA) {
		snprintf(msg, n, "%s[ingest] collection = %s is for model = fedora (ModeShape's "
			 "buckets); remove it or set model = fedora", where,
			 ingest_collection_names[o->collection]);
		return -1;
	}
	if (o->collection && o->child_block) {
		snprintf(msg, n, "%s[ingest] collection = %s and child_block = %" PRIu64 " are two "
			 "ways to split a child list; set child_block = 0 or collection = flat",
			 where, ingest_collection_names[o->collection], o->child_block);
		return -1;
	}
	if (o->members && o->model != INGEST_FEDORA) {
		snprintf(msg, n, "%s[ingest] members = %" PRIu64 " is for model = fedora (a resource "
			 "referencing repository objects); remove it or set model = fedora", where,
			 o->members);
		return -1;
	}
	if (o->start_at && o->model != INGEST_FEDORA) {
		snprintf(msg, n, "%s[ingest] start_at = %" PRIu64 " is for model = fedora (a preloaded "
			 "store); remove it or set model = fedora", where, o->start_at);
		return -1;
	}
	if (o->preload_content == INGEST_CONTENT_SPARSE && o->model != INGEST_FEDORA) {
		snprintf(msg, n, "%s[ingest] preload_content = sparse is for model = fedora (its file "
			 "binary store); remove it or set model = fedora", where);
		return -1;
	}
	if (o->start_at % job->run.threads) {
		snprintf(msg, n, "%s[ingest] start_at = %" PRIu64 " is not a multiple of [run] threads = "
			 "%" PRIu64 "; run with the preload's thread count", where, o->start_at,
			 job->run.threads);
		return -1;
	}
	return ingest_reads_finish(config, where, msg, n);
}

bool ingest_binary_payload(const void *config)
{
	return ((const struct rpb_ingest_opts *)config)->content == RPB_CONTENT_BINARY;
}
