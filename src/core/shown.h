/* User text quoted in a message: cut short, so the explanation that follows
 * always fits the message, and an empty value named as such. */
#ifndef RPB_SHOWN_H
#define RPB_SHOWN_H

#include <stddef.h>

/* The longest part of a value a message quotes, in bytes. */
#define RPB_SHOWN_MAX 200
/* A buffer that holds any shown value: the part, "..." and the NUL. */
#define RPB_SHOWN_SIZE (RPB_SHOWN_MAX + 4)

/* Writes value to out as a message quotes it and returns out: "(empty)" for
 * an empty value, a value longer than RPB_SHOWN_MAX bytes (or than n - 4)
 * cut at a character boundary and followed by "...", every control
 * character (newline, escape, ...) shown as ?. */
const char *rpb_shown(char *out, size_t n, const char *value);

#endif
