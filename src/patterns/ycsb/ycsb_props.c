/* YCSB's properties, from its workload files and its -p: the files are
 * read as java.util.Properties.load(InputStream) reads them (YCSB's
 * Client.parseArguments), and each property is applied as YCSB reads it
 * (ycsb_property): CoreWorkload's and the Client's, Measurements' and the
 * exporters' properties rpbench honours set the [ycsb] option of the same
 * name, with Boolean.parseBoolean's booleans; threadcount, target,
 * maxexecutiontime, status.interval and measurement.interval set their
 * [run] counterparts; rpbench's own options work too; any other property
 * is accepted as YCSB accepts it, and listed on stderr as ignored.
 *
 * The Properties syntax (the JDK's Properties.load documentation): natural
 * lines end with \n, \r or \r\n; a line ending in an odd number of
 * backslashes goes on with the next line, whose leading blanks are
 * skipped; blank lines and lines whose first non-blank is # or ! are
 * comments; the key ends at the first unescaped '=', ':' or blank, then
 * blanks and one '=' or ':' are skipped; in key and value \t \n \r \f and
 * \uXXXX are escapes and a backslash before any other character stands for
 * that character. Bytes are ISO-8859-1 characters (written here as UTF-8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shown.h"
#include "ycsb.h"

/* ---- java.util.Properties ---- */

static bool blank(int c)
{
	return c == ' ' || c == '\t' || c == '\f';
}

/* Appends code point cp as UTF-8. */
static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
					     : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* loadConvert: the escapes of in[0..len) undone into out (room for 4
 * bytes per input byte); -1 on a malformed \uXXXX. */
static int unescape(const unsigned char *in, size_t len, char *out)
{
	size_t o = 0;
	unsigned high = 0; /* a pending high surrogate */
	for (size_t i = 0; i < len;) {
		unsigned cp = in[i++];
		if (cp == '\\' && i < len) {
			unsigned c = in[i++];
			if (c == 'u') {
				if (len - i < 4)
					return -1;
				cp = 0;
				for (int k = 0; k < 4; k++) {
					int h = hexval(in[i++]);
					if (h < 0)
						return -1;
					cp = cp << 4 | (unsigned)h;
				}
			} else {
				cp = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 'f' ? '\f' : c;
			}
		}
		/* UTF-16 pairs from \u escapes become one code point. */
		if (cp >= 0xd800 && cp < 0xdc00) {
			if (high)
				o += put_utf8(out + o, 0xfffd);
			high = cp;
			continue;
		}
		if (cp >= 0xdc00 && cp < 0xe000 && high) {
			cp = 0x10000 + ((high - 0xd800) << 10) + (cp - 0xdc00);
			high = 0;
		} else if (high || (cp >= 0xdc00 && cp < 0xe000)) {
			o += put_utf8(out + o, 0xfffd);
			high = 0;
			if (cp >= 0xdc00 && cp < 0xe000)
				continue;
		}
		o += put_utf8(out + o, cp);
	}
	if (high)
		o += put_utf8(out + o, 0xfffd);
	out[o] = '\0';
	return 0;
}

/* One logical line of f into *buf (continuations joined, comments and
 * blank lines skipped): its length, or -1 at the end, -2 on a line too
 * long or a NUL byte (*lineno is then the natural line's). */
static long logical_line(FILE *f, unsigned char **buf, size_t *cap, int *lineno)
{
	size_t len = 0;
	bool fresh = true, skipping = true, comment = false, escaped = false, any = false;
	for (;;) {
		int c = fgetc(f);
		bool eol = c == EOF || c == '\n' || c == '\r';
		if (c == '\r') {
			int d = fgetc(f);
			if (d != '\n' && d != EOF)
				ungetc(d, f);
		}
		if (eol) {
			if (c != EOF || any)
				(*lineno)++;
			if (c == EOF && !any && len == 0)
				return -1;
			any = false;
			if (comment || (fresh && len == 0 && skipping)) {
				/* a comment or blank line: a logical line of its own, nothing */
				comment = false;
				if (c == EOF)
					return len ? (long)len : -1;
				fresh = true;
				skipping = true;
				escaped = false;
				continue;
			}
			if (escaped && c != EOF) { /* continued: drop the backslash */
				len--;
				escaped = false;
				skipping = true;
				fresh = false;
				continue;
			}
			if (escaped)
				len--;
			return (long)len;
		}
		any = true;
		if (c == '\0')
			return -2;
		if (skipping && blank(c))
			continue;
		if (skipping && fresh && (c == '#' || c == '!')) {
			comment = true;
			skipping = false;
			continue;
		}
		skipping = false;
		if (comment)
			continue;
		if (len + 1 >= RPB_WORKLOAD_LINE_MAX)
			return -2;
		if (len + 1 >= *cap) {
			size_t ncap = *cap ? *cap * 2 : 256;
			unsigned char *nb = realloc(*buf, ncap);
			if (!nb)
				return -2;
			*buf = nb;
			*cap = ncap;
		}
		(*buf)[len++] = (unsigned char)c;
		escaped = c == '\\' ? !escaped : false;
	}
}

/* ---- applying one property ---- */

/* The bool options of the [ycsb] table take Boolean.parseBoolean's values:
 * "true" in any case is true, anything else false. */
static const char *java_bool(const struct rpb_optdef *d, const char *value)
{
	if (!d || d->type != RPB_OPT_BOOL)
		return value;
	return strcasecmp(value, "true") == 0 ? "true" : "false";
}

static int apply_set(struct rpb_job *job, rpb_job_setter set, const char *option,
		     const char *value, char *msg, size_t n)
{
	size_t len = strlen(option) + strlen(value) + 2;
	char *a = malloc(len);
	if (!a) {
		snprintf(msg, n, "out of memory");
		return -1;
	}
	snprintf(a, len, "%s=%s", option, value);
	int rc = set(job, a, msg, n);
	free(a);
	return rc;
}

int ycsb_property(struct rpb_job *job, const char *key, const char *value, rpb_job_setter set,
		  char *msg, size_t n)
{
	char shown[RPB_SHOWN_SIZE];
	if (strcmp(key, "workload") == 0) {
		/* YCSB's workload class: only CoreWorkload is implemented. */
		if (strcmp(value, "site.ycsb.workloads.CoreWorkload") != 0 &&
		    strcmp(value, "com.yahoo.ycsb.workloads.CoreWorkload") != 0) {
			snprintf(msg, n, "workload=%s: only YCSB's CoreWorkload is implemented; use "
				 "site.ycsb.workloads.CoreWorkload", rpb_shown(shown, sizeof shown, value));
			return -1;
		}
		return 0;
	}
	if (strcmp(key, "dotransactions") == 0) /* -t and -load: Boolean.valueOf */
		return apply_set(job, set, "ycsb.phase",
				 strcasecmp(value, "true") == 0 ? "run" : "load", msg, n);
	if (strcmp(key, "measurement.interval") == 0 && strcmp(value, "op") != 0 &&
	    strcmp(value, "intended") != 0 && strcmp(value, "both") != 0) {
		snprintf(msg, n, "measurement.interval=%s is unknown (YCSB stops on it too); give op, "
			 "intended or both", rpb_shown(shown, sizeof shown, value));
		return -1;
	}
	const char *alias = ycsb_alias(key);
	if (alias)
		return apply_set(job, set, alias, value, msg, n);
	const struct rpb_optdef *d = strcmp(key, "phase") != 0 ? rpb_opt_find(ycsb_options, key) : NULL;
	if (d) {
		char option[160];
		snprintf(option, sizeof option, "ycsb.%s", key);
		return apply_set(job, set, option, java_bool(d, value), msg, n);
	}
	/* rpbench's own options (sync=none) are welcome; anything else YCSB
	 * would take without a word, rpbench names as unused. */
	int rc = apply_set(job, set, key, value, msg, n);
	return rc == RPB_JOB_UNKNOWN ? 1 : rc;
}

int ycsb_load_properties(struct rpb_job *job, FILE *f, const char *shown, rpb_job_setter set,
			 char *msg, size_t n)
{
	unsigned char *line = NULL;
	size_t cap = 0, nignored = 0;
	char ignored[512] = "", why[1024], shown_text[RPB_SHOWN_SIZE];
	int lineno = 0, rc = 0;
	long len;
	while ((len = logical_line(f, &line, &cap, &lineno)) != -1) {
		if (len == -2) {
			snprintf(msg, n, "%s:%d: a line too long or a NUL byte; a workload file is text "
				 "lines of at most %d bytes", shown, lineno, RPB_WORKLOAD_LINE_MAX);
			rc = -1;
			break;
		}
		/* The key: up to an unescaped '=', ':' or blank. */
		size_t k = 0, v;
		bool esc = false, sep = false;
		for (; k < (size_t)len; k++) {
			unsigned char c = line[k];
			if (!esc && (c == '=' || c == ':' || blank(c)))
				break;
			esc = c == '\\' ? !esc : false;
		}
		v = k;
		if (v < (size_t)len && (line[v] == '=' || line[v] == ':')) {
			sep = true;
			v++;
		}
		while (v < (size_t)len && (blank(line[v]) || (!sep && (line[v] == '=' || line[v] == ':')))) {
			if (line[v] == '=' || line[v] == ':')
				sep = true;
			v++;
		}
		char *key = malloc(4 * k + 1), *value = malloc(4 * ((size_t)len - v) + 1);
		if (!key || !value || unescape(line, k, key) || unescape(line + v, (size_t)len - v, value)) {
			snprintf(msg, n, "%s:%d: %s", shown, lineno, key && value ? "malformed \\uxxxx "
				 "escape (Java's Properties); write \\u and four hex digits" : "out of memory");
			free(key);
			free(value);
			rc = -1;
			break;
		}
		int r = ycsb_property(job, key, value, set, why, sizeof why);
		if (r == 1) {
			/* Untrusted text: cut short, control characters as ?. */
			rpb_cat(ignored, sizeof ignored, "%s%s", nignored++ ? ", " : "",
				rpb_shown(shown_text, 64, key));
		} else if (r != 0) {
			const char *inner = strstr(why, "': ");
			snprintf(msg, n, "%s:%d: %s", shown, lineno, inner ? inner + 3 : why);
			rc = -1;
		}
		free(key);
		free(value);
		if (rc)
			break;
	}
	free(line);
	if (!rc && nignored)
		fprintf(stderr, "warning: %s: YCSB properties rpbench does not use, ignored: %s\n", shown,
			ignored);
	return rc;
}
