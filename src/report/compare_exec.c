/* Runs the per-backend binaries for a comparison, and the throwaway servers. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child_args.h"
#include "compare_exec.h"
#include "paths.h"

extern char **environ;

#define MAX_CHILD_ARGS 600

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught = sig;
}

void rpb_exec_catch_signals(void)
{
	/* No SA_RESTART: a blocking poll or waitpid returns EINTR at once. */
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int rpb_exec_signal(void)
{
	return caught;
}

static const struct rpb_backend_kind *known;
static const char *(*script_of)(const char *backend);

void rpb_exec_backends(const struct rpb_backend_kind *list, const char *(*server_script)(const char *))
{
	known = list;
	script_of = server_script;
}

static unsigned backend_flags(const char *backend)
{
	for (size_t i = 0; known && known[i].name; i++)
		if (strcmp(known[i].name, backend) == 0)
			return known[i].flags;
	return 0;
}

bool rpb_exec_is_backend(const char *backend)
{
	for (size_t i = 0; known && known[i].name; i++)
		if (strcmp(known[i].name, backend) == 0)
			return true;
	return false;
}

bool rpb_exec_is_server(const char *backend)
{
	return backend_flags(backend) & RPB_BF_SERVER;
}

bool rpb_exec_stores_nothing(const char *backend)
{
	return backend_flags(backend) & RPB_BF_STORES_NOTHING;
}

int rpb_exec_bindir(char *buf, size_t n, char *msg, size_t mn)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0) {
		snprintf(msg, mn, "cannot read /proc/self/exe: %s; run rpbench on Linux with /proc mounted",
			 strerror(errno));
		return -1;
	}
	exe[len] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(buf, n, "%s", exe);
	return 0;
}

/* ---- a child with its output read line by line ---- */

struct stream {
	int fd;
	char buf[8192];
	size_t len;
	FILE *echo;   /* where lines go (prefixed), or NULL */
	char last[1024]; /* the last non-empty line */
	char first[1024]; /* the first non-empty line */
};

struct child {
	pid_t pid;
	struct stream out, err;
	FILE *log;
	const char *prefix;
	bool forward; /* pass a caught signal on (a run, not the server's start or stop) */
};

static void emit(struct child *ch, struct stream *s, const char *line, size_t len)
{
	if (ch->log)
		fprintf(ch->log, "%.*s\n", (int)len, line);
	if (len)
		snprintf(s->last, sizeof s->last, "%.*s", (int)len, line);
	if (len && !s->first[0])
		snprintf(s->first, sizeof s->first, "%.*s", (int)len, line);
	if (s->echo) {
		fprintf(s->echo, "[%s] %.*s\n", ch->prefix, (int)len, line);
		fflush(s->echo);
	}
}

/* Reads what is there; false at end of file. */
static bool pump(struct child *ch, struct stream *s)
{
	ssize_t got = read(s->fd, s->buf + s->len, sizeof s->buf - s->len);
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (got <= 0) {
		if (s->len)
			emit(ch, s, s->buf, s->len);
		s->len = 0;
		return false;
	}
	s->len += (size_t)got;
	char *start = s->buf, *nl;
	while ((nl = memchr(start, '\n', s->len - (size_t)(start - s->buf)))) {
		emit(ch, s, start, (size_t)(nl - start));
		start = nl + 1;
	}
	s->len -= (size_t)(start - s->buf);
	memmove(s->buf, start, s->len);
	if (s->len == sizeof s->buf) { /* a line longer than the buffer: pass it on in parts */
		emit(ch, s, s->buf, s->len);
		s->len = 0;
	}
	return true;
}

/* Starts argv in a process group of its own, so a terminal's SIGINT reaches
 * rpbench alone, which passes it on once. */
static int spawn(struct child *ch, char *const argv[], char *msg, size_t n)
{
	int po[2], pe[2];
	if (pipe2(po, O_CLOEXEC) != 0)
		goto fail;
	if (pipe2(pe, O_CLOEXEC) != 0) {
		close(po[0]), close(po[1]);
		goto fail;
	}
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	sigset_t dflt, none;
	sigemptyset(&dflt);
	sigaddset(&dflt, SIGINT);
	sigaddset(&dflt, SIGTERM);
	sigaddset(&dflt, SIGPIPE);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&at, &dflt);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETPGROUP);
	int rc = posix_spawn(&ch->pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(po[1]);
	close(pe[1]);
	if (rc) {
		close(po[0]);
		close(pe[0]);
		snprintf(msg, n, "cannot start %s: %s", argv[0], strerror(rc));
		return -1;
	}
	ch->out.fd = po[0];
	ch->err.fd = pe[0];
	return 0;
fail:
	snprintf(msg, n, "cannot create a pipe: %s", strerror(errno));
	return -1;
}

/* Reads the child's output until it ends and returns its exit status
 * (128 + N when killed by signal N). A caught signal is passed on once. */
static int finish(struct child *ch)
{
	bool open_out = true, open_err = true;
	int forwarded = 0;
	while (open_out || open_err) {
		if (ch->forward && caught && !forwarded) {
			forwarded = caught;
			kill(ch->pid, forwarded);
		}
		struct pollfd pf[2] = {{.fd = open_out ? ch->out.fd : -1, .events = POLLIN},
				       {.fd = open_err ? ch->err.fd : -1, .events = POLLIN}};
		int r = poll(pf, 2, 500);
		if (r < 0 && errno == EINTR)
			continue; /* look at the signal flag */
		if (r < 0)
			break;
		if (pf[0].revents && !pump(ch, &ch->out))
			open_out = false;
		if (pf[1].revents && !pump(ch, &ch->err))
			open_err = false;
	}
	close(ch->out.fd);
	close(ch->err.fd);
	int status;
	while (waitpid(ch->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
		else if (ch->forward && caught && !forwarded)
			kill(ch->pid, forwarded = caught);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- the runs ---- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *rpb_exec_exit_meaning(int code)
{
	switch (code) {
	case 0: return "completed";
	case 1: return "usage or workload error";
	case 2: return "environment error";
	case 3: return "ended by a stop condition";
	case 5: return "stopped by a signal";
	default: return code > 128 ? "killed by a signal" : "failed";
	}
}

static int make_dir(const char *parent, const char *name, char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 32];
	snprintf(path, sizeof path, "%s/%s", parent, name);
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		snprintf(msg, n, "cannot create %s: %s; choose a writable --out", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Runs one child (verb run or load) of a compare run and waits; its exit
 * code, or -2 when it could not start (msg says why). */
/* One run of the plan: a backend at one profile and sync ("" when the
 * workload's), the K-th time. */
struct variant {
	const char *backend;
	char profile[40], sync[40]; /* "profile=P", "sync=S", or "" */
	unsigned k;
};

static int child_run(const struct rpb_cmp_plan *p, const char *name, const struct variant *var,
		     const char *bin, const char *verb, const char *out, const char *store,
		     const char *schema, const char *logpath, bool append_log, char *msg, size_t n)
{
	const char *argv[MAX_CHILD_ARGS];
	const char *backend = var->backend;
	unsigned k = var->k;
	size_t a = 0;
	argv[a++] = bin;
	argv[a++] = verb;
	argv[a++] = p->workload;
	/* The --set list and the DSN, or the file that holds them when one
	 * holds a secret: removed once the child has ended. */
	size_t nsets = p->nsets < (MAX_CHILD_ARGS - 20) / 2 ? p->nsets : (MAX_CHILD_ARGS - 20) / 2;
	struct rpb_child_args secrets;
	if (rpb_child_args_add(&secrets, argv, &a, p->sets, nsets,
			       rpb_servers_dsn(p->servers, backend), msg, n) != 0)
		return -2;
	if (var->profile[0]) {
		argv[a++] = "--set";
		argv[a++] = var->profile;
	}
	if (var->sync[0]) {
		argv[a++] = "--set";
		argv[a++] = var->sync;
	}
	argv[a++] = "--out";
	argv[a++] = out;
	if (rpb_exec_is_server(backend)) {
		argv[a++] = "--schema";
		argv[a++] = schema;
	} else {
		argv[a++] = "--dir";
		argv[a++] = store;
	}
	if (p->quiet)
		argv[a++] = "--quiet";
	argv[a] = NULL;

	struct child ch = {.prefix = name, .forward = true};
	ch.log = fopen(logpath, append_log ? "a" : "w");
	if (!p->quiet) {
		ch.out.echo = stdout;
		ch.err.echo = stderr;
		printf("== %s: run %u of %u: %s %s %s (results: %s)\n", name, k + 1, p->repeat,
		       strrchr(bin, '/') + 1, verb, p->workload, out);
		fflush(stdout);
	}
	double t0 = now_s();
	if (spawn(&ch, (char *const *)argv, msg, n) != 0) {
		rpb_child_args_remove(&secrets);
		if (ch.log)
			fclose(ch.log);
		return -2;
	}
	int code = finish(&ch);
	rpb_child_args_remove(&secrets);
	if (ch.log)
		fclose(ch.log);
	if (!p->quiet) {
		printf("== %s: exit %d (%s) after %.1f s\n", name, code, rpb_exec_exit_meaning(code), now_s() - t0);
		fflush(stdout);
	}
	return code;
}

static int run_one(const struct rpb_cmp_plan *p, struct rpb_cmp *c, const struct variant *var,
		   size_t index, char *msg, size_t n)
{
	const char *backend = var->backend;
	char name[64], bin[RPB_CMP_PATH + 64], out[RPB_CMP_PATH + 96], store[RPB_CMP_PATH + 96],
		logpath[RPB_CMP_PATH + 96], schema[64];
	/* backend[-profile][-sync][-K]: the matrix's axes that were asked for. */
	size_t len = (size_t)snprintf(name, sizeof name, "%s", backend);
	if (var->profile[0] && len < sizeof name)
		len += (size_t)snprintf(name + len, sizeof name - len, "-%s", strchr(var->profile, '=') + 1);
	if (var->sync[0] && len < sizeof name)
		len += (size_t)snprintf(name + len, sizeof name - len, "-%s", strchr(var->sync, '=') + 1);
	if (p->repeat > 1 && len < sizeof name)
		snprintf(name + len, sizeof name - len, "-%u", var->k + 1);
	snprintf(bin, sizeof bin, "%s/rpbench-%s", p->bindir, backend);
	snprintf(out, sizeof out, "%s/runs/%s", p->out, name);
	snprintf(store, sizeof store, "%s/stores/%s", p->out, name);
	snprintf(logpath, sizeof logpath, "%s/logs/%s.log", p->out, name);
	snprintf(schema, sizeof schema, "cmp_%d_%zu", (int)getpid(), index + 1);

	/* A two-phase workload (YCSB) loads the store first, into a results
	 * directory of its own beside the run's. */
	char loadout[RPB_CMP_PATH + 112];
	snprintf(loadout, sizeof loadout, "%s-load", out);
	for (int phase = p->load_first ? 0 : 1; phase < 2; phase++) {
		int code = child_run(p, name, var, bin, phase ? "run" : "load", phase ? out : loadout,
				     store, schema, logpath, phase == 1 && p->load_first, msg, n);
		if (code < -1)
			return -1;
		if (phase == 0 && code != 0)
			return rpb_cmp_add_missing(c, out, name, backend, code, msg, n);
		if (phase == 1) {
			char path[RPB_CMP_PATH + 128];
			snprintf(path, sizeof path, "%s/result.json", out);
			if (access(path, F_OK) != 0)
				return rpb_cmp_add_missing(c, out, name, backend, code, msg, n);
			return rpb_cmp_add(c, out, name, code, msg, n);
		}
	}
	return 0;
}

int rpb_exec_runs(const struct rpb_cmp_plan *p, struct rpb_cmp *c, char *msg, size_t n)
{
	if (make_dir(p->out, "runs", msg, n) || make_dir(p->out, "stores", msg, n) ||
	    make_dir(p->out, "logs", msg, n))
		return -1;
	size_t index = 0;
	size_t np = p->nprofiles ? p->nprofiles : 1, ns = p->nsyncs ? p->nsyncs : 1;
	for (unsigned k = 0; k < p->repeat; k++)
		for (size_t b = 0; b < p->nbackends; b++)
			for (size_t i = 0; i < np; i++)
				for (size_t j = 0; j < ns; j++, index++) {
					struct variant var = {.backend = p->backends[b], .k = k};
					if (p->nprofiles)
						snprintf(var.profile, sizeof var.profile, "profile=%s",
							 p->profiles[i]);
					if (p->nsyncs)
						snprintf(var.sync, sizeof var.sync, "sync=%s", p->syncs[j]);
					if (caught)
						return 0;
					if (run_one(p, c, &var, index, msg, n) != 0)
						return -1;
				}
	return 0;
}

int rpb_exec_verify(const char *bindir, const char *backend, const char *dir, const char *dsn,
		    char *line, size_t ln, char *msg, size_t n)
{
	char bin[RPB_CMP_PATH + 64];
	snprintf(bin, sizeof bin, "%s/rpbench-%s", bindir, backend);
	const char *argv[8];
	size_t a = 0;
	argv[a++] = bin;
	argv[a++] = "verify";
	argv[a++] = dir;
	struct rpb_child_args secrets; /* a DSN with a password stays out of argv */
	if (rpb_child_args_add(&secrets, argv, &a, NULL, 0, rpb_exec_is_server(backend) ? dsn : NULL,
			       msg, n) != 0)
		return -2;
	argv[a] = NULL;
	struct child ch = {.prefix = backend, .forward = true};
	if (spawn(&ch, (char *const *)argv, msg, n) != 0) {
		rpb_child_args_remove(&secrets);
		return -2;
	}
	int code = finish(&ch);
	rpb_child_args_remove(&secrets);
	/* verify's own line: "verified N objects: ..." on stdout, or its one
	 * error line on stderr. */
	snprintf(line, ln, "%s", code == 0 || !ch.err.last[0] ? ch.out.first : ch.err.last);
	if (!line[0])
		snprintf(line, ln, "no output (exit %d)", code);
	return code;
}

/* ---- the throwaway servers ---- */

/* The override of a script: RPB_ and its file name in capitals, '-' as
 * '_' (scripts/pg-throwaway: RPB_PG_THROWAWAY). */
static void override_var(char *var, size_t n, const char *script)
{
	const char *base = strrchr(script, '/');
	size_t k = (size_t)snprintf(var, n, "RPB_%s", base ? base + 1 : script);
	for (size_t i = 4; i < k && i < n; i++)
		var[i] = (char)(var[i] >= 'a' && var[i] <= 'z' ? var[i] - 'a' + 'A'
				: (var[i] >= 'A' && var[i] <= 'Z') || (var[i] >= '0' && var[i] <= '9') ? var[i] : '_');
}

/* The override (RPB_PG_THROWAWAY for scripts/pg-throwaway), else the
 * backend's script (its SERVER_SCRIPT) in share/rpbench beside the
 * executable (installed or in the build tree, paths.h). */
const char *rpb_exec_server_script(const char *backend, char *buf, size_t n)
{
	const char *script = script_of ? script_of(backend) : NULL;
	char var[128] = "";
	if (script)
		override_var(var, sizeof var, script);
	const char *s = var[0] ? getenv(var) : NULL;
	if (s && *s)
		snprintf(buf, n, "%s", s);
	else if (!script)
		snprintf(buf, n, "(no throwaway-server script: %s is not a server backend of this build)", backend);
	else if (rpb_path_share(buf, n, script) != 0)
		snprintf(buf, n, "share/rpbench/%s (not found beside the rpbench executable)", script);
	return buf;
}

static int server_run(const char *backend, const char *cmd, const char *dir, char *out, size_t on,
		      char *msg, size_t n)
{
	char script[PATH_MAX];
	rpb_exec_server_script(backend, script, sizeof script);
	const char *base = strrchr(script, '/');
	char *argv[] = {script, (char *)cmd, (char *)dir, NULL};
	struct child ch = {.prefix = base ? base + 1 : script};
	ch.err.echo = stderr;
	if (spawn(&ch, argv, msg, n) != 0)
		return -1;
	int code = finish(&ch);
	if (out)
		snprintf(out, on, "%s", ch.out.last);
	if (code != 0) {
		snprintf(msg, n, "%s %s %s failed (exit %d)%s%s", argv[0], cmd, dir, code,
			 ch.err.last[0] ? ": " : "", ch.err.last);
		return -1;
	}
	return 0;
}

int rpb_exec_server_start(const char *backend, char *dir, size_t dn, char *dsn, size_t n, char *msg,
			  size_t mn)
{
	char tmpl[64];
	snprintf(tmpl, sizeof tmpl, "/tmp/rpb%.20s.XXXXXX", backend);
	if (!mkdtemp(tmpl)) {
		snprintf(msg, mn, "cannot create a directory under /tmp for the %s server: %s", backend,
			 strerror(errno));
		return -1;
	}
	snprintf(dir, dn, "%s", tmpl);
	dsn[0] = '\0';
	msg[0] = '\0';
	if (server_run(backend, "start", dir, dsn, n, msg, mn) != 0 || !dsn[0]) {
		char ignore[512], script[PATH_MAX];
		if (!dsn[0] && !msg[0])
			snprintf(msg, mn, "%s start printed no DSN",
				 rpb_exec_server_script(backend, script, sizeof script));
		server_run(backend, "stop", dir, NULL, 0, ignore, sizeof ignore);
		rmdir(dir); /* when start failed before marking it */
		return -1;
	}
	return 0;
}

int rpb_exec_server_stop(const char *backend, const char *dir, char *msg, size_t n)
{
	return server_run(backend, "stop", dir, NULL, 0, msg, n);
}
