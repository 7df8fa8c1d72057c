/* Object contents: random printable ASCII (as the Fedora test plan's
 * randomAscii) or random bytes, of a size uniform in [size_min, size_max),
 * generated into a caller buffer without allocation. */
#ifndef RPB_PAYLOAD_H
#define RPB_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

enum rpb_content { RPB_CONTENT_ASCII = 0, RPB_CONTENT_BINARY };

/* The size of one object: uniform in [size_min, size_max); size_min when
 * size_max <= size_min. Draws exactly one value from r. */
uint64_t rpb_payload_size(struct rpb_rng *r, uint64_t size_min, uint64_t size_max);
/* Fills n bytes: ASCII draws uniformly from the 95 printable characters
 * 0x20..0x7E; binary from all 256 byte values. */
void rpb_payload_fill(struct rpb_rng *r, enum rpb_content kind, unsigned char *buf, size_t n);

#endif
