/* A child's secret arguments in a file of the user's only (child_args.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child_args.h"
#include "cmdline.h"
#include "dsn.h"

bool rpb_child_args_secret(const char *dsn, const char *const *sets, size_t nsets)
{
	bool secret = rpb_dsn_has_secret(dsn);
	for (size_t i = 0; i < nsets && !secret; i++)
		secret = rpb_set_has_secret(sets[i]);
	return secret;
}

static bool write_word(int fd, const char *w)
{
	size_t n = strlen(w) + 1; /* with its NUL: the separator */
	while (n) {
		ssize_t got = write(fd, w, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		w += got;
		n -= (size_t)got;
	}
	return true;
}

/* The file, made new (never one that was there), and its words. */
static int write_file(struct rpb_child_args *s, const char *const *sets, size_t nsets,
		      const char *dsn, char *msg, size_t mn)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	int len = snprintf(s->dir, sizeof s->dir, "%s/rpbench-args.XXXXXX", tmp);
	if (len < 0 || (size_t)len >= sizeof s->dir || !mkdtemp(s->dir)) { /* mkdtemp: mode 0700 */
		snprintf(msg, mn, "cannot create a private directory under %s for the runs' connection "
			 "strings: %s; set TMPDIR to a writable directory", tmp,
			 len < 0 || (size_t)len >= sizeof s->dir ? "name too long" : strerror(errno));
		s->dir[0] = '\0';
		return -1;
	}
	snprintf(s->file, sizeof s->file, "%s/args", s->dir);
	int fd = open(s->file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	bool ok = fd >= 0;
	for (size_t i = 0; ok && i < nsets; i++)
		ok = write_word(fd, "--set") && write_word(fd, sets[i]);
	if (ok && dsn)
		ok = write_word(fd, "--dsn") && write_word(fd, dsn);
	int err = errno;
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = false;
		err = errno;
	}
	if (!ok) {
		snprintf(msg, mn, "cannot write %s for the runs' connection strings: %s; set TMPDIR to a "
			 "writable directory", s->file, strerror(err));
		rpb_child_args_remove(s);
		return -1;
	}
	return 0;
}

int rpb_child_args_add(struct rpb_child_args *s, const char **argv, size_t *a,
		       const char *const *sets, size_t nsets, const char *dsn, char *msg, size_t mn)
{
	s->dir[0] = '\0';
	if (rpb_child_args_secret(dsn, sets, nsets)) {
		if (write_file(s, sets, nsets, dsn, msg, mn) != 0)
			return -1;
		argv[(*a)++] = "--args-file";
		argv[(*a)++] = s->file;
		return 0;
	}
	for (size_t i = 0; i < nsets; i++) {
		argv[(*a)++] = "--set";
		argv[(*a)++] = sets[i];
	}
	if (dsn) {
		argv[(*a)++] = "--dsn";
		argv[(*a)++] = dsn;
	}
	return 0;
}

void rpb_child_args_remove(struct rpb_child_args *s)
{
	if (!s->dir[0])
		return;
	unlink(s->file);
	rmdir(s->dir);
	s->dir[0] = '\0';
}
