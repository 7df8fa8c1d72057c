/* Connection parameters for a DSN from a results directory
 * (postgres_untrusted.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "postgres_untrusted.h"

/* A path that does not exist: libpq finds no file of credentials there. */
#define NO_FILE "/nonexistent/rpbench-no-credentials"

/* What a DSN may say: where the server is and how to reach it. */
static const char *const kept[] = {
	"host", "hostaddr", "port", "dbname", "user", "options", "application_name",
	"connect_timeout", "sslmode", "target_session_attrs", "keepalives", "keepalives_idle",
	"keepalives_interval", "keepalives_count", "tcp_user_timeout",
};

/* krbsrvname exists only in a libpq built with GSSAPI (Debian's is). */
static bool has_krbsrvname;
static void keywords_read(void)
{
	PQconninfoOption *all = PQconndefaults();
	for (PQconninfoOption *o = all; o && o->keyword; o++)
		has_krbsrvname |= strcmp(o->keyword, "krbsrvname") == 0;
	PQconninfoFree(all);
}

static bool is_kept(const char *keyword)
{
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
		if (strcmp(keyword, kept[i]) == 0)
			return true;
	return false;
}

int pg_untrusted_params(const char *conninfo, const char **keys, const char **vals,
			PQconninfoOption **parsed, char *why, size_t n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, keywords_read);
	char *err = NULL;
	*parsed = PQconninfoParse(conninfo ? conninfo : "", &err);
	if (!*parsed) {
		/* libpq's message may quote the DSN: the caller shows its own. */
		snprintf(why, n, "libpq cannot parse the DSN");
		PQfreemem(err);
		return -1;
	}
	size_t k = 0;
	for (PQconninfoOption *o = *parsed; o->keyword && k + 8 < PG_UNTRUSTED_MAX; o++)
		if (o->val && *o->val && is_kept(o->keyword)) {
			keys[k] = o->keyword;
			vals[k++] = o->val;
		}
	static const char *const lock_keys[] = {"fallback_application_name", "passfile", "sslcert",
						"sslkey", "gssencmode"};
	static const char *const lock_vals[] = {"rpbench", NO_FILE, NO_FILE, NO_FILE, "disable"};
	for (size_t i = 0; i < sizeof lock_keys / sizeof lock_keys[0]; i++, k++) {
		keys[k] = lock_keys[i];
		vals[k] = lock_vals[i];
	}
	if (has_krbsrvname) { /* no service ticket for the server it names */
		keys[k] = "krbsrvname";
		vals[k++] = "rpbench-no-kerberos";
	}
	keys[k] = vals[k] = NULL;
	/* libpq reads these for a password or a service (whose file may hold
	 * one) left unset, and an empty keyword counts as unset. */
	unsetenv("PGPASSWORD");
	unsetenv("PGSERVICE");
	return 0;
}
