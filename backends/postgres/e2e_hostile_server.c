/* verify and a results directory from someone else: the DSN in its
 * result.json names a server the author chose. Here that server is a
 * listener on 127.0.0.1 that speaks PostgreSQL's protocol as far as asking
 * for the password in clear text, as a hostile server would, and keeps
 * whatever the client answers. The environment holds a password in every
 * place libpq looks (a password file, a service file, PGPASSWORD; named by
 * the environment or by the DSN itself): verify without --dsn must send
 * none of it; with --dsn naming that server, the user's own choice, libpq
 * sends the password file's, which shows the listener would see it. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_util.h"
#include "timelimit.h"

#define ENV_SECRET "env-secret-4b1d"
#define FILE_SECRET "file-secret-9c2e"
#define SERVICE_SECRET "service-secret-77aa"

struct listener {
	int fd;
	unsigned port;
	pthread_t thread;
	bool startups;        /* a startup message arrived */
	_Atomic unsigned served; /* connections closed; the fields above are read
				  * once it has grown (release/acquire) */
	char password[256];   /* the last password message's text */
};

static bool read_full(int fd, void *buf, size_t n)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One client: refuses SSL and GSS encryption, takes the startup message,
 * asks for a clear-text password and keeps the reply. */
static void serve(struct listener *l, int c)
{
	unsigned char head[8], body[4096];
	for (;;) { /* SSLRequest and GSSENCRequest come first, each answered 'N' */
		if (!read_full(c, head, 8))
			return;
		uint32_t len = be32(head), code = be32(head + 4);
		if (len < 8 || len - 8 > sizeof body || !read_full(c, body, len - 8))
			return;
		if (code == 80877103u || code == 80877104u) {
			if (write(c, "N", 1) != 1)
				return;
			continue;
		}
		l->startups = true;
		break;
	}
	static const unsigned char ask[] = {'R', 0, 0, 0, 8, 0, 0, 0, 3}; /* clear-text password */
	if (write(c, ask, sizeof ask) != (ssize_t)sizeof ask)
		return;
	unsigned char type;
	if (!read_full(c, &type, 1) || type != 'p' || !read_full(c, head, 4))
		return; /* the client gave up: it had no password to send */
	uint32_t len = be32(head);
	if (len < 4 || len - 4 >= sizeof l->password || !read_full(c, l->password, len - 4))
		return;
	l->password[len - 4] = '\0';
}

static void *listener_main(void *arg)
{
	struct listener *l = arg;
	for (int c; (c = accept(l->fd, NULL, NULL)) >= 0;) {
		serve(l, c);
		close(c);
		atomic_fetch_add_explicit(&l->served, 1, memory_order_release);
	}
	return NULL;
}

static void listener_start(struct listener *l)
{
	memset(l, 0, sizeof *l);
	l->fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_geq(l->fd, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof a;
	cr_assert_eq(bind(l->fd, (struct sockaddr *)&a, sizeof a), 0);
	cr_assert_eq(listen(l->fd, 8), 0);
	cr_assert_eq(getsockname(l->fd, (struct sockaddr *)&a, &alen), 0);
	l->port = ntohs(a.sin_port);
	cr_assert_eq(pthread_create(&l->thread, NULL, listener_main, l), 0);
}

static void listener_stop(struct listener *l)
{
	shutdown(l->fd, SHUT_RDWR); /* ends accept */
	pthread_join(l->thread, NULL);
	close(l->fd);
}

/* Rewrites manifest.store.dsn of out/result.json. */
static void record_dsn(const char *out, const char *dsn)
{
	json_t *root = e2e_result(out);
	json_t *store = json_object_get(json_object_get(root, "manifest"), "store");
	cr_assert(json_is_object(store), "result.json has no manifest.store");
	cr_assert_eq(json_object_set_new(store, "dsn", json_string(dsn)), 0);
	char path[E2E_PATH + 16];
	snprintf(path, sizeof path, "%s/result.json", out);
	cr_assert_eq(json_dump_file(root, path, JSON_INDENT(2)), 0);
	json_decref(root);
}

/* Runs verify (extra arguments up to NULL) and returns what the listener
 * was sent as a password ("" for none); asserts verify reached it. */
static void verify_against(const struct e2e_env *e, struct listener *l, struct e2e_proc *p, ...)
{
	l->startups = false;
	l->password[0] = '\0';
	unsigned before = atomic_load_explicit(&l->served, memory_order_acquire);
	struct e2e_args a = {0};
	e2e_args_add(&a, e->bin, "verify", e->out, NULL);
	va_list ap;
	va_start(ap, p);
	e2e_args_addv(&a, ap);
	va_end(ap);
	e2e_exec(p, e->cap, &a);
	/* The listener closes its side once verify has gone: wait for that,
	 * so what it recorded is complete (a hang limit only). */
	double until = e2e_now_s() + rpbt_limit_s(60);
	while (atomic_load_explicit(&l->served, memory_order_acquire) == before && e2e_now_s() < until)
		usleep(1000);
	cr_assert(l->startups, "`%s` never reached the listener:\n%s", p->cmd, p->err);
}

Test(e2e_hostile_server, verify_sends_no_credentials_to_a_recorded_dsn, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "postgres");
	struct listener l;
	listener_start(&l);
	e2e_run_ci(&e, "--set", "ops=5", "--set", "probe_every=0", NULL);
	/* A password in every place libpq looks: a password file, a service
	 * file (the service named by PGSERVICE or by the DSN), PGPASSWORD. */
	char pass[E2E_PATH], services[E2E_PATH], dsn[E2E_PATH * 2 + 128];
	e2e_write_file(e2e_path(&e, pass, "pgpass"), "*:*:*:*:" FILE_SECRET "\n");
	cr_assert_eq(chmod(pass, 0600), 0);
	e2e_write_file(e2e_path(&e, services, "services"), "[theirs]\npassword=" SERVICE_SECRET "\n");
	cr_assert_eq(setenv("PGPASSFILE", pass, 1), 0);
	cr_assert_eq(setenv("PGSERVICEFILE", services, 1), 0);
	const char *const secrets[] = {FILE_SECRET, SERVICE_SECRET, ENV_SECRET};
	for (int step = 0; step < 4; step++) {
		const char *tail = "";
		if (step == 1)
			cr_assert_eq(setenv("PGSERVICE", "theirs", 1), 0);
		if (step == 2)
			cr_assert_eq(setenv("PGPASSWORD", ENV_SECRET, 1), 0);
		if (step == 3) { /* the DSN names the files itself */
			cr_assert_eq(unsetenv("PGPASSWORD"), 0);
			cr_assert_eq(unsetenv("PGSERVICE"), 0);
			tail = " service=theirs passfile=";
		}
		snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%u dbname=rpbench user=victim%s%s",
			 l.port, tail, *tail ? pass : "");
		record_dsn(e.out, dsn);
		struct e2e_proc p;
		verify_against(&e, &l, &p, NULL);
		for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
			cr_assert_null(strstr(l.password, secrets[i]),
				       "step %d: verify sent \"%s\" to the server result.json names", step,
				       l.password);
		cr_assert_str_empty(l.password, "step %d: verify sent a password", step);
		e2e_assert_refusal(&p, 2, "no password supplied", "--dsn", "result.json", NULL);
		e2e_proc_free(&p);
	}
	/* --dsn is the user's choice: libpq answers with the password file's
	 * password, as the listener sees (so the checks above can fail). */
	snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%u dbname=rpbench user=victim", l.port);
	struct e2e_proc p;
	verify_against(&e, &l, &p, "--dsn", dsn, NULL);
	cr_assert_str_eq(l.password, FILE_SECRET, "with --dsn, libpq sent \"%s\" (%s)", l.password,
			 p.err);
	e2e_proc_free(&p);
	/* A run that connected through the PG* environment records an empty
	 * DSN: verify connects through the user's own environment again,
	 * credentials and all (PGPASSWORD here). */
	record_dsn(e.out, "");
	cr_assert_eq(setenv("PGHOST", "127.0.0.1", 1), 0);
	char port[16];
	snprintf(port, sizeof port, "%u", l.port);
	cr_assert_eq(setenv("PGPORT", port, 1), 0);
	cr_assert_eq(setenv("PGPASSWORD", ENV_SECRET, 1), 0);
	verify_against(&e, &l, &p, NULL);
	cr_assert_str_eq(l.password, ENV_SECRET,
			 "an empty recorded DSN: verify did not use the environment's PGPASSWORD (\"%s\", %s)",
			 l.password, p.err);
	e2e_proc_free(&p);
	listener_stop(&l);
	e2e_env_fini(&e);
}
