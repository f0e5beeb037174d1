/* The host's side of ui_host_child.h as the UI child reads it: bytes into whole lines (a line
   longer than the buffer is dropped whole), each line into a request. No display, no UI: the
   UIHostLines fuzz harness drives these two as the loop does. Thread: the caller's. */
#include "auhost_ui_host.h"

#include <stdio.h>
#include <string.h>

char *auhost_ui_lines_tail(AUHostUILines *lines, size_t *room) {
    *room = lines->capacity - 1 - lines->used;
    return lines->buffer + lines->used;
}

void auhost_ui_lines_commit(AUHostUILines *lines, size_t count, bool (*line)(void *context, char *text), void *context) {
    char *buffer = lines->buffer;
    lines->used += count;
    buffer[lines->used] = 0;
    char *start = buffer, *end;
    bool more = true;
    while (more && (end = memchr(start, '\n', (size_t)(buffer + lines->used - start)))) {
        *end = 0;
        if (lines->skipping) lines->skipping = false;
        else more = line(context, start);
        start = end + 1;
    }
    lines->used = (size_t)(buffer + lines->used - start);
    memmove(buffer, start, lines->used);
    if (lines->used == lines->capacity - 1) {
        lines->used = 0;
        lines->skipping = true;
    }
}

AUHostUIRequest auhost_ui_parse_host_line(const char *line) {
    AUHostUIRequest request = {AUHOST_UI_REQUEST_UNKNOWN, 0, 0, 0, 0, NULL};
    int offset = 0;
    if (sscanf(line, "p %u %f", &request.port, &request.value) == 2) {
        request.kind = AUHOST_UI_REQUEST_PORT_VALUE;
    } else if (sscanf(line, "a %u %n", &request.port, &offset) == 1 && offset > 0) {
        request.kind = AUHOST_UI_REQUEST_ATOM;
        request.text = line + offset;
    } else if (!strcmp(line, "show")) {
        request.kind = AUHOST_UI_REQUEST_SHOW;
    } else if (!strcmp(line, "hide")) {
        request.kind = AUHOST_UI_REQUEST_HIDE;
    } else if (sscanf(line, "size %u %u", &request.width, &request.height) == 2) {
        request.kind = AUHOST_UI_REQUEST_SIZE;
    } else if (!strncmp(line, "shot ", 5)) {
        request.kind = AUHOST_UI_REQUEST_SCREENSHOT;
        request.text = line + 5;
    } else if (!strcmp(line, "quit")) {
        request.kind = AUHOST_UI_REQUEST_QUIT;
    }
    return request;
}
