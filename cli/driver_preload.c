/* The verb preload and run --continue (driver_preload.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver_preload.h"
#include "pattern.h"
#include "results.h"
#include "shown.h"
#include "dsn.h"

int rpb_preload_objects(const char *text, uint64_t *n, char *msg, size_t mn)
{
	char shown[RPB_SHOWN_SIZE];
	char *end = NULL;
	errno = 0;
	unsigned long long v = text && *text >= '0' && *text <= '9' ? strtoull(text, &end, 10) : 0;
	if (!text || !end || *end || errno || v == 0 || v > (UINT64_C(1) << 62)) {
		snprintf(msg, mn, "preload --objects takes a count from 1 to 2^62, not '%s'",
			 text ? rpb_text_shown(shown, sizeof shown, text) : "");
		return -1;
	}
	*n = v;
	return 0;
}

int rpb_preload_sets(struct rpb_job *job, uint64_t objects, uint64_t before, const char *given,
		     char *msg, size_t n)
{
	const struct rpb_pattern *p = job->pattern;
	char shown[RPB_SHOWN_SIZE];
	if (!p)
		return 0; /* finish says a workload needs a pattern */
	if (!p->preload) {
		snprintf(msg, n, "preload: pattern '%s' (%s) has no preload (only ingest with model = "
			 "fedora has one); %s", p->name, rpb_text_shown(shown, sizeof shown, given),
			 p->load_phase ? "fill its store with the verb load, then run"
				       : "use 'run', which builds what it needs itself (harvest loads "
					 "its corpus in its start)");
		return -1;
	}
	if (!objects) {
		snprintf(msg, n, "preload needs --objects N, the creates the store is to hold");
		return -1;
	}
	if (objects <= before) {
		snprintf(msg, n, "preload --objects %" PRIu64 " is not above the %" PRIu64 " objects "
			 "the store holds already (--continue); give the size the store is to grow to",
			 objects, before);
		return -1;
	}
	if ((objects - before) % job->run.threads) {
		snprintf(msg, n, "preload --objects %" PRIu64 "%s is not a multiple of run.threads = %"
			 PRIu64 " (each thread makes as many); give a multiple or -j 1", objects - before,
			 before ? " (beyond the store's)" : "", job->run.threads);
		return -1;
	}
	if (job->run.inject.kind != RPB_INJECT_OFF) {
		snprintf(msg, n, "preload runs no faults; remove run.inject");
		return -1;
	}
	char ops[64];
	snprintf(ops, sizeof ops, "run.ops=%" PRIu64, (objects - before) / job->run.threads);
	const char *sets[] = {ops, "run.sync=none", "run.duration=0", "run.bytes=0", "run.rate=0",
			      "run.warmup=0", "run.jtl=off", "run.txn_timeout=0", "run.on_error=stop"};
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
		if (rpb_job_set(job, sets[i], msg, n) != 0)
			return -1;
	return 0;
}

int rpb_preload_ready(struct rpb_job *job, uint64_t objects, uint64_t before, char *msg,
		      size_t n)
{
	return job->pattern->preload(job->config, job, objects, before, msg, n);
}

int rpb_preload_sync(const char *dir, char *msg, size_t n)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = fd >= 0 ? syncfs(fd) : -1;
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (rc != 0)
		snprintf(msg, n, "cannot sync the file system of %s: %s", dir, strerror(e));
	return rc;
}

int rpb_continue_read(const char *dir, const struct rpb_backend *b, char *tag,
		      const char *sets[RPB_CONTINUE_SETS], size_t *nsets, uint64_t *seed,
		      uint64_t *threads, uint64_t *before, char *msg, size_t n)
{
	static char start[96], bindir[1200], content[96];
	char shown[RPB_SHOWN_SIZE], why[1024];
	struct rpb_result_file rf;
	*nsets = 0;
	rpb_text_shown(shown, sizeof shown, dir);
	if (rpb_result_read(&rf, dir, why, sizeof why) != 0) {
		snprintf(msg, n, "--continue %s: %s", shown, why);
		rpb_result_free(&rf);
		return -1;
	}
	int rc = -1;
	const json_t *pat = json_object_get(rf.root, "pattern");
	const json_t *mark = json_object_get(pat, "preload");
	/* A run or preload that continued a store: it holds those objects too. */
	const json_t *prior = json_object_get(json_object_get(pat, "continues"), "objects_before");
	const json_t *fed = json_object_get(pat, "fedora");
	const char *bd = json_string_value(json_object_get(fed, "binary_dir"));
	const char *pc = json_string_value(json_object_get(fed, "preload_content"));
	uint64_t acked = 0;
	bool clean = !rf.ledger.interrupted;
	for (unsigned t = 0; t < rf.ledger.nworkers; t++) {
		acked += rf.ledger.workers[t].issued - rf.ledger.workers[t].nfailures;
		clean &= rf.ledger.workers[t].nfailures == 0;
	}
	if (strcmp(rf.backend, b->name) != 0)
		snprintf(msg, n, "--continue %s is a preload of %s; use rpbench-%s", shown, rf.backend,
			 rf.backend);
	else if (!json_is_object(mark) && !json_is_integer(prior))
		snprintf(msg, n, "--continue %s: its result.json has no pattern.preload; give the "
			 "results directory of a preload (or of a run that continued one)", shown);
	else if (json_is_integer(prior) && json_integer_value(prior) < 0)
		snprintf(msg, n, "--continue %s: its pattern.continues.objects_before is negative; "
			 "give the results directory rpbench wrote", shown);
	else if (!clean)
		snprintf(msg, n, "--continue %s: the %s did not finish every create; preload "
			 "again with --fresh", shown, json_is_object(mark) ? "preload" : "run");
	else {
		snprintf(tag, 16, "%s", rf.run_tag);
		*before = acked + (json_is_integer(prior) ? (uint64_t)json_integer_value(prior) : 0);
		snprintf(start, sizeof start, "%s.start_at=%" PRIu64, rf.job.pattern->name, *before);
		sets[(*nsets)++] = start;
		if ((b->flags & RPB_BF_SERVER) && bd && *bd) {
			snprintf(bindir, sizeof bindir, "%s.binary_dir=%s", rf.job.pattern->name, bd);
			sets[(*nsets)++] = bindir;
		}
		/* Files without content stay so: the run that goes on accepts them. */
		if (pc && !strcmp(pc, "sparse")) {
			snprintf(content, sizeof content, "%s.preload_content=sparse",
				 rf.job.pattern->name);
			sets[(*nsets)++] = content;
		}
		*seed = rf.job.run.seed;
		*threads = rf.job.run.threads;
		rc = 0;
	}
	rpb_result_free(&rf);
	return rc;
}
