/* Paths given on the command line and the paths rpbench builds from them:
 * their lengths are checked, never silently truncated, and what a result
 * records is their absolute form. */
#ifndef RPB_PATHS_H
#define RPB_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* Room left after a directory's path for the longest name rpbench adds to it
 * ("/result.json.tmp", "/.rpbench-owner.tmp", "/store/rpbench.db-journal"). */
#define RPB_PATH_ROOM 64

/* Checks a path given as `what` ("--out", "the workload file"): every name in
 * it fits NAME_MAX, and it and its absolute form leave room bytes under
 * PATH_MAX. Returns non-zero with a one-line msg naming what and the fix. */
int rpb_path_check(const char *path, const char *what, size_t room, char *msg, size_t n);

/* Writes dir/name into buf. Returns -1 with errno = ENAMETOOLONG (buf then
 * holds an empty string) when it does not fit: a path is never truncated. */
int rpb_path_join(char *buf, size_t n, const char *dir, const char *name);

/* The absolute, canonical form of path, which need not exist yet: the
 * realpath of its longest existing prefix, then the remaining names with "."
 * dropped and ".." taking one name back (rpbench creates them as plain
 * directories). Returns -1 with errno set when it cannot be resolved
 * (ENAMETOOLONG when it does not fit n). */
int rpb_path_absolute(const char *path, char *out, size_t n);

/* Is path the directory dir or inside it? Both absolute and canonical. */
bool rpb_path_within(const char *path, const char *dir);

/* rpbench's shared files (workloads, records, scripts) live in
 * share/rpbench beside the directory of the running executable: PREFIX/bin
 * and PREFIX/share/rpbench once installed, build/bin (or build/tests) and
 * build/share/rpbench in a build tree, which links them to the sources.
 * Writes that directory's entry name (e.g. "scripts/pg-throwaway") into buf;
 * -1 with errno set when it does not exist or does not fit. */
int rpb_path_share(char *buf, size_t n, const char *name);

/* The workload file a command line names: the path as given when it exists
 * or names a directory; otherwise, for a bare name ("ci-ingest" or
 * "ci-ingest.ini"), the file of that name in share/rpbench/workloads when
 * there is one, else a file of that very name in one of its folders
 * ("workloada": workloads/ycsb/workloada) (written into buf). Otherwise arg
 * itself: its reader then says what is wrong. */
const char *rpb_path_workload(char *buf, size_t n, const char *arg);

/* For a bare name that is neither a file here nor a workload that comes with
 * rpbench: writes "no file ARG here and no workload ARG in DIR; give a
 * file's path or one of: NAMES (did you mean NAME?)" into msg and returns
 * true. False (msg untouched) for anything else, which the workload reader
 * then explains. */
bool rpb_path_workload_unknown(const char *arg, char *msg, size_t n);

#endif
