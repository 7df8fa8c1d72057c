/* The redactor (src/core/dsn.c): connection strings read with libpq's own
 * parser, every secret option shown as ***, an unparsable one as *** whole;
 * and the command lines and messages built on it (src/core/cmdline.c). */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "dsn.h"
#include "shown.h"

static void redacts(const char *dsn, const char *want)
{
	char *got = rpb_dsn_redacted(dsn);
	cr_assert_not_null(got);
	cr_assert_str_eq(got, want, "redacting [%s]", dsn);
	free(got);
}

Test(redact, key_value_spellings)
{
	redacts("host=replica password=hunter2", "password='***' host='replica'");
	redacts("password=hunter2 host=replica", "password='***' host='replica'");
	redacts("host=replica\npassword=hunter2", "password='***' host='replica'");
	redacts("host=replica\tpassword=hunter2", "password='***' host='replica'");
	redacts("host=replica\r\n password = hunter2 ", "password='***' host='replica'");
	redacts("host=replica password='hun ter2'", "password='***' host='replica'");
	redacts("host=replica password='hun\\'ter2'", "password='***' host='replica'");
	redacts("host=replica password=hun\\ ter2", "password='***' host='replica'");
	redacts("host=replica password=''", "password='***' host='replica'");
	redacts("host=replica sslpassword=hunter2", "host='replica' sslpassword='***'");
	redacts("host=replica port=5433 dbname=x user=u", "user='u' dbname='x' host='replica' port='5433'");
}

Test(redact, uris)
{
	redacts("postgresql://reader:hunter2@replica/rpbench",
		"user='reader' password='***' dbname='rpbench' host='replica'");
	redacts("postgres://reader:hunter2@replica:5433/rpbench",
		"user='reader' password='***' dbname='rpbench' host='replica' port='5433'");
	redacts("postgresql://reader:hun%74er2@replica/rpbench",
		"user='reader' password='***' dbname='rpbench' host='replica'");
	redacts("postgresql://replica/rpbench?password=hunter2",
		"password='***' dbname='rpbench' host='replica'");
	redacts("postgresql://replica/rpbench?pass%77ord=hunter2",
		"password='***' dbname='rpbench' host='replica'");
	redacts("postgresql://replica/rpbench?sslpassword=hunter2",
		"dbname='rpbench' host='replica' sslpassword='***'");
	redacts("postgresql://reader:hunter2@r1:5432,r2:5433/rpbench",
		"user='reader' password='***' dbname='rpbench' host='r1,r2' port='5432,5433'");
	redacts("postgresql://[::1]:5432/rpbench", "dbname='rpbench' host='::1' port='5432'");
}

/* libpq cannot parse these: nothing of them is shown. */
Test(redact, unparsable_is_shown_as_stars)
{
	redacts("host=replica passwordhunter2", "***");
	redacts("host=replica password='hunter2", "***");
	redacts("host=replica PASSWORD=hunter2", "***");
	redacts("host=replica password", "***");
	redacts("postgresql://reader:hunter2@replica/rpbench?x=%zz", "***");
	redacts("postgresql://reader:hunter2@[::1/rpbench", "***");
}

/* As for libpq's PQconnectdbParams: neither key=value nor a URI is a
 * database name. */
Test(redact, plain_word_is_a_database_name)
{
	redacts("rpbench", "dbname='rpbench'");
	redacts("it's", "dbname='it\\'s'");
	redacts("", "");
	redacts(NULL, "");
}

/* Which options are secret comes from libpq (dispchar "*"), and the output
 * is a connection string libpq reads back to the same options. */
Test(redact, secrets_are_libpq_s_and_output_reads_back)
{
	PQconninfoOption *all = PQconninfoParse("", NULL);
	cr_assert_not_null(all);
	for (PQconninfoOption *o = all; o->keyword; o++) {
		char *dsn = NULL;
		cr_assert_geq(asprintf(&dsn, "%s='v\\'a\\\\l ue'", o->keyword), 0);
		char *r = rpb_dsn_redacted(dsn);
		bool secret = o->dispchar && o->dispchar[0] == '*';
		cr_assert_eq(strstr(r, "v\\'a\\\\l ue") == NULL, secret, "%s -> %s", dsn, r);
		PQconninfoOption *back = PQconninfoParse(r, NULL);
		cr_assert_not_null(back, "libpq cannot read back %s", r);
		for (PQconninfoOption *b = back; b->keyword; b++)
			if (!strcmp(b->keyword, o->keyword))
				cr_assert_str_eq(b->val, secret ? "***" : "v'a\\l ue");
		PQconninfoFree(back);
		free(r);
		free(dsn);
	}
	PQconninfoFree(all);
}

Test(redact, free_text)
{
	char out[RPB_SHOWN_SIZE];
	cr_assert_str_eq(rpb_text_shown(out, sizeof out, "surplus"), "surplus");
	cr_assert_str_eq(rpb_text_shown(out, sizeof out, "threads=4"), "threads=4");
	cr_assert_str_eq(rpb_text_shown(out, sizeof out, "host=a dbname=b"), "host=a dbname=b");
	cr_assert_str_eq(rpb_text_shown(out, sizeof out, "host=a password=hunter2"),
			 "password='***' host='a'");
	cr_assert_str_eq(rpb_text_shown(out, sizeof out, "threads=4 password=hunter2"), "***");
	cr_assert_str_eq(rpb_text_shown(out, sizeof out, "passwordhunter2"), "***");
	cr_assert_str_eq(rpb_text_shown(out, sizeof out, "x://u:hunter2@h"), "***");
	cr_assert_str_eq(rpb_text_shown(out, sizeof out, ""), "(empty)");
}

Test(redact, option_values)
{
	const struct { const char *key, *value, *want; } cases[] = {
		{"read_dsn", "host=r password=x", "password='***' host='r'"},
		{"postgres.read_dsn", "mydb", "dbname='mydb'"},
		{"postgres.read_dsn", "host=r passwordx", "***"},
		{"sqlite.password", "hunter2", "***"},
		{"x.secret_key", "hunter2", "***"},
		{"x.dsn_extra", "a=b c", "***"},
		{"sqlite.password", "", ""},
		{"sqlite.cache_size", "1M", "1M"},
		{"postgres.application_name", "host=a password=hunter2", "password='***' host='a'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *r = rpb_value_redacted(cases[i].key, strlen(cases[i].key), cases[i].value);
		cr_assert_str_eq(r, cases[i].want, "%s = %s", cases[i].key, cases[i].value);
		free(r);
	}
}

Test(redact, libpq_messages)
{
	char text[] = "FATAL: password hunter2 and sslpassword s3cr3t are wrong; user reader";
	cr_assert(rpb_dsn_mask_secrets("host=h user=reader password=hunter2 sslpassword=s3cr3t", text));
	cr_assert_str_eq(text, "FATAL: password *** and sslpassword *** are wrong; user reader");
	char other[] = "missing \"=\" after \"passwordhunter2\"";
	cr_assert_not(rpb_dsn_mask_secrets("host=h passwordhunter2", other), "unparsable");
	char why[200];
	rpb_dsn_parse_error("host=h passwordhunter2", why, sizeof why);
	cr_assert_str_eq(why, "missing \"=\" after \"***\" in connection info string");
	rpb_dsn_parse_error("host=h password='hunter2", why, sizeof why);
	cr_assert_str_eq(why, "unterminated quoted string in connection info string");
	rpb_dsn_parse_error("postgresql://u:hunter2@h/d?x=%zz", why, sizeof why);
	cr_assert_str_eq(why, "invalid percent-encoded token: \"***\"");
	rpb_dsn_parse_error("host=h", why, sizeof why);
	cr_assert_str_eq(why, "");
}

/* ---- command lines ---- */

static char *command(void (*build)(FILE *f, const char *arg), const char *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	build(f, arg);
	fclose(f);
	return text;
}

static void set_cmd(FILE *f, const char *arg)
{
	rpb_cmd_word(f, "rpbench-sqlite");
	rpb_cmd_set(f, "--set", arg);
}

static void dsn_cmd(FILE *f, const char *arg)
{
	rpb_cmd_word(f, "rpbench-postgres");
	rpb_cmd_dsn(f, "--dsn", arg);
}

static void word_cmd(FILE *f, const char *arg)
{
	rpb_cmd_word(f, arg);
}

Test(redact, recorded_commands)
{
	char *c = command(set_cmd, "postgres.read_dsn=host=r\npassword=hunter2");
	cr_assert_str_eq(c, "rpbench-sqlite --set \"postgres.read_dsn=password='***' host='r'\"");
	free(c);
	c = command(set_cmd, "threads=4");
	cr_assert_str_eq(c, "rpbench-sqlite --set threads=4");
	free(c);
	c = command(set_cmd, "host=r password=hunter2");
	cr_assert_str_eq(c, "rpbench-sqlite --set \"password='***' host='r'\"");
	free(c);
	c = command(dsn_cmd, "postgresql://u:hunter2@h/db");
	cr_assert_str_eq(c, "rpbench-postgres --dsn \"user='u' password='***' dbname='db' host='h'\"");
	free(c);
}

/* Every word reads back as it was written, whatever it holds. */
Test(redact, command_words_read_back)
{
	static const char *const words[] = {
		"plain", "with space", "it's", "say \"hi\"", "$HOME", "back\\slash", "a'b\"c$d`e\\f!g",
		"tab\there", "", "caf\xc3\xa9", "user='u' password='***'",
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		char *c = command(word_cmd, words[i]);
		const char *p = c;
		char back[256];
		cr_assert(rpb_cmd_next_word(&p, back, sizeof back) || !*words[i], "%s", c);
		if (*words[i])
			cr_assert_str_eq(back, words[i], "written as %s", c);
		free(c);
	}
}

/* A command recorded by an older rpbench (joined by spaces, a DSN split in
 * words) is redacted again; a current one stays as it is. */
Test(redact, recorded_commands_redacted_again)
{
	char *c = rpb_cmd_redacted("rpbench-postgres run w.ini --dsn host=db password=hunter2 "
				   "--set postgres.read_dsn=postgresql://u:hunter2@r/db --quiet");
	cr_assert_not_null(c);
	cr_assert_null(strstr(c, "hunter2"), "%s", c);
	cr_assert_str_eq(c, "rpbench-postgres run w.ini --dsn \"host='db'\" \"password='***'\" "
			    "--set \"postgres.read_dsn=user='u' password='***' dbname='db' host='r'\" --quiet");
	char *again = rpb_cmd_redacted(c);
	cr_assert_str_eq(again, c, "a current command is left as it is");
	free(again);
	free(c);
}

static void cli_problem(const char *elem, int ch, int opt, const char *want)
{
	static const struct option longopts[] = {
		{"set", required_argument, NULL, 's'}, {"schema", required_argument, NULL, 'S'},
		{"out", required_argument, NULL, 'o'}, {"fresh", no_argument, NULL, 'f'},
		{"quiet", no_argument, NULL, 'q'},     {NULL, 0, NULL, 0},
	};
	char msg[512];
	optopt = opt;
	rpb_cli_problem(msg, sizeof msg, longopts, ch, elem);
	cr_assert_str_eq(msg, want);
}

Test(redact, refused_command_lines)
{
	cli_problem("--set", ':', 's', "option --set needs a value");
	cli_problem("--ou", ':', 'o', "option --out needs a value");
	cli_problem("--bogus=hunter2", '?', 0, "unknown option '--bogus'");
	cli_problem("--fresh=1", '?', 'f', "option --fresh takes no value");
	cli_problem("--s=1", '?', 0, "option '--s' is ambiguous (--set, --schema); write it out");
	cli_problem("-qx", '?', 'x', "unknown option '-x'");
	cli_problem("-z", '?', 'z', "unknown option '-z'");
}

/* Every control character in a DSN is found, wherever it is; printable
 * text (UTF-8 included) is not. */
Test(redact, dsn_control_characters_found)
{
	cr_assert_eq(rpb_dsn_control_at("host=/tmp port=5432 dbname=é"), -1);
	cr_assert_eq(rpb_dsn_control_at(""), -1);
	char dsn[] = "host=/tmp?port=5";
	for (int c = 0; c < 0x80; c++) {
		if (c == 0 || (c >= 0x20 && c != 0x7f))
			continue;
		dsn[9] = (char)c;
		cr_assert_eq(rpb_dsn_control_at(dsn), 9, "byte 0x%02x", c);
	}
}
