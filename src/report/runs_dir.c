/* The output directory of rpbench sweep and scale (runs_dir.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "runs_dir.h"

int rpb_runs_dir_prepare(const char *out, const char *what, const char *held, char *msg,
			 size_t n)
{
	static const char *const subdirs[] = {"runs", "stores", "logs"};
	struct rpb_err err;
	if (rpb_dir_prepare(out, true, &err) != RPB_OK) {
		snprintf(msg, n, "cannot use %s as the %s's directory (%s); choose a writable --out",
			 out, what, err.native ? strerror(err.native) : "not a directory");
		return -1;
	}
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", out, held);
	if (access(path, F_OK) == 0) {
		snprintf(msg, n, "%s already holds a %s (%s); choose a new --out", out, what, held);
		return -1;
	}
	for (size_t i = 0; i < sizeof subdirs / sizeof *subdirs; i++) {
		snprintf(path, sizeof path, "%s/%s", out, subdirs[i]);
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			snprintf(msg, n, "cannot create %s: %s; choose a writable --out", path,
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

void rpb_print_file(const char *path)
{
	FILE *r = fopen(path, "r");
	char line[512];
	while (r && fgets(line, sizeof line, r))
		fputs(line, stdout);
	if (r)
		fclose(r);
}
