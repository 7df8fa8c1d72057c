#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "clock.h"
#include "hostinfo.h"
#include "paths.h"
#include "storelock.h"
#include "storeloc.h"

#define OWNER_TMP RPB_OWNER_FILE ".tmp"

int rpb_storelock_is_own_name(const char *name)
{
	return strcmp(name, RPB_OWNER_FILE) == 0 || strcmp(name, OWNER_TMP) == 0;
}

/* Replaces the owner file (a temporary renamed over it, so a reader sees a
 * whole one). Best effort: the lock is held whether or not it is written. */
void rpb_storelock_name_owner(const char *dir)
{
	char path[PATH_MAX], tmp[PATH_MAX], line[96], started[40];
	if (rpb_path_join(path, sizeof path, dir, RPB_OWNER_FILE) != 0 ||
	    rpb_path_join(tmp, sizeof tmp, dir, OWNER_TMP) != 0)
		return;
	rpb_iso_time(started, sizeof started, rpb_wall_ms());
	int len = snprintf(line, sizeof line, "pid %ld\nstarted %s\n", (long)getpid(), started);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	bool ok = write(fd, line, (size_t)len) == len;
	if (close(fd) != 0 || !ok || rename(tmp, path) != 0)
		unlink(tmp);
}

/* The PID and start time the owner file names; false when there is none. */
static bool owner_read(const char *dir, long *pid, char *started, size_t n)
{
	char path[PATH_MAX], when[40];
	if (rpb_path_join(path, sizeof path, dir, RPB_OWNER_FILE) != 0)
		return false;
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fscanf(f, "pid %ld started %39s", pid, when) == 2 && *pid > 0;
	fclose(f);
	if (ok)
		snprintf(started, n, "%s", when);
	return ok;
}

/* The process holding an flock on fd's file, from /proc/locks (Linux); 0
 * when it cannot be told. */
static long flock_holder(int fd)
{
	struct stat sb;
	FILE *f = fstat(fd, &sb) == 0 ? fopen("/proc/locks", "r") : NULL;
	if (!f)
		return 0;
	char line[256], kind[16];
	long pid, found = 0;
	unsigned maj, min;
	unsigned long ino;
	while (!found && fgets(line, sizeof line, f))
		if (!strstr(line, "->") && /* a waiter, not a holder */
		    sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", kind, &pid, &maj, &min, &ino) == 5 &&
		    strcmp(kind, "FLOCK") == 0 && ino == sb.st_ino && maj == major(sb.st_dev) &&
		    min == minor(sb.st_dev) && pid > 0 && pid != (long)getpid())
			found = pid;
	fclose(f);
	return found;
}

/* Who holds the lock: the kernel's word for the PID when it has one, the
 * owner file for the start time when it names the same process (or, without
 * the kernel's word, a process that is still alive). */
static void describe_holder(const char *dir, int fd, long *pid, char *started, size_t n)
{
	long owner = 0;
	started[0] = '\0';
	bool have_owner = owner_read(dir, &owner, started, n);
	*pid = flock_holder(fd);
	if (have_owner && !*pid && (kill((pid_t)owner, 0) == 0 || errno == EPERM))
		*pid = owner;
	if (!have_owner || owner != *pid)
		started[0] = '\0';
}

int rpb_storelock_take(const char *dir, enum rpb_store_lock mode, char *msg, size_t n)
{
	char path[PATH_MAX];
	if (rpb_path_join(path, sizeof path, dir, RPB_DIR_MARK) != 0) {
		snprintf(msg, n, "store directory %.256s... is too long; choose a shorter --dir", dir);
		return -1;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(msg, n, "cannot open %s to lock the store: %s; check the store directory",
			 path, strerror(errno));
		return -1;
	}
	if (flock(fd, (mode == RPB_LOCK_RUN ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0)
		return fd;
	int e = errno;
	if (e != EWOULDBLOCK) {
		snprintf(msg, n, "cannot lock the store %s: %s; check the store directory", dir,
			 strerror(e));
		close(fd);
		return -1;
	}
	long pid;
	char started[40], who[96];
	describe_holder(dir, fd, &pid, started, sizeof started);
	close(fd);
	if (mode == RPB_LOCK_VERIFY) {
		snprintf(who, sizeof who, pid ? "run %ld" : "a run", pid);
		snprintf(msg, n, "%s is still writing this store (%s); wait for it or stop it", who, dir);
	} else {
		if (!pid)
			snprintf(who, sizeof who, "another process");
		else if (started[0])
			snprintf(who, sizeof who, "process %ld (started %s)", pid, started);
		else
			snprintf(who, sizeof who, "process %ld", pid);
		snprintf(msg, n, "store %s is in use by %s; wait for it or stop it", dir, who);
	}
	return -1;
}

int rpb_storelock_check_files(const char *dir, char *msg, size_t n)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0; /* the wipe reports what it cannot read */
	int rc = 0;
	for (struct dirent *de; rc == 0 && (de = readdir(d)) != NULL;) {
		int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat sb;
		if (fd < 0)
			continue;
		struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
		if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && fcntl(fd, F_GETLK, &fl) == 0 &&
		    fl.l_type != F_UNLCK) {
			char who[48] = "another process";
			if (fl.l_pid > 0)
				snprintf(who, sizeof who, "process %ld", (long)fl.l_pid);
			snprintf(msg, n, "store %s is in use by %s (it holds a lock on %s); wait for it or stop it",
				 dir, who, de->d_name);
			rc = -1;
		}
		close(fd);
	}
	closedir(d);
	return rc;
}
