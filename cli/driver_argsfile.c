/* Arguments from a file of the user's only (driver_argsfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver_argsfile.h"
#include "shown.h"

#define ARGS_FILE_MAX (1 << 20)

/* FILE whole, NUL-terminated words; NULL with msg. */
static char *read_words(const char *path, size_t *len, char *msg, size_t n)
{
	char shown[RPB_SHOWN_SIZE];
	rpb_shown(shown, sizeof shown, path);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0) {
		snprintf(msg, n, "cannot read --args-file %s: %s", shown, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	const char *why = !S_ISREG(sb.st_mode)		     ? "is not a regular file"
			  : sb.st_uid != geteuid()	     ? "belongs to another user"
			  : (sb.st_mode & 077)		     ? "may be read by other users; make it mode 0600"
			  : sb.st_size > ARGS_FILE_MAX     ? "is larger than 1 MiB"
							     : NULL;
	char *text = why ? NULL : malloc((size_t)sb.st_size + 1);
	size_t got = 0;
	while (text && got < (size_t)sb.st_size) {
		ssize_t r = read(fd, text + got, (size_t)sb.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (!why && !text)
		why = "is too large for memory";
	else if (!why && (got != (size_t)sb.st_size || (got && text[got - 1] != '\0')))
		why = "does not hold words each ended by a NUL byte";
	if (why) {
		snprintf(msg, n, "--args-file %s %s", shown, why);
		free(text);
		return NULL;
	}
	text[got] = '\0';
	*len = got;
	return text;
}

int rpb_args_file_argv(int *argc, char ***argv, const char *optstring,
		    const struct option *longopts, char *msg, size_t n)
{
	int at = -1, end = 0;
	const char *path = NULL;
	opterr = 0;
	optind = 0;
	for (;;) {
		int before = optind ? optind : 1;
		int ch = getopt_long(*argc, *argv, optstring, longopts, NULL);
		if (ch == -1 && optind >= *argc)
			break;
		if (ch == -1) { /* a positional argument */
			optind++;
			continue;
		}
		if (ch == 'A') {
			at = before, end = optind, path = optarg;
			break;
		}
	}
	optind = 0;
	if (at < 0)
		return 0;
	size_t len;
	char *text = read_words(path, &len, msg, n);
	if (!text)
		return -1;
	size_t words = 0;
	for (size_t i = 0; i < len; i++)
		words += text[i] == '\0';
	char **v = malloc(((size_t)*argc + words + 1) * sizeof *v);
	if (!v) {
		free(text);
		snprintf(msg, n, "out of memory reading --args-file");
		return -1;
	}
	size_t k = 0;
	for (int i = 0; i < at; i++)
		v[k++] = (*argv)[i];
	for (size_t i = 0; i < len; i += strlen(text + i) + 1)
		v[k++] = text + i;
	for (int i = end; i < *argc; i++)
		v[k++] = (*argv)[i];
	v[k] = NULL;
	*argc = (int)k;
	/* Kept for the program's life (and reachable, for the leak checker). */
	static char *kept_text, **kept_v;
	kept_text = text;
	kept_v = v;
	*argv = kept_v;
	(void)kept_text;
	return 0;
}
