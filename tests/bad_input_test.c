/* The bad-input corpus (tests/bad_input/README.md): every case is a folder
 * with the command to run, what it must answer, and files to run it on.
 * Each case becomes one test: its files are copied into a fresh directory,
 * its setup.sh (if any) runs there, then its command; the exit code and
 * the first line of stderr must match, a refusal must be exactly one line
 * on stderr, and every file that was there before must still be there,
 * byte for byte (rpbench never deletes or overwrites what it did not
 * create). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_util.h"

#define CORPUS RPB_SOURCE_DIR "/tests/bad_input"
#define CASE_NAME_MAX 96
#define CASE_ARGS_MAX 48
#define WORD_MAX 8192 /* a word of the command, placeholders expanded */

struct bi_case {
	char name[CASE_NAME_MAX];
};

static int cmp_case(const void *a, const void *b)
{
	return strcmp(((const struct bi_case *)a)->name, ((const struct bi_case *)b)->name);
}

static void free_cases(struct criterion_test_params *crp)
{
	cr_free(crp->params);
}

/* Whether text (a case's cmd and setup.sh) names "/<prog>" as a whole word. */
static bool names_program(const char *text, const char *prog)
{
	size_t len = strlen(prog);
	for (const char *p = text; (p = strstr(p, prog)) != NULL; p += len)
		if (p > text && p[-1] == '/' &&
		    !(p[len] == '-' || (p[len] >= 'a' && p[len] <= 'z') || (p[len] >= '0' && p[len] <= '9')))
			return true;
	return false;
}

/* A case runs only in a build that has every program it names, as tests of
 * a backend that is switched off are left out. */
static bool programs_built(const char *dir)
{
	static const char *const progs[] = {"rpbench-leveldb", "rpbench-sqlite", "rpbench-postgres",
					    "rpbench-null", "rpbench"};
	char path[E2E_PATH];
	bool ok = true, lib = false;
	for (int f = 0; f < 3 && ok; f++) {
		if (f == 2 && !lib)
			break;
		/* The shared helpers a setup.sh sources name programs too. */
		if (f == 2)
			snprintf(path, sizeof path, "%s/lib/results.sh", CORPUS);
		else
			snprintf(path, sizeof path, "%s/%s", dir, f ? "setup.sh" : "cmd");
		char *text = e2e_slurp(path, NULL);
		lib = lib || (text && strstr(text, "/tests/bad_input/lib/"));
		for (size_t i = 0; text && ok && i < sizeof progs / sizeof progs[0]; i++) {
			char bin[E2E_PATH];
			snprintf(bin, sizeof bin, "%s/bin/%s", RPB_BINARY_DIR, progs[i]);
			ok = !names_program(text, progs[i]) || access(bin, X_OK) == 0;
		}
		free(text);
	}
	return ok;
}

ParameterizedTestParameters(bad_input, corpus)
{
	size_t n = 0, cap = 128;
	struct bi_case *cases = cr_malloc(cap * sizeof *cases);
	DIR *d = opendir(CORPUS);
	for (struct dirent *e; d && (e = readdir(d));) {
		char cmd[E2E_PATH];
		snprintf(cmd, sizeof cmd, "%s/%s/cmd", CORPUS, e->d_name);
		if (e->d_name[0] == '.' || access(cmd, R_OK) != 0 || strlen(e->d_name) >= CASE_NAME_MAX)
			continue;
		char dir[E2E_PATH];
		snprintf(dir, sizeof dir, "%s/%s", CORPUS, e->d_name);
		if (!programs_built(dir))
			continue;
		if (n == cap) {
			struct bi_case *more = cr_malloc(2 * cap * sizeof *cases);
			memcpy(more, cases, cap * sizeof *cases);
			cr_free(cases);
			cases = more;
			cap *= 2;
		}
		snprintf(cases[n++].name, CASE_NAME_MAX, "%s", e->d_name);
	}
	if (d)
		closedir(d);
	qsort(cases, n, sizeof *cases, cmp_case);
	return cr_make_param_array(struct bi_case, cases, n, free_cases);
}

/* ---- reading a case ---- */

static char *case_file(const char *name, const char *file)
{
	char path[E2E_PATH];
	snprintf(path, sizeof path, "%s/%s/%s", CORPUS, name, file);
	return e2e_slurp(path, NULL);
}

/* @REPEAT(N,TEXT) at s: appends TEXT N times (paths longer than a line of
 * cmd may be); returns the length of the placeholder, 0 if s is none. */
static size_t repeat(char *out, size_t n, size_t *len, const char *s)
{
	unsigned count;
	int at = 0;
	if (sscanf(s, "@REPEAT(%u,%n", &count, &at) != 1 || !at)
		return 0;
	const char *text = s + at, *end = strchr(text, ')');
	cr_assert_not_null(end, "@REPEAT( without its ')'");
	size_t k = (size_t)(end - text);
	for (unsigned i = 0; i < count && *len + k + 1 < n; i++) {
		memcpy(out + *len, text, k);
		*len += k;
	}
	out[*len] = '\0';
	return (size_t)(end + 1 - s);
}

/* Appends s to the word being built, replacing the placeholders:
 * @BIN (the build's bin/), @SRC (the source tree), @WORK (the case's
 * directory), @PGDSN (the test server's DSN), @REPEAT(N,TEXT) (TEXT N
 * times). */
static void expand(char *out, size_t n, const char *s, const char *work)
{
	size_t len = strlen(out);
	while (*s && len + 1 < n) {
		const char *with = NULL;
		size_t skip = repeat(out, n, &len, s);
		if (skip) {
			s += skip;
			continue;
		}
		if (strncmp(s, "@BIN", 4) == 0)
			with = RPB_BINARY_DIR "/bin", skip = 4;
		else if (strncmp(s, "@SRC", 4) == 0)
			with = RPB_SOURCE_DIR, skip = 4;
		else if (strncmp(s, "@WORK", 5) == 0)
			with = work, skip = 5;
		else if (strncmp(s, "@PGDSN", 6) == 0)
			with = rpbt_pg_dsn(), skip = 6;
		if (with) {
			len += (size_t)snprintf(out + len, n - len, "%s", with);
			s += skip;
		} else {
			out[len++] = *s++;
			out[len] = '\0';
		}
	}
	cr_assert(len + 1 < n, "a word of the command is too long");
}

/* Splits cmd into words: whitespace separates, '...' quotes (no escapes),
 * a line starting with # is a comment. The words go to buf. */
static int split(const char *cmd, const char *work, char words[][WORD_MAX], int max)
{
	int n = 0;
	const char *p = cmd;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		if (!*p)
			break;
		cr_assert_lt(n, max, "too many words in the command");
		words[n][0] = '\0';
		char part[1024];
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			size_t len;
			if (*p == '\'') {
				const char *end = strchr(p + 1, '\'');
				cr_assert_not_null(end, "an unclosed quote in the command");
				len = (size_t)(end - p - 1);
				snprintf(part, sizeof part, "%.*s", (int)len, p + 1);
				p = end + 1;
			} else {
				len = strcspn(p, " \t\n'");
				snprintf(part, sizeof part, "%.*s", (int)len, p);
				p += len;
			}
			expand(words[n], sizeof words[n], part, work);
		}
		n++;
	}
	return n;
}

struct expect {
	int exit;
	char stderr_re[1024], stdout_re[1024];
	bool any_lines;                /* stderr may have more than one line */
	char secret[8][256];           /* text that must appear nowhere */
	int nsecrets;
	char absent[4][256];           /* paths in the case's directory that must not exist */
	int nabsent;
};

static void read_expect(const char *name, struct expect *x)
{
	char *text = case_file(name, "expect");
	cr_assert_not_null(text, "case %s has no expect file", name);
	memset(x, 0, sizeof *x);
	x->exit = -1;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#' || !line[0])
			continue;
		char *sp = strchr(line, ' ');
		const char *arg = sp ? sp + 1 : "";
		if (sp)
			*sp = '\0';
		if (!strcmp(line, "exit"))
			x->exit = atoi(arg);
		else if (!strcmp(line, "stderr"))
			snprintf(x->stderr_re, sizeof x->stderr_re, "%s", arg);
		else if (!strcmp(line, "stdout"))
			snprintf(x->stdout_re, sizeof x->stdout_re, "%s", arg);
		else if (!strcmp(line, "stderr-lines") && !strcmp(arg, "any"))
			x->any_lines = true;
		else if (!strcmp(line, "secret") && x->nsecrets < 8)
			snprintf(x->secret[x->nsecrets++], sizeof x->secret[0], "%s", arg);
		else if (!strcmp(line, "absent") && x->nabsent < 4)
			snprintf(x->absent[x->nabsent++], sizeof x->absent[0], "%s", arg);
		else
			cr_assert_fail("case %s: unknown expect line '%s'", name, line);
	}
	cr_assert_geq(x->exit, 0, "case %s: expect has no exit line", name);
	free(text);
}

static void assert_matches(const char *name, const char *what, const char *re, const char *text)
{
	regex_t rx;
	cr_assert_eq(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB), 0, "case %s: bad %s regex %s", name,
		     what, re);
	char first[4096];
	snprintf(first, sizeof first, "%.*s", (int)strcspn(text, "\n"), text);
	int rc = regexec(&rx, first, 0, NULL, 0);
	regfree(&rx);
	cr_assert_eq(rc, 0, "case %s: the first line of %s\n  %s\ndoes not match\n  %s", name, what,
		     first, re);
}

/* Fails when secret appears in text. */
static void assert_no_secret(const char *name, const char *where, const char *text,
			     const char *secret)
{
	cr_assert_null(strstr(text, secret), "case %s: the secret \"%s\" leaked into %s", name,
		       secret, where);
}

/* ---- running a case ---- */

/* bash -c script with $1 = the case's directory, $2 = the case's folder
 * in the corpus, $3 = the source tree, $4 = the build's bin/. */
static void sh(const struct e2e_env *e, const char *script, const char *work, const char *name,
	       const char *what)
{
	char folder[E2E_PATH];
	snprintf(folder, sizeof folder, "%s/%s", CORPUS, name);
	struct e2e_args a = {0};
	e2e_args_add(&a, "bash", "-c", script, "bash", work, folder, RPB_SOURCE_DIR,
		     RPB_BINARY_DIR "/bin", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
	cr_assert_eq(p.code, 0, "%s failed (%d): %s%s", what, p.code, p.out, p.err);
	e2e_proc_free(&p);
}

static void run_case(const char *name)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	for (const char *c = name; *c; c++)
		cr_assert(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *c),
			  "case folder %s: use letters, digits, '.', '_' and '-' only", name);
	char work[E2E_PATH], src[E2E_PATH], setup[E2E_PATH];
	e2e_path(&e, work, "work");
	cr_assert_eq(mkdir(work, 0755), 0);
	snprintf(src, sizeof src, "%s/%s/files", CORPUS, name);
	struct stat st;
	if (stat(src, &st) == 0)
		sh(&e, "cp -a \"$2/files/.\" \"$1\"", work, name, "copying the files");
	/* A canary beside whatever the case brings. */
	char canary[E2E_PATH];
	e2e_path(&e, canary, "work/canary.txt");
	e2e_write_file(canary, "rpbench must not touch this\n");
	snprintf(setup, sizeof setup, "%s/%s/setup.sh", CORPUS, name);
	if (stat(setup, &st) == 0)
		sh(&e, "cd \"$1\" && RPB_SRC=\"$3\" RPB_BIN=\"$4\" bash \"$2/setup.sh\"", work, name,
		   "setup.sh");
	char *before = e2e_tree(work);

	char *cmd = case_file(name, "cmd");
	cr_assert_not_null(cmd);
	static char words[CASE_ARGS_MAX][WORD_MAX];
	int n = split(cmd, work, words, CASE_ARGS_MAX - 4);
	free(cmd);
	cr_assert_gt(n, 0, "case %s: empty command", name);
	/* Run from inside the case's directory, so relative paths mean it. */
	struct e2e_args a = {0};
	e2e_args_add(&a, "sh", "-c", "cd \"$0\" && exec \"$@\"", work, NULL);
	for (int i = 0; i < n; i++)
		e2e_args_add(&a, words[i], NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);

	struct expect x;
	read_expect(name, &x);
	cr_assert_eq(p.code, x.exit, "case %s: `%s` exited %d, expected %d\nstdout: %.1500s\nstderr: %.1500s",
		     name, p.cmd, p.code, x.exit, p.out, p.err);
	if (x.stderr_re[0])
		assert_matches(name, "stderr", x.stderr_re, p.err);
	if (x.stdout_re[0])
		assert_matches(name, "stdout", x.stdout_re, p.out);
	if (x.exit != 0 && !x.any_lines) {
		size_t len = strlen(p.err);
		cr_assert(len > 1 && strchr(p.err, '\n') == p.err + len - 1,
			  "case %s: a refusal is one line on stderr, got:\n%.2000s", name, p.err);
	}
	/* The case's own inputs (kept byte for byte, below) may hold it. */
	for (int i = 0; i < x.nsecrets; i++) {
		assert_no_secret(name, "stdout", p.out, x.secret[i]);
		assert_no_secret(name, "stderr", p.err, x.secret[i]);
		char what[CASE_NAME_MAX + 8];
		snprintf(what, sizeof what, "case %s", name);
		e2e_assert_no_secret(what, work, before, x.secret[i]);
	}
	for (int i = 0; i < x.nabsent; i++) {
		char path[E2E_PATH];
		snprintf(path, sizeof path, "%s/%s", work, x.absent[i]);
		cr_assert_neq(access(path, F_OK), 0, "case %s: %s was left behind", name, x.absent[i]);
	}
	char *after = e2e_tree(work);
	e2e_assert_tree_kept(before, after, name);
	free(before);
	free(after);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

ParameterizedTest(struct bi_case *c, bad_input, corpus, .fini = e2e_cleanup)
{
	run_case(c->name);
}
