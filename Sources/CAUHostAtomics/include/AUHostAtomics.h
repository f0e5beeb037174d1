/*
 * AUHostAtomics.h — the few lock-free atomic operations the render thread and setup threads
 * share (sequentially consistent; lock-free on every machine AUHost runs on). Thread class: any.
 */
#ifndef AUHOST_ATOMICS_H
#define AUHOST_ATOMICS_H

#include <stdint.h>

static inline void *auhost_atomic_load_pointer(void *const *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static inline void auhost_atomic_store_pointer(void **p, void *v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
static inline void *auhost_atomic_exchange_pointer(void **p, void *v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
static inline uint64_t auhost_atomic_load_u64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static inline void auhost_atomic_store_u64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
/* Relaxed: for a value only its own writer's thread needs in order (no fence). */
static inline uint64_t auhost_atomic_load_u64_relaxed(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void auhost_atomic_store_u64_relaxed(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
static inline uint64_t auhost_atomic_add_u64(uint64_t *p, uint64_t v) { return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST); }
/* Replaces *p with desired if it holds *expected (true); otherwise loads *p into *expected (false). */
static inline _Bool auhost_atomic_compare_exchange_u64(uint64_t *p, uint64_t *expected, uint64_t desired) {
    return __atomic_compare_exchange_n(p, expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
static inline int32_t auhost_atomic_load_i32(const int32_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static inline void auhost_atomic_store_i32(int32_t *p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }

#endif
