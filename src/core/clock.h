/* Monotonic and wall clocks in nanoseconds.
 *
 * rpb_now_ns reads CLOCK_MONOTONIC, or, once rpb_clock_init has found the
 * TSC reliable (as fio does: the CPU says constant_tsc and nonstop_tsc and
 * the kernel itself keeps time with it), the TSC scaled to nanoseconds in
 * CLOCK_MONOTONIC's time base: one instruction instead of a vDSO call,
 * the same answer to within the calibration's few parts per million, so
 * times from both sources and rpb_sleep_until mix. */
#ifndef RPB_CLOCK_H
#define RPB_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#define RPB_HAVE_TSC 1
#endif

/* Set once by rpb_clock_init, before any thread that reads the clock. */
struct rpb_tsc_scale {
	bool on;
	uint64_t tsc0, ns0; /* one reading of both clocks */
	uint64_t mult;      /* ns per tick, fixed point with 32 fraction bits */
};
extern struct rpb_tsc_scale rpb_tsc;

static inline uint64_t rpb_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t rpb_now_ns(void)
{
#ifdef RPB_HAVE_TSC
	if (rpb_tsc.on)
		return rpb_tsc.ns0 +
		       (uint64_t)(((unsigned __int128)(__rdtsc() - rpb_tsc.tsc0) * rpb_tsc.mult) >> 32);
#endif
	return rpb_mono_ns();
}

static inline uint64_t rpb_wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Decides the clock source once per process (calibrating the TSC against
 * CLOCK_MONOTONIC for about 20 ms when it is reliable); call it from the
 * main thread before the threads that time operations start. The
 * environment variable RPB_CLOCK=monotonic keeps CLOCK_MONOTONIC. */
void rpb_clock_init(void);
/* "tsc" or "clock_gettime": what rpb_now_ns reads (result.json's
 * manifest.clock_source); decides it first if not yet (rpb_clock_init). */
const char *rpb_clock_source(void);

/* Sleeps until the monotonic time t (ns); returns at once if it has passed. */
void rpb_sleep_until(uint64_t t);

#endif
