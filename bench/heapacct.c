/* heapacct: an LD_PRELOAD heap accountant. It counts the process's heap
 * allocations and keeps its live heap bytes per owner: "rpbench" for
 * blocks whose allocating call sits in the main executable (rpbench's own
 * code, backends included, is linked in statically), "library" for the
 * rest (libleveldb, libstdc++'s operator new, libsqlite3, libpq, libjansson,
 * libc itself). At exit it writes the count, each owner's peak and its
 * live bytes to the file RPB_HEAP_REPORT names, one "name value" a line.
 *
 * The owner is the return address of the allocating call, looked up once
 * against the main executable's executable segments (from the auxiliary
 * vector: no allocation, no lock). strdup and strndup are wrapped so that
 * rpbench's copies count as its own, not libc's. Each block carries a
 * 16-byte header with its size and owner, so free needs no table; every
 * glibc allocation entry point is replaced (glibc calls them through the
 * PLT, so its internal allocations come here too), and a block without the
 * header aborts rather than corrupts. Counters are atomics: any thread may
 * allocate or free. docs/performance.md ("Harvest memory") uses it. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void __libc_free(void *p);

enum { OWNER_LIB, OWNER_RPB, OWNERS };
enum { HDR = 16, MAGIC = 0x4ea7 };

struct hdr {
	uint64_t size;   /* requested bytes */
	uint32_t offset; /* from the start of glibc's block to the user pointer */
	uint16_t owner;
	uint16_t magic;
};
_Static_assert(sizeof(struct hdr) == HDR, "the header keeps malloc's 16-byte alignment");

static _Atomic unsigned long long allocations;
static _Atomic long long live[OWNERS + 1], peak[OWNERS + 1]; /* [OWNERS]: both */
static _Atomic uintptr_t text_lo, text_hi;
static atomic_bool text_known;

/* The main executable's executable PT_LOAD range, from its program headers. */
static void find_text(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM);
	uintptr_t bias = 0, lo = UINTPTR_MAX, hi = 0;
	for (unsigned long i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			bias = (uintptr_t)ph - ph[i].p_vaddr;
	for (unsigned long i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X)) {
			uintptr_t a = bias + ph[i].p_vaddr, b = a + ph[i].p_memsz;
			lo = a < lo ? a : lo;
			hi = b > hi ? b : hi;
		}
	atomic_store(&text_lo, lo);
	atomic_store(&text_hi, hi);
	atomic_store(&text_known, true);
}

static unsigned owner_of(const void *ret)
{
	if (!atomic_load_explicit(&text_known, memory_order_acquire))
		find_text(); /* idempotent: racing threads store the same values */
	uintptr_t a = (uintptr_t)ret;
	return a >= atomic_load_explicit(&text_lo, memory_order_relaxed) &&
			       a < atomic_load_explicit(&text_hi, memory_order_relaxed)
		       ? OWNER_RPB
		       : OWNER_LIB;
}

static void raise_peak(unsigned k, long long now)
{
	long long p = atomic_load_explicit(&peak[k], memory_order_relaxed);
	while (now > p && !atomic_compare_exchange_weak(&peak[k], &p, now))
		;
}

static void account(unsigned owner, long long delta)
{
	long long mine = atomic_fetch_add(&live[owner], delta) + delta;
	long long all = atomic_fetch_add(&live[OWNERS], delta) + delta;
	if (delta > 0) {
		raise_peak(owner, mine);
		raise_peak(OWNERS, all);
	}
}

/* Puts the header in front of user pointer p inside glibc's block base. */
static void *finish(void *base, size_t offset, size_t n, unsigned owner)
{
	if (!base)
		return NULL;
	char *p = (char *)base + offset;
	struct hdr *h = (struct hdr *)(void *)(p - HDR);
	*h = (struct hdr){n, (uint32_t)offset, (uint16_t)owner, MAGIC};
	account(owner, (long long)n);
	return p;
}

static struct hdr *header(void *p)
{
	struct hdr *h = (struct hdr *)(void *)((char *)p - HDR);
	if (h->magic != MAGIC) {
		static const char msg[] = "heapacct: a block without its header was freed\n";
		if (write(2, msg, sizeof msg - 1) < 0)
			abort();
		abort();
	}
	return h;
}

static void count(void)
{
	atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

/* A block of n bytes aligned to align (16 at least); zeroed if zero. */
static void *alloc(size_t align, size_t n, bool zero, unsigned owner)
{
	if (align <= HDR) {
		if (n > SIZE_MAX - HDR) {
			errno = ENOMEM;
			return NULL;
		}
		/* glibc's calloc, so fresh pages stay untouched as without us. */
		void *base = zero ? __libc_calloc(1, n + HDR) : __libc_malloc(n + HDR);
		return finish(base, HDR, n, owner);
	}
	if ((align & (align - 1)) || align > UINT32_MAX || n > SIZE_MAX - align) {
		errno = EINVAL;
		return NULL;
	}
	/* The user pointer one alignment in: room for the header before it. */
	void *p = finish(__libc_memalign(align, n + align), align, n, owner);
	return p && zero ? memset(p, 0, n) : p;
}

static void release(void *p)
{
	if (!p)
		return;
	struct hdr *h = header(p);
	account(h->owner, -(long long)h->size);
	h->magic = 0;
	__libc_free((char *)p - h->offset);
}

void *malloc(size_t n)
{
	count();
	return alloc(0, n, false, owner_of(__builtin_return_address(0)));
}

void *calloc(size_t n, size_t size)
{
	count();
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return alloc(0, n * size, true, owner_of(__builtin_return_address(0)));
}

void free(void *p)
{
	release(p);
}

/* realloc for owner: the block moves to whoever resized it. */
static void *resize(void *p, size_t n, unsigned owner)
{
	if (!p)
		return alloc(0, n, false, owner);
	if (!n) {
		release(p);
		return NULL;
	}
	struct hdr old = *header(p);
	if (old.offset != HDR || n > SIZE_MAX - HDR) {
		/* An aligned block (realloc keeps no alignment) or an impossible size. */
		void *q = alloc(0, n, false, owner);
		if (q) {
			memcpy(q, p, old.size < n ? old.size : n);
			release(p);
		}
		return q;
	}
	void *base = __libc_realloc((char *)p - HDR, n + HDR);
	if (!base)
		return NULL; /* p is untouched and still accounted */
	account(old.owner, -(long long)old.size);
	return finish(base, HDR, n, owner);
}

void *realloc(void *p, size_t n)
{
	count();
	return resize(p, n, owner_of(__builtin_return_address(0)));
}

void *reallocarray(void *p, size_t n, size_t size)
{
	count();
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return resize(p, n * size, owner_of(__builtin_return_address(0)));
}

int posix_memalign(void **out, size_t align, size_t n)
{
	count();
	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	void *p = alloc(align, n, false, owner_of(__builtin_return_address(0)));
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
	count();
	return alloc(align, n, false, owner_of(__builtin_return_address(0)));
}

void *memalign(size_t align, size_t n)
{
	count();
	return alloc(align, n, false, owner_of(__builtin_return_address(0)));
}

void *valloc(size_t n)
{
	count();
	return alloc((size_t)sysconf(_SC_PAGESIZE), n, false, owner_of(__builtin_return_address(0)));
}

void *pvalloc(size_t n)
{
	count();
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	return alloc(page, (n + page - 1) / page * page, false, owner_of(__builtin_return_address(0)));
}

size_t malloc_usable_size(void *p)
{
	return p ? (size_t)header(p)->size : 0;
}

static char *copy(const char *s, size_t n, unsigned owner)
{
	count();
	char *d = alloc(0, n + 1, false, owner);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

char *strdup(const char *s)
{
	return copy(s, strlen(s), owner_of(__builtin_return_address(0)));
}

char *strndup(const char *s, size_t n)
{
	return copy(s, strnlen(s, n), owner_of(__builtin_return_address(0)));
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("RPB_HEAP_REPORT");
	if (!path)
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	char text[512];
	int len = snprintf(text, sizeof text,
			   "allocations %llu\n"
			   "rpbench_peak_bytes %lld\nrpbench_live_bytes %lld\n"
			   "library_peak_bytes %lld\nlibrary_live_bytes %lld\n"
			   "total_peak_bytes %lld\n",
			   atomic_load(&allocations), atomic_load(&peak[OWNER_RPB]),
			   atomic_load(&live[OWNER_RPB]), atomic_load(&peak[OWNER_LIB]),
			   atomic_load(&live[OWNER_LIB]), atomic_load(&peak[OWNERS]));
	if (len > 0 && write(fd, text, (size_t)len) != len)
		len = 0;
	close(fd);
}
