/* Command lines: the one a run records (rebuilt from the parsed options,
 * never copied from argv, so every option that holds a connection string is
 * redacted whatever its spelling), the messages of a command line that
 * getopt refused, and --set assignments as messages quote them. */
#ifndef RPB_CMDLINE_H
#define RPB_CMDLINE_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A command line being built: rpb_cmd_open, the appenders below on its f,
 * then rpb_cmd_close, which returns the text (malloc'd; NULL when out of
 * memory). */
struct rpb_cmd {
	FILE *f;
	char *text;
	size_t len;
};
bool rpb_cmd_open(struct rpb_cmd *c);
char *rpb_cmd_close(struct rpb_cmd *c);

/* Appends word to a command line being written to f: a space first unless
 * f is still empty, quotes when the shell would split or expand it. */
void rpb_cmd_word(FILE *f, const char *word);
/* Appends "OPTION VALUE". */
void rpb_cmd_opt(FILE *f, const char *option, const char *value);
/* Appends "OPTION DSN" with the DSN redacted (dsn.h). */
void rpb_cmd_dsn(FILE *f, const char *option, const char *dsn);
/* Appends "OPTION KEY=VALUE" with VALUE redacted when KEY names a
 * connection string (rpb_key_is_dsn), and an assignment that cannot be read
 * as one shown as rpb_text_shown would. */
void rpb_cmd_set(FILE *f, const char *option, const char *assignment);

/* Whether a --set assignment holds a secret: its recorded form
 * (rpb_cmd_set) is not the assignment as given. */
bool rpb_set_has_secret(const char *assignment);

/* Reads one word of a command line rpb_cmd_word wrote, at *p, into out
 * (quotes removed); advances *p. false at the end. */
bool rpb_cmd_next_word(const char **p, char *out, size_t n);

/* A recorded command line (rpb_cmd_word's quoting) redacted again, word by
 * word: for result files of older versions, which may hold a password.
 * malloc'd; NULL when out of memory. */
char *rpb_cmd_redacted(const char *command);

/* A --set assignment as a message quotes it: "KEY=VALUE" with the value
 * redacted as rpb_cmd_set does, cut short (shown.h). */
const char *rpb_set_shown(char *out, size_t n, const char *assignment);

/* What getopt_long (optstring starting "+:") refused, in words: "option
 * --set needs a value", "unknown option '--bogus'", "unknown option '-x'",
 * "option --fresh takes no value", "option '--s' is ambiguous ...". elem is
 * the argument getopt was reading (argv[optind] before the call). */
void rpb_cli_problem(char *msg, size_t n, const struct option *longopts, int ch,
		     const char *elem);

/* "unknown command 'WORD' (commands: a, b)", or with the nearest one when
 * WORD looks like a slip: "unknown command 'rn' (did you mean run?
 * commands: run, verify)". commands is NULL-terminated. */
void rpb_cli_unknown_command(char *msg, size_t n, const char *word, const char *const *commands);

#endif
