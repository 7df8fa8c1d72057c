/* The build's lists of backends agree with the backends themselves: the
 * kind each folder's rpb_add_backend declares (build/backends.txt, read by
 * the scripts) is what its table's flags say, and every backend built in is
 * one the sources declare. The test build's registry has the test-only
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
	char name[64], kind[64];
	size_t n = 0;
	while (fscanf(f, "%63s %63s", name, kind) == 2) {
		const struct rpb_backend *b = rpb_backend_find(name);
		cr_assert_not_null(b, "backends.txt names %s, which is not built in", name);
		cr_expect_str_eq(kind, kind_of(b), "%s: CMake says %s, its flags %s", name, kind, kind_of(b));
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

Test(backend_list, built_ones_are_declared)
{
	for (size_t i = 0; rpb_backends[i]; i++) {
		bool declared = false;
		for (size_t j = 0; rpb_backend_names[j]; j++)
			declared |= !strcmp(rpb_backend_names[j], rpb_backends[i]->name);
		cr_expect(declared, "%s is built in but not among rpb_backend_names", rpb_backends[i]->name);
	}
}
