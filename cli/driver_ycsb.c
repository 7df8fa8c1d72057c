/* YCSB's own command-line flags (site.ycsb.Client.parseArguments, YCSB
 * 0.17.0 and master) in the driver's words, so a YCSB command line runs as
 * it is:
 *
 *   -threads N   -p threadcount=N        -target N   -p target=N
 *   -load        the verb load            -t          the verb run
 *   -db CLASS    -p db=CLASS              -l LABEL    -p label=LABEL
 *   -s           -p status=true
 *
 * -P FILE and -p KEY=VALUE are the driver's own. rpbench's -s takes
 * KEY=VALUE (--set), YCSB's nothing: -s is YCSB's status flag exactly when
 * no KEY=VALUE follows it (the end of the line, another option or a word
 * without '='). A command line without a verb that uses YCSB's flags or -P
 * runs the run phase, YCSB's default (-t); -load or -t beside a verb must
 * agree with it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_ycsb.h"

/* The driver's options that take their value as the next word. */
static bool takes_value(const char *a)
{
	static const char *const with[] = {"-s", "-j", "-o", "-P", "-p", "--set", "--threads",
					   "--dir", "--dsn", "--schema", "--out", "--args-file", NULL};
	for (const char *const *w = with; *w; w++)
		if (strcmp(a, *w) == 0)
			return true;
	return false;
}

static bool is_verb(const char *a)
{
	return strcmp(a, "run") == 0 || strcmp(a, "load") == 0 || strcmp(a, "verify") == 0;
}

int rpb_ycsb_argv(int *argcp, char ***argvp, char *msg, size_t n)
{
	int argc = *argcp;
	char **argv = *argvp;
	/* Each flag becomes at most two words, and a verb may be added; kept
	 * for the program's life, as argv is. */
	static char **v;
	free(v);
	v = calloc((size_t)argc * 2 + 2, sizeof *v);
	if (!v) {
		snprintf(msg, n, "out of memory for the command line");
		return -1;
	}
	/* The properties' text: "threadcount=" + the value, kept for the run. */
	static char props[64][160], dash_p_word[] = "-p", run_word[] = "run", load_word[] = "load";
	int np = 0, k = 1;
	const char *verb = NULL, *command = NULL;
	bool ycsb = false, dash_p = false;
	v[0] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *prop = NULL, *val = NULL;
		if (!strcmp(a, "-threads"))
			prop = "threadcount";
		else if (!strcmp(a, "-target"))
			prop = "target";
		else if (!strcmp(a, "-db"))
			prop = "db";
		else if (!strcmp(a, "-l"))
			prop = "label";
		if (prop) {
			if (i + 1 >= argc) {
				snprintf(msg, n, "%s needs a value (YCSB's %s %s)", a, a,
					 !strcmp(prop, "db") ? "CLASS" : !strcmp(prop, "label") ? "LABEL" : "N");
				return -1;
			}
			val = argv[++i];
		} else if (!strcmp(a, "-s") &&
			   !(i + 1 < argc && argv[i + 1][0] != '-' && strchr(argv[i + 1], '='))) {
			prop = "status";
			val = "true";
		} else if (!strcmp(a, "-load") || !strcmp(a, "-t")) {
			const char *want = a[1] == 'l' ? "load" : "run";
			if (verb && strcmp(verb, want) != 0) {
				snprintf(msg, n, "-load and -t both given; YCSB's -load is the verb load, -t "
					 "the verb run: give one");
				return -1;
			}
			verb = want;
			ycsb = true;
			continue;
		}
		if (prop) {
			if (np == 64) {
				snprintf(msg, n, "too many of YCSB's flags (at most 64)");
				return -1;
			}
			snprintf(props[np], sizeof props[np], "%s=%.140s", prop, val);
			v[k++] = dash_p_word;
			v[k++] = props[np++];
			ycsb = true;
			continue;
		}
		if (!strcmp(a, "-P"))
			dash_p = true;
		v[k++] = argv[i];
		if (takes_value(a) && i + 1 < argc) {
			v[k++] = argv[++i];
		} else if (a[0] != '-' && !command) {
			command = a;
		}
	}
	if (verb && command && is_verb(command) && strcmp(command, verb) != 0) {
		snprintf(msg, n, "YCSB's -%s means the verb %s, but the command line says %s; give "
			 "one of them", !strcmp(verb, "load") ? "load" : "t", verb, command);
		return -1;
	}
	if (!command && (ycsb || dash_p)) { /* YCSB's default phase, or the one -load/-t named */
		memmove(v + 2, v + 1, (size_t)(k - 1) * sizeof *v);
		v[1] = verb && !strcmp(verb, "load") ? load_word : run_word;
		k++;
	}
	v[k] = NULL;
	*argcp = k;
	*argvp = v;
	return 0;
}
