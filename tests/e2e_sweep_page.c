/* rpbench sweep's page: index.html with the figure in SVG and PNG, ticks
 * at the concurrencies swept (whole numbers; log2 over a factor of 8), an
 * efficiency panel, the backend's colour, and a warning that names exactly
 * the points measured under 1 s (from each run's own elapsed_s, so no
 * timing is assumed). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "figure.h"

#ifdef RPB_HAVE_SQLITE

Test(e2e_sweep_page, figure_and_warning, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "sweep", E2E_CI_INGEST, "--backend", "sqlite", "--set",
		     "threads=1,2,8", "--set", "ops=120", "--set", "probe_every=0", "--quiet", "--out",
		     e.out, NULL);
	e2e_exec_ok(e.cap, &a);
	char *gp = e2e_slurp_in(e.out, "sweep.gp");
	char colour[64];
	snprintf(colour, sizeof colour, "lc rgb '%s'", rpb_palette_colour("sqlite"));
	for (const char *const *t = (const char *const[]){"set logscale x 2", "set xtics ('1' 1, '2' 2, '8' 8)",
							  "using 1:($6*100)", "set ylabel 'efficiency, %'",
							  colour, "set output 'sweep.png'", NULL};
	     *t; t++)
		cr_assert(strstr(gp, *t), "sweep.gp lacks %s:\n%s", *t, gp);
	free(gp);
	free(e2e_slurp_in(e.out, "sweep.svg"));
	free(e2e_slurp_in(e.out, "sweep.png"));
	char *html = e2e_slurp_in(e.out, "index.html");
	cr_assert(strstr(html, "<img src=\"sweep.svg\""), "index.html shows no figure");
	const char *warn = strstr(html, "Points under 1 s are noise");
	const char *end = warn ? strstr(warn, "</p>") : NULL;
	static const unsigned conc[] = {1, 2, 8};
	size_t shorts = 0;
	for (size_t i = 0; i < 3; i++) {
		char dir[E2E_PATH + 64], named[32];
		snprintf(dir, sizeof dir, "%s/runs/t%u-r1-1", e.out, conc[i]);
		json_t *r = e2e_result(dir);
		double el = json_number_value(json_object_get(json_object_get(r, "totals"), "elapsed_s"));
		json_decref(r);
		snprintf(named, sizeof named, " %u (", conc[i]);
		const char *at = warn ? strstr(warn, named) : NULL;
		bool in_warning = at && at < end;
		cr_assert_eq(in_warning, el < 1.0, "concurrency %u measured %g s: %s by the warning",
			     conc[i], el, in_warning ? "named" : "not named");
		shorts += el < 1.0;
	}
	cr_assert_eq(warn != NULL, shorts > 0);
	free(html);
	e2e_env_fini(&e);
}

#endif
