#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e_util.h"
#include "ledger.h"

extern char **environ;

/* Appends the arguments of ap up to a NULL, each after before (if any). */
static void args_append(struct e2e_args *a, const char *before, va_list ap)
{
	for (const char *s; (s = va_arg(ap, const char *)) != NULL;) {
		cr_assert_lt(a->n + (before != NULL), E2E_MAX_ARGS, "too many arguments");
		if (before)
			a->v[a->n++] = before;
		a->v[a->n++] = s;
	}
	a->v[a->n] = NULL;
}

void e2e_args_addv(struct e2e_args *a, va_list ap)
{
	args_append(a, NULL, ap);
}

void e2e_args_setv(struct e2e_args *a, va_list ap)
{
	args_append(a, "--set", ap);
}

void e2e_args_add(struct e2e_args *a, ...)
{
	va_list ap;
	va_start(ap, a);
	args_append(a, NULL, ap);
	va_end(ap);
}

/* ---- processes ---- */

static void describe(struct e2e_proc *p, const struct e2e_args *a)
{
	size_t len = 0;
	p->cmd[0] = '\0';
	for (int i = 0; i < a->n && len + 1 < sizeof p->cmd; i++)
		len += (size_t)snprintf(p->cmd + len, sizeof p->cmd - len, "%s%s", i ? " " : "",
					a->v[i]);
}

/* Children spawned and not yet waited for, killed by e2e_cleanup. */
#define MAX_CHILDREN 8
static pid_t live_children[MAX_CHILDREN];

static void child_track(pid_t pid, pid_t was)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (live_children[i] == was) {
			live_children[i] = pid;
			return;
		}
}

int e2e_spawn(struct e2e_proc *p, const char *capdir, const struct e2e_args *a)
{
	static unsigned counter;
	memset(p, 0, sizeof *p);
	p->code = -1;
	p->pid = -1;
	describe(p, a);
	unsigned n = counter++;
	snprintf(p->outpath, sizeof p->outpath, "%s/%u.out", capdir, n);
	snprintf(p->errpath, sizeof p->errpath, "%s/%u.err", capdir, n);

	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, p->outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, p->errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	/* The test runner may ignore or block signals; the child must not. */
	sigset_t dflt, none;
	sigemptyset(&dflt);
	sigaddset(&dflt, SIGINT);
	sigaddset(&dflt, SIGTERM);
	sigaddset(&dflt, SIGPIPE);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&at, &dflt);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	int rc = posix_spawnp(&p->pid, a->v[0], &fa, &at, (char *const *)a->v, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (rc)
		p->pid = -1;
	else
		child_track(p->pid, 0);
	return rc;
}

static char *slurp_or_empty(const char *path)
{
	char *s = e2e_slurp(path, NULL);
	return s ? s : strdup("");
}

double e2e_now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void e2e_wait(struct e2e_proc *p)
{
	if (p->pid > 0) {
		struct timespec nap = {0, 5 * 1000 * 1000};
		double deadline = e2e_now_s() + rpbt_limit_s(RPBT_CHILD_LIMIT_S);
		int status = 0;
		for (;;) {
			pid_t r = waitpid(p->pid, &status, WNOHANG);
			if (r == p->pid)
				break;
			if (r < 0 && errno != EINTR) {
				status = -1;
				break;
			}
			if (e2e_now_s() > deadline) {
				kill(p->pid, SIGKILL);
				waitpid(p->pid, &status, 0);
				break;
			}
			nanosleep(&nap, NULL);
		}
		p->code = status < 0 ? -1
			: WIFEXITED(status) ? WEXITSTATUS(status)
			: WIFSIGNALED(status) ? 128 + WTERMSIG(status)
					       : -1;
		child_track(0, p->pid);
		p->pid = -1;
	}
	free(p->out);
	free(p->err);
	p->out = slurp_or_empty(p->outpath);
	p->err = slurp_or_empty(p->errpath);
}

void e2e_exec(struct e2e_proc *p, const char *capdir, const struct e2e_args *a)
{
	int rc = e2e_spawn(p, capdir, a);
	e2e_wait(p);
	if (rc) {
		free(p->err);
		p->err = strdup(strerror(rc));
	}
}

void e2e_proc_free(struct e2e_proc *p)
{
	free(p->out);
	free(p->err);
	p->out = p->err = NULL;
}

char *e2e_exec_expect(const char *capdir, const struct e2e_args *a, int want)
{
	struct e2e_proc p;
	e2e_exec(&p, capdir, a);
	e2e_assert_code(&p, want);
	e2e_assert_quiet(&p);
	char *out = p.out;
	p.out = NULL;
	e2e_proc_free(&p);
	return out;
}

void e2e_exec_ok(const char *capdir, const struct e2e_args *a)
{
	free(e2e_exec_expect(capdir, a, 0));
}

void e2e_assert_code(const struct e2e_proc *p, int want)
{
	cr_assert_eq(p->code, want, "`%s` exited %d, expected %d\nstdout: %.2000s\nstderr: %.2000s",
		     p->cmd, p->code, want, p->out, p->err);
}

void e2e_assert_quiet(const struct e2e_proc *p)
{
	cr_assert_str_empty(p->err, "`%s` succeeded but wrote to stderr (a sanitizer report?):\n%.4000s",
			    p->cmd, p->err);
}

void e2e_assert_refusal(const struct e2e_proc *p, int want, ...)
{
	e2e_assert_code(p, want);
	cr_assert_str_empty(p->out, "`%s` refused but printed on stdout: %.2000s", p->cmd, p->out);
	size_t len = strlen(p->err);
	const char *nl = strchr(p->err, '\n');
	cr_assert(len > 1 && nl == p->err + len - 1,
		  "`%s`: stderr must be exactly one line, got:\n%.2000s", p->cmd, p->err);
	va_list ap;
	va_start(ap, want);
	for (const char *needle; (needle = va_arg(ap, const char *)) != NULL;)
		cr_assert(strstr(p->err, needle), "`%s`: the message should mention \"%s\": %s",
			  p->cmd, needle, p->err);
	va_end(ap);
}

/* ---- the test directory ---- */

#define MAX_ENVS 8
static char live_envs[MAX_ENVS][256];

static void env_register(const char *tmp)
{
	for (int i = 0; i < MAX_ENVS; i++)
		if (!live_envs[i][0]) {
			snprintf(live_envs[i], sizeof live_envs[i], "%s", tmp);
			return;
		}
}

static void env_forget(const char *tmp)
{
	for (int i = 0; i < MAX_ENVS; i++)
		if (!strcmp(live_envs[i], tmp))
			live_envs[i][0] = '\0';
}

void e2e_kill_children(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (live_children[i] > 0) {
			kill(live_children[i], SIGKILL);
			waitpid(live_children[i], NULL, 0);
			live_children[i] = 0;
		}
}

void e2e_cleanup(void)
{
	e2e_kill_children();
	for (int i = 0; i < MAX_ENVS; i++)
		if (live_envs[i][0]) {
			rpbt_rmtree(live_envs[i]);
			live_envs[i][0] = '\0';
		}
}

static void env_init_bin(struct e2e_env *e, const char *backend, const char *prog)
{
	static unsigned counter;
	memset(e, 0, sizeof *e);
	e->backend = backend;
	/* A backend switched off in this build (the null-only build) has no
	 * program to test: skipped, not failed. */
	if (!rpb_backend_find(backend))
		cr_skip_test("backend %s is switched off in this build", backend);
	snprintf(e->bin, sizeof e->bin, "%s/%s%s", RPB_BINARY_DIR, prog, backend);
	cr_assert(access(e->bin, X_OK) == 0, "%s is not built (cmake --build first)", e->bin);
	rpbt_tmpdir(e->tmp, sizeof e->tmp, "e2e");
	env_register(e->tmp);
	snprintf(e->cap, sizeof e->cap, "%s/cap", e->tmp);
	cr_assert_eq(mkdir(e->cap, 0755), 0, "mkdir %s: %s", e->cap, strerror(errno));
	snprintf(e->out, sizeof e->out, "%s/out", e->tmp);
	snprintf(e->store, sizeof e->store, "%s/store", e->out);
	const struct rpb_backend *b = rpb_backend_find(backend);
	cr_assert_not_null(b, "backend %s is not built in", backend);
	e->server = (b->flags & RPB_BF_SERVER) != 0;
	if (e->server) {
		e->dsn = rpbt_server_dsn(backend);
		snprintf(e->schema, sizeof e->schema, "e2e_%d_%u", (int)getpid(), counter++);
	}
}

void e2e_env_init(struct e2e_env *e, const char *backend)
{
	env_init_bin(e, backend, "bin/rpbench-");
}

void e2e_env_init_example(struct e2e_env *e, const char *backend)
{
	env_init_bin(e, backend, "tests/bin/rpbench-example-");
}

void e2e_env_fini(struct e2e_env *e)
{
	if (e->tmp[0]) {
		rpbt_rmtree(e->tmp);
		env_forget(e->tmp);
	}
	e->tmp[0] = '\0';
}

const char *e2e_path(const struct e2e_env *e, char *buf, const char *name)
{
	snprintf(buf, E2E_PATH, "%s/%s", e->tmp, name);
	return buf;
}

void e2e_run_args(struct e2e_args *a, const struct e2e_env *e, const char *workload,
		  const char *out)
{
	a->n = 0;
	e2e_args_add(a, e->bin, "run", workload, "--quiet", "--out", out, NULL);
	if (e->server)
		e2e_args_add(a, "--dsn", e->dsn, "--schema", e->schema, NULL);
}

char *e2e_verify(const struct e2e_env *e, const char *out, int want)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, e->bin, "verify", out, NULL);
	if (e->server)
		e2e_args_add(&a, "--dsn", e->dsn, NULL);
	return e2e_exec_expect(e->cap, &a, want);
}

void e2e_verify_clean(const struct e2e_env *e, const char *out, long long n)
{
	char want[128];
	snprintf(want, sizeof want, "verified %lld objects: 0 missing, 0 corrupt, 0 unexpected\n", n);
	char *got = e2e_verify(e, out, 0);
	cr_assert_str_eq(got, want, "verify %s printed \"%s\", expected \"%s\"", out, got, want);
	free(got);
}

void e2e_run_ci(const struct e2e_env *e, ...)
{
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, e->out);
	va_list ap;
	va_start(ap, e);
	e2e_args_addv(&a, ap);
	va_end(ap);
	e2e_exec_ok(e->cap, &a);
}

/* ---- the live ledger ---- */

#define LEDGER_HEADER 64

bool e2e_ledger_read(const char *out, struct e2e_ledger *lv)
{
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/%s", out, RPB_LEDGER_FILE);
	size_t len;
	char *raw = e2e_slurp(path, &len);
	if (!raw)
		return false;
	uint32_t n = 0;
	bool ok = len >= LEDGER_HEADER && memcmp(raw, RPB_LEDGER_MAGIC, 8) == 0;
	if (ok) {
		memcpy(&n, raw + 8, sizeof n);
		ok = n >= 1 && n <= E2E_LEDGER_THREADS &&
		     len >= LEDGER_HEADER + n * sizeof(struct rpb_ledger_slot);
	}
	for (unsigned t = 0; ok && t < n; t++) {
		const char *slot = raw + LEDGER_HEADER + t * sizeof(struct rpb_ledger_slot);
		memcpy(&lv->started[t], slot + offsetof(struct rpb_ledger_slot, started), 8);
		memcpy(&lv->finished[t], slot + offsetof(struct rpb_ledger_slot, finished), 8);
	}
	lv->n = ok ? n : 0;
	free(raw);
	return ok;
}

uint64_t e2e_ledger_finished(const struct e2e_ledger *lv)
{
	uint64_t sum = 0;
	for (unsigned t = 0; t < lv->n; t++)
		sum += lv->finished[t];
	return sum;
}

void e2e_spawn_until(struct e2e_proc *p, const char *capdir, const struct e2e_args *a,
		     const char *out, uint64_t want)
{
	int rc = e2e_spawn(p, capdir, a);
	cr_assert_eq(rc, 0, "cannot start %s: %s", p->cmd, strerror(rc));
	struct timespec nap = {0, 10 * 1000 * 1000};
	struct e2e_ledger lv = {0};
	double deadline = e2e_now_s() + rpbt_limit_s(RPBT_CHILD_LIMIT_S);
	bool running = true;
	while (running && e2e_now_s() < deadline) {
		if (e2e_ledger_read(out, &lv) && e2e_ledger_finished(&lv) >= want)
			return;
		siginfo_t info = {0}; /* WNOWAIT: e2e_wait below reaps it and reads its code */
		running = waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
			  info.si_pid == 0;
		nanosleep(&nap, NULL);
	}
	if (running)
		kill(p->pid, SIGKILL);
	e2e_wait(p);
	cr_assert_fail("`%s` %s after %llu of %llu operations (exit %d): %s", p->cmd,
		       running ? "was still short of them at the time limit" : "ended",
		       (unsigned long long)e2e_ledger_finished(&lv), (unsigned long long)want, p->code,
		       p->err);
}

/* ---- files ---- */

char *e2e_slurp_in(const char *dir, const char *name)
{
	char path[E2E_PATH * 2];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "no %s", path);
	return text;
}

char *e2e_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
		n += got;
		if (cap - n - 1 == 0) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

bool e2e_exists(const char *path)
{
	struct stat sb;
	return lstat(path, &sb) == 0;
}

void e2e_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "cannot create %s: %s", path, strerror(errno));
	cr_assert(fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
}

/* ---- result.json ---- */

json_t *e2e_result(const char *outdir)
{
	char path[E2E_PATH + 16];
	snprintf(path, sizeof path, "%s/result.json", outdir);
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	cr_assert_not_null(root, "%s: %s (line %d)", path, jerr.text, jerr.line);
	return root;
}

static json_t *jget(json_t *root, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	json_t *cur = root;
	for (char *save = NULL, *part = strtok_r(buf, ".", &save); cur && part;
	     part = strtok_r(NULL, ".", &save))
		cur = json_object_get(cur, part);
	cr_assert_not_null(cur, "result.json has no %s", path);
	return cur;
}

json_int_t e2e_jint(json_t *root, const char *path)
{
	json_t *v = jget(root, path);
	cr_assert(json_is_integer(v), "result.json %s is not an integer", path);
	return json_integer_value(v);
}

const char *e2e_jstr(json_t *root, const char *path)
{
	json_t *v = jget(root, path);
	cr_assert(json_is_string(v), "result.json %s is not a string", path);
	return json_string_value(v);
}

uint64_t e2e_jtime_ms(json_t *root, const char *path)
{
	const char *iso = e2e_jstr(root, path);
	struct tm tm = {0};
	unsigned ms = 0;
	int n = sscanf(iso, "%4d-%2d-%2dT%2d:%2d:%2d.%3uZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		       &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms);
	cr_assert_eq(n, 7, "result.json %s = \"%s\" is not YYYY-MM-DDTHH:MM:SS.mmmZ", path, iso);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (uint64_t)timegm(&tm) * 1000u + ms;
}

/* ---- tree listings ---- */

struct lines {
	char **v;
	size_t n, cap;
};

static void lines_add(struct lines *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		cr_assert_not_null(l->v);
	}
	l->v[l->n++] = s;
}

static uint64_t fnv1a_file(const char *path)
{
	uint64_t h = 1469598103934665603u;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	unsigned char buf[65536];
	for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211u;
	fclose(f);
	return h;
}

static void walk(const char *root, const char *rel, struct lines *l)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *de; (de = readdir(d)) != NULL;) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char sub[1024], full[2100];
		snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		snprintf(full, sizeof full, "%s/%s", root, sub);
		struct stat sb;
		if (lstat(full, &sb) != 0)
			continue;
		char *line = NULL;
		bool is_dir = S_ISDIR(sb.st_mode);
		int rc = asprintf(&line, "%s %s %lld %016" PRIx64, sub, is_dir ? "dir" : "file",
				  is_dir ? 0LL : (long long)sb.st_size,
				  S_ISREG(sb.st_mode) ? fnv1a_file(full) : 0);
		cr_assert_geq(rc, 0);
		lines_add(l, line);
		if (is_dir)
			walk(root, sub, l);
	}
	closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *e2e_tree(const char *dir)
{
	struct lines l = {0};
	walk(dir, "", &l);
	qsort(l.v, l.n, sizeof *l.v, cmp_str);
	size_t total = 1;
	for (size_t i = 0; i < l.n; i++)
		total += strlen(l.v[i]) + 1;
	char *s = malloc(total);
	cr_assert_not_null(s);
	s[0] = '\0';
	for (size_t i = 0; i < l.n; i++) {
		strcat(s, l.v[i]);
		strcat(s, "\n");
		free(l.v[i]);
	}
	free(l.v);
	return s;
}

/* Whether rel names an entry of a tree listing ("path type size hash"). */
static bool listed(const char *tree, const char *rel)
{
	size_t n = strlen(rel);
	for (const char *p = tree; p && *p;) {
		if (!strncmp(p, rel, n) && p[n] == ' ')
			return true;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return false;
}

void e2e_assert_no_secret(const char *what, const char *dir, const char *inputs,
			  const char *secret)
{
	char *tree = e2e_tree(dir);
	for (char *save = NULL, *line = strtok_r(tree, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* "path type size hash": the path is all before the last three. */
		for (int k = 0; k < 3; k++)
			*strrchr(line, ' ') = '\0';
		char path[2100];
		snprintf(path, sizeof path, "%s/%s", dir, line);
		struct stat sb;
		if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || (inputs && listed(inputs, line)))
			continue;
		size_t len = 0;
		char *text = e2e_slurp(path, &len);
		bool leaked = text && memmem(text, len, secret, strlen(secret));
		free(text);
		cr_assert(!leaked, "%s: the secret \"%s\" leaked into %s", what, secret, path);
	}
	free(tree);
}

void e2e_assert_tree_kept(const char *before, const char *after, const char *what)
{
	for (const char *p = before; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
		bool found = false;
		for (const char *q = after; *q && !found;) {
			const char *qn = strchr(q, '\n');
			size_t qlen = qn ? (size_t)(qn - q + 1) : strlen(q);
			found = qlen == len && memcmp(p, q, len) == 0;
			q += qlen;
		}
		cr_assert(found, "%s: \"%.*s\" was deleted or changed; before:\n%s\nafter:\n%s", what,
			  (int)(len - 1), p, before, after);
		p += len;
	}
}

/* ---- stores ---- */

void e2e_store_open(struct e2e_store *s, const char *backend, const char *dir)
{
	memset(s, 0, sizeof *s);
	s->b = rpb_backend_find(backend);
	cr_assert_not_null(s->b, "backend %s is not built in", backend);
	struct rpb_store_cfg cfg = {.sync = RPB_SYNC_NONE, .dir = dir, .create = false};
	struct rpb_err err = {0};
	enum rpb_status st = s->b->open(&cfg, &s->st, &err);
	cr_assert_eq(st, RPB_OK, "reopening the %s store %s: %s", backend, dir, err.msg);
	st = s->b->session_open(s->st, &s->s, &err);
	cr_assert_eq(st, RPB_OK, "%s session_open: %s", backend, err.msg);
}

void e2e_store_close(struct e2e_store *s)
{
	if (!s->b)
		return;
	s->b->session_close(s->s);
	s->b->close(s->st);
	memset(s, 0, sizeof *s);
}

struct prefix_ctx {
	const char *prefix;
	size_t plen;
	e2e_entry_fn fn;
	void *ctx;
	uint64_t n;
};

static int prefix_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	struct prefix_ctx *pc = ctx;
	if (key.len < pc->plen || memcmp(key.data, pc->prefix, pc->plen) != 0)
		return 0; /* the upper bound itself; nothing else lies outside */
	pc->n++;
	if (pc->fn)
		pc->fn(pc->ctx, key, val);
	return 0;
}

uint64_t e2e_scan_prefix(struct e2e_store *s, enum rpb_table t, const char *prefix,
			 e2e_entry_fn fn, void *ctx)
{
	/* Keys with the prefix lie in (prefix, prefix with its last byte + 1]. */
	char upto[64];
	size_t plen = strlen(prefix);
	cr_assert(plen > 0 && plen < sizeof upto && (unsigned char)prefix[plen - 1] < 0xff);
	memcpy(upto, prefix, plen);
	upto[plen - 1]++;
	rpb_slice after = rpb_slice_make(prefix, plen), hi = rpb_slice_make(upto, plen);
	struct prefix_ctx pc = {prefix, plen, fn, ctx, 0};
	struct rpb_err err = {0};
	enum rpb_status st = s->b->begin(s->s, RPB_TXN_READ, &err);
	cr_assert_eq(st, RPB_OK, "%s begin: %s", s->b->name, err.msg);
	st = s->b->scan(s->s, t, &after, &hi, 0, prefix_entry, &pc, &err);
	cr_assert_eq(st, RPB_OK, "%s scan: %s", s->b->name, err.msg);
	st = s->b->commit(s->s, &err);
	cr_assert_eq(st, RPB_OK, "%s commit: %s", s->b->name, err.msg);
	return pc.n;
}

long long e2e_query_count(const struct e2e_env *e, const struct e2e_args *a)
{
	struct e2e_proc p;
	e2e_exec(&p, e->cap, a);
	e2e_assert_code(&p, 0);
	char *end = NULL;
	errno = 0;
	long long n = strtoll(p.out, &end, 10);
	cr_assert(errno == 0 && end != p.out && (*end == '\n' || *end == '\0'),
		  "`%s` printed \"%s\", expected one integer", p.cmd, p.out);
	e2e_proc_free(&p);
	return n;
}

void e2e_spawn_ingest_until(struct e2e_proc *p, const struct e2e_env *e, uint64_t want, ...)
{
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, e->out);
	e2e_args_add(&a, "--set", "ops=0", "--set", E2E_UNTIL_KILLED, "--set", "sync=commit", NULL);
	va_list ap;
	va_start(ap, want);
	e2e_args_setv(&a, ap);
	va_end(ap);
	e2e_spawn_until(p, e->cap, &a, e->out, want);
}

void e2e_kill_run(struct e2e_proc *p)
{
	cr_assert_eq(kill(p->pid, SIGKILL), 0, "kill %d: %s", (int)p->pid, strerror(errno));
	e2e_wait(p);
}

long e2e_count_files(const char *dir, const char *infix)
{
	char cmd[E2E_PATH * 2];
	snprintf(cmd, sizeof cmd, "find '%s' -type f ! -name '.*' %s%s%s 2>/dev/null | wc -l", dir,
		 infix ? "-name '*" : "", infix ? infix : "", infix ? "*'" : "");
	FILE *f = popen(cmd, "r");
	cr_assert_not_null(f);
	long n = -1;
	cr_assert_eq(fscanf(f, "%ld", &n), 1);
	pclose(f);
	return n;
}

void e2e_need_rpbench(void)
{
	/* rpbench compare is built only beside a backend other than null. */
	if (access(RPB_BINARY_DIR "/bin/rpbench", X_OK) != 0)
		cr_skip_test("rpbench is not built: a null-only build has nothing to compare");
}

void e2e_write_result(const struct e2e_env *e, const json_t *r, const char *name, char *dir)
{
	e2e_path(e, dir, name);
	cr_assert_eq(mkdir(dir, 0755), 0, "mkdir %s: %s", dir, strerror(errno));
	char path[E2E_PATH + 16];
	snprintf(path, sizeof path, "%s/result.json", dir);
	cr_assert_eq(json_dump_file(r, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
}

json_t *e2e_compare_results(const struct e2e_env *e, char dirs[][E2E_PATH], size_t n,
			    char **table)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", "--results", NULL);
	for (size_t i = 0; i < n; i++)
		e2e_args_add(&a, dirs[i], NULL);
	e2e_args_add(&a, "--out", e->out, "--quiet", NULL);
	*table = e2e_exec_expect(e->cap, &a, 0);
	char path[E2E_PATH + 16];
	snprintf(path, sizeof path, "%s/compare.json", e->out);
	json_error_t jerr;
	json_t *cmp = json_load_file(path, 0, &jerr);
	cr_assert_not_null(cmp, "%s: %s", path, jerr.text);
	return cmp;
}

const json_t *e2e_col_stat(const json_t *cmp, size_t i, const char *key)
{
	const json_t *s = json_object_get(json_array_get(json_object_get(cmp, "backends"), i), key);
	cr_assert(json_is_object(s), "compare.json column %zu has no %s", i, key);
	return s;
}

void e2e_table_row(const char *table, const char *heading, char *out, size_t n)
{
	char want[160];
	snprintf(want, sizeof want, "| %s ", heading);
	const char *l = strstr(table, want);
	cr_assert_not_null(l, "no row %s in:\n%s", heading, table);
	snprintf(out, n, "%.*s", (int)strcspn(l, "\n"), l);
}
