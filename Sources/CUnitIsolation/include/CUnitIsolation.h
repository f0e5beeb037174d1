/*
 * CUnitIsolation.h — the operating-system layer of out-of-process units (issue 19): the shared
 * block a host and its unit-host child exchange audio and events through, futex waits and wakes
 * on words of that block (they work across processes), memfd, the child's spawn and its
 * sandboxing, and a lock-free MIDI ring on the host side.
 *
 * The block is written by both processes: the host trusts nothing the child writes except the
 * samples it copies out (and checks those) and the `done` word it waits on.
 */
#ifndef AUHOST_CUNITISOLATION_H
#define AUHOST_CUNITISOLATION_H

#include <stdint.h>
#include <sys/types.h>

#define AUHOST_ISO_MAGIC 0x4155494Fu /* "AUIO" */
#define AUHOST_ISO_MAX_EVENTS 1024
#define AUHOST_ISO_MAX_BUSES 64
/* The file descriptors the child finds open: the control socket and the shared block. */
#define AUHOST_ISO_CONTROL_FD 3
#define AUHOST_ISO_BLOCK_FD 4

/* One event for the next cycle: a parameter value (a = id, b = scope, c = element) or a MIDI
   channel message (a = status, b = data1, c = data2), at `offset` frames into the cycle. */
enum { AUHOST_ISO_EVENT_PARAMETER = 1, AUHOST_ISO_EVENT_MIDI = 2 };
typedef struct {
    uint32_t kind;
    uint32_t offset;
    uint32_t a, b, c;
    float value;
} auhost_iso_event;

/* The header at offset 0 of the shared block; the audio follows at auhost_iso_header_size(). One
   cycle: the host writes frames, sampleTime and events, then increments `request` and wakes it;
   the child renders, writes status, stores `done` = request and wakes it. */
typedef struct {
    uint32_t magic;
    uint32_t request;
    uint32_t done;
    uint32_t frames;
    uint32_t eventCount;
    int32_t status;
    /* The scheduling policy and priority of the host thread that renders (written by the host on
       a child's first cycles): the child's render thread takes the same, so a real-time host
       thread is not left waiting on a normal-priority child. */
    int32_t schedPolicy;
    int32_t schedPriority;
    double sampleTime;
    auhost_iso_event events[AUHOST_ISO_MAX_EVENTS];
} auhost_iso_header;

/* The header's event array (Swift imports it as a tuple). Thread: any. */
static inline auhost_iso_event *auhost_iso_events(auhost_iso_header *h) { return h->events; }

/* Bytes of the header rounded up to a page (the audio starts page-aligned). Thread: any. */
size_t auhost_iso_header_size(void);

/* Atomic access to the block's words (sequentially consistent). Thread: any. */
static inline uint32_t auhost_iso_load(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static inline void auhost_iso_store(uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
static inline uint32_t auhost_iso_xor(uint32_t *p, uint32_t v) { return __atomic_xor_fetch(p, v, __ATOMIC_SEQ_CST); }
static inline _Bool auhost_iso_claim(uint32_t *p, uint32_t expected, uint32_t desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* Waits while *word == expected, at most timeout_ns (< 0: no limit). Returns 0 when woken or the
   value differed, ETIMEDOUT, or EINTR. A shared (not process-private) futex: one syscall, no lock,
   no allocation. Thread: any (the render thread may call it: it is the cycle's one wait). */
int auhost_iso_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns);
/* Wakes every waiter on word. Thread: any. */
void auhost_iso_futex_wake(uint32_t *word);

/* A spin-wait hint to the CPU (pause on x86). Thread: any. */
static inline void auhost_iso_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* The calling thread's scheduling policy and priority. Thread: any (one system call). */
void auhost_iso_thread_sched(int32_t *policy, int32_t *priority);
/* Gives the calling thread `policy` (SCHED_OTHER, SCHED_FIFO or SCHED_RR) at `priority`; 0 or an
   errno value (EPERM without the right to real-time scheduling). Thread: the child's render thread. */
int auhost_iso_set_thread_sched(int32_t policy, int32_t priority);

/* A monotonic clock in nanoseconds (vDSO, no syscall). Thread: any. */
int64_t auhost_iso_now_ns(void);

/* A memfd of `size` bytes (close-on-exec), or -1 with errno. Thread: setup. */
int auhost_iso_memfd(const char *name, size_t size);
/* A connected AF_UNIX stream socket pair, both close-on-exec; 0 or -1 with errno. Thread: setup. */
int auhost_iso_socketpair(int fds[2]);
/* Sets a receive and send timeout on a socket. Thread: setup. */
int auhost_iso_socket_timeout(int fd, int milliseconds);

/* Passes descriptor `fd` over the stream socket `socket` (one byte carrying SCM_RIGHTS); 0 or
   -1 with errno. Thread: setup. */
int auhost_iso_send_fd(int socket, int fd);
/* Receives a descriptor auhost_iso_send_fd passed (close-on-exec), or -1 with errno (EBADMSG
   when the byte came without one). Thread: setup. */
int auhost_iso_receive_fd(int socket);

/* Starts `path` with argv/envp, the control socket as fd 3 and the block as fd 4 and every other
   descriptor closed but standard error (standard input and output are /dev/null), default signal dispositions and an empty signal mask. 0 and *pid, or an
   errno value. The child is started by a thread that lives as long as the process (its
   PR_SET_PDEATHSIG follows the thread that spawned it), forked by the fork server when it can be
   (AUHOST_UNIT_HOST_FORK_SERVER=0 in envp turns it off). Thread: setup. */
int auhost_iso_spawn(const char *path, char *const argv[], char *const envp[], int control_fd, int block_fd, pid_t *pid);

/* Sends one child's argv and its two descriptors to a fork server (fork_server.c) and reads the
   forked child's pid; 0, or an errno value. Thread: the spawner thread. */
int auhost_iso_fork_server_request(int server, char *const argv[], int control_fd, int block_fd, pid_t *pid);
/* `auhost-unit-host --fork-server PARENT`: serves fork requests on fd 3 until the host closes it
   (then exits). Returns only in each forked child, with that child's argv (NULL-terminated, in
   static storage) and its control socket and block at fds 3 and 4. Call it before anything that
   could start a thread or take a Synchronization.Mutex (which keeps its thread's ID, and the
   child's main thread would keep the server's). Thread: the child's main. */
char **auhost_iso_fork_server(pid_t parent);

/* A pidfd for `pid` (close-on-exec), or -1. Thread: setup. */
int auhost_iso_pidfd_open(pid_t pid);
/* Sends SIGKILL through a pidfd: never reaches another process that reused the pid. Thread: any
   (one syscall; the render thread ends a hung child with it). */
void auhost_iso_pidfd_kill(int pidfd);

/* In the child, first thing: dies with SIGKILL when the parent `parent` does (PR_SET_PDEATHSIG,
   checked against a parent that died before it was set) and can never gain privileges
   (PR_SET_NO_NEW_PRIVS), and leaves no core file. 0, or -1 when the parent is already gone. Thread: the child's main. */
int auhost_iso_sandbox_child(pid_t parent);

/* A bounded multi-producer, single-consumer ring of MIDI messages (host side: MusicDeviceMIDIEvent
   may come from any thread; the render thread drains it). Lock-free; a full ring drops. */
#define AUHOST_ISO_MIDI_CAPACITY 512
typedef struct {
    uint64_t sequence;
    uint32_t status, data1, data2, offset;
} auhost_iso_midi_slot;
typedef struct {
    uint64_t head; /* next slot to claim (producers) */
    uint64_t tail; /* next slot to read (consumer) */
    auhost_iso_midi_slot slots[AUHOST_ISO_MIDI_CAPACITY];
} auhost_iso_midi_ring;
void auhost_iso_midi_ring_init(auhost_iso_midi_ring *ring);
/* 1 when queued, 0 when the ring is full. Thread: any. */
int auhost_iso_midi_ring_push(auhost_iso_midi_ring *ring, uint32_t status, uint32_t data1, uint32_t data2, uint32_t offset);
/* 1 and the oldest message, or 0 when empty. Thread: the one consumer (render). */
int auhost_iso_midi_ring_pop(auhost_iso_midi_ring *ring, uint32_t *status, uint32_t *data1, uint32_t *data2, uint32_t *offset);

#endif
