/* The build's lists of backends agree with the backends themselves: the
 * kind each folder's rpb_add_backend declares (build/backends.txt, read by
 * the scripts) is what its table's flags say, every backend built in is
 * one the sources declare, and every server backend names its
 * throwaway-server script (backends.txt's third column, the registry's
 * rpb_backend_server_script), which exists and runs. The test build's registry has the test-only
 * backends too (RPBT_TEST_BACKENDS, from tests/CMakeLists.txt), and none of
 * them ships: no backends.txt line, no program, no man page. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends.h"

/* Whether name is one of the test build's own backends. */
static bool test_only(const char *name)
{
	const char *p = RPBT_TEST_BACKENDS;
	size_t n = strlen(name);
	for (; *p; p += strcspn(p, " "), p += *p == ' ')
		if (strncmp(p, name, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static const char *kind_of(const struct rpb_backend *b)
{
	if (b->flags & RPB_BF_SERVER)
		return "server";
	return (b->flags & RPB_BF_STORES_NOTHING) ? "nothing" : "embedded";
}

Test(backend_list, kinds_match_flags)
{
	FILE *f = fopen(RPB_BINARY_DIR "/backends.txt", "r");
	cr_assert_not_null(f, "the build writes backends.txt");
	char line[512], name[64], kind[64], script[256];
	size_t n = 0;
	while (fgets(line, sizeof line, f)) {
		int fields = sscanf(line, "%63s %63s %255s", name, kind, script);
		if (fields < 2)
			continue;
		const struct rpb_backend *b = rpb_backend_find(name);
		cr_assert_not_null(b, "backends.txt names %s, which is not built in", name);
		cr_expect_str_eq(kind, kind_of(b), "%s: CMake says %s, its flags %s", name, kind, kind_of(b));
		const char *registered = rpb_backend_server_script(name);
		if (b->flags & RPB_BF_SERVER) {
			cr_expect_eq(fields, 3, "backends.txt gives server backend %s no script", name);
			cr_expect(registered && fields == 3 && !strcmp(registered, script),
				  "%s: backends.txt names script %s, the registry %s", name,
				  fields == 3 ? script : "none", registered ? registered : "none");
		} else {
			cr_expect_eq(fields, 2, "backends.txt gives %s backend %s a script", kind, name);
			cr_expect_null(registered, "the registry gives %s backend %s a script", kind, name);
		}
		cr_expect(!test_only(name), "backends.txt names %s, a backend of the tests only", name);
		n++;
	}
	fclose(f);
	size_t built = 0, tests_own = 0;
	for (; rpb_backends[built]; built++)
		tests_own += test_only(rpb_backends[built]->name);
	cr_expect_eq(n + tests_own, built, "backends.txt lists %zu backends, the registry %zu (%zu of the tests only)",
		     n, built, tests_own);
}

/* The catalogue rpbench links names the registry's backends, in its order,
 * each with its flags of what compare needs (server, stores nothing). */
Test(backend_list, catalogue_matches_the_registry)
{
	size_t i = 0;
	for (; rpb_backends[i]; i++) {
		cr_assert_not_null(rpb_backend_kinds[i].name, "the catalogue ends before %s",
				   rpb_backends[i]->name);
		cr_expect_str_eq(rpb_backend_kinds[i].name, rpb_backends[i]->name);
		unsigned want = rpb_backends[i]->flags & (RPB_BF_SERVER | RPB_BF_STORES_NOTHING);
		cr_expect_eq(rpb_backend_kinds[i].flags, want, "%s: catalogue flags %u, the table's %u",
			     rpb_backends[i]->name, rpb_backend_kinds[i].flags, want);
		cr_expect_eq(rpb_backend_kind_find(rpb_backends[i]->name), &rpb_backend_kinds[i]);
	}
	cr_expect_null(rpb_backend_kinds[i].name, "the catalogue has more backends than the registry");
}

Test(backend_list, test_only_backends_do_not_ship)
{
	size_t seen = 0;
	for (size_t i = 0; rpb_backends[i]; i++) {
		const char *name = rpb_backends[i]->name;
		if (!test_only(name))
			continue;
		seen++;
		char path[4096];
		snprintf(path, sizeof path, "%s/bin/rpbench-%s", RPB_BINARY_DIR, name);
		cr_expect(access(path, F_OK) != 0, "%s exists: a test-only backend got a program", path);
		snprintf(path, sizeof path, "%s/man/rpbench-%s.1", RPB_BINARY_DIR, name);
		cr_expect(access(path, F_OK) != 0, "%s exists: a test-only backend got a man page", path);
		snprintf(path, sizeof path, "%s/tests/bin/rpbench-example-%s", RPB_BINARY_DIR, name);
		cr_expect(access(path, X_OK) == 0, "the tests' own program %s is built", path);
	}
	cr_expect_neq(seen, 0, "the test build holds the example backend (RPBT_TEST_BACKENDS \"%s\")",
		      RPBT_TEST_BACKENDS);
}

/* compare --start-servers starts these: in the sources and in
 * build/share/rpbench/scripts, where rpbench looks first (paths.h). */
Test(backend_list, server_scripts_exist_and_run)
{
	size_t servers = 0;
	for (size_t i = 0; rpb_backends[i]; i++) {
		const char *name = rpb_backends[i]->name;
		if (!(rpb_backends[i]->flags & RPB_BF_SERVER) || test_only(name))
			continue;
		servers++;
		const char *script = rpb_backend_server_script(name);
		cr_assert_not_null(script, "server backend %s names no SERVER_SCRIPT", name);
		cr_expect(!strncmp(script, "scripts/", 8), "%s's script %s is not under scripts/", name, script);
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", RPB_SOURCE_DIR, script);
		cr_expect(access(path, X_OK) == 0, "%s's script %s is not an executable file", name, path);
		snprintf(path, sizeof path, "%s/share/rpbench/%s", RPB_BINARY_DIR, script);
		cr_expect(access(path, X_OK) == 0, "%s's script is not linked as %s", name, path);
	}
#ifdef RPB_HAVE_POSTGRES
	cr_expect_str_eq(rpb_backend_server_script("postgres"), "scripts/pg-throwaway");
	cr_expect_neq(servers, 0);
#endif
	(void)servers;
	cr_expect_null(rpb_backend_server_script("leveldb"));
	cr_expect_null(rpb_backend_server_script("no-such-backend"));
}

Test(backend_list, built_ones_are_declared)
{
	for (size_t i = 0; rpb_backends[i]; i++) {
		bool declared = false;
		for (size_t j = 0; rpb_backend_names[j]; j++)
			declared |= !strcmp(rpb_backend_names[j], rpb_backends[i]->name);
		cr_expect(declared, "%s is built in but not among rpb_backend_names", rpb_backends[i]->name);
	}
}
