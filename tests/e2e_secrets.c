/* No password leaves the process: every spelling of a connection string
 * with a secret, fed to the real binaries (postgres.read_dsn to SQLite runs,
 * which record it without connecting; --dsn to runs and verify against the
 * test server, which trusts every connection and never asks for the
 * password; compare), in every option spelling getopt accepts. The secret
 * must appear on neither output stream and in no file the run leaves:
 * results, logs, stores, compare's tables and report. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dsn.h"
#include "e2e_util.h"

/* A spelling and the texts that must never show (the secret as given, and
 * as libpq reads it). */
struct spelling {
	const char *text;
	const char *secret[2];
};

/* Connection strings to a read replica that no SQLite run connects to. */
static const struct spelling replica_dsns[] = {
	{"host=replica password=hunter2", {"hunter2"}},
	{"password=hunter2 host=replica", {"hunter2"}},
	{"host=replica\npassword=hunter2", {"hunter2"}},
	{"host=replica\tpassword=hunter2", {"hunter2"}},
	{"host=replica password = hunter2", {"hunter2"}},
	{"host=replica password='hunter2'", {"hunter2"}},
	{"host=replica password='hun ter2'", {"hun ter2"}},
	{"host=replica password='hun\\'ter2'", {"hun\\'ter2", "hun'ter2"}},
	{"host=replica password=hun\\ ter2", {"hun\\ ter2", "hun ter2"}},
	{"host=replica sslpassword=hunter2", {"hunter2"}},
	{"host=replica  password=hunter2  ", {"hunter2"}},
	{"postgresql://reader:hunter2@replica/rpbench", {"hunter2"}},
	{"postgres://reader:hunter2@replica:5433/rpbench", {"hunter2"}},
	{"postgresql://reader:hun%74er2@replica/rpbench", {"hun%74er2", "hunter2"}},
	{"postgresql://reader:hunter2@r1:5432,r2:5433/rpbench", {"hunter2"}},
	{"postgresql://replica/rpbench?password=hunter2", {"hunter2"}},
	{"postgresql://replica/rpbench?user=reader&password=hunter2&sslmode=disable", {"hunter2"}},
	{"postgresql://replica/rpbench?pass%77ord=hunter2", {"hunter2"}},
	{"postgresql://replica/rpbench?sslpassword=hunter2", {"hunter2"}},
	/* libpq cannot parse these: shown as *** whole. */
	{"host=replica passwordhunter2", {"hunter2"}},
	{"host=replica password='hunter2", {"hunter2"}},
	{"host=replica PASSWORD=hunter2", {"hunter2"}},
	{"postgresql://reader:hunter2@replica/rpbench?x=%zz", {"hunter2"}},
};
#define NREPLICA (sizeof replica_dsns / sizeof replica_dsns[0])

/* Every option spelling getopt_long accepts for --set, and the workload. */
static const char *const set_forms[] = {"--set", "--se", "--set=", "--se=", "workload"};

/* Neither stream nor any file under the test directory but the inputs (an
 * e2e_tree listing, or NULL) holds a secret. */
static void assert_clean(const struct e2e_env *e, const struct e2e_proc *p,
			 const char *const secret[2], const char *inputs)
{
	for (int i = 0; i < 2 && secret[i]; i++) {
		cr_assert_null(strstr(p->out, secret[i]), "`%s`: \"%s\" on stdout:\n%s", p->cmd,
			       secret[i], p->out);
		cr_assert_null(strstr(p->err, secret[i]), "`%s`: \"%s\" on stderr:\n%s", p->cmd,
			       secret[i], p->err);
		e2e_assert_no_secret(p->cmd, e->tmp, inputs, secret[i]);
	}
}

#ifdef RPB_HAVE_SQLITE
/* The run records postgres.read_dsn (manifest.options, the command line)
 * though SQLite never uses it. */
Test(e2e_secrets, read_dsn_every_spelling, .fini = e2e_cleanup)
{
	for (size_t i = 0; i < NREPLICA; i++)
		for (size_t f = 0; f < sizeof set_forms / sizeof set_forms[0]; f++) {
			const struct spelling *sp = &replica_dsns[i];
			const char *form = set_forms[f];
			bool workload = !strcmp(form, "workload");
			if (workload && strchr(sp->text, '\n'))
				continue; /* a line break ends an INI value */
			struct e2e_env e;
			e2e_env_init(&e, "sqlite");
			char *assign = NULL, wl[E2E_PATH];
			struct e2e_args a = {0};
			e2e_args_add(&a, e.bin, "run", NULL);
			if (workload) {
				char *text = NULL;
				cr_assert_geq(asprintf(&text, "[run]\nthreads = 1\nops = 5\nsync = none\n"
							      "[ingest]\nprobe_every = 0\n[postgres]\n"
							      "read_dsn = %s\n", sp->text), 0);
				e2e_write_file(e2e_path(&e, wl, "w.ini"), text);
				free(text);
				e2e_args_add(&a, wl, NULL);
			} else {
				e2e_args_add(&a, E2E_CI_INGEST, "--set", "ops=5", "--set", "probe_every=0",
					     NULL);
				bool attached = form[strlen(form) - 1] == '=';
				cr_assert_geq(asprintf(&assign, "%spostgres.read_dsn=%s", attached ? form : "",
						       sp->text), 0);
				if (!attached)
					e2e_args_add(&a, form, NULL);
				e2e_args_add(&a, assign, NULL);
			}
			e2e_args_add(&a, "--out", e.out, NULL);
			struct e2e_proc p;
			e2e_exec(&p, e.cap, &a);
			e2e_assert_code(&p, 0);
			/* The workload file is an input: it holds the secret. */
			assert_clean(&e, &p, sp->secret, workload ? "w.ini file\n" : NULL);
			free(assign);
			e2e_proc_free(&p);
			e2e_env_fini(&e);
		}
}
#endif

#ifdef RPB_HAVE_POSTGRES
/* The test server's socket directory, for URIs (host=DIR in its DSN). */
static void pg_host(char *buf, size_t n)
{
	const char *h = strstr(rpbt_pg_dsn(), "host=");
	cr_assert_not_null(h, "the test DSN names no host: %s", rpbt_pg_dsn());
	snprintf(buf, n, "%.*s", (int)strcspn(h + 5, " "), h + 5);
}

/* Every option spelling getopt_long accepts for --dsn. */
static const char *const dsn_forms[] = {"--dsn", "--ds", "--dsn=", "--ds="};

Test(e2e_secrets, dsn_every_spelling, .fini = e2e_cleanup)
{
	char host[256];
	pg_host(host, sizeof host);
	char *dsns[16];
	size_t n = 0;
	const char *const tails[] = {" password=hunter2", "\npassword=hunter2", "\tpassword=hunter2",
				     " password = 'hunter2'", " sslpassword=hunter2"};
	for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++)
		cr_assert_geq(asprintf(&dsns[n++], "%s%s", rpbt_pg_dsn(), tails[i]), 0);
	const char *const uris[] = {"postgresql://postgres:hunter2@/rpbench?host=%s",
				    "postgres://postgres:hunter2@/rpbench?host=%s",
				    "postgresql://postgres:hun%%74er2@/rpbench?host=%s",
				    "postgresql:///rpbench?user=postgres&password=hunter2&host=%s",
				    "postgresql:///rpbench?user=postgres&%%70assword=hunter2&host=%s"};
	for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++)
		cr_assert_geq(asprintf(&dsns[n++], uris[i], host), 0);
	const char *const secret[2] = {"hunter2", "hun%74er2"};
	for (size_t i = 0; i < n; i++) {
		const char *form = dsn_forms[i % (sizeof dsn_forms / sizeof dsn_forms[0])];
		struct e2e_env e;
		e2e_env_init(&e, "postgres");
		char *opt = NULL;
		bool attached = form[strlen(form) - 1] == '=';
		cr_assert_geq(asprintf(&opt, "%s%s", attached ? form : "", dsns[i]), 0);
		struct e2e_args a = {0};
		e2e_args_add(&a, e.bin, "run", E2E_CI_INGEST, "--set", "ops=5", "--set", "probe_every=0",
			     "--schema", e.schema, "--out", e.out, NULL);
		if (!attached)
			e2e_args_add(&a, form, NULL);
		e2e_args_add(&a, opt, NULL);
		/* A control character is refused (dsn.h): still without the password. */
		bool control = rpb_dsn_control_at(dsns[i]) >= 0;
		struct e2e_proc p;
		e2e_exec(&p, e.cap, &a);
		e2e_assert_code(&p, control ? 1 : 0);
		assert_clean(&e, &p, secret, NULL);
		e2e_proc_free(&p);
		/* verify, given the password again, prints none of it either. */
		a.n = 0;
		e2e_args_add(&a, e.bin, "verify", e.out, "--dsn", dsns[i], NULL);
		e2e_exec(&p, e.cap, &a);
		e2e_assert_code(&p, control ? 1 : 0);
		assert_clean(&e, &p, secret, NULL);
		e2e_proc_free(&p);
		free(opt);
		e2e_env_fini(&e);
	}
	for (size_t i = 0; i < n; i++)
		free(dsns[i]);
}

/* compare: its recorded command (compare.json, compare.md, report/index.html),
 * each run's results and log. */
Test(e2e_secrets, compare, .fini = e2e_cleanup)
{
	char host[256], *uri = NULL;
	pg_host(host, sizeof host);
	cr_assert_geq(asprintf(&uri, "postgresql://postgres:hun%%74er2@/rpbench?host=%s", host), 0);
	struct e2e_env e;
	e2e_env_init(&e, "postgres");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPB_BINARY_DIR "/bin/rpbench", "compare", E2E_CI_INGEST, "--backends",
		     "postgres", "--set", "ops=5", "--set", "probe_every=0", "--se",
		     "postgres.replica_wait_ms=1000", "--out", e.out, "--ds", uri, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	const char *const secret[2] = {"hunter2", "hun%74er2"};
	assert_clean(&e, &p, secret, NULL);
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/report/index.html", e.out);
	cr_assert(e2e_exists(path), "compare wrote no report");
	e2e_proc_free(&p);
	e2e_env_fini(&e);
	free(uri);
}

/* ---- while the runs run: their argv and environment ---- */

/* /proc/PID/NAME whole, NULs as spaces; NULL when the process is gone. */
static char *proc_text(const char *pid, const char *name)
{
	char path[300];
	snprintf(path, sizeof path, "/proc/%s/%s", pid, name);
	size_t len = 0;
	char *text = e2e_slurp(path, &len);
	for (size_t i = 0; text && i < len; i++)
		if (!text[i])
			text[i] = ' ';
	return text;
}

/* Every process but skip whose command line names marker (the test's
 * directory): neither its argv nor its environment holds a secret. Returns
 * how many of them are runs of rpbench-postgres. */
static int check_children(pid_t skip, const char *marker, const char *const secret[2])
{
	DIR *d = opendir("/proc");
	cr_assert_not_null(d, "cannot read /proc");
	int runs = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9' || atoi(de->d_name) == (int)skip ||
		    atoi(de->d_name) == (int)getpid())
			continue;
		char *cmd = proc_text(de->d_name, "cmdline");
		if (!cmd || !strstr(cmd, marker)) {
			free(cmd);
			continue;
		}
		char *env = proc_text(de->d_name, "environ");
		for (int i = 0; i < 2 && secret[i]; i++) {
			cr_assert_null(strstr(cmd, secret[i]), "\"%s\" in the argv of process %s: %s",
				       secret[i], de->d_name, cmd);
			cr_assert_null(env ? strstr(env, secret[i]) : NULL,
				       "\"%s\" in the environment of process %s (%s)", secret[i],
				       de->d_name, cmd);
		}
		runs += strstr(cmd, "rpbench-postgres ") != NULL && strstr(cmd, " run ") != NULL;
		free(cmd);
		free(env);
	}
	closedir(d);
	return runs;
}

/* The private directory under TMPDIR while a run runs: one, the user's
 * only, holding one file the user's only. */
static void assert_private(const char *tmpdir)
{
	DIR *d = opendir(tmpdir);
	cr_assert_not_null(d);
	int n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		char path[E2E_PATH + 300];
		struct stat sb;
		snprintf(path, sizeof path, "%s/%s", tmpdir, de->d_name);
		cr_assert_eq(stat(path, &sb), 0);
		cr_assert(S_ISDIR(sb.st_mode) && (sb.st_mode & 077) == 0,
			  "%s: mode %o, not a directory of the user's only", path, sb.st_mode);
		snprintf(path + strlen(path), sizeof path - strlen(path), "/args");
		cr_assert_eq(stat(path, &sb), 0, "%s is not there", path);
		cr_assert((sb.st_mode & 077) == 0, "%s: mode %o", path, sb.st_mode);
	}
	closedir(d);
	cr_assert_eq(n, 1, "%s holds %d entries while a run runs, not 1", tmpdir, n);
}

static long entries(const char *dir)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d);
	long n = 0;
	for (struct dirent *de; (de = readdir(d));)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Starts a (compare or sweep whose runs end only when stopped) with
 * TMPDIR in the test's directory, checks every process it starts until a
 * run of rpbench-postgres has been seen (an event, not a guess), stops it
 * with SIGTERM and checks nothing is left in TMPDIR. */
static void watch_children(const struct e2e_env *e, const struct e2e_args *a,
			   const char *const secret[2])
{
	char tmpdir[E2E_PATH];
	e2e_path(e, tmpdir, "tmpdir");
	cr_assert_eq(mkdir(tmpdir, 0700), 0);
	setenv("TMPDIR", tmpdir, 1);
	struct e2e_proc p;
	cr_assert_eq(e2e_spawn(&p, e->cap, a), 0, "cannot start %s", a->v[0]);
	unsetenv("TMPDIR");
	double deadline = e2e_now_s() + rpbt_limit_s(RPBT_CHILD_LIMIT_S);
	int seen = 0;
	while (!seen && e2e_now_s() < deadline && kill(p.pid, 0) == 0) {
		seen = check_children(p.pid, e->tmp, secret);
		if (!seen)
			usleep(20000);
	}
	cr_assert(seen, "`%s`: no run of rpbench-postgres seen", p.cmd);
	assert_private(tmpdir);
	/* Once more: the run is past its start now, the file long read. */
	check_children(p.pid, e->tmp, secret);
	kill(p.pid, SIGTERM);
	e2e_wait(&p);
	cr_assert(p.code >= 0 && p.code < 128, "`%s` ended with %d:\n%s", p.cmd, p.code, p.err);
	cr_assert_eq(entries(tmpdir), 0, "`%s` left its connection strings' file in %s", p.cmd,
		     tmpdir);
	assert_clean(e, &p, secret, NULL);
	e2e_proc_free(&p);
}

/* The DSN as a URI with a percent-encoded keyword, and postgres.read_dsn (the standby)
 * with a password of its own. */
static void secret_dsns(char **uri, char **read_dsn)
{
	char host[256];
	pg_host(host, sizeof host);
	cr_assert_geq(asprintf(uri, "postgresql://postgres@/rpbench?host=%s&%%70assword=hunter2", host),
		      0);
	cr_assert_geq(asprintf(read_dsn, "postgres.read_dsn=%s password=hunter3",
			       rpbt_pg_standby_dsn()), 0);
}

/* compare's children with the DSN given as --dsn ARG, ARG the DSN itself
 * (named: "postgres=" before it): no secret in a child's argv or
 * environment. */
static void t_compare_children(bool named)
{
	char *uri, *read_dsn, *arg;
	secret_dsns(&uri, &read_dsn);
	cr_assert_geq(asprintf(&arg, "%s%s", named ? "postgres=" : "", uri), 0);
	struct e2e_env e;
	e2e_env_init(&e, "postgres");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", E2E_CI_INGEST, "--backends", "postgres", "--set",
		     E2E_UNTIL_KILLED, "--set", "probe_every=0", "--set", read_dsn, "--quiet",
		     "--out", e.out, "--dsn", arg, NULL);
	const char *const secret[2] = {"hunter2", "hunter3"};
	watch_children(&e, &a, secret);
	e2e_env_fini(&e);
	free(arg);
	free(uri);
	free(read_dsn);
}

Test(e2e_secrets, compare_children_argv_and_environment, .fini = e2e_cleanup)
{
	t_compare_children(false);
}

/* The DSN named for its backend (--dsn postgres=DSN): every server
 * backend's DSN goes to its runs the same way, out of argv. */
Test(e2e_secrets, compare_named_dsn_out_of_children_argv, .fini = e2e_cleanup)
{
	t_compare_children(true);
}

Test(e2e_secrets, sweep_children_argv_and_environment, .fini = e2e_cleanup)
{
	char *uri, *read_dsn;
	secret_dsns(&uri, &read_dsn);
	struct e2e_env e;
	e2e_env_init(&e, "postgres");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "sweep", E2E_CI_INGEST, "--backend", "postgres", "--set",
		     "threads=1", "--set", E2E_UNTIL_KILLED, "--set", "probe_every=0", "--set",
		     read_dsn, "--quiet", "--out", e.out, "--dsn", uri, NULL);
#ifdef RPB_WITH_MPI
	e2e_args_add(&a, "--ranks", "1", NULL); /* through mpirun, which runs the rank */
#endif
	const char *const secret[2] = {"hunter2", "hunter3"};
	watch_children(&e, &a, secret);
	e2e_env_fini(&e);
	free(uri);
	free(read_dsn);
}
#endif
