/* The Fedora model's file binary store (ingest_fedora.h), as ModeShape's
 * FileSystemBinaryStore keeps binaries of minimumBinarySizeInBytes or more:
 * one file per distinct content, named by its SHA-1, in a directory tree
 * made from the hash's first characters, written and synced before the
 * node's transaction commits. It is the pattern's, not a backend's: the
 * same files beside every store. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "ingest_fedora.h"

/* In the store's directory while a run writes it (fed_binstore_was_open);
 * walks skip names starting with a dot. */
#define OPEN_MARK ".rpbench-writing"
/* A temporary file's name: the digest's, this, the writer's pid and tid. */
#define TEMP_INFIX ".tmp."

static enum rpb_status io_fail(struct rpb_err *err, int e, const char *what, const char *path);

enum rpb_status fed_binstore_open(struct fed_binstore *bs, const struct rpb_ingest_opts *o,
				  const char *store_dir, const char *results_dir, bool sync,
				  bool create, struct rpb_err *err)
{
	memset(bs, 0, sizeof *bs);
	bs->sync = sync;
	int n;
	if (o->binary_dir[0])
		n = snprintf(bs->dir, sizeof bs->dir, "%s", o->binary_dir);
	else if (store_dir)
		n = snprintf(bs->dir, sizeof bs->dir, "%s/binaries", store_dir);
	else if (results_dir)
		n = snprintf(bs->dir, sizeof bs->dir, "%s/binaries", results_dir);
	else
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "the Fedora model's binary store has no place; set ingest.binary_dir");
	if (n < 0 || (size_t)n >= sizeof bs->dir)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "the binary store's path is longer than %zu bytes; set a shorter "
				   "ingest.binary_dir", sizeof bs->dir - 1);
	enum rpb_status st = rpb_dir_prepare(bs->dir, create, err);
	if (st && st != RPB_NOMEM) /* its message names --dir, the store's option */
		rpb_err_set(err, st, err->native, NULL,
			    "binary store directory %s cannot be %s (%s); set ingest.binary_dir to a "
			    "writable directory", bs->dir, create ? "created" : "opened",
			    err->native ? strerror(err->native) : "not a directory");
	if (st || !create)
		return st;
	char mark[4200];
	snprintf(mark, sizeof mark, "%s/%s", bs->dir, OPEN_MARK);
	int fd = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	bs->was_open = fd < 0 && errno == EEXIST;
	if (fd < 0 && !bs->was_open)
		return io_fail(err, errno, "creating", mark);
	if (fd >= 0)
		close(fd);
	bs->marked = true;
	if (rpb_fsync_dir(bs->dir) != 0)
		return io_fail(err, errno, "syncing", bs->dir);
	return RPB_OK;
}

bool fed_binstore_was_open(const struct fed_binstore *bs)
{
	return bs->was_open;
}

void fed_binstore_close(struct fed_binstore *bs)
{
	char mark[4200];
	if (!bs->marked)
		return;
	snprintf(mark, sizeof mark, "%s/%s", bs->dir, OPEN_MARK);
	if (unlink(mark) == 0)
		rpb_fsync_dir(bs->dir);
	bs->marked = false;
}

size_t fed_binstore_path(const struct fed_binstore *bs, const char *sha1, char *out, size_t n)
{
	int len = snprintf(out, n, "%s/%.2s/%.2s/%s", bs->dir, sha1, sha1 + 2, sha1);
	return len < 0 ? 0 : (size_t)len;
}

static enum rpb_status io_fail(struct rpb_err *err, int e, const char *what, const char *path)
{
	enum rpb_status cls = rpb_errno_class(e);
	return rpb_err_set(err, cls, e, NULL, "binary store: %s %s: %s%s", what, path, strerror(e),
			   cls == RPB_DISK_FULL ? "; free disk space" : "");
}

/* Makes dir if missing; a new directory entry is synced into its parent. */
static enum rpb_status make_dir(const char *dir, const char *parent, bool sync,
				struct rpb_err *err)
{
	if (mkdir(dir, 0755) == 0) {
		if (sync) {
			int fd = open(parent, O_RDONLY | O_DIRECTORY);
			if (fd < 0 || fsync(fd) != 0) {
				int e = errno;
				if (fd >= 0)
					close(fd);
				return io_fail(err, e, "syncing", parent);
			}
			close(fd);
		}
		return RPB_OK;
	}
	return errno == EEXIST ? RPB_OK : io_fail(err, errno, "creating", dir);
}

enum rpb_status fed_binstore_put(const struct fed_binstore *bs, const char *sha1, const void *p,
				 size_t n, bool *created, fed_hook_fn before_rename, void *arg,
				 struct rpb_err *err)
{
	char path[4200], d1[4200], d2[4200], tmp[4300];
	*created = false;
	fed_binstore_path(bs, sha1, path, sizeof path);
	struct stat sb;
	if (stat(path, &sb) == 0)
		return RPB_OK; /* the same content is there: one file per content */
	snprintf(d1, sizeof d1, "%s/%.2s", bs->dir, sha1);
	snprintf(d2, sizeof d2, "%s/%.2s/%.2s", bs->dir, sha1, sha1 + 2);
	enum rpb_status st = make_dir(d1, bs->dir, bs->sync, err);
	if (!st)
		st = make_dir(d2, d1, bs->sync, err);
	if (st)
		return st;
	/* A name of this thread's own: two threads storing the same content
	 * each write their own file, and the second rename replaces the first
	 * with the same bytes. */
	snprintf(tmp, sizeof tmp, "%s" TEMP_INFIX "%ld.%ld", path, (long)getpid(), (long)gettid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return io_fail(err, errno, "creating", tmp);
	const unsigned char *q = p;
	size_t left = n;
	int e = 0;
	while (left && !e) {
		ssize_t w = write(fd, q, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			e = w < 0 ? errno : EIO;
		else {
			q += w;
			left -= (size_t)w;
		}
	}
	if (!e && bs->sync && fsync(fd) != 0)
		e = errno;
	if (close(fd) != 0 && !e)
		e = errno;
	if (!e && before_rename)
		before_rename(arg);
	if (!e && rename(tmp, path) != 0)
		e = errno;
	if (e) {
		unlink(tmp);
		return io_fail(err, e, "writing", path);
	}
	if (bs->sync) {
		int dfd = open(d2, O_RDONLY | O_DIRECTORY);
		if (dfd < 0 || fsync(dfd) != 0) {
			e = errno;
			if (dfd >= 0)
				close(dfd);
			return io_fail(err, e, "syncing", d2);
		}
		close(dfd);
	}
	*created = true;
	return RPB_OK;
}

enum rpb_status fed_binstore_get(const struct fed_binstore *bs, const char *sha1,
				 struct rpb_buf *out, struct rpb_err *err)
{
	char path[4200];
	fed_binstore_path(bs, sha1, path, sizeof path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? rpb_err_set(err, RPB_NOT_FOUND, ENOENT, NULL,
						     "binary store: %s is missing", path)
				       : io_fail(err, errno, "opening", path);
	struct stat sb;
	enum rpb_status st = fstat(fd, &sb) == 0 ? RPB_OK : io_fail(err, errno, "reading", path);
	if (!st)
		st = rpb_buf_reserve(out, (size_t)sb.st_size + 1, err);
	size_t got = 0;
	while (!st && got < (size_t)sb.st_size) {
		ssize_t r = read(fd, out->data + got, (size_t)sb.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			st = io_fail(err, r < 0 ? errno : EIO, "reading", path);
		else
			got += (size_t)r;
	}
	close(fd);
	out->len = st ? 0 : got;
	return st;
}

void fed_binstore_remove(const struct fed_binstore *bs, const char *sha1)
{
	char path[4200];
	fed_binstore_path(bs, sha1, path, sizeof path);
	unlink(path);
}

size_t fed_binstore_temp_of(const char *name, size_t len)
{
	const char *dot = memchr(name, '.', len);
	size_t d = dot ? (size_t)(dot - name) : 0;
	return d && len > d + strlen(TEMP_INFIX) && !memcmp(dot, TEMP_INFIX, strlen(TEMP_INFIX)) ? d : 0;
}

void fed_binstore_remove_name(const struct fed_binstore *bs, const char *name, size_t len)
{
	size_t d = fed_binstore_temp_of(name, len), dl = d ? d : len;
	char digest[FED_SHA1_HEX + 1], path[4400];
	if (dl < 4 || dl > FED_SHA1_HEX || len > 200 || memchr(name, '/', len))
		return;
	for (size_t i = 0; i < dl; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return; /* not a digest: not the store's */
	memcpy(digest, name, dl);
	digest[dl] = '\0';
	size_t n = fed_binstore_path(bs, digest, path, sizeof path);
	if (n + len - dl + 1 > sizeof path)
		return;
	memcpy(path + n, name + dl, len - dl);
	path[n + len - dl] = '\0';
	unlink(path);
}

/* Every file two directory levels down. */
static uint64_t walk(const char *dir, int depth, fed_name_fn fn, void *ctx)
{
	DIR *d = opendir(dir);
	uint64_t n = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		if (depth < 2) {
			char sub[4200];
			snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
			n += walk(sub, depth + 1, fn, ctx);
		} else {
			fn(ctx, e->d_name, strlen(e->d_name));
			n++;
		}
	}
	if (d)
		closedir(d);
	return n;
}

uint64_t fed_binstore_each(const struct fed_binstore *bs, fed_name_fn fn, void *ctx)
{
	return walk(bs->dir, 0, fn, ctx);
}
