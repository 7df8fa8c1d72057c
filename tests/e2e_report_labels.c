/* rpbench report's labels-time figure: from samples.jtl, each label of the
 * run apart over time, so harvest's background snapshot filler (sampled as
 * snapshot-build) shows beside the requests; a label the run does not
 * have never reaches the script. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

#ifdef RPB_HAVE_SQLITE


Test(report_labels, harvest_filler_beside_requests, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_WORKLOAD("ci-harvest.ini"), e.out);
	e2e_args_add(&a, "--set", "token=snapshot", "--set", "snapshot_build=background", "--set",
		     "jtl=on", NULL);
	e2e_exec_ok(e.cap, &a);

	/* A row whose label the run does not have, made to run a command. */
	char path[E2E_PATH * 2];
	snprintf(path, sizeof path, "%s/samples.jtl", e.out);
	char *jtl = e2e_slurp(path, NULL);
	cr_assert_not_null(jtl);
	char *more = malloc(strlen(jtl) + 128);
	char *nl = strchr(jtl, '\n');
	cr_assert_not_null(nl);
	long long ts = atoll(nl + 1);
	sprintf(more, "%s%lld,1,';system(\"touch PWNED\")#,200,\"OK\"\n", jtl, ts);
	e2e_write_file(path, more);
	free(more), free(jtl);

	char rep[E2E_PATH];
	struct e2e_args r = {0};
	e2e_args_add(&r, RPBENCH, "report", e.out, "--out", e2e_path(&e, rep, "rep"), "--quiet", NULL);
	/* Drawn without the row, which is counted: exit 4, the data's. */
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &r);
	e2e_assert_refusal(&p, 4, "samples.jtl 1 row skipped: label not in result.json", NULL);
	e2e_proc_free(&p);
	char *dat = e2e_slurp_in(rep, "data/labels-time-sqlite.dat");
	char *gp = e2e_slurp_in(rep, "figures/labels-time.gp");
	char *html = e2e_slurp_in(rep, "index.html");
	free(e2e_slurp_in(rep, "figures/labels-time.svg"));
	cr_assert(strstr(dat, "s): request snapshot-build snapshot-drop"),
		  "data header: %.200s", dat);
	cr_assert(strstr(gp, "title 'request'") && strstr(gp, "title 'snapshot-build'"),
		  "labels-time.gp does not draw the requests and the filler:\n%s", gp);
	cr_assert_null(strstr(gp, "system"), "a label the run does not have reached the script");
	cr_assert_null(strstr(dat, "system"));
	cr_assert(strstr(html, "<img src=\"figures/labels-time.svg\""));
	free(dat), free(gp), free(html);
	e2e_env_fini(&e);
}

#endif
