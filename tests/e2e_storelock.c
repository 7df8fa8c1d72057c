/* Two real processes on one store: while a run writes its store, a second
 * run (with or without --fresh) and verify are refused and nothing of the
 * store is touched; once the run is killed with SIGKILL its store is usable
 * again. Also: --fresh refuses a store whose files another program has
 * locked, and a run whose stdout pipe is closed early still completes its
 * result files with its normal exit code. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_util.h"

extern char **environ;

enum { EXIT_OK = 0, EXIT_ENV = 2, EXIT_KILLED = 128 + SIGKILL };

/* "BIN run ci-ingest --quiet --out OUT" on e's store (its default
 * OUT/store for an embedded backend), ops=10, and --fresh when asked. */
static void second_run(struct e2e_proc *p, const struct e2e_env *e, const char *out, bool fresh)
{
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, out);
	e2e_args_add(&a, "--set", "ops=10", "--set", "probe_every=0", NULL);
	if (!e->server)
		e2e_args_add(&a, "--dir", e->store, NULL);
	if (fresh)
		e2e_args_add(&a, "--fresh", NULL);
	e2e_exec(p, e->cap, &a);
}

/* That second run is refused, naming who holds the store (both needles). */
static void second_run_refused(const struct e2e_env *e, const char *out, bool fresh,
			       const char *holder, const char *how)
{
	struct e2e_proc p;
	second_run(&p, e, out, fresh);
	e2e_assert_refusal(&p, EXIT_ENV, holder, how, "; wait for it or stop it", NULL);
	e2e_proc_free(&p);
	rpbt_rmtree(out); /* the results directory it had made */
}

/* A --fresh run on e's store into out works, and so does its verify. */
static void fresh_run_works(const struct e2e_env *e, const char *out)
{
	struct e2e_proc p;
	second_run(&p, e, out, true);
	e2e_assert_code(&p, EXIT_OK);
	e2e_assert_quiet(&p);
	e2e_proc_free(&p);
	e2e_verify_clean(e, out, 20);
}

/* What the refusals say of the store. */
static void store_named(const struct e2e_env *e, char *buf, size_t n)
{
	if (e->server)
		snprintf(buf, n, "store schema \"%s\" is in use by process ", e->schema);
	else
		snprintf(buf, n, "store %s is in use by process ", e->store);
}

static void t_store_in_use(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	struct e2e_proc run;
	e2e_spawn_ingest_until(&run, &e, 50, NULL);

	char in_use[E2E_PATH + 64], by[64], out2[E2E_PATH], writing[64];
	store_named(&e, in_use, sizeof in_use);
	snprintf(by, sizeof by, "process %d (started ", (int)run.pid);
	snprintf(writing, sizeof writing, "run %d is still writing this store", (int)run.pid);
	e2e_path(&e, out2, "second");
	second_run_refused(&e, out2, true, in_use, by);
	second_run_refused(&e, out2, false, in_use, by);
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "verify", e.out, NULL);
	if (e.server)
		e2e_args_add(&a, "--dsn", e.dsn, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, EXIT_ENV, writing, "; wait for it or stop it", NULL);
	e2e_proc_free(&p);

	/* The refusals touched nothing: every object the run acknowledged
	 * before its SIGKILL is there. */
	e2e_kill_run(&run);
	e2e_assert_code(&run, EXIT_KILLED);
	e2e_proc_free(&run);
	char *text = e2e_verify(&e, e.out, EXIT_OK);
	cr_assert(strstr(text, " objects: 0 missing, 0 corrupt, 0 unexpected"), "%s", text);
	free(text);

	/* The lock died with the run: its store takes a new run, --fresh too. */
	fresh_run_works(&e, out2);
	e2e_env_fini(&e);
}

/* LevelDB's LOCK held by a program that is not rpbench: --fresh must not
 * remove it (nor anything else) from under that program. */
static void t_fresh_foreign_lock(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	e2e_run_ci(&e, "--set", "ops=10", "--set", "probe_every=0", NULL);
	char lockpath[E2E_PATH + 16], out2[E2E_PATH], by[64];
	snprintf(lockpath, sizeof lockpath, "%s/LOCK", e.store);
	/* Listed before the lock is taken: closing any descriptor of LOCK
	 * (as hashing it does) drops this process's POSIX locks on it. */
	char *before = e2e_tree(e.store);
	int fd = open(lockpath, O_RDWR);
	cr_assert_geq(fd, 0, "open %s: %s", lockpath, strerror(errno));
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	cr_assert_eq(fcntl(fd, F_SETLK, &fl), 0, "lock %s: %s", lockpath, strerror(errno));

	e2e_path(&e, out2, "second");
	snprintf(by, sizeof by, "process %d (it holds a lock on LOCK)", (int)getpid());
	second_run_refused(&e, out2, true, "is in use by", by);
	char *after = e2e_tree(e.store);
	e2e_assert_tree_kept(before, after, "the store under a foreign lock");
	free(before);
	free(after);

	close(fd); /* the lock goes with it */
	fresh_run_works(&e, out2);
	e2e_env_fini(&e);
}

/* `run ... | head -1`: the reader goes away after the first line. */
static void t_stdout_closed(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	char errpath[E2E_PATH];
	e2e_path(&e, errpath, "cap/stderr");
	/* interval = 1 s over 2.5 s: progress lines come after the pipe closed. */
	const char *argv[] = {e.bin,        "run",   E2E_CI_INGEST, "--out",      e.out,
			      "--set",      "ops=0", "--set",       "duration=2.5", "--set",
			      "interval=1", NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	posix_spawn_file_actions_addopen(&fa, 2, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	sigset_t dflt, none;
	sigemptyset(&dflt);
	sigaddset(&dflt, SIGPIPE); /* as a shell leaves it */
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&at, &dflt);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	pid_t pid;
	int rc = posix_spawn(&pid, e.bin, &fa, &at, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	cr_assert_eq(rc, 0, "cannot start %s: %s", e.bin, strerror(rc));
	close(fds[1]);
	char c;
	ssize_t got;
	while ((got = read(fds[0], &c, 1)) == 1 && c != '\n')
		;
	cr_assert_eq(got, 1, "the run printed no first line");
	close(fds[0]); /* head -1 exits */
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	char *err = e2e_slurp(errpath, NULL);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == EXIT_OK,
		  "a run whose stdout closed ended with status 0x%x, expected exit 0; stderr: %s",
		  status, err ? err : "");
	cr_assert_str_empty(err, "stderr of a run whose stdout closed: %s", err);
	free(err);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "duration");
	cr_assert_gt(e2e_jint(r, "totals.acked"), 0);
	json_decref(r);
	char summary[E2E_PATH + 16];
	snprintf(summary, sizeof summary, "%s/summary.txt", e.out);
	cr_assert(e2e_exists(summary), "the run wrote no %s", summary);
	free(e2e_verify(&e, e.out, EXIT_OK));
	e2e_env_fini(&e);
}

#define T(backend, name, body) \
	Test(storelock_##backend, name, .fini = e2e_cleanup) { body; }

#ifdef RPB_HAVE_LEVELDB
T(leveldb, in_use_refused_until_killed, t_store_in_use("leveldb"))
T(leveldb, fresh_refuses_foreign_lock, t_fresh_foreign_lock("leveldb"))
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, in_use_refused_until_killed, t_store_in_use("sqlite"))
T(sqlite, stdout_closed_run_completes, t_stdout_closed("sqlite"))
#endif
#define IN_USE(b) T(b, in_use_refused_until_killed, t_store_in_use(#b))
RPBT_EACH_SERVER(IN_USE)
