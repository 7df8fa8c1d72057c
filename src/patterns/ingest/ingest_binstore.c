/* The Fedora model's file binary store (ingest_fedora.h), as ModeShape
 * 4.5's FileSystemBinaryStore keeps binaries of minimumBinarySizeInBytes or
 * more: one file per distinct content, named by its SHA-1, three levels of
 * two hex digits deep (findFile), written before the node's transaction
 * commits. Under profile = durable a new file and its directories are
 * synced; under fedora-4.5 nothing is (ModeShape never forces a file), every
 * body first goes through a temporary file (storeValue), and every stored
 * binary gets an empty marker in the trash tree (markAsUnused) that the
 * create removes once it has committed (markAsUsed); the marker's
 * directories stay. It is the pattern's, not a backend's: the same files
 * beside every store. */
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
#include "storeloc.h"
#include "ingest_fedora.h"

/* In the store's directory while a run writes it (fed_binstore_was_open);
 * walks skip names starting with a dot. */
#define OPEN_MARK ".rpbench-writing"
/* A temporary file's name: the digest's (or the spool's "body"), this,
 * the writer's pid and tid. */
#define TEMP_INFIX ".tmp."
/* A spooled body's temporary file in <dir>/tmp. */
#define SPOOL_BASE "body"

static enum rpb_status io_fail(struct rpb_err *err, int e, const char *what, const char *path);

enum rpb_status fed_binstore_open(struct fed_binstore *bs, const struct rpb_ingest_opts *o,
				  const char *store_dir, const char *results_dir, const char *owner,
				  bool sync, bool create, struct rpb_err *err)
{
	memset(bs, 0, sizeof *bs);
	bs->sync = sync;
	bs->sparse = o->preload_batch && o->preload_content == INGEST_CONTENT_SPARSE;
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
	if (!create) {
		/* verify: only a directory its run marked (a result.json may name
		 * any directory, / included). */
		enum rpb_status st = rpb_dir_prepare(bs->dir, false, err);
		if (st)
			return st == RPB_NOMEM ? st : RPB_NOT_FOUND; /* no binary file was stored */
		if (!rpb_dir_has_mark(bs->dir, FED_BINSTORE_MARK))
			return rpb_err_set(err, RPB_INVALID, 0, NULL,
					   "binary store directory %s has no %s mark, so no rpbench run "
					   "made it; verify reads only the binary store its run marked",
					   bs->dir, FED_BINSTORE_MARK);
		return RPB_OK;
	}
	char msg[sizeof err->msg];
	const struct rpb_dir_use use = {.dir = bs->dir, .mark = FED_BINSTORE_MARK, .owner = owner,
					.noun = "binary store directory",
					.option = "ingest.binary_dir"};
	if (rpb_dir_claim(&use, NULL, msg, sizeof msg) != 0)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "%s", msg);
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
	int len = snprintf(out, n, "%s/%.2s/%.2s/%.2s/%s", bs->dir, sha1, sha1 + 2, sha1 + 4, sha1);
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

/* Makes the three levels of two hex digits of sha1 under root (the store
 * or its trash tree), as ModeShape's findFile does with mkdirs. */
static enum rpb_status make_levels(const char *root, const char *sha1, bool sync, char *d3,
				   size_t n, struct rpb_err *err)
{
	char d1[4200], d2[4200];
	snprintf(d1, sizeof d1, "%s/%.2s", root, sha1);
	snprintf(d2, sizeof d2, "%s/%.2s/%.2s", root, sha1, sha1 + 2);
	snprintf(d3, n, "%s/%.2s/%.2s/%.2s", root, sha1, sha1 + 2, sha1 + 4);
	enum rpb_status st = make_dir(d1, root, sync, err);
	if (!st)
		st = make_dir(d2, d1, sync, err);
	if (!st)
		st = make_dir(d3, d2, sync, err);
	return st;
}

/* Writes n bytes to a new file at path (O_EXCL), synced when sync; 0 or
 * the errno, the file removed again on failure. sparse: a file of n bytes
 * with no blocks, its content elided (preload_content = sparse). */
static int write_new(const char *path, const void *p, size_t n, bool sync, bool sparse)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	const unsigned char *q = p;
	size_t left = sparse ? 0 : n;
	int e = sparse && ftruncate(fd, (off_t)n) != 0 ? errno : 0;
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
	if (!e && sync && fsync(fd) != 0)
		e = errno;
	if (close(fd) != 0 && !e)
		e = errno;
	if (e)
		unlink(path);
	return e;
}

/* A temporary name of this thread's own: two threads storing the same
 * content each write their own file, and the second rename replaces the
 * first with the same bytes. */
static void tmp_name(char *out, size_t n, const char *base)
{
	snprintf(out, n, "%s" TEMP_INFIX "%ld.%ld", base, (long)getpid(), (long)gettid());
}

enum rpb_status fed_binstore_put(const struct fed_binstore *bs, const char *sha1, const void *p,
				 size_t n, bool *created, fed_hook_fn before_rename, void *arg,
				 struct rpb_err *err)
{
	char path[4200], d3[4200], tmp[4300];
	*created = false;
	fed_binstore_path(bs, sha1, path, sizeof path);
	struct stat sb;
	if (stat(path, &sb) == 0)
		return RPB_OK; /* the same content is there: one file per content */
	enum rpb_status st = make_levels(bs->dir, sha1, bs->sync, d3, sizeof d3, err);
	if (st)
		return st;
	tmp_name(tmp, sizeof tmp, path);
	int e = write_new(tmp, p, n, bs->sync, bs->sparse);
	if (e)
		return io_fail(err, e, "writing", tmp);
	if (before_rename)
		before_rename(arg);
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		return io_fail(err, e, "writing", path);
	}
	if (bs->sync) {
		int dfd = open(d3, O_RDONLY | O_DIRECTORY);
		if (dfd < 0 || fsync(dfd) != 0) {
			e = errno;
			if (dfd >= 0)
				close(dfd);
			return io_fail(err, e, "syncing", d3);
		}
		close(dfd);
	}
	*created = true;
	return RPB_OK;
}

enum rpb_status fed_binstore_spool(const struct fed_binstore *bs, const void *p, size_t n,
				   unsigned char *back, struct rpb_err *err)
{
	char dir[4200], tmp[4300];
	snprintf(dir, sizeof dir, "%s/" FED_BINSTORE_TMP, bs->dir);
	enum rpb_status st = make_dir(dir, bs->dir, false, err);
	if (st)
		return st;
	size_t dl = strlen(dir);
	snprintf(dir + dl, sizeof dir - dl, "/" SPOOL_BASE);
	tmp_name(tmp, sizeof tmp, dir);
	int e = write_new(tmp, p, n, false, false);
	if (e)
		return io_fail(err, e, "writing", tmp);
	/* A small body is read back from its file (ModeShape's IoUtil.readBytes). */
	int fd = back ? open(tmp, O_RDONLY | O_CLOEXEC) : -1;
	if (back && fd < 0)
		e = errno;
	for (size_t got = 0; fd >= 0 && got < n;) {
		ssize_t r = read(fd, back + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? errno : EIO;
			break;
		}
		got += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return e ? io_fail(err, e, "reading back", tmp) : RPB_OK;
}

enum rpb_status fed_binstore_trash_mark(const struct fed_binstore *bs, const char *sha1,
					struct rpb_err *err)
{
	char root[4200], d3[4200], path[4300];
	snprintf(root, sizeof root, "%s/" FED_BINSTORE_TRASH, bs->dir);
	enum rpb_status st = make_dir(root, bs->dir, false, err);
	if (!st)
		st = make_levels(root, sha1, false, d3, sizeof d3, err);
	if (st)
		return st;
	snprintf(path, sizeof path, "%s/%s", d3, sha1);
	int e = write_new(path, "", 0, false, false);
	return e && e != EEXIST ? io_fail(err, e, "marking in the trash", path) : RPB_OK;
}

void fed_binstore_trash_clear(const struct fed_binstore *bs, const char *sha1)
{
	char path[4300];
	snprintf(path, sizeof path, "%s/" FED_BINSTORE_TRASH "/%.2s/%.2s/%.2s/%s", bs->dir, sha1,
		 sha1 + 2, sha1 + 4, sha1);
	unlink(path);
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

bool fed_binstore_elided(const struct fed_binstore *bs, const char *sha1, uint64_t size)
{
	char path[4200];
	fed_binstore_path(bs, sha1, path, sizeof path);
	struct stat sb;
	return size > 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	       (uint64_t)sb.st_size == size && sb.st_blocks == 0;
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

/* The root of an area: the store itself, its trash tree, its spool. */
static void area_root(const struct fed_binstore *bs, enum fed_area a, char *out, size_t n)
{
	snprintf(out, n, "%s%s", bs->dir,
		 a == FED_AREA_TRASH ? "/" FED_BINSTORE_TRASH : a == FED_AREA_SPOOL ? "/" FED_BINSTORE_TMP : "");
}

void fed_binstore_remove_in(const struct fed_binstore *bs, enum fed_area a, const char *name,
			    size_t len)
{
	size_t d = fed_binstore_temp_of(name, len), dl = d ? d : len;
	char path[4400];
	if (len > 200 || memchr(name, '/', len))
		return;
	if (a == FED_AREA_SPOOL) { /* only a spooled body's temporary file */
		if (dl != strlen(SPOOL_BASE) || !d || memcmp(name, SPOOL_BASE, dl))
			return;
		area_root(bs, a, path, 4200);
		size_t n = strlen(path);
		snprintf(path + n, sizeof path - n, "/%.*s", (int)len, name);
		unlink(path);
		return;
	}
	if (dl < 6 || dl > FED_SHA1_HEX || (a == FED_AREA_TRASH && d))
		return;
	for (size_t i = 0; i < dl; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return; /* not a digest: not the store's */
	char root[4200];
	area_root(bs, a, root, sizeof root);
	snprintf(path, sizeof path, "%s/%.2s/%.2s/%.2s/%.*s", root, name, name + 2, name + 4, (int)len,
		 name);
	unlink(path);
}

void fed_binstore_remove_name(const struct fed_binstore *bs, const char *name, size_t len)
{
	fed_binstore_remove_in(bs, FED_AREA_FILES, name, len);
}

/* Every file levels directory levels down, skipping dot-files and, in the
 * store itself, the trash tree and the spool. */
static uint64_t walk(const char *dir, int depth, int levels, bool top_skip, fed_name_fn fn,
		     void *ctx)
{
	DIR *d = opendir(dir);
	uint64_t n = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.' ||
		    (top_skip && depth == 0 && (!strcmp(e->d_name, FED_BINSTORE_TRASH) ||
						 !strcmp(e->d_name, FED_BINSTORE_TMP))))
			continue;
		if (depth < levels) {
			char sub[4200];
			snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
			n += walk(sub, depth + 1, levels, top_skip, fn, ctx);
		} else {
			fn(ctx, e->d_name, strlen(e->d_name));
			n++;
		}
	}
	if (d)
		closedir(d);
	return n;
}

uint64_t fed_binstore_each_in(const struct fed_binstore *bs, enum fed_area a, fed_name_fn fn,
			      void *ctx)
{
	char root[4200];
	area_root(bs, a, root, sizeof root);
	return walk(root, 0, a == FED_AREA_SPOOL ? 0 : 3, a == FED_AREA_FILES, fn, ctx);
}

uint64_t fed_binstore_each(const struct fed_binstore *bs, fed_name_fn fn, void *ctx)
{
	return fed_binstore_each_in(bs, FED_AREA_FILES, fn, ctx);
}
