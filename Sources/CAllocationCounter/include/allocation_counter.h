#ifndef MARBLE_ALLOCATION_COUNTER_H
#define MARBLE_ALLOCATION_COUNTER_H

#include <stdint.h>

// Counts the process's heap allocations while enabled (see allocation_counter.c). `marble bench`
// finds these with dlsym once the library is preloaded; the tests link it into their process.
void marble_allocations_enable(void);
// Counts only what the calling thread allocates and frees, until the next enable.
void marble_allocations_enable_this_thread(void);
void marble_allocations_disable(void);
void marble_allocations_reset(void);
// Allocations (malloc, calloc, realloc that allocates or grows, posix_memalign, aligned_alloc,
// memalign, valloc, pvalloc), the bytes they asked for, and frees, since the last reset.
void marble_allocations_get(int64_t *allocations, int64_t *bytes, int64_t *frees);

#endif
