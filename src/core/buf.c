/* The caller-owned growable buffer backends copy results into. */
#include <stdlib.h>
#include <string.h>

#include "store.h"

enum rpb_status rpb_buf_reserve(struct rpb_buf *b, size_t n, struct rpb_err *err)
{
	if (n <= b->cap)
		return RPB_OK;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < n)
		cap *= 2;
	unsigned char *p = realloc(b->data, cap);
	if (!p)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory growing a buffer to %zu bytes", cap);
	b->data = p;
	b->cap = cap;
	return RPB_OK;
}

enum rpb_status rpb_buf_set(struct rpb_buf *b, const void *p, size_t n, struct rpb_err *err)
{
	enum rpb_status st = rpb_buf_reserve(b, n ? n : 1, err);
	if (st)
		return st;
	if (n)
		memcpy(b->data, p, n);
	b->len = n;
	return RPB_OK;
}

void rpb_buf_free(struct rpb_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void *rpb_calloc_lines(size_t n, size_t size)
{
	enum { LINE = 64 };
	if (size && n > SIZE_MAX / size)
		return NULL;
	size_t bytes = (n * size + LINE - 1) / LINE * LINE;
	void *p = aligned_alloc(LINE, bytes ? bytes : LINE);
	if (p)
		memset(p, 0, bytes ? bytes : LINE);
	return p;
}
