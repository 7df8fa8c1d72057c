/* Workload files: INI (parsed with inih), one [run] section of runner
 * options, exactly one pattern section ([ingest], ...) whose name selects the
 * pattern, and optional backend sections ([leveldb], [sqlite], [postgres])
 * of tuning options handed to that backend. Any option can be overridden on
 * the command line with --set section.key=value (or key=value when the key is
 * unique among [run] and the pattern section).
 *
 * Every option is described once, in an option table (options.h): the
 * core's [run] table in workload.c, each pattern's own table in its folder
 * (pattern.h). Parsing, --set, --help and the resolved dump in result.json
 * all come from those tables. */
#ifndef RPB_WORKLOAD_H
#define RPB_WORKLOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "pattern.h"
#include "store.h"

struct rpb_pattern;

/* samples.jtl's columns: those JMeter 2.13 (Debian's) and 5.x both read,
 * or 5.x's default set, which adds sentBytes (JMeter 3.1 and later). */
enum rpb_jtl_columns { RPB_JTL_2_13, RPB_JTL_5 };

#include "profile.h"
/* fedora-4.5's txn_timeout when none is given: Narayana's default. */
#define RPB_FEDORA45_TXN_TIMEOUT_MS 60000u

struct rpb_run_opts {
	uint64_t threads;      /* worker threads */
	uint64_t clients;      /* sessions per thread, used round-robin */
	uint64_t ops;          /* operations per thread; 0 = no limit */
	double duration;       /* seconds; 0 = no limit */
	uint64_t bytes;        /* payload bytes in total; 0 = no limit */
	struct rpb_warmup warmup;
	double rate;           /* operations per second in total; 0 = closed loop */
	enum rpb_latency latency; /* under rate: where each sample's latency starts */
	double interval;       /* seconds between progress lines */
	uint64_t seed;
	enum rpb_sync sync;
	enum rpb_profile profile;
	uint64_t txn_timeout;  /* ms; 0 = no deadline */
	struct rpb_inject inject;
	uint64_t slow_ms;      /* a sample slower than this counts as an error */
	uint64_t max_slow;     /* this many slow samples stop the run; 0 = never */
	struct rpb_policy on_error[RPB_STATUS_COUNT];
	bool jtl;              /* write samples.jtl */
	enum rpb_jtl_columns jtl_columns;
	bool jtl_us;           /* samples.jtl's last column: elapsed_us */
};

/* A backend section: tuning options as given, validated by the backend. */
struct rpb_backend_section {
	char name[16];
	struct rpb_kv *kv;     /* key and value strings owned by the job */
	size_t n;
};

#define RPB_JOB_MAX_BACKEND_SECTIONS 8

/* The longest option name ("section.key") and value result.json records,
 * in bytes; verify refuses a manifest with longer ones, so a run refuses
 * them first. */
#define RPB_JOB_NAME_MAX 256
#define RPB_JOB_VALUE_MAX 4096

/* The longest line of a workload file, in bytes (a longer one is refused). */
#define RPB_WORKLOAD_LINE_MAX (1 << 20)

struct rpb_job {
	char source[4096];     /* the workload file, as given */
	/* The pattern a section or key chose (NULL: none yet), and its option
	 * struct (pattern->config_size bytes, owned by the job). */
	const struct rpb_pattern *pattern;
	void *config;
	struct rpb_run_opts run;
	struct rpb_backend_section backends[RPB_JOB_MAX_BACKEND_SECTIONS];
	size_t nbackends;
};

/* The names a workload's backend sections may have (NULL-terminated; the
 * list stays the caller's). The core knows no backend: the program's backend
 * registry hands it every declared backend's name when it starts. Until then
 * no backend section is accepted. */
void rpb_job_backend_sections(const char *const *names);
/* Fills every [run] option with its default; no pattern. */
void rpb_job_defaults(struct rpb_job *job);
/* Makes p the job's pattern, its options at their defaults (a no-op when it
 * already is); refuses a second pattern. 0, or -1 with "problem; fix". */
int rpb_job_choose(struct rpb_job *job, const struct rpb_pattern *p, char *err, size_t n);
/* Reads a workload file on top of the defaults. On error returns non-zero and
 * writes one line to msg: "FILE:LINE: problem; fix", naming the section,
 * key and valid range or values. */
int rpb_job_load(struct rpb_job *job, const char *path, char *msg, size_t n);
/* Applies one "section.key=value" or "key=value" override; same errors,
 * prefixed "--set". Backend keys ("sqlite.cache_size=1M") are accepted.
 * Returns 0, RPB_JOB_UNKNOWN when no section or key of that name exists,
 * or -1 for any other problem. */
#define RPB_JOB_UNKNOWN (-2)
int rpb_job_set(struct rpb_job *job, const char *assignment, char *msg, size_t n);
/* Checks rules across options (a pattern chosen, size_min <= size_max, ...). */
int rpb_job_finish(struct rpb_job *job, char *msg, size_t n);
/* The backend section for a backend, or NULL. */
const struct rpb_backend_section *rpb_job_backend(const struct rpb_job *job,
						  const char *backend);
/* Every resolved option as "section.key": "value" in the canonical text form
 * that rpb_job_set accepts, so a job can be rebuilt from a result file. The
 * chosen pattern is "pattern"; backend sections follow as "name.key". */
json_t *rpb_job_to_json(const struct rpb_job *job);
/* Rebuilds a job from rpb_job_to_json's output. */
int rpb_job_from_json(struct rpb_job *job, const json_t *obj, char *msg, size_t n);
/* Prints every option: section, key, default, range or values, help. */
struct rpb_help;
/* One section of that help: "run" or a pattern's name; false when there is
 * no such section. */
bool rpb_job_print_help_section(struct rpb_help *h, const char *section);
void rpb_job_print_help(struct rpb_help *h);
/* The job's pattern name, or "none". */
const char *rpb_job_pattern_name(const struct rpb_job *job);
/* The workers of a run of the job: its threads, then the pattern's extra
 * workers (each with a slot in the ledger). Inline: the runner and the
 * readers of a ledger share it without depending on each other. */
static inline unsigned rpb_job_workers(const struct rpb_job *job)
{
	unsigned extra = job->pattern && job->pattern->extra_workers ? job->pattern->extra_workers(job) : 0;
	return (unsigned)job->run.threads + extra;
}
void rpb_job_free(struct rpb_job *job);

#endif
