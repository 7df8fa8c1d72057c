#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nearest.h"
#include "paths.h"
#include "shown.h"

int rpb_path_join(char *buf, size_t n, const char *dir, const char *name)
{
	int len = snprintf(buf, n, "%s/%s", dir, name);
	if (len < 0 || (size_t)len >= n) {
		if (n)
			buf[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Appends one name of a path that does not exist yet to the canonical out. */
static int append_name(char *out, size_t n, const char *name, size_t len)
{
	size_t used = strlen(out);
	if (len == 0 || (len == 1 && name[0] == '.'))
		return 0;
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		char *slash = strrchr(out, '/');
		if (slash)
			slash[slash == out ? 1 : 0] = '\0'; /* "/a" -> "/", "/a/b" -> "/a" */
		return 0;
	}
	bool root = used == 1;
	if (used + !root + len + 1 > n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!root)
		out[used++] = '/';
	memcpy(out + used, name, len);
	out[used + len] = '\0';
	return 0;
}

int rpb_path_absolute(const char *path, char *out, size_t n)
{
	if (!path || !*path) {
		errno = ENOENT;
		return -1;
	}
	char *full;
	if (path[0] == '/') {
		full = strdup(path);
	} else {
		char *cwd = getcwd(NULL, 0);
		if (!cwd)
			return -1;
		size_t len = strlen(cwd) + 1 + strlen(path) + 1;
		if ((full = malloc(len)) != NULL)
			snprintf(full, len, "%s/%s", cwd, path);
		free(cwd);
	}
	if (!full) {
		errno = ENOMEM;
		return -1;
	}
	/* The longest prefix that exists, shortened one name at a time; "/"
	 * always exists. */
	size_t end = strlen(full);
	char *base = NULL;
	for (;;) {
		while (end > 1 && full[end - 1] == '/')
			end--;
		char keep = full[end];
		full[end] = '\0';
		base = realpath(full, NULL);
		int e = errno;
		full[end] = keep;
		if (base)
			break;
		if (e != ENOENT) {
			free(full);
			errno = e;
			return -1;
		}
		while (end > 1 && full[end - 1] != '/')
			end--;
	}
	int rc = 0;
	if (strlen(base) + 1 > n) {
		errno = ENAMETOOLONG;
		rc = -1;
	} else {
		strcpy(out, base);
	}
	for (const char *p = full + end; !rc && *p;) {
		size_t len = strcspn(p, "/");
		rc = append_name(out, n, p, len);
		p += len;
		p += strspn(p, "/");
	}
	free(base);
	free(full);
	return rc;
}

bool rpb_path_within(const char *path, const char *dir)
{
	size_t len = strlen(dir);
	if (len == 1 && dir[0] == '/')
		return true;
	return strncmp(path, dir, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

int rpb_path_check(const char *path, const char *what, size_t room, char *msg, size_t n)
{
	for (const char *p = path; *p;) {
		size_t len = strcspn(p, "/");
		if (len > NAME_MAX) {
			snprintf(msg, n,
				 "%s has a name of %zu bytes ('%.24s...'), longer than NAME_MAX (%d); "
				 "choose a shorter name",
				 what, len, p, NAME_MAX);
			return -1;
		}
		p += len;
		p += strspn(p, "/");
	}
	size_t limit = PATH_MAX > room ? PATH_MAX - room : 0;
	if (strlen(path) >= limit) {
		snprintf(msg, n,
			 "%s is %zu bytes long; a path must stay under PATH_MAX (%d) with room for the "
			 "names rpbench adds, so at most %zu bytes: choose a shorter path",
			 what, strlen(path), PATH_MAX, limit ? limit - 1 : 0);
		return -1;
	}
	/* Its absolute form is what a result records: it must fit too. */
	char abs[PATH_MAX] = "";
	int rc = rpb_path_absolute(path, abs, sizeof abs);
	if ((rc != 0 && errno == ENAMETOOLONG) || (rc == 0 && strlen(abs) >= limit)) {
		snprintf(msg, n,
			 "%s %.64s... is too long as an absolute path (it must stay under %zu bytes "
			 "within PATH_MAX, %d); choose a shorter path or work from a shallower directory",
			 what, path, limit, PATH_MAX);
		return -1;
	}
	return 0;
}

int rpb_path_share(char *buf, size_t n, const char *name)
{
	char exe[PATH_MAX], rel[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	*strrchr(exe, '/') = '\0'; /* the kernel gives an absolute path */
	int rc = snprintf(rel, sizeof rel, "%s/../share/rpbench/%s", exe, name);
	if (rc < 0 || (size_t)rc >= sizeof rel) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (access(rel, F_OK) != 0)
		return -1;
	return rpb_path_absolute(rel, buf, n);
}

/* A workload of the share directory's folders (workloads/ycsb/workloada,
 * YCSB's files without an extension) named name, into buf; 0 or -1. */
static int in_folders(char *buf, size_t n, const char *name)
{
	char dir[PATH_MAX], rel[NAME_MAX * 2 + 32];
	if (rpb_path_share(dir, sizeof dir, "workloads") != 0)
		return -1;
	DIR *d = opendir(dir);
	int rc = -1;
	for (struct dirent *e; d && rc && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof rel, "workloads/%s/%s", e->d_name, name);
		rc = rpb_path_share(buf, n, rel);
	}
	if (d)
		closedir(d);
	return rc;
}

const char *rpb_path_workload(char *buf, size_t n, const char *arg)
{
	char name[NAME_MAX + 32];
	size_t len = strlen(arg);
	if (!*arg || strchr(arg, '/') || len > NAME_MAX || access(arg, F_OK) == 0)
		return arg;
	bool ini = len > 4 && strcmp(arg + len - 4, ".ini") == 0;
	snprintf(name, sizeof name, "workloads/%s%s", arg, ini ? "" : ".ini");
	if (rpb_path_share(buf, n, name) == 0 || in_folders(buf, n, arg) == 0)
		return buf;
	return arg;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool rpb_path_workload_unknown(const char *arg, char *msg, size_t n)
{
	char dir[PATH_MAX], shown[RPB_SHOWN_SIZE];
	if (!*arg || strchr(arg, '/') || access(arg, F_OK) == 0 || errno != ENOENT ||
	    rpb_path_share(dir, sizeof dir, "workloads") != 0)
		return false;
	size_t len = strlen(arg);
	bool ini = len > 4 && strcmp(arg + len - 4, ".ini") == 0;
	/* The workloads that come with rpbench, by name, sorted. */
	enum { MAX_NAMES = 64 };
	char *names[MAX_NAMES];
	size_t count = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && count < MAX_NAMES && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l > 4 && e->d_name[0] != '.' && strcmp(e->d_name + l - 4, ".ini") == 0 &&
		    (names[count] = strndup(e->d_name, l - 4)))
			count++;
		/* and the files of its folders (YCSB's workloada ...) */
		char sub[PATH_MAX];
		DIR *f = e->d_name[0] != '.' && snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) <
							    (int)sizeof sub ? opendir(sub) : NULL;
		for (struct dirent *g; f && count < MAX_NAMES && (g = readdir(f));)
			if (g->d_name[0] != '.' && (names[count] = strdup(g->d_name)))
				count++;
		if (f)
			closedir(f);
	}
	if (d)
		closedir(d);
	qsort(names, count, sizeof *names, name_cmp);
	struct rpb_nearest nr;
	char want[NAME_MAX + 1];
	snprintf(want, sizeof want, "%.*s", (int)(ini ? len - 4 : len), arg);
	rpb_nearest_init(&nr, want);
	int used = snprintf(msg, n, "no file %s here and no workload of that name in %s; give a "
			    "file's path or one of:", rpb_shown(shown, sizeof shown, arg), dir);
	for (size_t i = 0; i < count; i++) {
		rpb_nearest_offer(&nr, names[i]);
		if (used >= 0 && (size_t)used < n)
			used += snprintf(msg + used, n - (size_t)used, "%s %s", i ? "," : "", names[i]);
	}
	rpb_nearest_hint(msg, n, &nr, "", "");
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	return true;
}
