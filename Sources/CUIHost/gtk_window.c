/* A Gtk2 window for Gtk UIs (and, through suil's qt5_in_gtk2 module, Qt5 UIs). Gtk2 is opened
   with dlopen only when such a UI is shown, so the child links no toolkit and an X11 UI never
   loads one; a UI linking Gtk2 itself gets the same library. The few calls are declared here, so
   building the child needs no Gtk headers. Thread: the UI's thread (one UI at a time). */
#include "ui_host_child.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef void *Widget;

static struct {
    int (*init_check)(int *, char ***);
    Widget (*window_new)(int);
    Widget (*plug_new)(unsigned long);
    void (*window_set_title)(Widget, const char *);
    void (*window_resize)(Widget, int, int);
    void (*container_add)(Widget, Widget);
    void (*show_all)(Widget);
    void (*show)(Widget);
    void (*hide)(Widget);
    void (*realize)(Widget);
    void *(*get_window)(Widget);
    unsigned long (*drawable_xid)(void *);
    int (*events_pending)(void);
    int (*main_iteration_do)(int);
    unsigned long (*signal_connect)(void *, const char *, void *, void *, void *, int);
    void (*size_request)(Widget, int *);
    void (*destroy)(Widget);
} gtk;

static Widget window;
static bool closed;

/* delete-event: the user closed the window; TRUE keeps Gtk from destroying it under the UI. */
static int on_delete(Widget w, void *event, void *data) {
    (void)w, (void)event, (void)data;
    closed = true;
    return 1;
}

/* destroy: someone else destroyed it (xdotool windowclose, a session ending). */
static void on_destroy(Widget w, void *data) {
    (void)w, (void)data;
    closed = true;
    window = NULL;
}

const char *gtk_window_load(void) {
    static char error[512];
    void *library = dlopen("libgtk-x11-2.0.so.0", RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        snprintf(error, sizeof error, "Gtk2 is not installed (libgtk-x11-2.0.so.0: %s)", dlerror());
        return error;
    }
    struct { void **slot; const char *name; } symbols[] = {
        {(void **)&gtk.init_check, "gtk_init_check"},
        {(void **)&gtk.window_new, "gtk_window_new"},
        {(void **)&gtk.plug_new, "gtk_plug_new"},
        {(void **)&gtk.window_set_title, "gtk_window_set_title"},
        {(void **)&gtk.window_resize, "gtk_window_resize"},
        {(void **)&gtk.container_add, "gtk_container_add"},
        {(void **)&gtk.show_all, "gtk_widget_show_all"},
        {(void **)&gtk.show, "gtk_widget_show"},
        {(void **)&gtk.hide, "gtk_widget_hide"},
        {(void **)&gtk.realize, "gtk_widget_realize"},
        {(void **)&gtk.get_window, "gtk_widget_get_window"},
        {(void **)&gtk.drawable_xid, "gdk_x11_drawable_get_xid"},
        {(void **)&gtk.events_pending, "gtk_events_pending"},
        {(void **)&gtk.main_iteration_do, "gtk_main_iteration_do"},
        {(void **)&gtk.signal_connect, "g_signal_connect_data"},
        {(void **)&gtk.size_request, "gtk_widget_size_request"},
        {(void **)&gtk.destroy, "gtk_widget_destroy"},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            snprintf(error, sizeof error, "Gtk2's %s is missing", symbols[i].name);
            return error;
        }
    }
    int argc = 0;
    char **argv = NULL;
    /* gtk_init would end the process on a display it cannot open; the caller opened it already. */
    if (!gtk.init_check(&argc, &argv)) {
        snprintf(error, sizeof error, "Gtk2 could not start on the X display \"%s\"", getenv("DISPLAY") ? getenv("DISPLAY") : "");
        return error;
    }
    return NULL;
}

Window gtk_window_open(Window parent, const char *title, void *widget, unsigned *width, unsigned *height) {
    /* A GtkPlug lives inside the host's window (XEmbed); otherwise a top-level of our own. */
    closed = false;
    window = parent ? gtk.plug_new(parent) : gtk.window_new(0 /* GTK_WINDOW_TOPLEVEL */);
    if (!parent) gtk.window_set_title(window, title);
    gtk.signal_connect(window, "delete-event", (void *)on_delete, NULL, NULL, 0);
    gtk.signal_connect(window, "destroy", (void *)on_destroy, NULL, NULL, 0);
    gtk.container_add(window, widget);
    gtk.show_all(window);
    gtk.realize(window);
    int requisition[2] = {0, 0}; /* GtkRequisition: width, height */
    gtk.size_request(window, requisition);
    *width = (unsigned)requisition[0], *height = (unsigned)requisition[1];
    gtk_window_iterate();
    return (Window)gtk.drawable_xid(gtk.get_window(window));
}

bool gtk_window_iterate(void) {
    while (gtk.events_pending()) gtk.main_iteration_do(0);
    return !closed;
}

void gtk_window_close(void) {
    if (window) gtk.destroy(window);
    window = NULL;
    while (gtk.events_pending()) gtk.main_iteration_do(0);
}

void gtk_window_show(bool visible) {
    if (!window) return;
    if (visible) gtk.show(window);
    else gtk.hide(window);
}

void gtk_window_resize(int width, int height) {
    if (window) gtk.window_resize(window, width, height);
}
