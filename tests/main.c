/* The suite's own main: Criterion's, except that every test's timeout is
 * scaled by rpbt_time_factor() before the run (tests/timelimit.h). A test
 * without .timeout gets RPBT_TEST_LIMIT_S (or --timeout's value); one with
 * .timeout gives its own base. The runner process enforces the timeouts,
 * so changing them here, before criterion_run_all_tests, is what counts. */
#include <criterion/criterion.h>
#include <criterion/internal/ordered-set.h>
#include <criterion/options.h>

#include "timelimit.h"

/* Criterion's ordered sets keep each element right after its node. */
static void *element(struct criterion_ordered_set_node *n)
{
	return n + 1;
}

static void scale_timeouts(struct criterion_test_set *tests, double factor)
{
	/* --timeout on the command line replaces the default base. */
	double dflt = criterion_options.timeout > 0 ? criterion_options.timeout : RPBT_TEST_LIMIT_S;
	criterion_options.timeout = dflt * factor;
	for (struct criterion_ordered_set_node *sn = tests->suites->first; sn; sn = sn->next) {
		struct criterion_suite_set *suite = element(sn);
		if (!suite->tests)
			continue;
		for (struct criterion_ordered_set_node *tn = suite->tests->first; tn; tn = tn->next) {
			struct criterion_test *t = element(tn);
			double base = t->data->timeout > 0 ? t->data->timeout : dflt;
			t->data->timeout = base * factor;
		}
	}
}

int main(int argc, char *argv[])
{
	double factor = rpbt_time_factor();
	struct criterion_test_set *tests = criterion_initialize();
	int result = 0;
	if (criterion_handle_args(argc, argv, true)) {
		scale_timeouts(tests, factor);
		result = !criterion_run_all_tests(tests);
	}
	criterion_finalize(tests);
	return result;
}
