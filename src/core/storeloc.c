#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "paths.h"
#include "storeloc.h"
#include "storelock.h"

static const char meta_mark[] = "rpbench-store";

static int remove_tree(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd >= 0) {
		DIR *d = fdopendir(fd);
		struct dirent *de;
		while (d && (de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				remove_tree(fd, de->d_name);
		if (d)
			closedir(d);
		else
			close(fd);
		return unlinkat(parent, name, AT_REMOVEDIR);
	}
	return unlinkat(parent, name, 0);
}

/* Lists the directory: is it empty, and does it carry the mark? The lock's
 * own files count for neither. */
static int inspect(const char *dir, const char *mark, bool *empty, bool *marked)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *de;
	*empty = true;
	*marked = false;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    rpb_storelock_is_own_name(de->d_name))
			continue;
		if (!strcmp(de->d_name, mark))
			*marked = true;
		else
			*empty = false;
	}
	closedir(d);
	return 0;
}

/* The text of a mark: the store's fixed line, or one naming the owner. */
static int mark_text(char *buf, size_t n, const char *owner)
{
	int len = owner ? snprintf(buf, n, "This directory belongs to the rpbench store %s.\n", owner)
			: snprintf(buf, n, "This directory is an rpbench store; rpbench --fresh may empty it.\n");
	return len < 0 || (size_t)len >= n ? -1 : len;
}

/* Creates the mark in a new or empty directory. Two runs may both find it
 * empty: the mark is made once, and the lock (or the owner's text) then
 * decides between them. */
static int make_mark(const struct rpb_dir_use *u, char *msg, size_t n)
{
	char text[PATH_MAX + 128], path[PATH_MAX];
	int len = mark_text(text, sizeof text, u->owner);
	if (len < 0 || rpb_path_join(path, sizeof path, u->dir, u->mark) != 0) {
		snprintf(msg, n, "%s %.256s... is too long; choose a shorter %s", u->noun, u->dir,
			 u->option);
		return -1;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return 0;
	bool ok = fd >= 0 && write(fd, text, (size_t)len) == (ssize_t)len;
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	if (!ok) {
		snprintf(msg, n, "cannot write %s: %s; choose a writable %s", path, strerror(errno),
			 u->option);
		return -1;
	}
	return 0;
}

/* Does the mark in dir name owner (NULL: any mark will do)? */
static bool mark_is_owners(const char *dir, const char *mark, const char *owner)
{
	char path[PATH_MAX], want[PATH_MAX + 128], got[PATH_MAX + 129];
	int len = mark_text(want, sizeof want, owner);
	if (!owner)
		return true;
	if (len < 0 || rpb_path_join(path, sizeof path, dir, mark) != 0)
		return false;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t r = read(fd, got, sizeof got);
	close(fd);
	return r == len && !memcmp(got, want, (size_t)len);
}

int rpb_dir_claim(const struct rpb_dir_use *u, bool *was_marked, char *msg, size_t n)
{
	struct rpb_err err;
	if (rpb_dir_prepare(u->dir, true, &err) != RPB_OK) {
		snprintf(msg, n, "%s %s cannot be created or written (%s); choose a writable %s",
			 u->noun, u->dir, err.native ? strerror(err.native) : "not a directory",
			 u->option);
		return -1;
	}
	bool empty, marked;
	if (inspect(u->dir, u->mark, &empty, &marked) != 0) {
		snprintf(msg, n, "cannot read %s %s: %s; choose a readable %s", u->noun, u->dir,
			 strerror(errno), u->option);
		return -1;
	}
	if (!marked && !empty) {
		snprintf(msg, n, "%s %s holds files rpbench did not create (no %s mark); "
			 "choose a new or empty %s", u->noun, u->dir, u->mark, u->option);
		return -1;
	}
	if (!marked && make_mark(u, msg, n) != 0)
		return -1;
	/* Made now or found: a mark of another store's is not ours. */
	if (!mark_is_owners(u->dir, u->mark, u->owner)) {
		snprintf(msg, n, "%s %s belongs to another rpbench store (see its %s); "
			 "choose a new or empty %s", u->noun, u->dir, u->mark, u->option);
		return -1;
	}
	if (was_marked)
		*was_marked = marked;
	return 0;
}

bool rpb_dir_has_mark(const char *dir, const char *mark)
{
	char path[PATH_MAX];
	struct stat sb;
	return rpb_path_join(path, sizeof path, dir, mark) == 0 && lstat(path, &sb) == 0 &&
	       S_ISREG(sb.st_mode);
}

/* Is the entry the store's own: a file the library makes, or a directory
 * marked as a directory the store owns (a binary store, RPB_OWNED_MARK)? */
static bool is_own_entry(int dfd, const char *name, const char *const *own_files)
{
	struct stat sb;
	if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT;
	if (S_ISREG(sb.st_mode)) {
		for (const char *const *p = own_files; p && *p; p++)
			if (fnmatch(*p, name, FNM_PERIOD) == 0)
				return true;
		return false;
	}
	if (!S_ISDIR(sb.st_mode))
		return false;
	char mark[NAME_MAX + sizeof RPB_OWNED_MARK + 2];
	snprintf(mark, sizeof mark, "%s/%s", name, RPB_OWNED_MARK);
	return fstatat(dfd, mark, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode);
}

/* --fresh empties only a store that holds nothing but its own: results
 * kept there, or files of yours, are refused, never removed. */
static int check_all_own(const char *dir, const char *const *own_files, char *msg, size_t n)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(msg, n, "--fresh cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, RPB_DIR_MARK) && !rpb_storelock_is_own_name(de->d_name) &&
		    !is_own_entry(dirfd(d), de->d_name, own_files)) {
			snprintf(msg, n, "--fresh would empty the store %s, which holds %.255s, not the "
				 "store's own; move it out of the store, or choose another --dir",
				 dir, de->d_name);
			rc = -1;
		}
	closedir(d);
	return rc;
}

/* --fresh: removes everything but the mark and the lock's files. */
static int empty_dir(const char *dir, char *msg, size_t n)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(msg, n, "--fresh cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, RPB_DIR_MARK) && !rpb_storelock_is_own_name(de->d_name) &&
		    remove_tree(dirfd(d), de->d_name) != 0 && errno != ENOENT) {
			snprintf(msg, n, "--fresh could not remove %s/%s: %s", dir, de->d_name,
				 strerror(errno));
			rc = -1;
		}
	closedir(d);
	return rc;
}

int rpb_storedir_claim(const char *dir, bool fresh, const char *const *own_files, int *lock_fd,
		       char *msg, size_t n)
{
	*lock_fd = -1;
	const struct rpb_dir_use use = {.dir = dir, .mark = RPB_DIR_MARK, .noun = "store directory",
					.option = "--dir"};
	bool marked, empty, dummy;
	if (rpb_dir_claim(&use, &marked, msg, n) != 0)
		return -1;
	/* Nothing is emptied before the lock is ours, nor while another
	 * program holds a lock on a file of the store. */
	int fd = rpb_storelock_take(dir, RPB_LOCK_RUN, msg, n);
	if (fd < 0)
		return -1;
	bool wipe = marked && fresh && inspect(dir, RPB_DIR_MARK, &empty, &dummy) == 0 && !empty;
	if (wipe && (check_all_own(dir, own_files, msg, n) != 0 ||
		     rpb_storelock_check_files(dir, msg, n) != 0)) {
		close(fd);
		return -1;
	}
	rpb_storelock_name_owner(dir);
	if (wipe && empty_dir(dir, msg, n) != 0) {
		close(fd);
		return -1;
	}
	*lock_fd = fd;
	return 0;
}

int rpb_storedir_unclaim(const char *dir)
{
	bool empty, marked;
	if (inspect(dir, RPB_DIR_MARK, &empty, &marked) != 0 || !empty)
		return -1;
	char path[PATH_MAX];
	static const char *const own[] = {RPB_DIR_MARK, RPB_OWNER_FILE, RPB_OWNER_FILE ".tmp"};
	for (size_t i = 0; i < sizeof own / sizeof *own; i++)
		if (rpb_path_join(path, sizeof path, dir, own[i]) == 0)
			unlink(path);
	return rmdir(dir);
}

static int has_any(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)key, (void)val;
	*(bool *)ctx = true;
	return 1;
}

/* Collects up to 1000 keys of a table into one buffer for deletion. */
struct key_batch {
	struct rpb_buf buf;
	size_t count;
	bool failed;
};

static int collect_key(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)val;
	struct key_batch *kb = ctx;
	uint32_t len = (uint32_t)key.len;
	if (rpb_buf_reserve(&kb->buf, kb->buf.len + sizeof len + key.len, NULL) != RPB_OK) {
		kb->failed = true;
		return 1;
	}
	memcpy(kb->buf.data + kb->buf.len, &len, sizeof len);
	memcpy(kb->buf.data + kb->buf.len + sizeof len, key.data, key.len);
	kb->buf.len += sizeof len + key.len;
	kb->count++;
	return 0;
}

/* Empties every table, 1000 keys per transaction so memory stays bounded. */
static enum rpb_status empty_store(const struct rpb_backend *b, struct rpb_session *s,
				   struct rpb_err *err)
{
	struct key_batch kb = {0};
	enum rpb_status st = RPB_OK;
	for (int t = 0; t < RPB_TABLE_COUNT && !st; t++) {
		do {
			kb.buf.len = kb.count = 0;
			st = b->begin(s, RPB_TXN_WRITE, err);
			if (!st)
				st = b->scan(s, (enum rpb_table)t, NULL, NULL, 1000, collect_key, &kb, err);
			if (!st && kb.failed)
				st = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory emptying the store");
			for (size_t off = 0; !st && off < kb.buf.len;) {
				uint32_t len;
				memcpy(&len, kb.buf.data + off, sizeof len);
				st = b->del(s, (enum rpb_table)t, rpb_slice_make(kb.buf.data + off + sizeof len, len), err);
				off += sizeof len + len;
			}
			if (!st)
				st = b->commit(s, err);
		} while (!st && kb.count);
	}
	rpb_buf_free(&kb.buf);
	return st;
}

int rpb_store_claim(const struct rpb_backend *b, struct rpb_store *st, bool fresh, char *msg,
		    size_t n)
{
	if (b->flags & RPB_BF_STORES_NOTHING)
		return 0;
	struct rpb_session *s = NULL;
	struct rpb_err err = {0};
	struct rpb_buf val = {0};
	rpb_slice mark = rpb_slice_make(meta_mark, sizeof meta_mark - 1);
	enum rpb_status rc = b->session_open(st, &s, &err);
	if (!rc)
		rc = b->begin(s, RPB_TXN_READ, &err);
	enum rpb_status got = rc ? rc : b->get(s, RPB_T_META, mark, &val, &err);
	bool any = false;
	for (int t = 0; got == RPB_NOT_FOUND && t < RPB_TABLE_COUNT && !any; t++)
		if (b->scan(s, (enum rpb_table)t, NULL, NULL, 1, has_any, &any, &err) != RPB_OK)
			got = err.status;
	if (!rc)
		b->rollback(s);
	int result = 0;
	if (got != RPB_OK && got != RPB_NOT_FOUND) {
		snprintf(msg, n, "cannot read the store: %s", err.msg);
		result = -1;
	} else if (got == RPB_NOT_FOUND && any) {
		snprintf(msg, n, "the %s store holds data rpbench did not mark as its own; "
			 "choose another store (--dir, or --schema for a server)", b->name);
		result = -1;
	} else {
		rc = RPB_OK;
		if (got == RPB_OK && fresh)
			rc = empty_store(b, s, &err);
		if (!rc && (got == RPB_NOT_FOUND || fresh)) {
			rc = b->begin(s, RPB_TXN_WRITE, &err);
			if (!rc)
				rc = b->put(s, RPB_T_META, mark, rpb_slice_make("1", 1), &err);
			if (!rc)
				rc = b->commit(s, &err);
		}
		if (rc) {
			snprintf(msg, n, "cannot prepare the store: %s", err.msg);
			result = -1;
		}
	}
	rpb_buf_free(&val);
	b->session_close(s);
	return result;
}
