/* The build's lists of backends agree with the backends themselves: the
 * kind each folder's rpb_add_backend declares (build/backends.txt, read by
 * the scripts) is what its table's flags say, and every backend built in is
 * one the sources declare. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "backends.h"

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
		n++;
	}
	fclose(f);
	size_t built = 0;
	while (rpb_backends[built])
		built++;
	cr_expect_eq(n, built, "backends.txt lists %zu backends, the registry %zu", n, built);
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
