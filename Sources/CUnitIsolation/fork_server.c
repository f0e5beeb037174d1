/* The unit host's fork server: one `auhost-unit-host --fork-server` process per host, started once,
   that forks each new child instead of the host executing a fresh one. Starting the executable
   costs 15-40 ms (the kernel mapping 48 libraries, the dynamic linker resolving the Swift
   runtime's and Foundation's symbols); a fork of a process that has done all that once costs well
   under one. It is the pattern of Python's multiprocessing "forkserver" and of Chromium's zygote.

   The child is forked with CLONE_PARENT, so it is the host's own child, exactly as if the host had
   spawned it: the host waits for it, reads its exit status and signals it through a pidfd, and its
   PR_SET_PDEATHSIG follows the host's spawner thread. The server forks only while it is the only
   thread of its process, and the host starts a new server whenever the executable, the
   environment or the working directory a child would get has changed. Forked children share the
   server's address-space layout (as a zygote's do): the isolation is against faults, and a
   plug-in's code runs with the host's own privileges either way.

   Wire (a SOCK_SEQPACKET pair): a request is the child's argv, each string NUL-terminated, with the
   control socket and the shared block passed as SCM_RIGHTS; the reply is one int32, the child's pid
   or -errno. */
#define _GNU_SOURCE
#include "CUnitIsolation.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define REQUEST_BYTES 65536
#define MAX_ARGUMENTS 64

/* MARK: The host's side (called on the spawner thread only) */

int auhost_iso_fork_server_request(int server, char *const argv[], int control_fd, int block_fd, pid_t *pid) {
    static char request[REQUEST_BYTES];
    size_t used = 0;
    for (int i = 0; argv[i]; ++i) {
        size_t length = strlen(argv[i]) + 1;
        if (i == MAX_ARGUMENTS - 1 || used + length > sizeof request) return E2BIG;
        memcpy(request + used, argv[i], length);
        used += length;
    }
    int fds[2] = {control_fd, block_fd};
    union {
        char bytes[CMSG_SPACE(sizeof fds)];
        struct cmsghdr align;
    } control = {0};
    struct iovec iov = {request, used};
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof fds);
    memcpy(CMSG_DATA(header), fds, sizeof fds);
    ssize_t sent;
    do sent = sendmsg(server, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    if (sent < 0) return errno;
    int32_t reply;
    ssize_t received;
    do received = recv(server, &reply, sizeof reply, 0);
    while (received < 0 && errno == EINTR);
    if (received < 0) return errno;
    if (received != sizeof reply) return EPIPE; /* the server ended */
    if (reply <= 0) return reply < 0 ? -reply : EPROTO;
    *pid = reply;
    return 0;
}

/* MARK: The server (auhost-unit-host --fork-server) */

/* Whether this process has one thread: fork copies only the calling thread, so a lock another
   thread held would stay held in every child. */
static int single_threaded(void) {
    FILE *status = fopen("/proc/self/status", "re");
    if (!status) return 0;
    char line[256];
    int threads = 0;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "Threads: %d", &threads) == 1) break;
    fclose(status);
    return threads == 1;
}

/* Receives one request into `request`; the descriptors are moved to 10 and above (close-on-exec)
   so that the child can place them at 3 and 4. The length, 0 when the host has gone, or -1. */
static ssize_t receive_request(int server, char *request, size_t capacity, int fds[2]) {
    union {
        char bytes[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec iov = {request, capacity};
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t length;
    do length = recvmsg(server, &message, MSG_CMSG_CLOEXEC);
    while (length < 0 && errno == EINTR);
    fds[0] = fds[1] = -1;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    if (length > 0 && header && header->cmsg_type == SCM_RIGHTS && header->cmsg_len == CMSG_LEN(2 * sizeof(int))) {
        int received[2];
        memcpy(received, CMSG_DATA(header), sizeof received);
        for (int i = 0; i < 2; ++i) {
            fds[i] = fcntl(received[i], F_DUPFD_CLOEXEC, 10);
            close(received[i]);
        }
    }
    return length;
}

/* Splits the NUL-terminated strings of a request into `argv` (NULL-terminated); the count, or 0. */
static int split_arguments(char *request, size_t length, char *argv[MAX_ARGUMENTS]) {
    if (length == 0 || request[length - 1] != '\0') return 0;
    int count = 0;
    for (size_t at = 0; at < length; at += strlen(request + at) + 1) {
        if (count == MAX_ARGUMENTS - 1) return 0;
        argv[count++] = request + at;
    }
    argv[count] = NULL;
    return count;
}

char **auhost_iso_fork_server(pid_t parent) {
    if (auhost_iso_sandbox_child(parent) != 0) _exit(3);
    /* The socket came as fd 3, where each child's control socket goes. */
    int server = fcntl(AUHOST_ISO_CONTROL_FD, F_DUPFD_CLOEXEC, 10);
    if (server < 0) _exit(3);
    close(AUHOST_ISO_CONTROL_FD);
    char name[16] = {0};
    prctl(PR_GET_NAME, name);
    prctl(PR_SET_NAME, "auhost-forksrv");
    static char request[REQUEST_BYTES];
    static char *argv[MAX_ARGUMENTS];
    for (;;) {
        int fds[2];
        ssize_t length = receive_request(server, request, sizeof request, fds);
        if (length <= 0) _exit(0); /* the host closed its end, or ended */
        int32_t reply;
        if (fds[0] < 0 || fds[1] < 0 || !split_arguments(request, (size_t)length, argv)) {
            reply = -EPROTO;
        } else if (!single_threaded()) {
            reply = -EAGAIN;
        } else {
            /* fork(2) as glibc's fork does it, with the host as the new process's parent. */
            pid_t child = (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, NULL, NULL, NULL, 0);
            if (child == 0) {
                close(server);
                if (dup2(fds[0], AUHOST_ISO_CONTROL_FD) < 0 || dup2(fds[1], AUHOST_ISO_BLOCK_FD) < 0) _exit(3);
                closefrom(AUHOST_ISO_BLOCK_FD + 1);
                prctl(PR_SET_NAME, name);
                return argv;
            }
            reply = child > 0 ? child : -errno;
        }
        if (fds[0] >= 0) close(fds[0]);
        if (fds[1] >= 0) close(fds[1]);
        if (send(server, &reply, sizeof reply, MSG_NOSIGNAL) != sizeof reply) _exit(0);
    }
}
