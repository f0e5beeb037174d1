/* The UI fixture's Xlib UIs (no toolkit):
 *   #x11       a bar whose filled width is the gain; a click at x sets the gain to x / width
 *              (wrapped in ui:touch begin/end when the host offers touch).
 *   #crash     the same bar, which dereferences NULL when clicked: the host must survive it.
 *   #external  the same bar as an external UI (kx:Widget): a top-level window of its own, shown,
 *              hidden and run through the widget the host gets; closing it calls ui_closed.
 *   #needs-instance  the bar showing the gain the plug-in's last run applied, read at each idle
 *              from the instance (instance-access, data-access: ui_fixture_applied.h), never
 *              from port events; a left click sets the gain, a right click dereferences NULL.
 * All but #external draw in a child window of ui:parent and are driven by the host's idle calls
 * (ui:idleInterface). Thread: the UI thread of whatever process hosts them. */
#include "ui_fixture_applied.h"

#include <lv2/data-access/data-access.h>
#include <lv2/instance-access/instance-access.h>
#include <lv2/ui/ui.h>
#include <X11/Xlib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { WIDTH = 200, HEIGHT = 60, GAIN_PORT = 2 };

/* KXStudio's external-UI extension (lv2_external_ui.h): the widget a host runs, and its host. */
typedef struct KXWidget {
    void (*run)(struct KXWidget *self);
    void (*show)(struct KXWidget *self);
    void (*hide)(struct KXWidget *self);
} KXWidget;

typedef struct {
    void (*ui_closed)(LV2UI_Controller controller);
    const char *plugin_human_id;
} KXHost;

typedef struct {
    Display *display;
    Window window;
    GC gc;
    unsigned long background, bar;
    float gain;
    bool crashes;
    LV2UI_Write_Function write;
    LV2UI_Controller controller;
    const LV2UI_Touch *touch;
    KXWidget widget; /* #external only */
    const KXHost *host;
    Atom delete_window;
    LV2_Handle plugin; /* #needs-instance only: the plug-in and what it tells */
    const FixtureApplied *applied;
} BarUI;

static void draw(BarUI *ui) {
    XWindowAttributes attributes;
    XGetWindowAttributes(ui->display, ui->window, &attributes);
    int filled = (int)(ui->gain * (float)attributes.width + 0.5f);
    XSetForeground(ui->display, ui->gc, ui->background);
    XFillRectangle(ui->display, ui->window, ui->gc, 0, 0, (unsigned)attributes.width, (unsigned)attributes.height);
    XSetForeground(ui->display, ui->gc, ui->bar);
    if (filled > 0) XFillRectangle(ui->display, ui->window, ui->gc, 0, 0, (unsigned)filled, (unsigned)attributes.height);
    XFlush(ui->display);
}

static unsigned long color(Display *display, unsigned short r, unsigned short g, unsigned short b) {
    XColor c = {.red = r, .green = g, .blue = b, .flags = DoRed | DoGreen | DoBlue};
    XAllocColor(display, DefaultColormap(display, DefaultScreen(display)), &c);
    return c.pixel;
}

static int idle(LV2UI_Handle handle);

static BarUI *from_widget(KXWidget *widget) {
    return (BarUI *)((char *)widget - offsetof(BarUI, widget));
}

static void external_run(KXWidget *widget) {
    idle(from_widget(widget));
}

static void external_show(KXWidget *widget) {
    BarUI *ui = from_widget(widget);
    XMapRaised(ui->display, ui->window);
    XFlush(ui->display);
}

static void external_hide(KXWidget *widget) {
    BarUI *ui = from_widget(widget);
    XUnmapWindow(ui->display, ui->window);
    XFlush(ui->display);
}

static LV2UI_Handle instantiate(const LV2UI_Descriptor *descriptor, const char *plugin_uri, const char *bundle_path,
                                LV2UI_Write_Function write_function, LV2UI_Controller controller,
                                LV2UI_Widget *widget, const LV2_Feature *const *features) {
    (void)plugin_uri; (void)bundle_path;
    Window parent = 0;
    const LV2UI_Touch *touch = NULL;
    const KXHost *host = NULL;
    LV2_Handle plugin = NULL;
    const LV2_Extension_Data_Feature *data_access = NULL;
    for (int i = 0; features && features[i]; i++) {
        if (!strcmp(features[i]->URI, LV2_UI__parent)) parent = (Window)(uintptr_t)features[i]->data;
        if (!strcmp(features[i]->URI, LV2_UI__touch)) touch = features[i]->data;
        if (!strcmp(features[i]->URI, "http://kxstudio.sf.net/ns/lv2ext/external-ui#Host")) host = features[i]->data;
        if (!strcmp(features[i]->URI, LV2_INSTANCE_ACCESS_URI)) plugin = features[i]->data;
        if (!strcmp(features[i]->URI, LV2_DATA_ACCESS_URI)) data_access = features[i]->data;
    }
    bool external = strstr(descriptor->URI, "#external") != NULL;
    if (external && !host) return NULL;
    const FixtureApplied *applied = NULL;
    if (strstr(descriptor->URI, "#needs-instance")) {
        applied = plugin && data_access && data_access->data_access ? data_access->data_access(FIXTURE_APPLIED_URI) : NULL;
        if (!applied) return NULL; /* both features are required */
    }
    Display *display = XOpenDisplay(NULL);
    if (!display) return NULL;
    if (!parent) parent = DefaultRootWindow(display);
    BarUI *ui = calloc(1, sizeof(BarUI));
    ui->display = display;
    ui->crashes = strstr(descriptor->URI, "#crash") != NULL;
    ui->gain = 0.5f;
    ui->write = write_function;
    ui->controller = controller;
    ui->touch = touch;
    ui->plugin = plugin;
    ui->applied = applied;
    ui->background = color(display, 0x3000, 0x3000, 0x3000);
    ui->bar = ui->crashes ? color(display, 0xe000, 0x2000, 0x2000) : color(display, 0x2000, 0xc000, 0x4000);
    ui->window = XCreateSimpleWindow(display, parent, 0, 0, WIDTH, HEIGHT, 0, 0, ui->background);
    XSelectInput(display, ui->window, ExposureMask | ButtonPressMask | StructureNotifyMask);
    ui->gc = XCreateGC(display, ui->window, 0, NULL);
    if (external) {
        ui->host = host;
        ui->widget = (KXWidget){external_run, external_show, external_hide};
        XStoreName(display, ui->window, host->plugin_human_id);
        ui->delete_window = XInternAtom(display, "WM_DELETE_WINDOW", False);
        XSetWMProtocols(display, ui->window, &ui->delete_window, 1);
        *widget = &ui->widget;
        return ui;
    }
    XMapWindow(display, ui->window);
    XFlush(display);
    *widget = (LV2UI_Widget)(uintptr_t)ui->window;
    return ui;
}

static void cleanup(LV2UI_Handle handle) {
    BarUI *ui = handle;
    XFreeGC(ui->display, ui->gc);
    XDestroyWindow(ui->display, ui->window);
    XCloseDisplay(ui->display);
    free(ui);
}

static void port_event(LV2UI_Handle handle, uint32_t port, uint32_t size, uint32_t format, const void *buffer) {
    BarUI *ui = handle;
    if (ui->applied || port != GAIN_PORT || format != 0 || size != sizeof(float)) return;
    ui->gain = *(const float *)buffer;
    draw(ui);
}

static void clicked(BarUI *ui, int x) {
    if (ui->crashes) {
        volatile int *nowhere = NULL;
        *nowhere = 1; /* the fault the host has to survive */
    }
    XWindowAttributes attributes;
    XGetWindowAttributes(ui->display, ui->window, &attributes);
    float gain = (float)x / (float)(attributes.width > 0 ? attributes.width : 1);
    ui->gain = gain < 0 ? 0 : gain > 1 ? 1 : gain;
    if (ui->touch) ui->touch->touch(ui->touch->handle, GAIN_PORT, true);
    ui->write(ui->controller, GAIN_PORT, sizeof(float), 0, &ui->gain);
    if (ui->touch) ui->touch->touch(ui->touch->handle, GAIN_PORT, false);
    draw(ui);
}

static int idle(LV2UI_Handle handle) {
    BarUI *ui = handle;
    while (XPending(ui->display)) {
        XEvent event;
        XNextEvent(ui->display, &event);
        if (event.type == Expose && event.xexpose.count == 0) draw(ui);
        if (event.type == ButtonPress && event.xbutton.button == Button3 && ui->applied) {
            volatile int *nowhere = NULL;
            *nowhere = 1; /* a UI beside the plug-in that crashes takes the plug-in's process */
        }
        if (event.type == ButtonPress) clicked(ui, event.xbutton.x);
        if (event.type == ClientMessage && ui->host && (Atom)event.xclient.data.l[0] == ui->delete_window) {
            XUnmapWindow(ui->display, ui->window);
            ui->host->ui_closed(ui->controller);
        }
    }
    if (ui->applied && ui->applied->applied(ui->plugin) != ui->gain) {
        ui->gain = ui->applied->applied(ui->plugin);
        draw(ui);
    }
    return 0;
}

static const LV2UI_Idle_Interface idle_interface = {idle};

static const void *extension_data(const char *uri) {
    return strcmp(uri, LV2_UI__idleInterface) ? NULL : &idle_interface;
}

static const LV2UI_Descriptor descriptors[] = {
    {"urn:auhost:fixture:ui-gain#x11", instantiate, cleanup, port_event, extension_data},
    {"urn:auhost:fixture:ui-gain#crash", instantiate, cleanup, port_event, extension_data},
    {"urn:auhost:fixture:ui-gain#external", instantiate, cleanup, port_event, NULL},
    {"urn:auhost:fixture:ui-gain#needs-instance", instantiate, cleanup, port_event, extension_data},
};

LV2_SYMBOL_EXPORT const LV2UI_Descriptor *lv2ui_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
