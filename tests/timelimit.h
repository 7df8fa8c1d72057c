/* Wall-time limits of the suite. They exist only to turn a hang into a
 * failure, never to judge speed: each is a generous base, many times what
 * a test or run needs on a quiet machine's normal build, times one factor
 * that grows for slower machines and builds. */
#ifndef RPBT_TIMELIMIT_H
#define RPBT_TIMELIMIT_H

/* Bases, in seconds at factor 1. */
#define RPBT_TEST_LIMIT_S 600.0  /* a whole test (Criterion's timeout) */
#define RPBT_CHILD_LIMIT_S 300.0 /* one child process the test waits for */

/* RPB_TEST_TIME_FACTOR (environment, a positive number, default 1) times
 * the build's factor (RPBT_BUILD_TIME_FACTOR, set by CMake: 3 in sanitizer
 * builds). Exits with a message when the variable is not a positive number. */
double rpbt_time_factor(void);
/* base * rpbt_time_factor(). */
double rpbt_limit_s(double base);

#endif
