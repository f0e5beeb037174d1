/* The child's side of the pipe to the host (see ui_host_child.h). */
#include "ui_host_child.h"

#include <stdarg.h>
#include <stdio.h>

static FILE *to_host;

void protocol_open(int fd) {
    to_host = fdopen(fd, "w");
}

void protocol_send(const char *format, ...) {
    if (!to_host) return;
    va_list args;
    va_start(args, format);
    vfprintf(to_host, format, args);
    va_end(args);
    fputc('\n', to_host);
    fflush(to_host);
}
