/* "did you mean": edit distance and the nearest known name (src/core/nearest.c). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nearest.h"

Test(nearest, edit_distance)
{
	cr_assert_eq(rpb_edit_distance("threads", "threads"), 0);
	cr_assert_eq(rpb_edit_distance("thread", "threads"), 1, "one insertion");
	cr_assert_eq(rpb_edit_distance("thredas", "threads"), 1, "a swap of neighbours is one edit");
	cr_assert_eq(rpb_edit_distance("sise_max", "size_max"), 1, "one substitution");
	cr_assert_eq(rpb_edit_distance("", "ops"), 3);
	cr_assert_eq(rpb_edit_distance("kitten", "sitting"), 3);
	char long_name[80];
	memset(long_name, 'a', sizeof long_name - 1);
	long_name[sizeof long_name - 1] = '\0';
	cr_assert_eq(rpb_edit_distance(long_name, "a"), SIZE_MAX, "a long name is near nothing");
}

static const char *nearest_of(const char *word, const char *const *names)
{
	struct rpb_nearest nr;
	rpb_nearest_init(&nr, word);
	for (; *names; names++)
		rpb_nearest_offer(&nr, *names);
	return rpb_nearest_best(&nr);
}

Test(nearest, only_close_names_are_suggested)
{
	static const char *const keys[] = {"threads", "clients", "ops", "duration", "seed", "sync", NULL};
	cr_assert_str_eq(nearest_of("thread", keys), "threads");
	cr_assert_str_eq(nearest_of("duraton", keys), "duration");
	cr_assert_str_eq(nearest_of("op", keys), "ops");
	cr_assert_null(nearest_of("bogus", keys), "nothing is near bogus");
	cr_assert_null(nearest_of("sink", keys), "two edits in four letters is too far");
	cr_assert_null(nearest_of("threads", keys), "an exact name is no suggestion");
}

Test(nearest, hint_text)
{
	static const char *const names[] = {"dsn", "dir", "out", NULL};
	struct rpb_nearest nr;
	char msg[128] = "unknown option '--dns'";
	rpb_nearest_init(&nr, "dns");
	for (const char *const *p = names; *p; p++)
		rpb_nearest_offer(&nr, *p);
	cr_assert(rpb_nearest_hint(msg, sizeof msg, &nr, "--", ""));
	cr_assert_str_eq(msg, "unknown option '--dns' (did you mean --dsn?)");
	char none[64] = "unknown option '--zzzzzz'";
	rpb_nearest_init(&nr, "zzzzzz");
	rpb_nearest_offer(&nr, "dsn");
	cr_assert_not(rpb_nearest_hint(none, sizeof none, &nr, "--", ""));
	cr_assert_str_eq(none, "unknown option '--zzzzzz'");
}
