/* The driver's command line: its options, parsed into struct cli, the usage
 * error every check ends with, and the command line as result.json records it. */
#ifndef RPB_DRIVER_CLI_H
#define RPB_DRIVER_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_SETS 256
#define MAX_PROPS 16

struct cli {
	const char *command;
	const char *target; /* the workload file or the results directory */
	const char *given;  /* the workload as the command line named it */
	bool load;	    /* the verb load: the pattern's load phase */
	bool preload;	    /* the verb preload: --objects N at the pattern's fast path */
	const char *objects; /* --objects N as given */
	uint64_t nobjects;
	const char *cont;   /* run --continue DIR: the preload's results directory */
	uint64_t before;    /* the objects the store of --continue DIR holds */
	const char *sets[MAX_SETS];
	bool foreign[MAX_SETS]; /* -p: the pattern's own property (YCSB's), else --set */
	size_t nsets;
	const char *props[MAX_PROPS]; /* -P files after the first: more of its properties */
	size_t nprops;
	const char *dir, *dsn, *schema, *out;
	bool fresh, quiet;
};

/* Short options as pgbench and fio users expect them: -s, -j, -o, -q, -h,
 * -V. --help-man[=workload] writes the man page (man/CMakeLists.txt). */
#define OPTSTRING "+:s:j:o:qhVP:p:"
extern const struct option drv_longopts[];

int drv_usage_error(const char *prog, const char *fmt, const char *arg);

int drv_parse_cli(struct cli *c, const char *prog, int argc, char **argv);

/* The command line as result.json records it: rebuilt from what was
 * parsed, in canonical spelling, every connection string redacted. */
char *drv_recorded_command(const struct cli *c, const char *argv0);

#endif
