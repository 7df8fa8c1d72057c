#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "paths.h"

enum rpb_status rpb_errno_class(int e)
{
	switch (e) {
	case ENOSPC:
	case EDQUOT:
		return RPB_DISK_FULL;
	case ENOMEM:
		return RPB_NOMEM;
	case ENOENT:
		return RPB_NOT_FOUND;
	case EEXIST:
		return RPB_EXISTS;
	case EINVAL:
	case ENAMETOOLONG:
	case ENOTDIR:
	case EACCES:
	case EPERM:
	case EROFS:
		return RPB_INVALID;
	default:
		return RPB_IO;
	}
}

static int mkdir_parents(const char *dir)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

enum rpb_status rpb_dir_prepare(const char *dir, bool create, struct rpb_err *err)
{
	struct stat sb;
	if (!dir || !*dir)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "no store directory given; pass --dir PATH");
	if (stat(dir, &sb) != 0) {
		if ((errno != ENOENT && errno != ENOTDIR) || !create)
			return rpb_err_set(err, errno == ENOENT ? RPB_NOT_FOUND : RPB_INVALID, errno, NULL,
					   create ? "store directory %s: %s; choose a directory rpbench can create (--dir)"
						  : "store directory %s: %s; point --dir at the store's directory",
					   dir, strerror(errno));
		if (mkdir_parents(dir) != 0)
			return rpb_err_set(err, rpb_errno_class(errno), errno, NULL,
					   "cannot create store directory %s: %s; choose a writable --dir",
					   dir, strerror(errno));
		return RPB_OK;
	}
	if (!S_ISDIR(sb.st_mode))
		return rpb_err_set(err, RPB_INVALID, ENOTDIR, NULL,
				   "store path %s is not a directory; choose a directory for --dir", dir);
	if (access(dir, W_OK | X_OK) != 0)
		return rpb_err_set(err, RPB_INVALID, errno, NULL,
				   "store directory %s is not writable (%s); choose a writable --dir",
				   dir, strerror(errno));
	return RPB_OK;
}

uint64_t rpb_file_usage(const char *path)
{
	struct stat sb;
	if (stat(path, &sb) != 0)
		return 0;
	return (uint64_t)sb.st_blocks * 512u;
}

/* A file's bytes on disk; with holes (elided: not NULL), as written: its
 * size rounded up to the file system's block, the difference from what it
 * holds added to *elided. */
static uint64_t file_bytes(const struct stat *sb, uint64_t *elided)
{
	uint64_t held = (uint64_t)sb->st_blocks * 512u;
	if (!elided || !S_ISREG(sb->st_mode) || sb->st_blksize <= 0)
		return held;
	uint64_t blk = (uint64_t)sb->st_blksize, size = (uint64_t)sb->st_size;
	uint64_t written = (size + blk - 1) / blk * blk;
	if (written <= held)
		return held;
	*elided += written - held;
	return written;
}

/* max_depth 0: the files of dir only; more: its subdirectories too.
 * elided: see file_bytes. */
static int usage_walk(const char *dir, uint64_t *bytes, uint64_t *elided, int depth,
		      int max_depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *de;
	char path[PATH_MAX];
	int rc = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct stat sb;
		if (rpb_path_join(path, sizeof path, dir, de->d_name) != 0) {
			rc = -1; /* errno = ENAMETOOLONG */
			break;
		}
		if (lstat(path, &sb) != 0)
			continue; /* removed while we looked: a compaction, not an error */
		if (S_ISDIR(sb.st_mode)) {
			if (depth >= max_depth)
				continue;
			*bytes += (uint64_t)sb.st_blocks * 512u;
			if (usage_walk(path, bytes, elided, depth + 1, max_depth) != 0)
				rc = -1;
			continue;
		}
		*bytes += file_bytes(&sb, elided);
	}
	closedir(d);
	return rc;
}

enum rpb_status rpb_dir_usage(const char *dir, uint64_t *bytes, struct rpb_err *err)
{
	*bytes = 0;
	if (usage_walk(dir, bytes, NULL, 0, 16) != 0)
		return rpb_err_set(err, rpb_errno_class(errno), errno, NULL,
				   "cannot measure store directory %s: %s", dir, strerror(errno));
	return RPB_OK;
}

enum rpb_status rpb_dir_usage_written(const char *dir, uint64_t *bytes, uint64_t *elided,
				      struct rpb_err *err)
{
	*bytes = *elided = 0;
	if (usage_walk(dir, bytes, elided, 0, 16) != 0)
		return rpb_err_set(err, rpb_errno_class(errno), errno, NULL,
				   "cannot measure directory %s: %s", dir, strerror(errno));
	return RPB_OK;
}

enum rpb_status rpb_dir_files_usage(const char *dir, uint64_t *bytes, struct rpb_err *err)
{
	*bytes = 0;
	if (usage_walk(dir, bytes, NULL, 0, 0) != 0)
		return rpb_err_set(err, rpb_errno_class(errno), errno, NULL,
				   "cannot measure store directory %s: %s", dir, strerror(errno));
	return RPB_OK;
}

char *rpb_file_slurp(const char *path, size_t max, size_t *len, const char **why)
{
	/* O_NONBLOCK: a FIFO under a result file's name must not hang the open. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	char *buf = NULL;
	*why = NULL;
	if (fd < 0)
		*why = errno == ENOENT ? "does not exist" : "cannot be opened";
	else if (fstat(fd, &st) != 0)
		*why = "cannot be read";
	else if (S_ISDIR(st.st_mode))
		*why = "is a directory, not a file";
	else if (!S_ISREG(st.st_mode))
		*why = "is not a regular file";
	else if ((uint64_t)st.st_size > max)
		*why = "is larger than any file rpbench writes";
	else if (!(buf = malloc((size_t)st.st_size + 1)))
		*why = "does not fit in memory";
	size_t got = 0;
	while (buf && got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*why = "cannot be read";
			break;
		}
		got += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	if (*why) {
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

static int fsync_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

int rpb_fsync_dir(const char *dir)
{
	return fsync_open(dir, O_RDONLY | O_DIRECTORY);
}

int rpb_fsync_path(const char *path)
{
	return fsync_open(path, O_RDONLY | O_NOFOLLOW);
}
