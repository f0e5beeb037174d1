/* The LV2 UI host loop: shows one LV2 UI through suil and speaks the line protocol of
   ui_host_child.h with a host on one socket. Two processes run it: `auhost-ui-host`, a child of
   its own for each UI (a UI that crashes ends only it), and `auhost-unit-host`, the child of a
   unit out of process, for a UI that needs the plug-in's instance (instance-access,
   data-access), which only a UI in the plug-in's own process can have. */
#ifndef AUHOST_UI_HOST_H
#define AUHOST_UI_HOST_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

/* What a UI in the plug-in's process is given: the plug-in's handle (instance-access), its
   descriptor's extension_data (data-access), and the plug-in's own URID map, so that URIDs the
   UI reads from the instance are the ones it maps. */
typedef struct {
    void *handle;
    const void *(*extension_data)(const char *uri);
    void *map;   /* LV2_URID_Map * */
    void *unmap; /* LV2_URID_Unmap * */
} AUHostUIPluginAccess;

/* Shows the UI that `arguments` name and serves it until the host sends quit or closes the
   socket, or the user closes the window:
     PLUGIN_URI UI_URI UI_TYPE_URI BUNDLE_PATH BINARY_PATH PARENT_XID TITLE [symbol=index ...]
   (PARENT_XID 0 makes a top-level window). The host's lines are read from `input` and ours
   written to `output` (one socket, or two pipes), both closed on return; `display` the X display (NULL: $DISPLAY); `requestable` the space-separated
   patch parameter URIs the host answers ui:requestValue for (NULL: unsupported); `access` the
   plug-in for instance-access and data-access (NULL: neither is offered). Answers 0 once the UI
   was shown and closed, 2 if it could not be opened (the host was sent why).
   Thread: any one thread, one UI at a time per process (Xlib, suil's toolkits and the URID
   table are process-wide); the first call makes Xlib thread-safe (XInitThreads) before any
   other Xlib call of the process. */
int auhost_ui_host_run(int input, int output, char *const *arguments, int count, const char *display, const char *requestable,
                       const AUHostUIPluginAccess *access);

/* The same loop a turn at a time, for a caller that has its own to run (auhost-unit-host serves
   its control channel and shows the UI on the thread that instantiated the plug-in, as Qt wants).
   auhost_ui_host_open shows the UI (as auhost_ui_host_run does, up to its `ready`; the arguments
   are copied) or answers NULL when it could not (the host was told why; the descriptors are
   closed). auhost_ui_host_poll fills the two descriptors to wait on (the host's, the display's)
   and answers how long to wait at most, in ms; auhost_ui_host_step runs one turn (the host's
   lines when `host_readable`, X events, the toolkit, the UI's idle) and answers false once the UI
   is over (quit, the host gone, the window closed); auhost_ui_host_close frees it all and closes
   the descriptors. Thread: one thread for all four, one UI at a time per process. */
typedef struct AUHostUIHost AUHostUIHost;
AUHostUIHost *auhost_ui_host_open(int input, int output, char *const *arguments, int count, const char *display,
                                  const char *requestable, const AUHostUIPluginAccess *access);
int auhost_ui_host_poll(AUHostUIHost *ui, struct pollfd fds[2]);
bool auhost_ui_host_step(AUHostUIHost *ui, bool host_readable);
void auhost_ui_host_close(AUHostUIHost *ui);

/* Before a plug-in is instantiated in a process that may show its UI: when $DISPLAY opens and
   QT_QPA_PLATFORM is unset, sets it to xcb, so that a plug-in that makes its QApplication when it
   is instantiated (drumkv1) makes it on the display its UI will use (without a display, LV2Host
   makes it offscreen). Thread: setup, before other threads read the environment. */
void auhost_ui_host_prepare_toolkits(void);

/* The host's bytes as whole lines: read into auhost_ui_lines_tail (at most `room` bytes), then
   auhost_ui_lines_commit the count read, which calls `line` for each whole line (NUL-terminated,
   without its newline) until it answers false. A line of `capacity` - 1 bytes or more is dropped
   whole. `buffer` holds `capacity` bytes; start with `used` 0 and `skipping` false.
   Thread: any, one thread per buffer. */
typedef struct {
    char *buffer;
    size_t capacity, used;
    bool skipping; /* the rest of a dropped line is still to come */
} AUHostUILines;
char *auhost_ui_lines_tail(AUHostUILines *lines, size_t *room);
void auhost_ui_lines_commit(AUHostUILines *lines, size_t count, bool (*line)(void *context, char *text), void *context);

/* One line from the host (ui_host_child.h): what it asks and its numbers; `text` points into the
   line (an atom's Turtle, a screenshot's path). Anything else is UNKNOWN and ignored.
   Thread: any. */
typedef enum {
    AUHOST_UI_REQUEST_UNKNOWN,
    AUHOST_UI_REQUEST_PORT_VALUE,
    AUHOST_UI_REQUEST_ATOM,
    AUHOST_UI_REQUEST_SHOW,
    AUHOST_UI_REQUEST_HIDE,
    AUHOST_UI_REQUEST_SIZE,
    AUHOST_UI_REQUEST_SCREENSHOT,
    AUHOST_UI_REQUEST_QUIT
} AUHostUIRequestKind;
typedef struct {
    AUHostUIRequestKind kind;
    unsigned port, width, height;
    float value;
    const char *text;
} AUHostUIRequest;
AUHostUIRequest auhost_ui_parse_host_line(const char *line);

#endif
