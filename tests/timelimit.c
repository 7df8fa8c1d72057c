#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "timelimit.h"

#ifndef RPBT_BUILD_TIME_FACTOR
#error "CMake defines RPBT_BUILD_TIME_FACTOR (tests/CMakeLists.txt)"
#endif

double rpbt_time_factor(void)
{
	const char *s = getenv("RPB_TEST_TIME_FACTOR");
	double f = 1;
	if (s && *s) {
		char *end = NULL;
		f = strtod(s, &end);
		if (*end || !isfinite(f) || f <= 0) {
			fprintf(stderr, "RPB_TEST_TIME_FACTOR = \"%s\" is not a positive number\n", s);
			exit(2);
		}
	}
	return f * RPBT_BUILD_TIME_FACTOR;
}

double rpbt_limit_s(double base)
{
	return base * rpbt_time_factor();
}
