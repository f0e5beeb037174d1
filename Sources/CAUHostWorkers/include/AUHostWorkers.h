/*
 * AUHostWorkers.h — what a graph's render worker threads need beyond AUHostAtomics: futex sleep
 * and wake (the only way a real-time thread may wait: no mutex, no allocation), 32-bit atomic
 * counters with acquire/release ordering, and the CPU's spin hint. Thread class: any.
 */
#ifndef AUHOST_WORKERS_H
#define AUHOST_WORKERS_H

#include <stdint.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Sleeps while *word == expected (returns at once otherwise, or on a wake, or spuriously). */
static inline void auhost_futex_wait(uint32_t *word, uint32_t expected) {
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, (void *)0, (void *)0, 0);
}
/* Wakes up to `count` threads sleeping on word. */
static inline void auhost_futex_wake(uint32_t *word, int count) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count, (void *)0, (void *)0, 0);
}
static inline void auhost_futex_wake_all(uint32_t *word) { auhost_futex_wake(word, INT_MAX); }

static inline uint32_t auhost_atomic_load_u32(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static inline void auhost_atomic_store_u32(uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
/* Returns the new value. */
static inline uint32_t auhost_atomic_add_u32(uint32_t *p, uint32_t v) { return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST); }
static inline uint32_t auhost_atomic_sub_u32(uint32_t *p, uint32_t v) { return __atomic_sub_fetch(p, v, __ATOMIC_SEQ_CST); }
/* Returns the value before the addition. */
static inline uint64_t auhost_atomic_fetch_add_u64(uint64_t *p, uint64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }

/* A spin-wait hint: lets the sibling hyper-thread run and saves power while polling. */
static inline void auhost_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
