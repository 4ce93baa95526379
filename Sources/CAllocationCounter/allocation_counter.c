// An allocation counter for `marble bench` and the tests: it defines the C allocator's entry points,
// counts each call while counting is enabled, and hands the call to glibc's own allocator (the
// `__libc_*` functions glibc exports for exactly this). Loaded before libc (LD_PRELOAD, or linked into
// an executable), its definitions win for the whole process.
//
// Why our own: ordo-one's malloc-interposer 1.6.1 keeps a counter block per thread and frees it in a
// thread-exit destructor while its thread-local pointer still points at it; a thread that frees
// anything after that destructor, while counting is on, writes into freed memory. In a test process
// where threads end all the time (pipelines, idle pool threads) that corrupted the heap
// ("malloc_consolidate(): invalid chunk size", SIGSEGV in _int_malloc) once in a few runs. This one
// keeps no per-thread state at all: three process-wide counters, added to with relaxed atomics, and
// a flag read with one relaxed load when counting is off. Counting may be narrowed to one thread (its
// `pthread_self`, kept in a process-wide atomic, compared at each call): a test of single-threaded
// code then sees its own allocations only, whatever the tests running beside it allocate.
#define _GNU_SOURCE
#include "allocation_counter.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static atomic_bool counting = false;
static atomic_ulong only = 0;  // the one thread counted (its pthread_self), or 0: every thread
static atomic_llong allocations = 0, requested = 0, frees = 0;

static inline bool on(void) {
    if (!atomic_load_explicit(&counting, memory_order_relaxed)) return false;
    unsigned long thread = atomic_load_explicit(&only, memory_order_relaxed);
    return thread == 0 || thread == (unsigned long)pthread_self();
}

static inline void *counted(void *pointer, size_t size) {
    if (pointer && on()) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&requested, (long long)size, memory_order_relaxed);
    }
    return pointer;
}

void *malloc(size_t size) { return counted(__libc_malloc(size), size); }

void free(void *pointer) {
    if (pointer && on()) atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
    __libc_free(pointer);
}

void *calloc(size_t count, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(count, size, &total)) total = 0;
    return counted(__libc_calloc(count, size), total);
}

// An allocation when it makes a block (no old one) or may move to a bigger one; shrinking in place
// is not. A size of 0 frees the old block.
void *realloc(void *pointer, size_t size) {
    if (!pointer) return malloc(size);
    size_t had = malloc_usable_size(pointer);
    void *moved = __libc_realloc(pointer, size);
    if (size == 0) {
        if (on()) atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
        return moved;
    }
    return size > had ? counted(moved, size) : moved;
}

void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size), size); }

void *aligned_alloc(size_t alignment, size_t size) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) { errno = EINVAL; return NULL; }
    return memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    int saved = errno;
    void *pointer = memalign(alignment, size);
    if (!pointer) return ENOMEM;
    errno = saved;
    *out = pointer;
    return 0;
}

void *valloc(size_t size) { return counted(__libc_valloc(size), size); }
void *pvalloc(size_t size) { return counted(__libc_pvalloc(size), size); }

void marble_allocations_enable(void) {
    atomic_store_explicit(&only, 0, memory_order_release);
    atomic_store_explicit(&counting, true, memory_order_release);
}

void marble_allocations_enable_this_thread(void) {
    atomic_store_explicit(&only, (unsigned long)pthread_self(), memory_order_release);
    atomic_store_explicit(&counting, true, memory_order_release);
}
void marble_allocations_disable(void) { atomic_store_explicit(&counting, false, memory_order_release); }

void marble_allocations_reset(void) {
    atomic_store(&allocations, 0);
    atomic_store(&requested, 0);
    atomic_store(&frees, 0);
}

void marble_allocations_get(int64_t *out_allocations, int64_t *out_bytes, int64_t *out_frees) {
    *out_allocations = atomic_load(&allocations);
    *out_bytes = atomic_load(&requested);
    *out_frees = atomic_load(&frees);
}
