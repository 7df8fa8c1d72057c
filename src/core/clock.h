/* Monotonic and wall clocks in nanoseconds. */
#ifndef RPB_CLOCK_H
#define RPB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t rpb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t rpb_wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Sleeps until the monotonic time t (ns); returns at once if it has passed. */
void rpb_sleep_until(uint64_t t);

#endif
