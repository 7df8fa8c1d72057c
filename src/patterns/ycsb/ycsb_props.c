/* YCSB's own workload files (Java properties: key=value or key: value
 * lines, # and ! comments), read as the [ycsb] section: each property of
 * CoreWorkload sets the option of the same name, threadcount, target,
 * maxexecutiontime and status.interval set their [run] counterparts, and
 * every other property is listed on stderr as ignored, never silently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shown.h"
#include "ycsb.h"

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' ||
		       s[len - 1] == '\n'))
		s[--len] = '\0';
	return s;
}

/* Applies key = value to the job as --set would; 0, or -1 with the reason
 * (the part of rpb_job_set's message after its "--set '...': "). */
static int set_one(struct rpb_job *job, rpb_job_setter set, const char *option,
		   const char *value, char *why, size_t n)
{
	size_t len = strlen(option) + strlen(value) + 2;
	char *a = malloc(len), msg[1024];
	if (!a) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	snprintf(a, len, "%s=%s", option, value);
	int rc = set(job, a, msg, sizeof msg);
	free(a);
	if (rc) {
		const char *inner = strstr(msg, "': ");
		snprintf(why, n, "%s", inner ? inner + 3 : msg);
	}
	return rc;
}

int ycsb_load_properties(struct rpb_job *job, FILE *f, const char *shown, rpb_job_setter set,
			 char *msg, size_t n)
{
	char *line = NULL, ignored[512] = "", why[1024], shown_text[RPB_SHOWN_SIZE];
	size_t cap = 0, nignored = 0;
	int lineno = 0, rc = 0;
	ssize_t got;
	while ((got = getline(&line, &cap, f)) >= 0) {
		lineno++;
		/* A workload file is untrusted text, read as the INI reader reads it. */
		if (memchr(line, '\0', (size_t)got) || got > RPB_WORKLOAD_LINE_MAX) {
			snprintf(msg, n, "%s:%d: %s; a workload file is text lines of at most %d bytes",
				 shown, lineno, got > RPB_WORKLOAD_LINE_MAX ? "line too long" : "NUL byte",
				 RPB_WORKLOAD_LINE_MAX);
			rc = -1;
			break;
		}
		char *p = trim(line);
		if (!*p || *p == '#' || *p == '!')
			continue;
		size_t klen = strcspn(p, "=: \t");
		char *rest = p + klen;
		if (!klen || !*rest) {
			snprintf(msg, n, "%s:%d: not a property; write key=value (YCSB's format)", shown,
				 lineno);
			rc = -1;
			break;
		}
		*rest++ = '\0';
		rest = trim(rest);
		if (*rest == '=' || *rest == ':')
			rest = trim(rest + 1);
		if (strcmp(p, "workload") == 0) {
			/* YCSB's workload class: only CoreWorkload is implemented. */
			if (strcmp(rest, "site.ycsb.workloads.CoreWorkload") != 0 &&
			    strcmp(rest, "com.yahoo.ycsb.workloads.CoreWorkload") != 0) {
				snprintf(msg, n, "%s:%d: workload=%s: only YCSB's CoreWorkload is "
					 "implemented; use site.ycsb.workloads.CoreWorkload", shown, lineno,
					 rpb_shown(shown_text, sizeof shown_text, rest));
				rc = -1;
				break;
			}
			continue;
		}
		char option[128];
		const char *alias = ycsb_alias(p);
		if (alias)
			snprintf(option, sizeof option, "%s", alias);
		else if (rpb_opt_find(ycsb_options, p) && strcmp(p, "phase") != 0)
			snprintf(option, sizeof option, "ycsb.%.100s", p);
		else {
			/* Untrusted text: cut short, control characters as ?. */
			rpb_cat(ignored, sizeof ignored, "%s%s", nignored++ ? ", " : "",
				rpb_shown(shown_text, 64, p));
			continue;
		}
		if (set_one(job, set, option, rest, why, sizeof why) != 0) {
			snprintf(msg, n, "%s:%d: %s", shown, lineno, why);
			rc = -1;
			break;
		}
	}
	free(line);
	if (!rc && nignored)
		fprintf(stderr, "warning: %s: YCSB properties rpbench does not use, ignored: %s\n", shown,
			ignored);
	return rc;
}
