/* The output directory of a command that runs many (rpbench sweep, scale):
 * made or reused only while it holds no earlier result of that command,
 * with runs/, stores/ and logs/ below it for the runs it starts. */
#ifndef RPB_RUNS_DIR_H
#define RPB_RUNS_DIR_H

#include <stddef.h>

/* Makes out (and missing parents) and its runs/, stores/ and logs/;
 * refuses a directory that holds out/held (the command's own result file,
 * "sweep.csv"). what names the command in messages ("sweep"). 0, or -1
 * with a one-line "problem; fix" in msg. */
int rpb_runs_dir_prepare(const char *out, const char *what, const char *held, char *msg,
			 size_t n);

/* Copies the text file at path to stdout (a command's closing table). */
void rpb_print_file(const char *path);

#endif
