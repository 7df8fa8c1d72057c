/* One colour per backend in every figure rpbench draws: the palette is
 * keyed by the backend's name alone, a backend's further columns (profiles,
 * syncs) differ only in dash and point type, and bench/fedora-scale.sh's
 * gnuplot uses the same colours. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "figure.h"

Test(palette, keyed_by_backend)
{
	cr_assert_str_eq(rpb_palette_colour("leveldb"), "#0072b2");
	cr_assert_str_eq(rpb_palette_colour("sqlite"), "#e69f00");
	cr_assert_str_eq(rpb_palette_colour("postgres"), "#009e73");
	/* Another backend: the same colour whenever it is asked for, not one
	 * of the known backends'. */
	const char *x = rpb_palette_colour("example");
	cr_assert_str_eq(x, rpb_palette_colour("example"));
	for (const char *const *k = (const char *const[]){"leveldb", "sqlite", "postgres", NULL}; *k; k++)
		cr_assert_str_neq(x, rpb_palette_colour(*k));
}

Test(palette, columns_of_one_backend)
{
	struct rpb_cmp_backend be[3] = {0};
	const char *names[] = {"sqlite", "leveldb", "sqlite"};
	const char *labels[] = {"sqlite / durable / none", "leveldb / durable / none",
				"sqlite / durable / full"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(be[i].name, sizeof be[i].name, "%s", names[i]);
		snprintf(be[i].label, sizeof be[i].label, "%s", labels[i]);
	}
	struct rpb_cmp c = {.backends = be, .nbackends = 3};
	/* sqlite first here, leveldb second: each keeps its own colour. */
	cr_assert_str_eq(rpb_plot_colour(&c, labels[0]), "#e69f00");
	cr_assert_str_eq(rpb_plot_colour(&c, labels[2]), "#e69f00");
	cr_assert_str_eq(rpb_plot_colour(&c, labels[1]), "#0072b2");
	cr_assert_str_eq(rpb_plot_colour(&c, "leveldb"), "#0072b2");
	cr_assert_eq(rpb_plot_variant(&c, 0), 0);
	cr_assert_eq(rpb_plot_variant(&c, 1), 0);
	cr_assert_eq(rpb_plot_variant(&c, 2), 1);
}

Test(palette, fedora_scale_script_agrees)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/bench/fedora-scale.sh", RPB_SOURCE_DIR);
	char *sh = e2e_slurp(path, NULL);
	cr_assert_not_null(sh, "cannot read %s", path);
	for (const char *const *k = (const char *const[]){"leveldb", "sqlite", "postgres", NULL}; *k; k++) {
		char line[128];
		snprintf(line, sizeof line, "%s) echo '%s' ;;", *k, rpb_palette_colour(*k));
		cr_assert(strstr(sh, line), "fedora-scale.sh lacks \"%s\"", line);
	}
	cr_assert(strstr(sh, "lc rgb \"%s\""), "fedora-scale.sh draws without the colours");
	free(sh);
}
