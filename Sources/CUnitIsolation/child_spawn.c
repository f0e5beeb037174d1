/* Children of out-of-process units are started by one thread that lives as long as the process.
   The child asks for SIGKILL when its parent ends (PR_SET_PDEATHSIG), and Linux sends it when the
   parent *thread* ends: a unit instantiated on a thread that then exited (a dispatch worker, a
   completion handler's thread) lost its process within moments. */
#define _GNU_SOURCE
#include "CUnitIsolation.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

static int spawn_child(const char *path, char *const argv[], char *const envp[], int control_fd, int block_fd, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    /* dup2 clears close-on-exec on the copies; fds 3 and 4 may be the sources themselves, so move
       them out of the way first. */
    int control = fcntl(control_fd, F_DUPFD_CLOEXEC, 10);
    int block = fcntl(block_fd, F_DUPFD_CLOEXEC, 10);
    int status = control < 0 || block < 0 ? errno : 0;
    if (!status) {
        /* No input and no output of its own; standard error stays the host's, for plug-ins' diagnostics. */
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, control, AUHOST_ISO_CONTROL_FD);
        posix_spawn_file_actions_adddup2(&actions, block, AUHOST_ISO_BLOCK_FD);
        posix_spawn_file_actions_addclosefrom_np(&actions, AUHOST_ISO_BLOCK_FD + 1);
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
} spawner = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t spawner_once = PTHREAD_ONCE_INIT;
static int spawner_start_error;

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

static void start_spawner(void) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 << 10);
    /* No signal reaches it: the process's handlers run on threads that expect them. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t thread;
    spawner_start_error = pthread_create(&thread, &attr, spawner_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (!spawner_start_error) pthread_setname_np(thread, "auhost-spawner");
}

int auhost_iso_spawn(const char *path, char *const argv[], char *const envp[], int control_fd, int block_fd, pid_t *pid) {
    pthread_once(&spawner_once, start_spawner);
    if (spawner_start_error) return spawner_start_error;
    pthread_mutex_lock(&spawner.callers);
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
