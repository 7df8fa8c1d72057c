/* An LD_PRELOAD library that counts heap allocations of a whole process and
 * writes the count to the file named by RPB_ALLOC_COUNT_FILE at exit. Two
 * runs that differ only in their number of operations differ by the
 * allocations made per operation: the test that the timed loop allocates
 * nothing. Forwards to glibc's own entry points, so no dlsym (which would
 * allocate) is needed. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);

static _Atomic unsigned long long allocations;

void *malloc(size_t n)
{
	atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
	return __libc_realloc(p, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
	void *p = __libc_memalign(align, n);
	if (!p)
		return 12; /* ENOMEM */
	*out = p;
	return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
	atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
	return __libc_memalign(align, n);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("RPB_ALLOC_COUNT_FILE");
	if (!path)
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	char line[32];
	int len = snprintf(line, sizeof line, "%llu\n", (unsigned long long)atomic_load(&allocations));
	if (write(fd, line, (size_t)len) != len)
		len = 0;
	close(fd);
}
