/* The driver's command line: its options, parsed into struct cli, the usage
 * error every check ends with, and the command line as result.json records it. */
#include <string.h>

#include "cmdline.h"
#include "dsn.h"
#include "results.h"
#include "shown.h"
#include "driver_cli.h"

int drv_usage_error(const char *prog, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "; see %s --help\n", prog);
	return RPB_EXIT_USAGE;
}

const struct option drv_longopts[] = {
	{"set", required_argument, NULL, 's'},	   {"threads", required_argument, NULL, 'j'},
	{"dir", required_argument, NULL, 'd'},	   {"dsn", required_argument, NULL, 'D'},
	{"schema", required_argument, NULL, 'S'},  {"out", required_argument, NULL, 'o'},
	{"fresh", no_argument, NULL, 'f'},	   {"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},	   {"version", no_argument, NULL, 'V'},
	{"help-man", optional_argument, NULL, 'M'}, {"args-file", required_argument, NULL, 'A'},
	{"objects", required_argument, NULL, 'N'}, {"continue", required_argument, NULL, 'C'},
	{NULL, 0, NULL, 0},
};

/* -j N is --set run.threads=N: the workload parser checks N (a longer
 * text than any count is refused here, never cut). */
static const char *threads_set(const char *n)
{
	static char text[64];
	if (strlen(n) > 20)
		return NULL;
	snprintf(text, sizeof text, "run.threads=%s", n);
	return text;
}


int drv_parse_cli(struct cli *c, const char *prog, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	opterr = 0;
	optind = 0; /* a fresh getopt: rpb_args_file_argv has read argv before */
	int ch;
	char why[512], shown[RPB_SHOWN_SIZE];
	for (;;) {
		const char *elem = optind < argc ? argv[optind] : NULL;
		if ((ch = getopt_long(argc, argv, OPTSTRING, drv_longopts, NULL)) == -1 && optind >= argc)
			break;
		if (ch == -1) { /* a positional argument: the command and its target */
			if (!c->command)
				c->command = argv[optind];
			else if (!c->target)
				c->target = argv[optind];
			else
				return drv_usage_error(prog, "unexpected argument '%s'",
						       rpb_text_shown(shown, sizeof shown, argv[optind]));
			optind++;
			continue;
		}
		switch (ch) {
		case 'P': /* YCSB's -P FILE: the workload file, then more of its properties */
			if (!c->target) {
				c->target = optarg;
				break;
			}
			if (c->nprops == MAX_PROPS)
				return drv_usage_error(prog, "too many -P files (at most %s)", "16");
			c->props[c->nprops++] = optarg;
			break;
		case 'p': /* YCSB's -p key=value: --set */
		case 's':
		case 'j':
			if (c->nsets == MAX_SETS)
				return drv_usage_error(prog, "too many --set options (at most %s)", "256");
			if (ch == 'j' && !threads_set(optarg))
				return drv_usage_error(prog, "-j takes a thread count from 1 to 1024, not '%s'",
						       rpb_text_shown(shown, sizeof shown, optarg));
			c->foreign[c->nsets] = ch == 'p';
			c->sets[c->nsets++] = ch == 'j' ? threads_set(optarg) : optarg;
			break;
		case 'A': /* the first is read in its place (rpb_args_file_argv) */
			return drv_usage_error(prog, "%s", "--args-file may be given once, and not in its "
					       "own file");
		case 'M': c->command = "--help-man"; c->target = optarg; return 0;
		case 'N': c->objects = optarg; break;
		case 'C': c->cont = optarg; break;
		case 'd': c->dir = optarg; break;
		case 'D': c->dsn = optarg; break;
		case 'S': c->schema = optarg; break;
		case 'o': c->out = optarg; break;
		case 'f': c->fresh = true; break;
		case 'q': c->quiet = true; break;
		case 'h': /* --help [SECTION] */
			c->command = "--help";
			c->target = optind < argc && argv[optind][0] != '-' ? argv[optind] : NULL;
			return 0;
		case 'V': c->command = "--version"; return 0;
		default:
			rpb_cli_problem(why, sizeof why, drv_longopts, ch, elem);
			return drv_usage_error(prog, "%s", why);
		}
	}
	if (!c->command)
		return drv_usage_error(prog, "no command given%s", "");
	return 0;
}

/* The command line as result.json records it: rebuilt from what was
 * parsed, in canonical spelling, every connection string redacted. */
char *drv_recorded_command(const struct cli *c, const char *argv0)
{
	struct rpb_cmd cmd;
	if (!rpb_cmd_open(&cmd))
		return NULL;
	FILE *f = cmd.f;
	rpb_cmd_word(f, argv0);
	rpb_cmd_word(f, c->command);
	if (c->target)
		rpb_cmd_word(f, c->target);
	for (size_t i = 0; i < c->nprops; i++)
		rpb_cmd_opt(f, "-P", c->props[i]);
	for (size_t i = 0; i < c->nsets; i++)
		rpb_cmd_set(f, c->foreign[i] ? "-p" : "--set", c->sets[i]);
	if (c->dir)
		rpb_cmd_opt(f, "--dir", c->dir);
	if (c->dsn)
		rpb_cmd_dsn(f, "--dsn", c->dsn);
	if (c->schema)
		rpb_cmd_opt(f, "--schema", c->schema);
	if (c->out)
		rpb_cmd_opt(f, "--out", c->out);
	if (c->fresh)
		rpb_cmd_word(f, "--fresh");
	if (c->quiet)
		rpb_cmd_word(f, "--quiet");
	return rpb_cmd_close(&cmd);
}
