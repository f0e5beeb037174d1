/* Children of out-of-process units are started by one thread that lives as long as the process.
   The child asks for SIGKILL when its parent ends (PR_SET_PDEATHSIG), and Linux sends it when the
   parent *thread* ends: a unit instantiated on a thread that then exited (a dispatch worker, a
   completion handler's thread) lost its process within moments. That thread also keeps the fork
   server (fork_server.c) and falls back to executing the child itself when the server cannot help. */
#define _GNU_SOURCE
#include "CUnitIsolation.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* posix_spawn with `control_fd` as fd 3, `block_fd` (if not -1) as fd 4, and nothing else but standard error. */
static int execute(const char *path, char *const argv[], char *const envp[], int control_fd, int block_fd, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    /* dup2 clears close-on-exec on the copies; fds 3 and 4 may be the sources themselves, so move
       them out of the way first. */
    int control = fcntl(control_fd, F_DUPFD_CLOEXEC, 10);
    int block = block_fd < 0 ? -1 : fcntl(block_fd, F_DUPFD_CLOEXEC, 10);
    int status = control < 0 || (block_fd >= 0 && block < 0) ? errno : 0;
    if (!status) {
        /* No input and no output of its own; standard error stays the host's, for plug-ins' diagnostics. */
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, control, AUHOST_ISO_CONTROL_FD);
        if (block >= 0) posix_spawn_file_actions_adddup2(&actions, block, AUHOST_ISO_BLOCK_FD);
        posix_spawn_file_actions_addclosefrom_np(&actions, block >= 0 ? AUHOST_ISO_BLOCK_FD + 1 : AUHOST_ISO_CONTROL_FD + 1);
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &all);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        status = posix_spawn(pid, path, &actions, &attr, argv, envp);
    }
    if (control >= 0) close(control);
    if (block >= 0) close(block);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    return status;
}

/* The fork server, owned by the spawner thread: what its children would get from it (executable,
   environment, working directory) and the process that started it (a forked copy of the host
   must not use its parent's server: the children would be the parent's). */
static struct {
    pid_t pid, owner;
    int socket;
    char *path, *cwd;
    char **envp;
    char *refused_path; /* an executable whose server could not start a child: executed instead */
} server = {.socket = -1};

static int same_environment(char *const a[], char *const b[]) {
    for (; *a && *b; ++a, ++b)
        if (strcmp(*a, *b)) return 0;
    return !*a && !*b;
}

static void stop_server(void) {
    if (server.pid > 0 && server.owner == getpid()) {
        kill(server.pid, SIGKILL);
        while (waitpid(server.pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    if (server.socket >= 0) close(server.socket);
    free(server.path);
    free(server.cwd);
    if (server.envp)
        for (char **e = server.envp; *e; ++e) free(*e);
    free(server.envp);
    server.pid = 0;
    server.socket = -1;
    server.path = server.cwd = NULL;
    server.envp = NULL;
}

static int start_server(const char *path, char *const envp[], const char *cwd) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair)) return errno;
    char parent[16];
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    char *const argv[] = {(char *)path, "--fork-server", parent, NULL};
    pid_t pid;
    int status = execute(path, argv, envp, pair[1], -1, &pid);
    close(pair[1]);
    if (status) {
        close(pair[0]);
        return status;
    }
    auhost_iso_socket_timeout(pair[0], 10000);
    size_t count = 0;
    while (envp[count]) ++count;
    server.envp = calloc(count + 1, sizeof *server.envp);
    for (size_t i = 0; server.envp && i < count; ++i) server.envp[i] = strdup(envp[i]);
    server.pid = pid;
    server.owner = getpid();
    server.socket = pair[0];
    server.path = strdup(path);
    server.cwd = strdup(cwd);
    return 0;
}

/* A child forked by the server for `path` with this environment and working directory, starting
   the server first if there is none; 0 and *pid, or an errno value (the caller executes the child). */
static int fork_child(const char *path, char *const argv[], char *const envp[], int control_fd, int block_fd, pid_t *pid) {
    /* Read from the child's environment, not with getenv, which another thread's setenv may be changing. */
    for (char *const *e = envp; *e; ++e)
        if (!strcmp(*e, "AUHOST_UNIT_HOST_FORK_SERVER=0")) return ENOTSUP;
    if (server.refused_path && !strcmp(server.refused_path, path)) return ENOTSUP;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return errno;
    if (server.pid && (server.owner != getpid() || strcmp(server.path, path) || strcmp(server.cwd, cwd) ||
                       !server.envp || !same_environment(server.envp, envp)))
        stop_server();
    /* A server that has ended (killed with the host's other children, say) is replaced; one that
       could not serve its first request will not serve this executable. */
    for (;;) {
        int fresh = !server.pid;
        int status = fresh ? start_server(path, envp, cwd) : 0;
        if (!status) status = auhost_iso_fork_server_request(server.socket, argv, control_fd, block_fd, pid);
        if (!status) return 0;
        stop_server();
        if (fresh) {
            if (!server.refused_path) server.refused_path = strdup(path);
            return status;
        }
    }
}

static int spawn_child(const char *path, char *const argv[], char *const envp[], int control_fd, int block_fd, pid_t *pid) {
    if (fork_child(path, argv, envp, control_fd, block_fd, pid) == 0) return 0;
    return execute(path, argv, envp, control_fd, block_fd, pid);
}

/* One request at a time, handed to the spawner thread and back under one mutex. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_mutex_t callers; /* serializes callers: one request in flight */
    int pending, done, status;
    const char *path;
    char *const *argv;
    char *const *envp;
    int control_fd, block_fd;
    pid_t pid;
} spawner = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER, .callers = PTHREAD_MUTEX_INITIALIZER};
/* Whether this process has its spawner thread (under spawner.callers). */
static int spawner_running;
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void *spawner_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&spawner.lock);
    for (;;) {
        while (!spawner.pending) pthread_cond_wait(&spawner.changed, &spawner.lock);
        spawner.pending = 0;
        spawner.status = spawn_child(spawner.path, spawner.argv, spawner.envp, spawner.control_fd, spawner.block_fd, &spawner.pid);
        spawner.done = 1;
        pthread_cond_broadcast(&spawner.changed);
    }
    return NULL;
}

static int start_spawner(void) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 << 10);
    /* No signal reaches it: the process's handlers run on threads that expect them. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t thread;
    int error = pthread_create(&thread, &attr, spawner_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (!error) pthread_setname_np(thread, "auhost-spawner");
    return error;
}

/* fork() copies only the thread that calls it: a forked copy of the host (Python multiprocessing's
   "fork" start method) has no spawner thread, and a condition variable its waiter never leaves.
   It starts a spawner of its own, with fresh locks taken while no spawn was in flight. */
static void before_fork(void) {
    pthread_mutex_lock(&spawner.callers);
    pthread_mutex_lock(&spawner.lock);
}
static void after_fork_in_parent(void) {
    pthread_mutex_unlock(&spawner.lock);
    pthread_mutex_unlock(&spawner.callers);
}
static void after_fork_in_child(void) {
    pthread_mutex_init(&spawner.lock, NULL);
    pthread_mutex_init(&spawner.callers, NULL);
    pthread_cond_init(&spawner.changed, NULL);
    spawner.pending = spawner.done = 0;
    spawner_running = 0;
}
static void register_fork_handlers(void) { pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child); }

int auhost_iso_spawn(const char *path, char *const argv[], char *const envp[], int control_fd, int block_fd, pid_t *pid) {
    pthread_once(&fork_handlers_once, register_fork_handlers);
    pthread_mutex_lock(&spawner.callers);
    if (!spawner_running) {
        int error = start_spawner();
        if (error) {
            pthread_mutex_unlock(&spawner.callers);
            return error;
        }
        spawner_running = 1;
    }
    pthread_mutex_lock(&spawner.lock);
    spawner.path = path;
    spawner.argv = argv;
    spawner.envp = envp;
    spawner.control_fd = control_fd;
    spawner.block_fd = block_fd;
    spawner.done = 0;
    spawner.pending = 1;
    pthread_cond_broadcast(&spawner.changed);
    while (!spawner.done) pthread_cond_wait(&spawner.changed, &spawner.lock);
    int status = spawner.status;
    *pid = spawner.pid;
    pthread_mutex_unlock(&spawner.lock);
    pthread_mutex_unlock(&spawner.callers);
    return status;
}
