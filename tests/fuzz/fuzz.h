/* What every harness asserts of a reader's refusal, and how it fails. */
#ifndef RPB_FUZZ_H
#define RPB_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A failed property is a crash: libFuzzer keeps the input that caused it. */
#define FUZZ_ASSERT(cond, ...)                                             \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "property failed: %s: ", #cond);   \
			fprintf(stderr, __VA_ARGS__);                      \
			fputc('\n', stderr);                               \
			abort();                                           \
		}                                                          \
	} while (0)

/* A refusal is one line of text, never empty (docs/results.md: one line
 * on stderr). */
static inline void fuzz_one_line(const char *msg)
{
	FUZZ_ASSERT(msg[0] != '\0', "empty message");
	FUZZ_ASSERT(!strchr(msg, '\n'), "message of more than one line: %s", msg);
}

/* data as a NUL-terminated string (malloc'd); NULs inside stay and end it
 * early, as they would in a C string read from a file. */
static inline char *fuzz_string(const unsigned char *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
