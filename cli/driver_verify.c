/* The verb verify: the store a run left checked against its ledger, one
 * rank's or every rank's. */
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include "backends.h"
#include "ledger.h"
#include "paths.h"
#include "powercut.h"
#include "results.h"
#include "storeloc.h"
#include "storelock.h"
#include "driver_job.h"
#include "driver_verify.h"

/* The store directory verify checks: --dir, else what result.json records
 * (resolved for an older, relative record). */
static int verify_dir(const struct cli *c, const struct rpb_result_file *rf, char *dir, size_t n,
		      char *msg, size_t mn)
{
	if (c->dir) {
		snprintf(dir, n, "%s", c->dir); /* checked by drv_check_paths */
		return 0;
	}
	return rpb_result_store_dir(rf, c->target, dir, n, msg, mn);
}

/* A result.json may name any directory: an existing embedded store
 * directory is reopened only when it carries rpbench's mark (a missing one
 * is left to the backend, which then finds no store). */
static bool store_is_ours(const char *dir)
{
	char mark[PATH_MAX];
	struct stat sb;
	if (lstat(dir, &sb) != 0)
		return true;
	return rpb_path_join(mark, sizeof mark, dir, RPB_DIR_MARK) == 0 && lstat(mark, &sb) == 0 &&
	       S_ISREG(sb.st_mode);
}

/* A live ledger read as it reached the disk (a power cut): what it cannot
 * prove, in one line. */
static void print_unprovable(const struct rpb_verify_result *res, const struct rpb_ledger *l)
{
	uint64_t durable = 0, untrusted = 0;
	for (unsigned t = 0; t < l->nworkers; t++) {
		durable += l->workers[t].durable;
		untrusted += l->workers[t].issued - l->workers[t].trusted;
	}
	char when[32] = "before the first operation";
	if (l->durable_ms)
		rpb_iso_time(when, sizeof when, l->durable_ms);
	printf("note: the ledger on disk was last made durable at op %" PRIu64 " (%s)", durable, when);
	if (untrusted)
		printf(" and %s: %" PRIu64 " later operations it records cannot be checked",
		       l->torn ? l->torn : "its later part is not whole", untrusted);
	if (res->unprovable)
		printf("%s %" PRIu64 " operations it does not record left records in the store, "
		       "accepted whole but not checked", untrusted ? ", and" : ";", res->unprovable);
	if (!untrusted && !res->unprovable)
		printf("; operations after what it records, if any, cannot be checked");
	printf("\n");
}

static void print_verified(const struct rpb_verify_result *res, const struct rpb_ledger *l)
{
	printf("verified %" PRIu64 " objects: %" PRIu64 " missing, %" PRIu64 " corrupt, %" PRIu64
	       " unexpected",
	       res->checked, res->missing, res->corrupt, res->unexpected);
	if (res->in_doubt)
		printf(" (%" PRIu64 " in doubt: %s, accepted whole or absent)", res->in_doubt,
		       l->interrupted ? "failed inside commit or running when the run died"
				      : "failed inside commit");
	if (res->left)
		printf("; %" PRIu64 " records left by %s (expected)", res->left, res->left_by);
	printf("\n");
	if (res->note[0])
		printf("%s\n", res->note);
	if (l->interrupted)
		printf("note: the run did not finish; checked against its live ledger (%s)\n",
		       RPB_LEDGER_FILE);
	if (l->stale)
		print_unprovable(res, l);
}

int drv_cmd_verify(const struct rpb_backend *b, const struct cli *c, const char *prog)
{
	if (!c->target) {
		fprintf(stderr, "%s: verify needs the results directory of a run; see %s --help\n", prog, prog);
		return RPB_EXIT_USAGE;
	}
	int rc = drv_check_location_flags(b, c, prog);
	if (rc || (rc = drv_check_paths(c, false, prog)))
		return rc;
	char msg[1024], dir[PATH_MAX] = "";
	if (rpb_path_check(c->target, "the results directory", RPB_PATH_ROOM, msg, sizeof msg) != 0) {
		fprintf(stderr, "%s: %s\n", prog, msg);
		return RPB_EXIT_USAGE;
	}
	struct rpb_result_file rf;
	if (rpb_result_read(&rf, c->target, msg, sizeof msg) != 0) {
		fprintf(stderr, "%s: %s\n", prog, msg);
		rc = rf.lost ? RPB_EXIT_ENV : RPB_EXIT_USAGE; /* a power cut, not bad input */
		rpb_result_free(&rf);
		return rc;
	}
	rc = RPB_EXIT_ENV;
	struct rpb_verify_result res = {0};
	bool counted = false;
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	int lock_fd = -1;
	const struct rpb_pattern *pat = rf.job.pattern;
	if (!rpb_backend_find(rf.backend)) {
		fprintf(stderr, "%s: %s/result.json: manifest.backend names no backend of this build; "
			"give the results directory of an rpbench run\n", prog, c->target);
		rc = RPB_EXIT_USAGE;
		goto out;
	}
	if (strcmp(rf.backend, b->name) != 0) {
		fprintf(stderr, "%s: %s is a result of a %s run; use rpbench-%s verify\n", prog, c->target,
			rf.backend, rf.backend);
		rc = RPB_EXIT_USAGE;
		goto out;
	}
	const char *dsn = c->dsn ? c->dsn : rf.dsn;
	if (!c->dsn && dsn && strstr(dsn, "***")) {
		fprintf(stderr, "%s: the run's DSN had a password, which results never keep; pass --dsn\n",
			prog);
		rc = RPB_EXIT_USAGE;
		goto out;
	}
	if (b->flags & RPB_BF_STORES_NOTHING) {
		fprintf(stderr, "%s: the null backend keeps nothing; verify needs a real backend\n", prog);
		goto out;
	}
	if (!(b->flags & RPB_BF_SERVER)) {
		if (verify_dir(c, &rf, dir, sizeof dir, msg, sizeof msg) != 0) {
			fprintf(stderr, "%s: %s\n", prog, msg);
			rc = RPB_EXIT_USAGE;
			goto out;
		}
		/* A result.json may name any directory: one that exists is reopened
		 * only when it carries rpbench's mark. */
		if (!store_is_ours(dir)) {
			if (c->dir)
				fprintf(stderr, "%s: --dir %s is not a store rpbench made (no %s mark), so "
					"verify leaves it alone; give the store directory of an rpbench run\n",
					prog, dir, RPB_DIR_MARK);
			else
				fprintf(stderr, "%s: %s/result.json: manifest.store.dir %s is not a store "
					"rpbench made (no %s mark), so verify leaves it alone; give the results "
					"directory of an rpbench run or --dir\n", prog, c->target, dir, RPB_DIR_MARK);
			goto out;
		}
		char mark[PATH_MAX];
		if (rpb_path_join(mark, sizeof mark, dir, RPB_DIR_MARK) == 0 && access(mark, F_OK) == 0 &&
		    (lock_fd = rpb_storelock_take(dir, RPB_LOCK_VERIFY, msg, sizeof msg)) < 0) {
			fprintf(stderr, "%s: %s\n", prog, msg);
			goto out;
		}
	}
	struct rpb_store_cfg cfg;
	drv_store_cfg(&cfg, b, &rf.job, *dir ? dir : NULL, dsn && *dsn ? dsn : NULL,
		      c->schema ? c->schema : rf.name);
	cfg.primary_only = true; /* the store of record, not a replica's copy */
	cfg.dsn_untrusted = !c->dsn && dsn && *dsn; /* result.json named a server */
	cfg.lock = RPB_LOCK_VERIFY;
	if (b->open(&cfg, &st, &err) != RPB_OK) {
		if (err.status == RPB_CONFLICT) /* the store's lock: a run is writing it */
			fprintf(stderr, "%s: %s\n", prog, err.msg);
		else
			fprintf(stderr, "%s: cannot reopen the store of %s: %s\n", prog, c->target, err.msg);
		goto out;
	}
	rf.ledger.store_dir = *dir ? dir : NULL;
	rf.ledger.results_dir = c->target;
	if (!pat->verify) {
		fprintf(stderr, "%s: the %s pattern has no verify\n", prog, pat->name);
		goto out;
	}
	if (rf.ledger.stale && !pat->verify_stale) {
		fprintf(stderr, "%s: %s/%s was read from a file system mounted again since the run (a "
			"power cut or a crash), so the store may hold operations it does not record, and "
			"the %s pattern's verify cannot tell which; keep its results off the file system "
			"whose power is cut\n", prog, c->target, RPB_LEDGER_FILE, pat->name);
		goto out;
	}
	if (pat->verify(b, st, &rf.job, &rf.ledger, &res, &err) != RPB_OK) {
		if (res.damaged)
			fprintf(stderr, "%s: %s/%s: %s; give the results directory of an rpbench run\n",
				prog, c->target,
				res.damaged_in          ? res.damaged_in
				: rf.ledger.interrupted ? RPB_LEDGER_FILE
							: "result.json",
				err.msg);
		else
			fprintf(stderr, "%s: verify could not run: %s\n", prog, err.msg);
		rc = res.damaged ? RPB_EXIT_USAGE : RPB_EXIT_ENV;
		goto out;
	}
	print_verified(&res, &rf.ledger);
	if (res.missing || res.corrupt || res.unexpected) {
		printf("first problem: %s\n", res.first_problem);
		rc = RPB_EXIT_VERIFY;
	} else
		rc = RPB_EXIT_OK;
	counted = true;
out:
	/* After bench/quota-run's power cut: the cut and what verify found, in
	 * result.json. */
	if (getenv(RPB_POWER_CUT_ENV) && rf.root &&
	    rpb_power_cut_record(c->target, getenv(RPB_POWER_CUT_ENV), rc, counted ? &res : NULL,
				 &rf.ledger, msg, sizeof msg) != 0)
		fprintf(stderr, "%s: %s\n", prog, msg);
	b->close(st);
	if (lock_fd >= 0)
		close(lock_fd);
	rpb_result_free(&rf);
	return rc;
}

/* A run of several ranks (docs/distributed.md) keeps each rank's ledger in
 * OUT/rank-N: verify checks every rank's store against its own ledger, in
 * rank order, and answers with the worst outcome. No MPI needed. */
int drv_verify_ranks(const struct rpb_backend *b, const struct cli *c, const char *prog)
{
	char path[PATH_MAX];
	struct stat sb;
	if (rpb_path_join(path, sizeof path, c->target, "rank-0") != 0 || stat(path, &sb) != 0 ||
	    !S_ISDIR(sb.st_mode) || c->dir)
		return drv_cmd_verify(b, c, prog);
	int worst = RPB_EXIT_OK;
	for (int r = 0;; r++) {
		char name[32];
		snprintf(name, sizeof name, "rank-%d", r);
		if (rpb_path_join(path, sizeof path, c->target, name) != 0 || stat(path, &sb) != 0)
			break;
		struct cli one = *c;
		one.target = path;
		printf("rank %d: %s\n", r, path);
		fflush(stdout);
		int rc = drv_cmd_verify(b, &one, prog);
		/* The worst: a discrepancy, then bad input, then the environment. */
		if (rc == RPB_EXIT_VERIFY || (worst != RPB_EXIT_VERIFY && rc > worst))
			worst = rc;
	}
	return worst;
}
