/* Each server backend's server: --dsn's, or a throwaway one. */
#include <stdio.h>
#include <string.h>

#include "compare_exec.h"
#include "servers_plan.h"

static struct rpb_server *find(struct rpb_servers *sv, const char *backend)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->s[i].backend, backend) == 0)
			return &sv->s[i];
	return NULL;
}

static struct rpb_server *add(struct rpb_servers *sv, const char *backend, char *msg, size_t n)
{
	if (sv->n == RPB_SERVERS_MAX) {
		snprintf(msg, n, "more than %d server backends; name fewer", RPB_SERVERS_MAX);
		return NULL;
	}
	struct rpb_server *s = &sv->s[sv->n++];
	memset(s, 0, sizeof *s);
	snprintf(s->backend, sizeof s->backend, "%s", backend);
	return s;
}

/* NAME of "NAME=...": lower-case letters and digits, as backend names are. */
static size_t name_length(const char *arg)
{
	size_t k = 0;
	if (arg[0] >= 'a' && arg[0] <= 'z')
		while ((arg[k] >= 'a' && arg[k] <= 'z') || (arg[k] >= '0' && arg[k] <= '9'))
			k++;
	return arg[k] == '=' ? k : 0;
}

/* Whether text begins as a DSN does: key=value or scheme://. A bare
 * libpq DSN "host=/tmp port=5432" does not after its first key's '='. */
static bool dsn_like(const char *text)
{
	size_t k = strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789_");
	return k && (text[k] == '=' || !strncmp(text + k, "://", 3));
}

size_t rpb_servers_dsn_named(const char *arg)
{
	size_t k = name_length(arg);
	char name[64];
	if (!k || k >= sizeof name)
		return 0;
	snprintf(name, sizeof name, "%.*s", (int)k, arg);
	return rpb_exec_is_backend(name) ? k : 0;
}

int rpb_servers_dsn_option(struct rpb_servers *sv, const char *arg, char *msg, size_t n)
{
	size_t k = name_length(arg);
	char name[64] = "";
	if (k && k < sizeof name)
		snprintf(name, sizeof name, "%.*s", (int)k, arg);
	if (name[0] && rpb_exec_is_backend(name)) {
		if (!rpb_exec_is_server(name)) {
			snprintf(msg, n, "--dsn %s=...: %s is not a server backend (it takes no DSN); "
				 "give --dsn NAME=DSN for a server backend", name, name);
			return -1;
		}
		if (find(sv, name)) {
			snprintf(msg, n, "--dsn %s=... is given twice; give one DSN per server backend", name);
			return -1;
		}
		struct rpb_server *s = add(sv, name, msg, n);
		if (!s)
			return -1;
		s->dsn = arg + k + 1;
		return 0;
	}
	if (name[0] && dsn_like(arg + k + 1)) {
		snprintf(msg, n, "--dsn %s=...: %s is not a backend of this build; --dsn NAME=DSN names a "
			 "server backend, a bare --dsn DSN serves the one server backend listed", name, name);
		return -1;
	}
	if (sv->bare) {
		snprintf(msg, n, "--dsn DSN is given twice; give --dsn NAME=DSN for each server backend");
		return -1;
	}
	sv->bare = arg;
	return 0;
}

int rpb_servers_plan(struct rpb_servers *sv, const char *const *backends, size_t nb, bool start_all,
		     const char *start_one, char *msg, size_t n)
{
	size_t servers = 0;
	const char *only = NULL;
	for (size_t i = 0; i < nb; i++)
		if (rpb_exec_is_server(backends[i]))
			servers++, only = only ? only : backends[i];
	for (size_t i = 0; i < sv->n; i++) {
		bool listed = false;
		for (size_t j = 0; j < nb; j++)
			listed |= !strcmp(backends[j], sv->s[i].backend);
		if (!listed) {
			snprintf(msg, n, "--dsn %s=... names a backend that is not listed; add %s to the "
				 "backends or leave its --dsn out", sv->s[i].backend, sv->s[i].backend);
			return -1;
		}
	}
	if (sv->bare) {
		if (servers != 1) {
			snprintf(msg, n, "a bare --dsn DSN serves one server backend and %zu are listed; "
				 "give --dsn NAME=DSN for each", servers);
			return -1;
		}
		if (find(sv, only)) {
			snprintf(msg, n, "--dsn DSN and --dsn %s=... both name %s's server; give one", only, only);
			return -1;
		}
		struct rpb_server *s = add(sv, only, msg, n);
		if (!s)
			return -1;
		s->dsn = sv->bare;
	}
	if (start_one && find(sv, start_one) && !start_all) {
		snprintf(msg, n, "give --dsn or --start-%s, not both", start_one);
		return -1;
	}
	for (size_t i = 0; i < nb; i++) {
		const char *b = backends[i];
		if (!rpb_exec_is_server(b) || find(sv, b))
			continue;
		if (!start_all && !(start_one && !strcmp(b, start_one))) {
			snprintf(msg, n, "the %s backend needs a server: add --dsn %s%s or --start-servers", b,
				 servers == 1 ? "" : b, servers == 1 ? "DSN" : "=DSN");
			return -1;
		}
		struct rpb_server *s = add(sv, b, msg, n);
		if (!s)
			return -1;
		s->start = true;
	}
	return 0;
}

int rpb_servers_start(struct rpb_servers *sv, bool quiet, char *msg, size_t n)
{
	for (size_t i = 0; i < sv->n; i++) {
		struct rpb_server *s = &sv->s[i];
		if (!s->start)
			continue;
		char script[4096];
		rpb_exec_server_script(s->backend, script, sizeof script);
		if (!quiet) {
			const char *base = strrchr(script, '/');
			printf("== starting a throwaway %s server (%s)\n", s->backend, base ? base + 1 : script);
			fflush(stdout);
		}
		char why[4096];
		if (rpb_exec_server_start(s->backend, s->dir, sizeof s->dir, s->started, sizeof s->started, why,
					  sizeof why) != 0) {
			s->dir[0] = '\0';
			snprintf(msg, n, "%s; --start-servers needs the %s server's programs (scripts/deps.sh), "
				 "or give --dsn %s=DSN", why, s->backend, s->backend);
			char ignore[1024];
			rpb_servers_stop(sv, quiet, ignore, sizeof ignore);
			return -1;
		}
		s->dsn = s->started;
	}
	return 0;
}

int rpb_servers_stop(struct rpb_servers *sv, bool quiet, char *msg, size_t n)
{
	int rc = 0;
	for (size_t i = sv->n; i-- > 0;) {
		struct rpb_server *s = &sv->s[i];
		if (!s->dir[0])
			continue;
		char why[4096], script[4096];
		if (rpb_exec_server_stop(s->backend, s->dir, why, sizeof why) != 0) {
			if (!rc)
				snprintf(msg, n, "%s; stop it with: %s stop %s", why,
					 rpb_exec_server_script(s->backend, script, sizeof script), s->dir);
			rc = -1;
		} else if (!quiet) {
			printf("== stopped the throwaway %s server\n", s->backend);
		}
		s->dir[0] = '\0';
	}
	return rc;
}
