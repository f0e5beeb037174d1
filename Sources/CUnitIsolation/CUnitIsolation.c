#define _GNU_SOURCE
#include "CUnitIsolation.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

size_t auhost_iso_header_size(void) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (sizeof(auhost_iso_header) + page - 1) / page * page;
}

int auhost_iso_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns) {
    struct timespec ts, *tp = NULL;
    if (timeout_ns >= 0) {
        ts.tv_sec = timeout_ns / 1000000000;
        ts.tv_nsec = timeout_ns % 1000000000;
        tp = &ts;
    }
    long r = syscall(SYS_futex, word, FUTEX_WAIT, expected, tp, NULL, 0);
    if (r == 0) return 0;
    return errno == EAGAIN ? 0 : errno;
}

void auhost_iso_futex_wake(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0); }

int64_t auhost_iso_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int auhost_iso_memfd(const char *name, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int auhost_iso_socketpair(int fds[2]) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); }

int auhost_iso_socket_timeout(int fd, int milliseconds) {
    struct timeval tv = {milliseconds / 1000, (milliseconds % 1000) * 1000};
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0) return -1;
    return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

int auhost_iso_send_fd(int socket, int fd) {
    char byte = 'F';
    struct iovec io = {&byte, 1};
    union {
        struct cmsghdr header;
        char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof fd);
    ssize_t sent;
    do sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    return sent == 1 ? 0 : -1;
}

int auhost_iso_receive_fd(int socket) {
    char byte;
    struct iovec io = {&byte, 1};
    /* Room for more than one: a hostile child's extra descriptors arrive here and are closed,
       rather than being installed beyond the buffer's end or silently kept. */
    union {
        struct cmsghdr header;
        char bytes[CMSG_SPACE(8 * sizeof(int))];
    } control;
    struct msghdr message = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t got;
    do got = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    while (got < 0 && errno == EINTR);
    if (got != 1) {
        if (got == 0) errno = ECONNRESET;
        return -1;
    }
    /* The child is untrusted: exactly one descriptor in one message, or none is kept. */
    int kept = -1, count = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS || header->cmsg_len < CMSG_LEN(0)) continue;
        size_t carried = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t k = 0; k < carried; k++) {
            int fd;
            memcpy(&fd, CMSG_DATA(header) + k * sizeof(int), sizeof fd);
            if (count++ == 0) kept = fd;
            else close(fd);
        }
    }
    if (count != 1 || (message.msg_flags & MSG_CTRUNC)) {
        if (kept >= 0) close(kept);
        errno = EBADMSG;
        return -1;
    }
    return kept;
}

void auhost_iso_thread_sched(int32_t *policy, int32_t *priority) {
    struct sched_param param;
    int p = SCHED_OTHER;
    if (pthread_getschedparam(pthread_self(), &p, &param) != 0) param.sched_priority = 0;
    *policy = p;
    *priority = param.sched_priority;
}

int auhost_iso_set_thread_sched(int32_t policy, int32_t priority) {
    if (policy != SCHED_OTHER && policy != SCHED_FIFO && policy != SCHED_RR) return EINVAL;
    int lowest = sched_get_priority_min(policy), highest = sched_get_priority_max(policy);
    struct sched_param param = {priority < lowest ? lowest : priority > highest ? highest : priority};
    return pthread_setschedparam(pthread_self(), policy, &param);
}

int auhost_iso_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

void auhost_iso_pidfd_kill(int pidfd) {
    if (pidfd >= 0) syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
}

int auhost_iso_sandbox_child(pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) return -1;
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    /* A crashing plug-in is reported by the host; it leaves no core file behind. */
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    return 0;
}

void auhost_iso_midi_ring_init(auhost_iso_midi_ring *ring) {
    ring->head = 0;
    ring->tail = 0;
    for (uint64_t i = 0; i < AUHOST_ISO_MIDI_CAPACITY; ++i) ring->slots[i].sequence = i;
}

/* Vyukov's bounded MPMC queue, used with one consumer. */
int auhost_iso_midi_ring_push(auhost_iso_midi_ring *ring, uint32_t status, uint32_t data1, uint32_t data2, uint32_t offset) {
    uint64_t pos = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
    for (;;) {
        auhost_iso_midi_slot *slot = &ring->slots[pos % AUHOST_ISO_MIDI_CAPACITY];
        uint64_t seq = __atomic_load_n(&slot->sequence, __ATOMIC_ACQUIRE);
        int64_t diff = (int64_t)seq - (int64_t)pos;
        if (diff == 0) {
            if (__atomic_compare_exchange_n(&ring->head, &pos, pos + 1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                slot->status = status;
                slot->data1 = data1;
                slot->data2 = data2;
                slot->offset = offset;
                __atomic_store_n(&slot->sequence, pos + 1, __ATOMIC_RELEASE);
                return 1;
            }
        } else if (diff < 0) {
            return 0;
        } else {
            pos = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
        }
    }
}

int auhost_iso_midi_ring_pop(auhost_iso_midi_ring *ring, uint32_t *status, uint32_t *data1, uint32_t *data2, uint32_t *offset) {
    uint64_t pos = ring->tail;
    auhost_iso_midi_slot *slot = &ring->slots[pos % AUHOST_ISO_MIDI_CAPACITY];
    uint64_t seq = __atomic_load_n(&slot->sequence, __ATOMIC_ACQUIRE);
    if ((int64_t)seq - (int64_t)(pos + 1) < 0) return 0;
    *status = slot->status;
    *data1 = slot->data1;
    *data2 = slot->data2;
    *offset = slot->offset;
    __atomic_store_n(&slot->sequence, pos + AUHOST_ISO_MIDI_CAPACITY, __ATOMIC_RELEASE);
    ring->tail = pos + 1;
    return 1;
}
