#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

struct rpb_tsc_scale rpb_tsc;

void rpb_sleep_until(uint64_t t)
{
	struct timespec ts = {.tv_sec = (time_t)(t / 1000000000u), .tv_nsec = (long)(t % 1000000000u)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

const char *rpb_clock_source(void)
{
	rpb_clock_init();
	return rpb_tsc.on ? "tsc" : "clock_gettime";
}

#ifdef RPB_HAVE_TSC
/* True when the first line of path starting with prefix holds every word. */
static bool line_has(const char *path, const char *prefix, const char *const *words)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[8192];
	bool found = false;
	while (!found && fgets(line, sizeof line, f))
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			found = true;
			for (const char *const *w = words; *w && found; w++) {
				const char *p = line;
				size_t n = strlen(*w);
				found = false;
				while ((p = strstr(p, *w)) && !found) {
					found = (p[n] == ' ' || p[n] == '\n' || p[n] == '\0') &&
						(p == line || p[-1] == ' ' || p[-1] == '\t');
					p += n;
				}
			}
			break;
		}
	fclose(f);
	return found;
}

/* Both clocks at one moment: the TSC read between two CLOCK_MONOTONIC
 * readings, the tightest of a few tries. */
static void both_now(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t a = rpb_mono_ns(), t = __rdtsc(), b = rpb_mono_ns();
		if (b - a < best) {
			best = b - a;
			*tsc = t;
			*ns = a + (b - a) / 2;
		}
	}
}

static bool tsc_reliable(void)
{
	static const char *const flags[] = {"constant_tsc", "nonstop_tsc", NULL};
	static const char *const tsc[] = {"tsc", NULL};
	return line_has("/proc/cpuinfo", "flags", flags) &&
	       line_has("/sys/devices/system/clocksource/clocksource0/current_clocksource", "",
			tsc);
}
#endif

void rpb_clock_init(void)
{
#ifdef RPB_HAVE_TSC
	static bool done;
	const char *env = getenv("RPB_CLOCK");
	if (done)
		return;
	done = true;
	if ((env && strcmp(env, "monotonic") == 0) || !tsc_reliable())
		return;
	uint64_t t0, n0, t1, n1;
	both_now(&t0, &n0);
	rpb_sleep_until(n0 + 20000000u);
	both_now(&t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return;
	rpb_tsc.mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
	rpb_tsc.tsc0 = t1;
	rpb_tsc.ns0 = n1;
	rpb_tsc.on = true;
#endif
}
