/* The UI's side of the socket (or pipe) to the host (see ui_host_child.h). Lines go to a socket
   with MSG_NOSIGNAL: a host that went away must not end the process with SIGPIPE (in
   auhost-unit-host that would take the plug-in with it); a pipe is written plainly. */
#include "ui_host_child.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int to_host = -1;

void protocol_open(int fd) {
    to_host = fd;
}

void protocol_send(const char *format, ...) {
    if (to_host < 0) return;
    va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    int length = vsnprintf(NULL, 0, format, args);
    va_end(args);
    char *line = length >= 0 ? malloc((size_t)length + 2) : NULL;
    if (line) {
        vsnprintf(line, (size_t)length + 1, format, again);
        line[length] = '\n';
        for (size_t sent = 0; sent < (size_t)length + 1;) {
            ssize_t n = send(to_host, line + sent, (size_t)length + 1 - sent, MSG_NOSIGNAL);
            if (n < 0 && errno == ENOTSOCK) n = write(to_host, line + sent, (size_t)length + 1 - sent);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            sent += (size_t)n;
        }
        free(line);
    }
    va_end(again);
}
