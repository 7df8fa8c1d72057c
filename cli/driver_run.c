/* The verbs run, load and preload: the job, the store, the results
 * directory, the run and its results. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include "clock.h"
#include "driver_preload.h"
#include "dsn.h"
#include "ledger.h"
#include "paths.h"
#include "progress.h"
#include "results.h"
#include "storeloc.h"
#include "driver_job.h"
#include "driver_outdir.h"
#include "driver_run.h"

int drv_cmd_run(const struct rpb_backend *b, struct cli *c, const char *prog,
		const char *argv0)
{
	struct rpb_job job;
	char cont_tag[16] = "";
	uint64_t cont_seed = 0, cont_threads = 0;
	if (c->cont) {
		/* After the command line's --set: the preload's own start. */
		const char *sets[RPB_CONTINUE_SETS];
		size_t ns = 0;
		char cmsg[2048];
		if (rpb_continue_read(c->cont, b, cont_tag, sets, &ns, &cont_seed, &cont_threads,
				      &c->before, cmsg, sizeof cmsg) != 0) {
			fprintf(stderr, "%s: %s\n", prog, cmsg);
			return RPB_EXIT_USAGE;
		}
		for (size_t k = 0; k < ns && c->nsets < MAX_SETS; k++) {
			c->foreign[c->nsets] = false;
			c->sets[c->nsets++] = sets[k];
		}
	}
	int rc = drv_load_job(&job, c, prog);
	if (!rc && c->cont && (job.run.seed != cont_seed || job.run.threads != cont_threads)) {
		fprintf(stderr, "%s: --continue: the preload ran seed %" PRIu64 " on %" PRIu64
			" thread(s), this run seed %" PRIu64 " on %" PRIu64 "; run with the preload's "
			"seed and threads\n", prog, cont_seed, cont_threads, job.run.seed, job.run.threads);
		rc = RPB_EXIT_USAGE;
	}
	/* sync = native: what this store does unasked; result.json records
	 * the resolved level, so a comparison shows what really ran. */
	if (!rc && job.run.sync == RPB_SYNC_NATIVE)
		job.run.sync = (b->flags & (RPB_BF_NATIVE_UNSYNCED | RPB_BF_STORES_NOTHING))
				       ? RPB_SYNC_NONE
				       : RPB_SYNC_COMMIT;
	if (!rc && !(rc = drv_check_location_flags(b, c, prog)) && !(rc = drv_check_paths(c, true, prog)) &&
	    job.run.inject.kind == RPB_INJECT_LOCK && !(b->flags & RPB_BF_LOCKS))
		rc = drv_usage_error(prog, "inject = lock needs a backend whose writers wait for another "
				     "session's lock (sqlite, postgres); on %s use inject = stall:MS@N", b->name);
	/* Under mpirun a rank whose workload or command line fails says so,
	 * and every rank ends: none waits for it in the next collective. */
	if (!rpb_dist_agree(!rc) && !rc) {
		fprintf(stderr, "%s: another rank refused its workload or command line (its own "
			"message says why)\n", prog);
		rc = RPB_EXIT_USAGE;
	}
	/* Under mpirun every rank runs what rank 0 runs, or none runs. */
	if (!rc && rpb_dist_on())
		rc = drv_ranks_agree(b, c, &job, prog);
	if (rc) {
		rpb_job_free(&job);
		return rc;
	}
	bool embedded = !(b->flags & RPB_BF_SERVER);
	char msg[8192], out[PATH_MAX], dir[PATH_MAX], *command = NULL, *dsn_shown = NULL;
	char abs_out[PATH_MAX], abs_dir[PATH_MAX], abs_workload[PATH_MAX];
	struct rpb_runner rn = {0};
	struct rpb_live_ledger live = {.failfd = -1};
	struct rpb_store_cfg cfg;
	struct rpb_err err = {0};
	int lock_fd = -1;
	bool agreed = false; /* under mpirun: every rank is ready to run */
	char rank_schema[128];
	uint32_t tag = (uint32_t)((rpb_now_ns() ^ rpb_wall_ms() * 2654435761u) ^ ((uint64_t)getpid() << 16));
	char top_out[PATH_MAX];
	char own_dir[PATH_MAX];
	struct made_dirs made = {.n = 0}, made_store = {.n = 0};
	bool prepared = false, ran = false, own_store = false;
	drv_out_name(out, sizeof out, c, &job, b);
	if (rpb_dist_on()) {
		/* One load node per rank: rank 0's results directory, each rank's
		 * files in OUT/rank-N, its store in DIR/rank-N, its own seed and
		 * run tag, so no two ranks write the same key. */
		rpb_dist_bcast(out, sizeof out);
		rpb_dist_bcast(&tag, sizeof tag);
		snprintf(top_out, sizeof top_out, "%s", out);
		char rank_dir[32];
		snprintf(rank_dir, sizeof rank_dir, "rank-%d", rpb_dist_rank());
		rpb_path_join(out, sizeof out, top_out, rank_dir);
		if (c->dir)
			rpb_path_join(dir, sizeof dir, c->dir, rank_dir);
		job.run.seed += (uint64_t)rpb_dist_rank();
	}
	if (!c->out && rpb_path_check(out, "the default results directory", RPB_PATH_ROOM * 2, msg,
				      sizeof msg) != 0) {
		rc = RPB_EXIT_ENV;
		goto fail;
	}
	if (c->dir && !rpb_dist_on())
		snprintf(dir, sizeof dir, "%s", c->dir);
	else if (!c->dir)
		rpb_path_join(dir, sizeof dir, out, "store"); /* fits: drv_check_paths left room */
	drv_absolute_or_given(out, abs_out, sizeof abs_out);
	drv_absolute_or_given(dir, abs_dir, sizeof abs_dir);
	drv_absolute_or_given(c->target, abs_workload, sizeof abs_workload);
	if ((embedded && !(b->flags & RPB_BF_STORES_NOTHING) &&
	     drv_check_nesting(abs_out, abs_dir, msg, sizeof msg) != 0) ||
	    drv_check_option_dirs(&job, abs_out, msg, sizeof msg) != 0) {
		rc = RPB_EXIT_USAGE;
		goto fail;
	}
	rc = RPB_EXIT_ENV;
	drv_make_out(out, &made);
	if ((rpb_dist_on() && rpb_dist_rank() == 0 && drv_prepare_out(top_out, msg, sizeof msg) != 0) ||
	    drv_prepare_out(out, msg, sizeof msg) != 0)
		goto fail;
	prepared = true; /* from here, every result file in out is this run's */
	if (embedded && !(b->flags & RPB_BF_STORES_NOTHING))
		drv_make_out(dir, &made_store); /* --dir elsewhere: its new directories */
	if (embedded && !(b->flags & RPB_BF_STORES_NOTHING) &&
	    rpb_storedir_claim(dir, c->fresh, b->own_files, &lock_fd, msg, sizeof msg) != 0)
		goto fail;
	own_store = lock_fd >= 0 && rpb_path_join(own_dir, sizeof own_dir, out, "store") == 0 &&
		    !strcmp(own_dir, dir);
	/* Now that they exist: what the result records. */
	drv_absolute_or_given(out, abs_out, sizeof abs_out);
	drv_absolute_or_given(dir, abs_dir, sizeof abs_dir);
	drv_store_cfg(&cfg, b, &job, embedded ? dir : NULL, c->dsn, c->schema);
	if (rpb_dist_on() && cfg.name) {
		/* One server for all ranks, a schema of its own for each. */
		snprintf(rank_schema, sizeof rank_schema, "%s_rank%d", cfg.name, rpb_dist_rank());
		cfg.name = rank_schema;
	}
	cfg.sessions = (unsigned long)job.run.threads * job.run.clients;
	cfg.create = true;
	cfg.lock = RPB_LOCK_RUN;
	if (b->open(&cfg, &rn.store, &err) != RPB_OK) {
		snprintf(msg, sizeof msg, "%s", err.msg);
		rc = err.status == RPB_INVALID && err.user_input ? RPB_EXIT_USAGE : RPB_EXIT_ENV;
		goto fail;
	}
	if (rpb_store_claim(b, rn.store, c->fresh, msg, sizeof msg) != 0)
		goto fail;

	rn.backend = b;
	rn.job = &job;
	rn.pattern = job.pattern;
	rn.out_dir = out;
	rn.store_dir = embedded ? abs_dir : NULL;
	rn.quiet = c->quiet;
	snprintf(rn.run_tag, sizeof rn.run_tag, "%08" PRIx32, tag + (uint32_t)rpb_dist_rank());
	if (cont_tag[0]) /* the preload's keys, which this run goes on adding to */
		snprintf(rn.run_tag, sizeof rn.run_tag, "%s", cont_tag);
	rn.summary_only = c->quiet;
	if (rpb_dist_rank() > 0)
		rn.quiet = true, rn.summary_only = false; /* rank 0 speaks for the run */
	/* Several ranks: each writes its own samples.jtl, with the Hostname. */
	char host[256] = "";
	rn.rank = (unsigned)rpb_dist_rank();
	if (rpb_dist_on() && gethostname(host, sizeof host - 1) == 0)
		rn.jtl_host = host;
	char jtl_head[512];
	snprintf(jtl_head, sizeof jtl_head, "%s%s",
		 rn.jtl_host ? rpb_jtl_header_host(job.run.jtl_columns)
			     : rpb_jtl_header(job.run.jtl_columns),
		 job.run.jtl_us ? RPB_JTL_US_COLUMN : "");
	if (job.run.jtl && !(rn.jtl = drv_open_output(out, "samples.jtl", jtl_head))) {
		snprintf(msg, sizeof msg, "cannot write %s/samples.jtl: %s", out, strerror(errno));
		goto fail;
	}
	if (!(dsn_shown = rpb_dsn_redacted(c->dsn)) || !(command = drv_recorded_command(c, argv0))) {
		snprintf(msg, sizeof msg, "out of memory recording the command line");
		goto fail;
	}
	/* What the marks of directories the store owns (a binary_dir) name. */
	char store_id[PATH_MAX + 512];
	if (embedded)
		snprintf(store_id, sizeof store_id, "%s", abs_dir);
	else
		snprintf(store_id, sizeof store_id, "schema %s at %.*s", cfg.name ? cfg.name : "",
			 PATH_MAX, *dsn_shown ? dsn_shown : "(PG* environment)");
	rn.store_id = store_id;
	/* When stdout is the pattern's own (YCSB's exporter), the lines for
	 * people at the end go to stderr, and none are printed here: a start
	 * that then fails still says one line. */
	rn.say = rn.pattern->stdout_output ? stderr : stdout;
	if (!rn.quiet && !rn.pattern->stdout_output) {
		printf("rpbench %s: %s on %s (%s), profile = %s, sync = %s, %" PRIu64 " thread(s) x %" PRIu64
		       " client(s), seed %" PRIu64 "\n",
		       RPB_VERSION, rn.pattern->name, b->name, b->version(),
		       rpb_profile_names[job.run.profile],
		       job.run.sync == RPB_SYNC_COMMIT ? "commit" : "none", job.run.threads,
		       job.run.clients, job.run.seed);
		if (!embedded)
			printf("store: schema %s at %s\n", cfg.name, *dsn_shown ? dsn_shown : "(PG* environment)");
		else
			printf("store: %s\n", abs_dir);
		char until[256];
		rpb_run_until(until, sizeof until, &job.run);
		printf("%s; results: %s\n", until, abs_out);
		if (rpb_dist_on())
			printf("load nodes: %d ranks, each with its own threads, store and results in "
			       "rank-N; merged lines below, merged results in %s\n",
			       rpb_dist_size(), top_out);
		rn.quiet = rpb_stdout_lost();
	}
	struct rpb_quota quota;
	char warn[256];
	if (!rpb_quota_env(&quota, warn, sizeof warn))
		fprintf(stderr, "%s: %s\n", prog, warn);
	struct rpb_store_where where = {
		.dir = embedded ? abs_dir : NULL,
		.dsn = embedded ? NULL : dsn_shown,
		.name = cfg.name,
		.command = command,
		.out = abs_out,
		.workload = abs_workload,
		.quota = &quota,
	};
	/* Before the first operation: what verify needs if the run dies. */
	rn.wall_start_ms = rpb_wall_ms();
	if (rpb_live_ledger_open(&live, out, rpb_job_workers(&job), msg, sizeof msg) != 0 ||
	    rpb_results_begin(&rn, &where, msg, sizeof msg) != 0)
		goto fail;
	rn.live = &live;
	agreed = true;
	if (!rpb_dist_agree(true)) {
		snprintf(msg, sizeof msg, "another rank could not start (its own message says why), "
			 "so no rank ran");
		goto fail;
	}
	if (rpb_run(&rn, &err) != RPB_OK) { /* before the first operation */
		snprintf(msg, sizeof msg, "%s", err.msg);
		goto fail;
	}
	ran = true;
	/* Several ranks: rank 0 prints the merged result, not its own. */
	bool quiet = rn.quiet, summary_only = rn.summary_only;
	rn.quiet |= rpb_dist_on();
	rn.summary_only &= !rpb_dist_on();
	bool written = rpb_results_write(&rn, &where, msg, sizeof msg) == 0;
	rn.quiet = quiet;
	rn.summary_only = summary_only;
	char merge_msg[1024];
	if (rpb_dist_merge(&rn, written, top_out, merge_msg, sizeof merge_msg) != 0)
		fprintf(stderr, "%s: %s\n", prog, merge_msg);
	if (!written)
		goto fail;
	rc = (int)rpb_exit_code(&rn);
	goto done;
fail:
	fprintf(stderr, "%s: %s\n", prog, msg);
	if (!agreed)
		rpb_dist_agree(false);
done:
	if (rn.jtl)
		fclose(rn.jtl);
	rpb_runner_free(&rn);
	/* The pattern's files, closed now, reach the disk too. */
	if (ran && job.pattern)
		rpb_results_sync_files(out, job.pattern->files);
	rpb_live_ledger_close(&live);
	b->close(rn.store);
	/* A preload's one sync, once the store is closed (its binary store's
	 * is the pattern's, at its end). */
	if (c->preload && ran && embedded && !(b->flags & RPB_BF_STORES_NOTHING) &&
	    rpb_preload_sync(dir, msg, sizeof msg) != 0) {
		fprintf(stderr, "%s: %s\n", prog, msg);
		rc = rc ? rc : RPB_EXIT_ENV;
	}
	/* A start that failed leaves nothing behind: nothing ran, so there is
	 * nothing for verify or a report to read (samples.jtl, the ledger or
	 * result.json may have been written before the failure). */
	if (prepared && !ran)
		drv_remove_result_files(out);
	if (!ran) { /* the store's directories first: they may lie inside out */
		drv_unmake_out(&made_store, dir, lock_fd >= 0 && made_store.n &&
					      made_store.end[made_store.n - 1] == strlen(made_store.path));
		drv_unmake_out(&made, dir, own_store);
	}
	if (lock_fd >= 0)
		close(lock_fd); /* after the store: nobody may empty it while it is open */
	free(command);
	free(dsn_shown);
	rpb_job_free(&job);
	return rc;
}
