/* Workload files (see workload.h). The core's [run] table is here; each
 * pattern brings its own table (pattern.h), found through the registry, so
 * the parser knows sections, not patterns. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>

#include "cmdline.h"
#include "dsn.h"
#include "help.h"
#include "jsontext.h"
#include "nearest.h"
#include "opthelp.h"
#include "pattern.h"
#include "shown.h"
#include "text.h"
#include "workload.h"

_Static_assert(sizeof(enum rpb_sync) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_jtl_columns) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_latency) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_profile) == sizeof(unsigned), "enum size");

#define DAYS31 (31.0 * 86400.0)
#define RETRY_MAX 1000
#define RUN(f) offsetof(struct rpb_run_opts, f)
#define POLICY(c, name)                                                        \
	{ .key = "on_error." name, .type = RPB_OPT_POLICY, .dflt = "stop",     \
	  .umin = 1, .umax = RETRY_MAX, .off = RUN(on_error[c]), .cls = c,     \
	  .help = "on " name " errors; overrides on_error" }

static const char *const sync_names[] = {"none", "commit", "native", "auto", NULL};
static const char *const jtl_column_names[] = {"2.13", "5", NULL};
static const char *const latency_names[] = {"auto", "intended", "op", "both", NULL};

static const struct rpb_optdef run_options[] = {
	{ .key = "threads", .type = RPB_OPT_COUNT, .dflt = "1",
	  .umin = 1, .umax = 1024, .off = RUN(threads), .help = "worker threads" },
	{ .key = "clients", .type = RPB_OPT_COUNT, .dflt = "1",
	  .umin = 1, .umax = 1024, .off = RUN(clients),
	  .help = "sessions per thread, used round-robin" },
	{ .key = "ops", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = RPB_OPT_P62, .off = RUN(ops),
	  .help = "operations per thread; 0 = no limit" },
	{ .key = "duration", .type = RPB_OPT_SECONDS, .dflt = "0",
	  .dmin = 0, .dmax = DAYS31, .off = RUN(duration),
	  .help = "run time; 0 = no limit" },
	{ .key = "bytes", .type = RPB_OPT_SIZE, .dflt = "0",
	  .umin = 0, .umax = RPB_OPT_P62, .off = RUN(bytes),
	  .help = "payload bytes in total; 0 = no limit" },
	{ .key = "warmup", .type = RPB_OPT_WARMUP, .dflt = "0",
	  .umin = 0, .umax = RPB_OPT_P62, .dmin = 0, .dmax = DAYS31, .off = RUN(warmup),
	  .help = "unmeasured start: ops per thread (100) or a time (5s)" },
	{ .key = "rate", .type = RPB_OPT_DOUBLE, .dflt = "0",
	  .dmin = 0, .dmax = 1e9, .off = RUN(rate),
	  .help = "ops/s in total (open model); 0 = closed loop" },
	{ .key = "latency", .type = RPB_OPT_ENUM, .dflt = "auto",
	  .choices = latency_names, .off = RUN(latency),
	  .help = "under rate, every sample's latency counts from its operation's intended start "
		  "(intended), its actual start (op) or both; auto: the pattern's (ycsb: op, "
		  "YCSB's measurement.interval default; the others: intended)" },
	{ .key = "interval", .type = RPB_OPT_SECONDS, .dflt = "auto", .none = "auto",
	  .dmin = 0.1, .dmax = 86400, .off = RUN(interval),
	  .help = "seconds between progress lines (and intervals.csv rows); auto: a 30th of "
		  "duration, in [0.1 s, 10 s], when the run is bound by duration, else 10 s" },
	{ .key = "seed", .type = RPB_OPT_COUNT, .dflt = "42",
	  .umin = 0, .umax = UINT64_MAX, .off = RUN(seed),
	  .help = "random seed; the same seed, the same operations" },
	{ .key = "sync", .type = RPB_OPT_ENUM, .dflt = "auto",
	  .choices = sync_names, .off = RUN(sync),
	  .help = "commit: durable when commit returns; none: maybe not; native: what the store "
		  "does unasked (leveldb none, sqlite and postgres commit), as Fedora 4.5 ran; "
		  "auto: the profile's, commit under durable, native under fedora-4.5" },
	{ .key = "profile", .type = RPB_OPT_ENUM, .dflt = "durable",
	  .choices = rpb_profile_names, .off = RUN(profile),
	  .help = "durable: each operation one atomic, durable transaction; fedora-4.5: as Fedora "
		  "4.5 persisted (ingest: one store transaction per modified document, a document "
		  "cache, the binary store's trash markers, no fsync of binaries)" },
	{ .key = "txn_timeout", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = 86400000, .off = RUN(txn_timeout),
	  .help = "ms before a transaction is interrupted; 0 = never" },
	{ .key = "inject", .type = RPB_OPT_INJECT, .dflt = "off",
	  .umin = 1, .umax = 86400000, .off = RUN(inject),
	  .help = "test fault: stall:MS@N sleeps MS ms (less once reaped) inside every Nth op's "
		  "transaction; lock:MS@N has another session hold a conflicting lock MS ms (or "
		  "until the run stops) first; partial:K@N (ingest, model = fedora, profile = "
		  "fedora-4.5) fails every Nth create after K of its documents are written; "
		  "kill:POINT@N kills the process (SIGKILL) in the "
		  "first such op at POINT: begin (before its transaction), commit (before "
		  "commit), acked (committed, not yet in the ledger), file (Fedora model: a "
		  "binary's temporary file written, not yet renamed); leak@N (ingest, model = "
		  "fedora, txn_timeout set): each thread's N-th create abandons its open "
		  "transaction, writes made, to the reaper" },
	{ .key = "slow_ms", .type = RPB_OPT_COUNT, .dflt = "60300",
	  .umin = 1, .umax = 86400000, .off = RUN(slow_ms),
	  .help = "a sample slower than this (ms) is an error" },
	{ .key = "max_slow", .type = RPB_OPT_COUNT, .dflt = "3",
	  .umin = 0, .umax = RPB_OPT_P32, .off = RUN(max_slow),
	  .help = "this many slow samples stop the run; 0 = never" },
	{ .key = "on_error", .type = RPB_OPT_POLICY, .dflt = "stop",
	  .umin = 1, .umax = RETRY_MAX, .off = RUN(on_error), .cls = -1,
	  .help = "every error class: stop the run, continue, or retry:N times (N in [1, 1000])" },
	POLICY(RPB_NOT_FOUND, "not-found"),
	POLICY(RPB_EXISTS, "exists"),
	POLICY(RPB_DISK_FULL, "disk-full"),
	POLICY(RPB_TXN_TIMEOUT, "txn-timeout"),
	POLICY(RPB_CONFLICT, "conflict"),
	POLICY(RPB_CONN_LOST, "conn-lost"),
	POLICY(RPB_IO, "io"),
	POLICY(RPB_CORRUPT, "corrupt"),
	POLICY(RPB_INVALID, "invalid"),
	POLICY(RPB_NOMEM, "nomem"),
	{ .key = "jtl", .type = RPB_OPT_BOOL, .dflt = "off",
	  .off = RUN(jtl), .help = "write every sample to samples.jtl" },
	{ .key = "jtl_columns", .type = RPB_OPT_ENUM, .dflt = "2.13",
	  .choices = jtl_column_names, .off = RUN(jtl_columns),
	  .help = "samples.jtl columns: 2.13 (JMeter 2.13 and 5.x read them) or 5 (adds sentBytes)" },
	{ .key = NULL },
};

static const char *const no_backends[] = {NULL};
static const char *const *backend_sections = no_backends;
static size_t nbackend_sections;

void rpb_job_backend_sections(const char *const *names)
{
	backend_sections = names ? names : no_backends;
	for (nbackend_sections = 0; backend_sections[nbackend_sections]; nbackend_sections++)
		;
}

enum sec_kind { SEC_UNKNOWN, SEC_RUN, SEC_PATTERN, SEC_BACKEND };

/* What a section name is; a pattern section's name is the pattern's. */
static enum sec_kind section_kind(const char *name, const struct rpb_pattern **pat)
{
	if (strcmp(name, "run") == 0)
		return SEC_RUN;
	const struct rpb_pattern *p = rpb_pattern_find(name);
	if (p) {
		if (pat)
			*pat = p;
		return SEC_PATTERN;
	}
	for (size_t i = 0; i < nbackend_sections; i++)
		if (strcmp(name, backend_sections[i]) == 0)
			return SEC_BACKEND;
	return SEC_UNKNOWN;
}

static void list_sections(char *buf, size_t n)
{
	rpb_cat(buf, n, "run");
	for (size_t i = 0; i < rpb_pattern_count(); i++)
		rpb_cat(buf, n, ", %s", rpb_pattern_at(i)->name);
	for (size_t i = 0; i < nbackend_sections; i++)
		rpb_cat(buf, n, ", %s", backend_sections[i]);
}

/* The option table of a run or pattern section. */
static const struct rpb_optdef *section_table(const char *section)
{
	if (strcmp(section, "run") == 0)
		return run_options;
	const struct rpb_pattern *p = rpb_pattern_find(section);
	return p ? p->options : NULL;
}

static const struct rpb_optdef *find_opt(const char *section, const char *key)
{
	return rpb_opt_find(section_table(section), key);
}

/* ---- applying one section/key/value ---- */

/* Offers every key of a table to nr (the per-class policies without their
 * "on_error." when only the class is compared). */
static void offer_keys(struct rpb_nearest *nr, const struct rpb_optdef *table, bool classes)
{
	for (const struct rpb_optdef *d = table; d && d->key; d++)
		if (!classes)
			rpb_nearest_offer(nr, d->key);
		else if (d->type == RPB_OPT_POLICY && d->cls >= 0)
			rpb_nearest_offer(nr, d->key + strlen("on_error."));
}

static void unknown_key(char *err, size_t n, const char *section, const char *key)
{
	const struct rpb_optdef *table = section_table(section);
	bool cls = strncmp(key, "on_error.", 9) == 0 && rpb_opt_find(table, "on_error");
	if (cls) {
		char k[RPB_SHOWN_SIZE];
		struct rpb_nearest nr;
		rpb_nearest_init(&nr, key + 9);
		offer_keys(&nr, table, true);
		rpb_shown(k, sizeof k, key + 9);
		snprintf(err, n, "unknown error class '%s' in [%s] on_error.%s", k, section, k);
		rpb_nearest_hint(err, n, &nr, "", "");
		rpb_cat(err, n, "; give one of: ");
		rpb_opt_list_classes(err, n, table);
		return;
	}
	rpb_nearest_unknown_key(err, n, section, table, key);
}

static void unknown_section(char *err, size_t n, const char *name)
{
	char shown[RPB_SHOWN_SIZE];
	struct rpb_nearest nr;
	rpb_nearest_init(&nr, name);
	rpb_nearest_offer(&nr, "run");
	for (size_t i = 0; i < rpb_pattern_count(); i++)
		rpb_nearest_offer(&nr, rpb_pattern_at(i)->name);
	for (size_t i = 0; i < nbackend_sections; i++)
		rpb_nearest_offer(&nr, backend_sections[i]);
	snprintf(err, n, "unknown section [%s]", rpb_shown(shown, sizeof shown, name));
	rpb_nearest_hint(err, n, &nr, "[", "]");
	rpb_cat(err, n, "; valid sections: ");
	list_sections(err, n);
}

static int kv_put(struct rpb_job *job, const char *section, const char *key, const char *value,
		  char *err, size_t n)
{
	struct rpb_backend_section *bs = NULL;
	for (size_t i = 0; i < job->nbackends && !bs; i++)
		if (strcmp(job->backends[i].name, section) == 0)
			bs = &job->backends[i];
	if (!bs) {
		if (job->nbackends == RPB_JOB_MAX_BACKEND_SECTIONS) {
			snprintf(err, n, "too many backend sections; give at most %d",
				 RPB_JOB_MAX_BACKEND_SECTIONS);
			return -1;
		}
		bs = &job->backends[job->nbackends++];
		memset(bs, 0, sizeof *bs);
		snprintf(bs->name, sizeof bs->name, "%s", section);
	}
	char *v = strdup(value);
	if (!v)
		goto nomem;
	for (size_t i = 0; i < bs->n; i++)
		if (strcmp(bs->kv[i].key, key) == 0) {
			free((char *)bs->kv[i].value);
			bs->kv[i].value = v;
			return 0;
		}
	char *k = strdup(key);
	struct rpb_kv *kv = realloc(bs->kv, (bs->n + 1) * sizeof *kv);
	if (!k || !kv) {
		free(k);
		free(v);
		if (kv)
			bs->kv = kv;
		goto nomem;
	}
	bs->kv = kv;
	bs->kv[bs->n++] = (struct rpb_kv){k, v};
	return 0;
nomem:
	snprintf(err, n, "out of memory storing [%s] %s", section, key);
	return -1;
}

int rpb_job_choose(struct rpb_job *job, const struct rpb_pattern *p, char *err, size_t n)
{
	if (job->pattern == p)
		return 0;
	if (job->pattern) {
		snprintf(err, n, "[%s] conflicts with [%s]; a workload has one pattern section",
			 p->name, job->pattern->name);
		return -1;
	}
	void *config = calloc(1, p->config_size ? p->config_size : 1);
	if (!config) {
		snprintf(err, n, "out of memory for the [%s] options", p->name);
		return -1;
	}
	rpb_opt_defaults(config, p->options);
	job->pattern = p;
	job->config = config;
	return 0;
}

/* Applies section.key = value; err gets "problem; fix" without a prefix. */
/* A backend section's option is recorded as it is (redacted when secret) in
 * result.json, and verify reads back only printable text: refuse what it
 * would refuse. */
static int recordable(const char *section, const char *key, const char *value, char *err, size_t n)
{
	char name[RPB_JOB_NAME_MAX + 2], shown[RPB_SHOWN_SIZE];
	int len = snprintf(name, sizeof name, "%s.%s", section, key);
	const char *what = NULL;
	if (len < 0 || (size_t)len >= sizeof name || !rpb_text_printable(name, RPB_JOB_NAME_MAX))
		what = "key";
	char *recorded = what ? NULL : rpb_value_redacted(key, strlen(key), value);
	if (!what && !recorded) {
		snprintf(err, n, "out of memory storing [%s] %s", section, rpb_shown(shown, sizeof shown, key));
		return -1;
	}
	if (!what && *recorded && !rpb_text_printable(recorded, RPB_JOB_VALUE_MAX))
		what = "value";
	free(recorded);
	if (!what)
		return 0;
	snprintf(err, n, "[%s] %s: the %s holds a control character or is too long (%s at most %d bytes); "
		 "result.json records options as text, so write plain text", section,
		 rpb_shown(shown, sizeof shown, key), what,
		 what[0] == 'k' ? "section.key" : "the value as recorded",
		 what[0] == 'k' ? RPB_JOB_NAME_MAX : RPB_JOB_VALUE_MAX);
	return -1;
}

static int apply(struct rpb_job *job, const char *section, const char *key, const char *value,
		 char *err, size_t n)
{
	const struct rpb_pattern *pat = NULL;
	void *cfg = &job->run;
	char shown[RPB_SHOWN_SIZE];
	enum sec_kind kind = section_kind(section, &pat);
	if (kind != SEC_UNKNOWN && (!rpb_utf8_valid(key) || !rpb_utf8_valid(value))) {
		/* result.json records every option as text (manifest.options). */
		snprintf(err, n, "[%s] %s: the %s is not UTF-8 text; result.json records options as "
			 "text, so write it in UTF-8", section, rpb_shown(shown, sizeof shown, key),
			 rpb_utf8_valid(key) ? "value" : "key");
		return -1;
	}
	switch (kind) {
	case SEC_UNKNOWN:
		unknown_section(err, n, section);
		return RPB_JOB_UNKNOWN;
	case SEC_BACKEND:
		return recordable(section, key, value, err, n) ? -1 : kv_put(job, section, key, value, err, n);
	case SEC_PATTERN:
		if (rpb_job_choose(job, pat, err, n))
			return -1;
		cfg = job->config;
		break;
	case SEC_RUN:
		break;
	}
	const struct rpb_optdef *d = find_opt(section, key);
	if (!d) {
		unknown_key(err, n, section, key);
		return RPB_JOB_UNKNOWN;
	}
	return rpb_opt_apply(cfg, section, d, value, err, n);
}

/* ---- the job ---- */

void rpb_job_defaults(struct rpb_job *job)
{
	memset(job, 0, sizeof *job);
	rpb_opt_defaults(&job->run, run_options);
}

void rpb_job_free(struct rpb_job *job)
{
	if (!job)
		return;
	for (size_t i = 0; i < job->nbackends; i++) {
		struct rpb_backend_section *bs = &job->backends[i];
		for (size_t j = 0; j < bs->n; j++) {
			free((char *)bs->kv[j].key);
			free((char *)bs->kv[j].value);
		}
		free(bs->kv);
		bs->kv = NULL;
		bs->n = 0;
	}
	job->nbackends = 0;
	free(job->config);
	job->config = NULL;
	job->pattern = NULL;
}

const char *rpb_job_pattern_name(const struct rpb_job *job)
{
	return job->pattern ? job->pattern->name : "none";
}

const struct rpb_backend_section *rpb_job_backend(const struct rpb_job *job, const char *backend)
{
	for (size_t i = 0; i < job->nbackends; i++)
		if (strcmp(job->backends[i].name, backend) == 0)
			return &job->backends[i];
	return NULL;
}

/* ---- loading a file ---- */

/* inih calls the handler only for key = value lines, so section headers
 * (an empty [ingest] selects a pattern; an unknown empty section is an error)
 * are seen here, in the line reader, which also counts lines. The reader
 * reads whole lines of any length (up to RPB_WORKLOAD_LINE_MAX) and hands
 * each to inih in pieces its buffer holds; inih's growing buffer (Debian
 * builds it with INI_RUNTIME_OPTIONS) asks for the rest of a line until it
 * has all of it, so both count the same lines. */
struct load_ctx {
	struct rpb_job *job;
	FILE *f;
	char *line;          /* the current physical line */
	size_t cap, len;
	size_t served;       /* bytes of it handed to inih so far */
	int lineno;
	bool after_key;      /* an indented line now would continue a value */
	bool stop;           /* an error was recorded: report EOF to inih */
	bool err_whole;      /* err is not about one line's content */
	int err_line;
	char err[1024];
	int pattern_line;    /* where this file chose its pattern */
};

static void ctx_fail(struct load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ctx_fail(struct load_ctx *c, const char *fmt, ...)
{
	if (c->stop)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof c->err, fmt, ap);
	va_end(ap);
	c->stop = true;
	c->err_line = c->lineno;
}

static void enter_section(struct load_ctx *c, const char *name)
{
	char err[1024] = "";
	const struct rpb_pattern *pat = NULL;
	switch (section_kind(name, &pat)) {
	case SEC_UNKNOWN:
		unknown_section(err, sizeof err, name);
		ctx_fail(c, "%s", err);
		return;
	case SEC_PATTERN:
		if (c->job->pattern && c->job->pattern != pat) {
			if (c->pattern_line)
				ctx_fail(c, "[%s] conflicts with [%s] on line %d; a workload has one pattern section",
					 name, rpb_job_pattern_name(c->job), c->pattern_line);
			else
				ctx_fail(c, "[%s] conflicts with pattern %s chosen before; a workload has one pattern section",
					 name, rpb_job_pattern_name(c->job));
			return;
		}
		if (!c->pattern_line)
			c->pattern_line = c->lineno;
		if (rpb_job_choose(c->job, pat, err, sizeof err))
			ctx_fail(c, "%s", err);
		return;
	case SEC_RUN:
	case SEC_BACKEND:
		return;
	}
}

/* Sees each whole line before inih does. */
static void scan_line(struct load_ctx *c, char *line)
{
	char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n' || *p == '\r' || *p == ';' || *p == '#')
		return;
	if (p > line && c->after_key) {
		/* inih would append it to the previous value (configparser style). */
		ctx_fail(c, "indented line continues the value above; remove the indentation");
		return;
	}
	if (*p != '[') {
		c->after_key = true;
		return;
	}
	char *end = strchr(p + 1, ']');
	if (!end)
		return; /* inih reports it as malformed */
	*end = '\0';
	c->after_key = false;
	enter_section(c, p + 1);
	*end = ']';
}

/* Reads the next whole line: false at the end or on a refused line. */
static bool next_line(struct load_ctx *c, int num)
{
	ssize_t got = getline(&c->line, &c->cap, c->f);
	if (got < 0)
		return false;
	c->len = (size_t)got;
	c->served = 0;
	c->lineno++;
	if (memchr(c->line, '\0', c->len)) {
		ctx_fail(c, "NUL byte at line %d; a workload file is text: remove the byte, or give "
			 "the workload file itself", c->lineno);
		c->err_whole = true;
		return false;
	}
	if (c->len > RPB_WORKLOAD_LINE_MAX) {
		ctx_fail(c, "line is longer than %d bytes; shorten it", RPB_WORKLOAD_LINE_MAX);
		return false;
	}
#ifndef RPB_INIH_RUNTIME_OPTIONS
	/* An inih without a growing buffer would cut the line. */
	if (c->len >= (size_t)num) {
		ctx_fail(c, "line is longer than %d bytes, the limit of the inih this rpbench was "
			 "built with; shorten it", num - 2);
		return false;
	}
#else
	(void)num;
#endif
	scan_line(c, c->line);
	return !c->stop;
}

static char *read_line(char *str, int num, void *stream)
{
	struct load_ctx *c = stream;
	if (c->stop || num < 2)
		return NULL;
	/* A line inih has all of: the next one. Otherwise inih asks for the
	 * rest of the line in its grown buffer. */
	if (c->served == c->len && !next_line(c, num))
		return NULL;
	size_t k = c->len - c->served;
	if (k > (size_t)num - 1)
		k = (size_t)num - 1;
	memcpy(str, c->line + c->served, k);
	str[k] = '\0';
	c->served += k;
	return str;
}

#if INI_HANDLER_LINENO
static int on_pair(void *user, const char *section, const char *name, const char *value,
		   int lineno)
{
	(void)lineno; /* the reader's count is the same */
#else
static int on_pair(void *user, const char *section, const char *name, const char *value)
{
#endif
	struct load_ctx *c = user;
	if (!name)
		return 1; /* a build that reports section starts: done by the reader */
	if (!section[0]) {
		char shown[RPB_SHOWN_SIZE];
		ctx_fail(c, "key '%s' is outside any section; put it under [run] or a pattern section",
			 rpb_shown(shown, sizeof shown, name));
		return 0;
	}
	char err[1024] = "";
	if (apply(c->job, section, name, value ? value : "", err, sizeof err)) {
		ctx_fail(c, "%s", err);
		return 0;
	}
	return 1;
}

/* What a file that is not a regular file is, for the message. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
	       : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/* Opens a workload for reading only when it is a regular file: a FIFO or a
 * device could block or never end. O_NONBLOCK keeps the open itself from
 * waiting for a FIFO's writer; fstat then looks at what was opened. */
static FILE *open_workload(const char *path, char *msg, size_t n)
{
	char shown[RPB_SHOWN_SIZE];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(msg, n, "cannot read workload %s: %s", rpb_shown(shown, sizeof shown, path),
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(msg, n, "workload %s is %s, not a file; give a workload .ini file (see "
			 "data/workloads/)", rpb_shown(shown, sizeof shown, path), file_kind(st.st_mode));
		close(fd);
		return NULL;
	}
	FILE *f = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 ? fdopen(fd, "r") : NULL;
	if (f)
		rpb_skip_bom(f);
	if (!f) {
		snprintf(msg, n, "cannot read workload %s: %s", rpb_shown(shown, sizeof shown, path),
			 strerror(errno));
		close(fd);
	}
	return f;
}

/* The pattern that reads f, when f is not INI: no line of it is a [section]
 * header. Rewinds f. */
static const struct rpb_pattern *foreign_reader(FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	bool ini = true;
	bool any = false;
	while (getline(&line, &cap, f) >= 0 && !(any && ini)) {
		const char *p = line + strspn(line, " \t\r\n");
		if (!*p || *p == ';' || *p == '#' || *p == '!')
			continue;
		any = true;
		ini = *p == '[';
	}
	ini = ini || !any;
	free(line);
	rewind(f);
	rpb_skip_bom(f);
	for (size_t i = 0; !ini && i < rpb_pattern_count(); i++)
		if (rpb_pattern_at(i)->load_foreign)
			return rpb_pattern_at(i);
	return NULL;
}

int rpb_job_load(struct rpb_job *job, const char *path, char *msg, size_t n)
{
	if (snprintf(job->source, sizeof job->source, "%s", path) >= (int)sizeof job->source) {
		snprintf(msg, n, "the workload file's path is longer than %zu bytes; choose a shorter path",
			 sizeof job->source - 1);
		return -1;
	}
	struct load_ctx c = {.job = job};
	char shown[RPB_SHOWN_SIZE];
	rpb_shown(shown, sizeof shown, path);
	if (!(c.f = open_workload(path, msg, n)))
		return -1;
	const struct rpb_pattern *foreign = foreign_reader(c.f);
	if (foreign) {
		int rc = rpb_job_choose(job, foreign, msg, n);
		if (!rc)
			rc = foreign->load_foreign(job, c.f, shown, rpb_job_set, msg, n);
		fclose(c.f);
		return rc;
	}
#ifdef RPB_INIH_RUNTIME_OPTIONS
	/* A heap buffer that grows to the longest line rpbench reads. */
	ini_use_stack = false;
	ini_allow_realloc = true;
	ini_max_line = RPB_WORKLOAD_LINE_MAX + 3;
#endif
	int ret = ini_parse_stream(read_line, &c, on_pair, &c);
	bool read_error = ferror(c.f);
	int read_errno = errno;
	fclose(c.f);
	free(c.line);
	/* inih keeps going after a malformed line, so the first problem is
	 * whichever of its line and ours comes first. */
	if (ret > 0 && (!c.stop || ret < c.err_line)) {
		snprintf(msg, n, "%s:%d: malformed line; write key = value under a [section]", shown, ret);
		return -1;
	}
	if (c.stop) {
		if (c.err_whole)
			snprintf(msg, n, "%s: %s", shown, c.err);
		else
			snprintf(msg, n, "%s:%d: %s", shown, c.err_line, c.err);
		return -1;
	}
	if (read_error || ret < 0) {
		snprintf(msg, n, "cannot read workload %s: %s", shown,
			 read_error ? strerror(read_errno) : "out of memory");
		return -1;
	}
	return 0;
}

/* ---- --set ---- */

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
	return s;
}

/* Finds the section of a bare key among [run] and the pattern sections that
 * can apply; more than one is ambiguous. */
static int resolve_bare(const struct rpb_job *job, const char *key, const char **section,
			char *err, size_t n)
{
	const char *found[2];
	size_t nfound = 0;
	if (find_opt("run", key))
		found[nfound++] = "run";
	for (size_t i = 0; i < rpb_pattern_count() && nfound < 2; i++) {
		const struct rpb_pattern *p = rpb_pattern_at(i);
		if ((!job->pattern || job->pattern == p) && rpb_opt_find(p->options, key))
			found[nfound++] = p->name;
	}
	if (nfound == 1) {
		*section = found[0];
		return 0;
	}
	if (nfound > 1) {
		snprintf(err, n, "key '%s' is in both [%s] and [%s]; write %s.%s or %s.%s", key,
			 found[0], found[1], found[0], key, found[1], key);
		return -1;
	}
	char *dot = strchr(key, '.'), shown[RPB_SHOWN_SIZE];
	if (strncmp(key, "on_error.", 9) == 0) {
		unknown_key(err, n, "run", key);
	} else if (dot) {
		char name[RPB_SHOWN_SIZE];
		snprintf(name, sizeof name, "%.*s", (int)(dot - key), key);
		unknown_section(err, n, name);
	} else {
		struct rpb_nearest nr;
		rpb_nearest_init(&nr, key);
		offer_keys(&nr, run_options, false);
		for (size_t i = 0; i < rpb_pattern_count(); i++)
			if (!job->pattern || job->pattern == rpb_pattern_at(i))
				offer_keys(&nr, rpb_pattern_at(i)->options, false);
		rpb_shown(shown, sizeof shown, key);
		snprintf(err, n, "unknown key '%s' in [run] and the pattern section", shown);
		rpb_nearest_hint(err, n, &nr, "", "");
		rpb_cat(err, n, "; write backend.%s for a backend option, see --help for the others",
			shown);
	}
	return RPB_JOB_UNKNOWN;
}

int rpb_job_set(struct rpb_job *job, const char *assignment, char *msg, size_t n)
{
	char err[1024] = "";
	char *copy = strdup(assignment);
	int rc = -1;
	if (!copy) {
		snprintf(err, sizeof err, "out of memory");
		goto out;
	}
	char *eq = strchr(copy, '=');
	if (!eq) {
		snprintf(err, sizeof err, "no '='; write section.key=value or key=value");
		goto out;
	}
	*eq = '\0';
	char *name = trim(copy), *value = trim(eq + 1);
	const char *section = NULL, *key = name;
	const char *alias = job->pattern && job->pattern->alias ? job->pattern->alias(name) : NULL;
	char aliased[64];
	if (alias && snprintf(aliased, sizeof aliased, "%s", alias) < (int)sizeof aliased)
		name = aliased; /* a pattern's own word for a [run] option (YCSB's threadcount) */
	char *dot = strchr(name, '.');
	if (dot) {
		*dot = '\0';
		if (section_kind(name, NULL) != SEC_UNKNOWN) {
			section = name;
			key = dot + 1;
		} else {
			*dot = '.';
		}
	}
	if (!section && (rc = resolve_bare(job, key, &section, err, sizeof err)) != 0)
		goto out;
	rc = -1;
	if (!*key) {
		snprintf(err, sizeof err, "no key after '%s.'; write section.key=value", section);
		goto out;
	}
	rc = apply(job, section, key, value, err, sizeof err);
out:
	if (rc) {
		char shown[RPB_SHOWN_SIZE];
		snprintf(msg, n, "--set '%s': %s", rpb_set_shown(shown, sizeof shown, assignment), err);
	}
	free(copy);
	return rc;
}

/* ---- rules across options ---- */

int rpb_job_finish(struct rpb_job *job, char *msg, size_t n)
{
	const char *src = job->source[0] ? job->source : NULL;
	char where[RPB_SHOWN_SIZE + 2] = "", shown[RPB_SHOWN_SIZE];
	if (src)
		snprintf(where, sizeof where, "%s: ", rpb_shown(shown, sizeof shown, src));
	if (!job->pattern) {
		char known[256] = "";
		for (size_t i = 0; i < rpb_pattern_count(); i++)
			rpb_cat(known, sizeof known, "%s%s", i ? ", " : "", rpb_pattern_at(i)->name);
		snprintf(msg, n, "%sno pattern: add an [ingest] section (known patterns: %s)",
			 where, known);
		return -1;
	}
	/* Narayana's CoordinatorEnvironmentBean.defaultTimeout, which Fedora
	 * 4.5 left as it is: 60 s. */
	if (job->run.profile == RPB_PROFILE_FEDORA45 && job->run.txn_timeout == 0)
		job->run.txn_timeout = RPB_FEDORA45_TXN_TIMEOUT_MS;
	/* interval = auto: enough rows for a short run's figures, no flood for
	 * a long one; a run bound by ops or bytes has no known length. */
	if (job->run.interval == RPB_OPT_SECONDS_NONE) {
		double d = job->run.duration / 30.0;
		job->run.interval = job->run.duration == 0 ? 10 : d < 0.1 ? 0.1 : d > 10 ? 10 : d;
	}
	if (job->run.sync == RPB_SYNC_AUTO)
		job->run.sync = job->run.profile == RPB_PROFILE_FEDORA45 ? RPB_SYNC_NATIVE
									 : RPB_SYNC_COMMIT;
	/* Only a request that commits its documents one at a time can stop
	 * between them. */
	if (job->run.inject.kind == RPB_INJECT_PARTIAL &&
	    (job->run.profile != RPB_PROFILE_FEDORA45 || strcmp(job->pattern->name, "ingest"))) {
		snprintf(msg, n, "%sinject = partial needs [ingest] with model = fedora and [run] "
			 "profile = fedora-4.5 (the one request that writes its documents one "
			 "transaction at a time); use inject = stall or lock", where);
		return -1;
	}
	if (job->run.inject.kind == RPB_INJECT_LEAK &&
	    (strcmp(job->pattern->name, "ingest") || job->run.txn_timeout == 0)) {
		snprintf(msg, n, "%sinject = leak needs [ingest] with model = fedora and a [run] "
			 "txn_timeout (the reaper is what ends the leaked transaction); set "
			 "txn_timeout = MS, or profile = fedora-4.5 (60000)", where);
		return -1;
	}
	if (job->config && rpb_opt_paths_absolute(job->config, job->pattern->name,
						  job->pattern->options, where, msg, n) != 0)
		return -1;
	if (job->pattern->finish)
		return job->pattern->finish(job->config, job, where, msg, n);
	return 0;
}

/* ---- JSON ---- */

/* Sets obj["section.key"] to value; -1 when out of memory. */
static int set_str(json_t *obj, const char *section, const char *key, const char *value)
{
	char *name = NULL;
	if (asprintf(&name, "%s.%s", section, key) < 0)
		return -1;
	int rc = json_object_set_new(obj, name, json_string(value));
	free(name);
	return rc;
}

/* Adds every option of one section's table; on_error only sets the
 * per-class policies, which are dumped instead. */
static int dump_section(json_t *obj, const char *section, const struct rpb_optdef *table,
			const void *cfg)
{
	for (const struct rpb_optdef *d = table; d && d->key; d++) {
		if (d->type == RPB_OPT_POLICY && d->cls < 0)
			continue;
		/* Text options are recorded whole. */
		size_t size = d->type == RPB_OPT_STRING ? d->umax + 1 : 128;
		char *v = malloc(size);
		if (!v)
			return -1;
		rpb_opt_format(v, size, cfg, d);
		int rc = set_str(obj, section, d->key, v);
		free(v);
		if (rc)
			return -1;
	}
	return 0;
}

json_t *rpb_job_to_json(const struct rpb_job *job)
{
	json_t *obj = json_object();
	if (!obj || json_object_set_new(obj, "pattern", json_string(rpb_job_pattern_name(job))) ||
	    dump_section(obj, "run", run_options, &job->run) ||
	    (job->pattern && dump_section(obj, job->pattern->name, job->pattern->options, job->config)))
		goto fail;
	for (size_t i = 0; i < job->nbackends; i++)
		for (size_t j = 0; j < job->backends[i].n; j++) {
			/* Whole, with any secret redacted (dsn.h). */
			const struct rpb_kv *kv = &job->backends[i].kv[j];
			char *shown = rpb_value_redacted(kv->key, strlen(kv->key), kv->value);
			int rc = shown ? set_str(obj, job->backends[i].name, kv->key, shown) : -1;
			free(shown);
			if (rc)
				goto fail;
		}
	return obj;
fail:
	json_decref(obj);
	return NULL;
}

int rpb_job_from_json(struct rpb_job *job, const json_t *obj, char *msg, size_t n)
{
	rpb_job_defaults(job);
	if (!json_is_object(obj)) {
		snprintf(msg, n, "job JSON: not an object; give the \"job\" object of a result file");
		return -1;
	}
	const char *name;
	json_t *val;
	/* A result file may come from anyone: its text is printed (in the
	 * messages below) only once it is known to be printable. */
	json_object_foreach((json_t *)obj, name, val) {
		const char *value = json_string_value(val);
		if (!rpb_text_printable(name, RPB_JOB_NAME_MAX) ||
		    (value && *value && !rpb_text_printable(value, RPB_JOB_VALUE_MAX))) {
			snprintf(msg, n, "job JSON: an option's name or value is not printable text");
			return -1;
		}
	}
	const char *pname = json_string_value(json_object_get(obj, "pattern"));
	if (pname && strcmp(pname, "none") != 0) {
		const struct rpb_pattern *p = rpb_pattern_find(pname);
		char err[512];
		if (!p) {
			snprintf(msg, n, "job JSON: unknown pattern '%s'", pname);
			return -1;
		}
		if (rpb_job_choose(job, p, err, sizeof err)) {
			snprintf(msg, n, "job JSON: %s", err);
			return -1;
		}
	}
	json_object_foreach((json_t *)obj, name, val) {
		if (strcmp(name, "pattern") == 0)
			continue;
		char err[1024] = "", section[64];
		const char *dot = strchr(name, '.');
		const char *value = json_string_value(val);
		if (!value)
			snprintf(err, sizeof err, "not a string; give the canonical text");
		else if (!dot || (size_t)(dot - name) >= sizeof section)
			snprintf(err, sizeof err, "not section.key");
		if (!err[0]) {
			snprintf(section, sizeof section, "%.*s", (int)(dot - name), name);
			apply(job, section, dot + 1, value, err, sizeof err);
		}
		if (err[0]) {
			char shown[RPB_SHOWN_SIZE];
			snprintf(msg, n, "job JSON '%s': %s", rpb_shown(shown, sizeof shown, name), err);
			return -1;
		}
	}
	return 0;
}

/* ---- --help ---- */

static void pattern_table(struct rpb_help *h, const struct rpb_pattern *p)
{
	char title[128];
	snprintf(title, sizeof title, "[%s]  (the section selects the %s pattern)", p->name, p->name);
	rpb_opt_help_table(h, title, p->options);
}

bool rpb_job_print_help_section(struct rpb_help *h, const char *section)
{
	if (!strcmp(section, "run")) {
		rpb_opt_help_table(h, "[run]", run_options);
		return true;
	}
	const struct rpb_pattern *p = rpb_pattern_find(section);
	if (!p || !p->options)
		return false;
	pattern_table(h, p);
	return true;
}

void rpb_job_print_help(struct rpb_help *h)
{
	/* Column widths per section: YCSB's long property names would leave no
	 * room for the meaning in one set of widths for all. */
	rpb_help_para(h, 2, "Set them in the workload file under their [section], "
		      "or with --set section.key=value (or key=value when the key is in one section "
		      "only). Sizes take k/M/G/T suffixes (powers of 1024); times take ms, s, m or h.");
	rpb_opt_help_table(h, "[run]", run_options);
	for (size_t i = 0; i < rpb_pattern_count(); i++)
		if (rpb_pattern_at(i)->options)
			pattern_table(h, rpb_pattern_at(i));
	char sections[128] = "";
	for (size_t i = 0; i < nbackend_sections; i++)
		rpb_cat(sections, sizeof sections, "%s[%s]", i ? " " : "", backend_sections[i]);
	if (h->format == RPB_HELP_MAN)
		fprintf(h->f, ".SS \"%s\"\n", sections);
	else
		fprintf(h->f, "\n%s\n", sections);
	rpb_help_para(h, 2, "Backend tuning options, passed as written to that backend, which checks "
		      "them (see the backend's options).");
}
