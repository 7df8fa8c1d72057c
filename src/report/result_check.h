/* What the comparison accepts from a results directory. Every string it
 * shows or draws is checked first: a name from a fixed vocabulary (the
 * backends of this build, the patterns, the stop reasons and error
 * classes), a label of the form [A-Za-z0-9_.-]{1,64}, or plain text (no
 * control character, none of | ` < >) where free text is shown. A results
 * directory may come from anyone; what fails is refused with one line
 * naming the file and the field, before anything is written. */
#ifndef RPB_RESULT_CHECK_H
#define RPB_RESULT_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* A label (result.json's labels, probe.csv's label column). */
bool rpb_cmp_name_ok(const char *s);
/* A backend gauge's column of intervals.csv: RPB_CMP_GAUGE_PREFIX, then
 * a name of [a-z0-9_], 1 to 64 characters. col starts with the prefix. */
#define RPB_CMP_GAUGE_PREFIX "gauge_"
bool rpb_cmp_gauge_column_ok(const char *col);
/* Free text shown verbatim on the terminal and in compare.md (a backend's
 * version, the workload file's name): valid UTF-8 of 1 to max bytes, no
 * control character, none of | ` < >. */
bool rpb_cmp_text_ok(const char *s, size_t max);

/* The workload file's base name from a run's manifest.command (the word
 * after "run"), or "" when the command is not recorded. */
void rpb_cmp_workload_name(const json_t *root, char *buf, size_t n);

/* Checks the result.json at path (parsed into root): manifest.backend is
 * one that backend_known accepts, manifest.pattern and sync, stop.reason
 * and class, labels, errors and the options are what rpbench writes, and
 * every figure is a number >= 0. Returns 0, or -1 with one line in msg. */
int rpb_cmp_result_check(const json_t *root, const char *path,
			 bool (*backend_known)(const char *name), char *msg, size_t n);

/* Checks every row of dir/probe.csv (if there is one) that the figures
 * would read: its label must be a label. */
int rpb_cmp_probe_check(const char *dir, char *msg, size_t n);

/* Checks the header of dir/intervals.csv (if there is one): every column
 * named gauge_... must be a gauge. */
int rpb_cmp_intervals_check(const char *dir, char *msg, size_t n);

#endif
