/* The shared driver behind every rpbench-<backend> binary: the command
 * it was given, dispatched to its verb (driver_run.c, driver_verify.c). */
#include <limits.h>
#include <signal.h>
#include <string.h>

#include "dist.h"
#include "cmdline.h"
#include "driver.h"
#include "driver_help.h"
#include "driver_preload.h"
#include "driver_argsfile.h"
#include "driver_ycsb.h"
#include "dsn.h"
#include "paths.h"
#include "pattern.h"
#include "results.h"
#include "shown.h"
#include "driver_cli.h"
#include "driver_run.h"
#include "driver_verify.h"

static int driver_main(const struct rpb_backend *b, int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	/* A closed stdout (| head) must not kill a run before it writes its
	 * results: writes fail with EPIPE instead, and rpb_stdout_lost() notices. */
	signal(SIGPIPE, SIG_IGN);
	struct rpb_err err;
	if (rpb_backend_validate(b, &err) != RPB_OK) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return RPB_EXIT_ENV;
	}
	for (size_t i = 0; i < rpb_pattern_count(); i++)
		if (rpb_pattern_validate(rpb_pattern_at(i), &err) != RPB_OK) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			return RPB_EXIT_ENV;
		}
	/* YCSB's own flags (-threads, -target, -s, -load, ...) in the driver's words. */
	char ymsg[512];
	if (rpb_ycsb_argv(&argc, &argv, ymsg, sizeof ymsg) != 0)
		return drv_usage_error(prog, "%s", ymsg);
	if (rpb_args_file_argv(&argc, &argv, OPTSTRING, drv_longopts, ymsg, sizeof ymsg) != 0)
		return drv_usage_error(prog, "%s", ymsg);
	struct cli c;
	int rc = drv_parse_cli(&c, prog, argc, argv);
	if (rc)
		return rc;
	if (strcmp(c.command, "--help") == 0 || strcmp(c.command, "help") == 0) {
		struct rpb_help h = {.f = stdout, .format = RPB_HELP_TEXT};
		char msg[1024];
		if (!c.target)
			rpb_driver_help(&h, b, prog);
		else if (rpb_driver_help_section(&h, c.target, prog, msg, sizeof msg) != 0) {
			fprintf(stderr, "%s\n", msg);
			return RPB_EXIT_USAGE;
		}
		return 0;
	}
	if (strcmp(c.command, "--help-man") == 0) {
		struct rpb_help h = {.f = stdout, .format = RPB_HELP_MAN};
		if (c.target && strcmp(c.target, "workload") == 0)
			rpb_workload_man(&h);
		else if (!c.target)
			rpb_driver_help(&h, b, prog);
		else {
			char shown[RPB_SHOWN_SIZE];
			return drv_usage_error(prog, "--help-man takes no value or 'workload', not '%s'",
					       rpb_text_shown(shown, sizeof shown, c.target));
		}
		return 0;
	}
	if (strcmp(c.command, "--version") == 0) {
		printf("rpbench %s (%s backend: %s)\n", RPB_VERSION, b->name, b->version());
		return 0;
	}
	if (strcmp(c.command, "run") == 0 || strcmp(c.command, "load") == 0 ||
	    strcmp(c.command, "preload") == 0) {
		static char workload[PATH_MAX];
		c.given = c.target;
		if (c.target)
			c.target = rpb_path_workload(workload, sizeof workload, c.target);
		c.load = strcmp(c.command, "load") == 0;
		c.preload = strcmp(c.command, "preload") == 0;
		char pmsg[256];
		if (c.preload && rpb_preload_objects(c.objects, &c.nobjects, pmsg, sizeof pmsg) != 0)
			return drv_usage_error(prog, "%s", pmsg);
		if (!c.preload && c.objects)
			return drv_usage_error(prog, "--objects is for the verb preload%s", "");
		if (c.cont && c.load)
			return drv_usage_error(prog, "--continue is for the verbs run and preload%s", "");
		return drv_cmd_run(b, &c, prog, argv[0]);
	}
	if (c.objects || c.cont)
		return drv_usage_error(prog, "%s", c.objects ? "--objects is for the verb preload"
							 : "--continue is for the verbs run and preload");
	if (strcmp(c.command, "verify") == 0)
		return c.target ? drv_verify_ranks(b, &c, prog) : drv_cmd_verify(b, &c, prog);
	static const char *const commands[] = {"run", "load", "preload", "verify", NULL};
	char msg[RPB_SHOWN_SIZE + 128];
	rpb_cli_unknown_command(msg, sizeof msg, c.command, commands);
	return drv_usage_error(prog, "%s", msg);
}

int rpb_main(const struct rpb_backend *b, int argc, char **argv)
{
	char msg[256];
	if (rpb_dist_init(&argc, &argv, msg, sizeof msg) != 0) {
		fprintf(stderr, "%s: %s\n", argv[0], msg);
		return RPB_EXIT_ENV;
	}
	int rc = driver_main(b, argc, argv);
	rpb_dist_finalize();
	return rc;
}
