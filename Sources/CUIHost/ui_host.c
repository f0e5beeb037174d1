/* The UI host loop (auhost_ui_host.h): shows one LV2 UI through suil for a host on a socket;
   ui_host_child.h has the protocol. X11 UIs go in an X11 window of our own; Gtk2 UIs, and Qt5 UIs
   through suil's qt5_in_gtk2 module, in a Gtk2 window (gtk_window.c); external UIs (kx:Widget)
   make their own window and are loaded without suil (external_ui.c). PARENT_XID 0 makes a
   top-level window; any other value embeds the UI in that X11 window.
   Thread: the caller's (one UI at a time per process). */
#define _GNU_SOURCE /* program_invocation_short_name: diagnostics name the process the loop runs in */
#include "ui_host_child.h"
#include "auhost_ui_host.h"

#include "atom_text.h"

#include <suil/suil.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <lv2/ui/ui.h>
#include <lv2/atom/atom.h>
#include <lv2/data-access/data-access.h>
#include <lv2/instance-access/instance-access.h>

#include <errno.h>
#include <pthread.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One open UI (AUHostUIHost in auhost_ui_host.h). */
typedef struct AUHostUIHost {
    Display *display;
    Window toplevel; /* ours, or 0 when embedded */
    Window container; /* what the UI's widget lives in */
    Window widget;
    Atom delete_window;
    SuilHost *host;
    SuilInstance *instance;
    const LV2UI_Idle_Interface *idle;
    bool gtk; /* the UI lives in a Gtk2 window: `widget` is that window's XID */
    ExternalUI *external; /* a kx:Widget UI (no suil instance): `toplevel` is the window it made */
    int input; /* what the host sends */
    const char *requestable; /* the URIs the host answers ui:requestValue for, or NULL */
    bool quit; /* the host sent quit */
    /* What the host sent that is not yet a whole line (an atom's line can be long:
       AUHOST_ATOM_TEXT_MAX_LINE); a longer line is dropped whole. */
    AUHostUILines lines;
    int output; /* where our lines go */
    /* What the UI was given, which must outlive it. */
    char **arguments;
    int count;
    LV2UI_Resize resize;
    LV2UI_Touch touch;
    LV2UI_Port_Map port_map;
    LV2UI_Request_Value request;
    LV2_Extension_Data_Feature data_access;
    LV2_Feature features[8], external_more[2];
    const LV2_Feature *feature_list[9], *external_list[8];
} Child;

#define RECEIVED_CAPACITY (AUHOST_ATOM_TEXT_MAX_LINE + 64)

/* Through the feature, with its handle: the plug-in's own map needs it. */
static LV2_URID map_uri(const char *uri) {
    return urid_map_feature()->map(urid_map_feature()->handle, uri);
}

static const char *unmap_urid(LV2_URID urid) {
    return urid_unmap_feature()->unmap(urid_unmap_feature()->handle, urid);
}

#define KX_WIDGET "http://kxstudio.sf.net/ns/lv2ext/external-ui#Widget"

/* An atom the UI wrote crosses as Turtle (URIDs as URIs); the host decides which ports take it.
   A buffer whose size is not its atom's (jalv's check), or too large, never leaves. */
static void write_atom(uint32_t port, uint32_t size, const void *buffer) {
    const LV2_Atom *atom = buffer;
    if (size < sizeof(LV2_Atom) || atom->size != size - sizeof(LV2_Atom) || size > AUHOST_ATOM_TEXT_MAX_ATOM) {
        fprintf(stderr, "%s: the UI wrote a malformed or oversized atom (%u bytes) to port %u: dropped\n", program_invocation_short_name, size, port);
        return;
    }
    char *line = auhost_atom_to_line(urid_map_feature(), urid_unmap_feature(), atom);
    if (line) protocol_send("a %u %s", port, line);
    else fprintf(stderr, "%s: an atom the UI wrote to port %u could not be written as Turtle: dropped\n", program_invocation_short_name, port);
    free(line);
}

static void write_port(SuilController controller, uint32_t port, uint32_t size, uint32_t protocol, const void *buffer) {
    (void)controller;
    /* Mapped each time: the map is the plug-in's in its process, our own elsewhere. */
    uint32_t event_transfer = protocol ? map_uri(LV2_ATOM__eventTransfer) : 0;
    uint32_t atom_transfer = protocol ? map_uri(LV2_ATOM__atomTransfer) : 0;
    if (protocol == 0 && size == sizeof(float)) protocol_send("p %u %.9g", port, (double)*(const float *)buffer);
    else if (protocol == event_transfer && protocol != 0 && buffer) write_atom(port, size, buffer);
    /* atom:atomTransfer would set an atom port's whole buffer; jalv refuses it too. */
    else if (protocol == atom_transfer && protocol != 0) fprintf(stderr, "%s: atom:atomTransfer is not supported: dropped\n", program_invocation_short_name);
}

static uint32_t port_index(SuilController controller, const char *symbol) {
    (void)controller;
    return port_symbols_index(symbol);
}

/* Every control port's changes reach the UI, so a subscription has nothing to change. */
static uint32_t subscribe(SuilController c, uint32_t port, uint32_t protocol, const LV2_Feature *const *f) {
    (void)c; (void)port; (void)protocol; (void)f;
    return 0;
}

static void touch(SuilController controller, uint32_t port, bool grabbed) {
    (void)controller;
    protocol_send("t %u %d", port, grabbed ? 1 : 0);
}

/* ui:requestValue: a request for a parameter the host answers for (`requestable`, the URIs of
   the plug-in's writable patch parameters, given only when the host has someone to ask)
   goes to the host, which sets the value later through the plug-in as for any other change. */
static LV2UI_Request_Value_Status request_value(LV2UI_Feature_Handle handle, LV2_URID key, LV2_URID type,
                                                const LV2_Feature *const *features) {
    (void)features;
    const char *requestable = ((Child *)handle)->requestable;
    if (!requestable) return LV2UI_REQUEST_VALUE_ERR_UNSUPPORTED;
    const char *key_uri = unmap_urid(key);
    const char *type_uri = type ? unmap_urid(type) : NULL;
    if (!key_uri || strpbrk(key_uri, " \n") || (type && (!type_uri || strpbrk(type_uri, " \n")))) return LV2UI_REQUEST_VALUE_ERR_UNKNOWN;
    size_t length = strlen(key_uri);
    for (const char *at = requestable; (at = strstr(at, key_uri)); at += length) {
        if ((at == requestable || at[-1] == ' ') && (at[length] == ' ' || at[length] == 0)) {
            if (type_uri) protocol_send("r %s %s", key_uri, type_uri);
            else protocol_send("r %s", key_uri);
            return LV2UI_REQUEST_VALUE_SUCCESS;
        }
    }
    return LV2UI_REQUEST_VALUE_ERR_UNKNOWN;
}

static int ui_resize(LV2UI_Feature_Handle handle, int width, int height) {
    Child *child = handle;
    if (width <= 0 || height <= 0) return 1;
    if (child->gtk) {
        gtk_window_resize(width, height);
        return 0;
    }
    XResizeWindow(child->display, child->toplevel ? child->toplevel : child->widget, (unsigned)width, (unsigned)height);
    XFlush(child->display);
    return 0;
}

/* A UI's X protocol error must not end the process through Xlib's default handler. */
static int x_error(Display *display, XErrorEvent *event) {
    char text[256];
    XGetErrorText(display, event->error_code, text, sizeof text);
    fprintf(stderr, "%s: X error from the UI: %s (request %d)\n", program_invocation_short_name, text, event->request_code);
    return 0;
}

/* Tells the host why the UI could not open; answered by auhost_ui_host_run. */
static int fail(const char *kind, const char *text) {
    protocol_send("error %s %s", kind, text);
    return 2;
}

static void make_toplevel(Child *child, const char *title) {
    int screen = DefaultScreen(child->display);
    child->toplevel = XCreateSimpleWindow(child->display, RootWindow(child->display, screen), 0, 0, 200, 60, 0, 0,
                                          BlackPixel(child->display, screen));
    XStoreName(child->display, child->toplevel, title);
    child->delete_window = XInternAtom(child->display, "WM_DELETE_WINDOW", False);
    XSetWMProtocols(child->display, child->toplevel, &child->delete_window, 1);
    XSelectInput(child->display, child->toplevel, StructureNotifyMask);
    child->container = child->toplevel;
}

/* The top-level takes the size the UI chose for its widget. */
static void fit_toplevel(Child *child, unsigned *width, unsigned *height) {
    XWindowAttributes attributes;
    *width = 200, *height = 60;
    if (child->widget && XGetWindowAttributes(child->display, child->widget, &attributes)) {
        *width = (unsigned)attributes.width, *height = (unsigned)attributes.height;
    }
    if (child->toplevel) {
        XResizeWindow(child->display, child->toplevel, *width, *height);
        XMapRaised(child->display, child->toplevel);
    }
    XSync(child->display, False);
}

static void show(Child *child, bool visible) {
    if (child->external) {
        external_ui_show(child->external, visible);
        return;
    }
    if (child->gtk) {
        gtk_window_show(visible);
        return;
    }
    Window window = child->toplevel ? child->toplevel : child->widget;
    if (visible) XMapRaised(child->display, window);
    else XUnmapWindow(child->display, window);
    XFlush(child->display);
}

/* An event from the plug-in's atom output: read with this process's map, then port_event. A
   line that is not an atom (a host bug, or worse) is reported and ignored. */
static void deliver_atom(Child *child, uint32_t port, const char *text) {
    LV2_Atom *atom = auhost_atom_from_line(urid_map_feature(), text);
    if (!atom) {
        fprintf(stderr, "%s: an atom for port %u from the host could not be read: ignored\n", program_invocation_short_name, port);
        return;
    }
    uint32_t protocol = map_uri(LV2_ATOM__eventTransfer);
    uint32_t size = (uint32_t)sizeof(LV2_Atom) + atom->size;
    if (child->external) external_ui_port_event(child->external, port, size, protocol, atom);
    else suil_instance_port_event(child->instance, port, size, protocol, atom);
    auhost_atom_text_free(atom);
}

static bool handle_line(void *context, char *line) {
    Child *child = context;
    AUHostUIRequest request = auhost_ui_parse_host_line(line);
    switch (request.kind) {
    case AUHOST_UI_REQUEST_PORT_VALUE:
        if (child->external) external_ui_port_event(child->external, request.port, sizeof request.value, 0, &request.value);
        else suil_instance_port_event(child->instance, request.port, sizeof request.value, 0, &request.value);
        break;
    case AUHOST_UI_REQUEST_ATOM: deliver_atom(child, request.port, request.text); break;
    case AUHOST_UI_REQUEST_SHOW: show(child, true); break;
    case AUHOST_UI_REQUEST_HIDE: show(child, false); break;
    case AUHOST_UI_REQUEST_SIZE: ui_resize(child, (int)request.width, (int)request.height); break;
    case AUHOST_UI_REQUEST_SCREENSHOT: {
        XSync(child->display, False);
        bool written = screenshot_write(child->display, child->toplevel ? child->toplevel : child->widget, request.text);
        protocol_send("shot %s", written ? "ok" : "failed");
        break;
    }
    case AUHOST_UI_REQUEST_QUIT: child->quit = true; break;
    case AUHOST_UI_REQUEST_UNKNOWN: break;
    }
    return !child->quit;
}

/* Reads what the host sent; false at end of input (the host went away) or after quit. */
static bool read_host(Child *child) {
    size_t room;
    char *tail = auhost_ui_lines_tail(&child->lines, &room);
    ssize_t got = read(child->input, tail, room);
    if (got < 0 && errno == EINTR) return true;
    if (got <= 0) return false;
    auhost_ui_lines_commit(&child->lines, (size_t)got, handle_line, child);
    return !child->quit;
}

static bool handle_x_events(Child *child) {
    while (XPending(child->display)) {
        XEvent event;
        XNextEvent(child->display, &event);
        if (event.type == ClientMessage && (Atom)event.xclient.data.l[0] == child->delete_window) return false;
        /* Destroyed by someone else (xdotool windowclose, a session ending): closed too. */
        if (event.type == DestroyNotify && event.xdestroywindow.window == child->toplevel) return false;
        if (event.type == ConfigureNotify && event.xconfigure.window == child->toplevel && child->widget) {
            XResizeWindow(child->display, child->widget, (unsigned)event.xconfigure.width, (unsigned)event.xconfigure.height);
        }
    }
    return true;
}

/* The external UI's own window appears once it has run: wait for it (5 s at most). It is
   watched as our own top-level is: destroyed by someone else, the UI is closed. */
static int open_external(Child *child, const char *plugin_uri, const char *ui_uri, const char *bundle, const char *binary,
                         const char *title, const LV2_Feature *const *features) {
    Window root_return, parent_return, *before = NULL;
    unsigned before_count = 0;
    XQueryTree(child->display, DefaultRootWindow(child->display), &root_return, &parent_return, &before, &before_count);
    char error[512];
    child->external = external_ui_open(plugin_uri, ui_uri, bundle, binary, title, write_port, features, error, sizeof error);
    if (!child->external) {
        if (before) XFree(before);
        return fail("load-failed", error);
    }
    for (int tries = 0; tries < 500 && !child->toplevel; tries++) {
        if (!external_ui_run(child->external)) break;
        XSync(child->display, False);
        child->toplevel = external_ui_find_window(child->display, before, before_count);
        if (!child->toplevel) usleep(10000);
    }
    if (before) XFree(before);
    if (child->toplevel) XSelectInput(child->display, child->toplevel, StructureNotifyMask);
    return 0;
}

/* ui:touch and ui:portMap for an external UI (suil provides them to the others). */
static void external_touch(LV2UI_Feature_Handle handle, uint32_t port, bool grabbed) {
    touch(handle, port, grabbed);
}

static uint32_t external_port_index(LV2UI_Feature_Handle handle, const char *symbol) {
    return port_index(handle, symbol);
}

/* Xlib made thread-safe before any other Xlib call of the process and before suil loads a
   toolkit that may use X from threads (suil issue 8: jalv crashed on LSP UIs when this came too
   late); suil initialised once. */
static void start_once(void) {
    XInitThreads();
    int argc = 0;
    char **argv = NULL;
    suil_init(&argc, &argv, SUIL_ARG_NONE);
    XSetErrorHandler(x_error);
}

/* Opens the UI the arguments name; answers 0, or 2 when it could not open. */
static int open_ui(Child *child, const char *display, const AUHostUIPluginAccess *access) {
    if (child->count < 7) return fail("load-failed", "usage: PLUGIN UI UI_TYPE BUNDLE BINARY PARENT TITLE [symbol=index ...]");
    char *const *arguments = child->arguments;
    const char *plugin_uri = arguments[0], *ui_uri = arguments[1], *ui_type = arguments[2], *bundle = arguments[3];
    const char *binary = arguments[4], *title = arguments[6];
    Window parent = (Window)strtoull(arguments[5], NULL, 0);
    port_symbols_set(arguments + 7, child->count - 7);

    bool external = !strcmp(ui_type, KX_WIDGET);
    const char *container_type = LV2_UI__X11UI;
    if (!external && !suil_ui_supported(LV2_UI__X11UI, ui_type)) {
        if (!suil_ui_supported(LV2_UI__GtkUI, ui_type)) {
            char text[512];
            snprintf(text, sizeof text, "suil cannot show a %s UI in an X11 or a Gtk2 window", ui_type);
            return fail("unsupported", text);
        }
        container_type = LV2_UI__GtkUI;
        child->gtk = true;
    }
    child->display = XOpenDisplay(display);
    if (!child->display) {
        const char *name = display ? display : getenv("DISPLAY");
        char text[512];
        snprintf(text, sizeof text, "cannot open the X display \"%s\"", name ? name : "");
        return fail("no-display", text);
    }
    if (child->gtk) {
        const char *why = gtk_window_load();
        if (why) return fail("unsupported", why);
    }
    if (parent) child->container = parent;
    else if (!child->gtk && !external) make_toplevel(child, title);

    child->resize = (LV2UI_Resize){child, ui_resize};
    child->touch = (LV2UI_Touch){child, external_touch};
    child->port_map = (LV2UI_Port_Map){child, external_port_index};
    child->request = (LV2UI_Request_Value){child, request_value};
    child->data_access = (LV2_Extension_Data_Feature){access ? access->extension_data : NULL};
    LV2_Feature *features = child->features;
    features[0] = (LV2_Feature){LV2_URID__map, urid_map_feature()};
    features[1] = (LV2_Feature){LV2_URID__unmap, urid_unmap_feature()};
    features[2] = (LV2_Feature){LV2_UI__resize, &child->resize};
    features[3] = (LV2_Feature){LV2_UI__idleInterface, NULL};
    features[4] = (LV2_Feature){LV2_UI__requestValue, &child->request};
    features[5] = (LV2_Feature){LV2_INSTANCE_ACCESS_URI, access ? access->handle : NULL};
    features[6] = (LV2_Feature){LV2_DATA_ACCESS_URI, &child->data_access};
    features[7] = (LV2_Feature){LV2_UI__parent, (void *)(uintptr_t)child->container};
    /* The plug-in's handle only in its own process; a Gtk UI's parent would be a Gtk container
       and an external UI has none: they get no ui:parent. External UIs get touch and portMap
       here (suil provides them to the others). */
    const LV2_Feature **list = child->feature_list;
    int n = 0;
    for (int k = 0; k < 5; k++) list[n++] = &features[k];
    if (access) list[n++] = &features[5], list[n++] = &features[6];
    if (!child->gtk && !external) list[n++] = &features[7];
    list[n] = NULL;

    unsigned width = 0, height = 0;
    if (external) {
        LV2_Feature *more = child->external_more;
        more[0] = (LV2_Feature){LV2_UI__touch, &child->touch};
        more[1] = (LV2_Feature){LV2_UI__portMap, &child->port_map};
        const LV2_Feature *external_features[] = {
            &features[0], &features[1], &features[4], &more[0], &more[1],
            access ? &features[5] : NULL, access ? &features[6] : NULL, NULL,
        };
        memcpy(child->external_list, external_features, sizeof external_features);
        int status = open_external(child, plugin_uri, ui_uri, bundle, binary, title, child->external_list);
        if (status) return status;
        XWindowAttributes attributes;
        if (child->toplevel && XGetWindowAttributes(child->display, child->toplevel, &attributes)) {
            width = (unsigned)attributes.width, height = (unsigned)attributes.height;
        }
    } else {
        child->host = suil_host_new(write_port, port_index, subscribe, subscribe);
        suil_host_set_touch_func(child->host, touch);
        child->instance = suil_instance_new(child->host, child, container_type, plugin_uri, ui_uri, ui_type, bundle, binary, list);
        if (!child->instance) return fail("load-failed", "suil could not instantiate the UI (its own message is on stderr)");
        child->idle = suil_instance_extension_data(child->instance, LV2_UI__idleInterface);
        if (child->gtk) {
            child->widget = gtk_window_open(parent, title, suil_instance_get_widget(child->instance), &width, &height);
        } else {
            child->widget = (Window)(uintptr_t)suil_instance_get_widget(child->instance);
            fit_toplevel(child, &width, &height);
        }
    }
    protocol_send("window %lu %u %u", child->toplevel ? child->toplevel : child->widget, width, height);
    protocol_send("ready");
    return 0;
}

AUHostUIHost *auhost_ui_host_open(int input, int output, char *const *arguments, int count, const char *display,
                                  const char *requestable, const AUHostUIPluginAccess *access) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, start_once);
    protocol_open(output);
    Child *child = calloc(1, sizeof *child);
    char **copied = calloc((size_t)(count > 0 ? count : 0) + 1, sizeof *copied);
    char *copied_requestable = requestable ? strdup(requestable) : NULL;
    char *received = malloc(RECEIVED_CAPACITY);
    if (!child || !copied || !received || (requestable && !copied_requestable)) {
        fail("load-failed", "out of memory");
        free(child), free(copied), free(copied_requestable), free(received);
        close(input);
        if (output != input) close(output);
        protocol_open(-1);
        return NULL;
    }
    for (int k = 0; k < count; k++) copied[k] = strdup(arguments[k]);
    *child = (Child){.input = input, .output = output, .requestable = copied_requestable,
                     .lines = {.buffer = received, .capacity = RECEIVED_CAPACITY}, .arguments = copied, .count = count};
    urid_map_use(access ? access->map : NULL, access ? access->unmap : NULL);
    if (open_ui(child, display, access) != 0) {
        auhost_ui_host_close(child);
        return NULL;
    }
    return child;
}

int auhost_ui_host_poll(AUHostUIHost *child, struct pollfd fds[2]) {
    fds[0] = (struct pollfd){child->input, POLLIN, 0};
    fds[1] = (struct pollfd){ConnectionNumber(child->display), POLLIN, 0};
    /* 30 ms: the idle rate jalv uses; UIs animate meters from their idle callback. Gtk's events
       arrive on its own connection, which the caller's poll does not see: 10 ms. */
    return child->gtk ? 10 : 30;
}

bool auhost_ui_host_step(AUHostUIHost *child, bool host_readable) {
    if (host_readable && !read_host(child)) return false;
    bool open = handle_x_events(child);
    if (child->gtk) open = open && gtk_window_iterate();
    if (child->external) open = open && external_ui_run(child->external);
    if (child->idle) open = open && !child->idle->idle(suil_instance_get_handle(child->instance));
    if (!open) protocol_send("closed");
    return open;
}

void auhost_ui_host_close(AUHostUIHost *child) {
    /* The UI first, then what held it: our Gtk window, top-level, display and suil host. */
    if (child->external) external_ui_close(child->external);
    if (child->instance) suil_instance_free(child->instance);
    if (child->gtk && child->widget) gtk_window_close();
    if (child->display) {
        if (child->toplevel && !child->external) XDestroyWindow(child->display, child->toplevel);
        XCloseDisplay(child->display);
    }
    if (child->host) suil_host_free(child->host);
    protocol_open(-1);
    urid_map_use(NULL, NULL);
    port_symbols_set(NULL, 0);
    for (int k = 0; k < child->count; k++) free(child->arguments[k]);
    free(child->arguments);
    free((char *)child->requestable);
    free(child->lines.buffer);
    close(child->input);
    if (child->output != child->input) close(child->output);
    free(child);
}

int auhost_ui_host_run(int input, int output, char *const *arguments, int count, const char *display, const char *requestable,
                       const AUHostUIPluginAccess *access) {
    AUHostUIHost *ui = auhost_ui_host_open(input, output, arguments, count, display, requestable, access);
    if (!ui) return 2;
    for (;;) {
        struct pollfd fds[2];
        int timeout = auhost_ui_host_poll(ui, fds);
        bool readable = poll(fds, 2, timeout) > 0 && (fds[0].revents & (POLLIN | POLLHUP));
        if (!auhost_ui_host_step(ui, readable)) break;
    }
    auhost_ui_host_close(ui);
    return 0;
}

void auhost_ui_host_prepare_toolkits(void) {
    const char *display = getenv("DISPLAY");
    if (!display || !*display || getenv("QT_QPA_PLATFORM")) return;
    Display *connection = XOpenDisplay(display);
    if (!connection) return;
    XCloseDisplay(connection);
    setenv("QT_QPA_PLATFORM", "xcb", 0);
}
