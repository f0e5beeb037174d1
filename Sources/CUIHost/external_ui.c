/* External UIs (kx:Widget, KXStudio's extension; x42's meters have no other UI): the UI makes
   and runs its own top-level window, and the host only calls its widget's show, hide and run.
   suil does not load them, so the child does, as jalv and Carla do: dlopen the UI's binary, find
   its descriptor, instantiate it with the external-UI host feature. Thread: the UI's thread. */
#include "ui_host_child.h"

#include <dlfcn.h>
#include <lv2/ui/ui.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KX_HOST "http://kxstudio.sf.net/ns/lv2ext/external-ui#Host"
#define KX_HOST_DEPRECATED "http://lv2plug.in/ns/extensions/ui#external"

/* The extension's two structures (lv2_external_ui.h, not packaged by Debian): the UI's widget,
   and what the host offers it. */
typedef struct KXWidget {
    void (*run)(struct KXWidget *self);
    void (*show)(struct KXWidget *self);
    void (*hide)(struct KXWidget *self);
} KXWidget;

typedef struct {
    void (*ui_closed)(LV2UI_Controller controller);
    const char *plugin_human_id;
} KXHost;

struct ExternalUI {
    void *library;
    const LV2UI_Descriptor *descriptor;
    LV2UI_Handle handle;
    KXWidget *widget;
    KXHost host;
    bool closed;
};

static void ui_closed(LV2UI_Controller controller) {
    ((ExternalUI *)controller)->closed = true;
}

ExternalUI *external_ui_open(const char *plugin_uri, const char *ui_uri, const char *bundle, const char *binary,
                             const char *title, LV2UI_Write_Function write, const LV2_Feature *const *features,
                             char *error, size_t error_size) {
    ExternalUI *ui = calloc(1, sizeof *ui);
    ui->library = dlopen(binary, RTLD_NOW | RTLD_LOCAL);
    if (!ui->library) {
        snprintf(error, error_size, "cannot load %s: %s", binary, dlerror());
        free(ui);
        return NULL;
    }
    LV2UI_DescriptorFunction list = (LV2UI_DescriptorFunction)dlsym(ui->library, "lv2ui_descriptor");
    for (uint32_t i = 0; list && !ui->descriptor; i++) {
        const LV2UI_Descriptor *d = list(i);
        if (!d) break;
        if (!strcmp(d->URI, ui_uri)) ui->descriptor = d;
    }
    if (!ui->descriptor) {
        snprintf(error, error_size, "%s has no UI %s", binary, ui_uri);
        dlclose(ui->library);
        free(ui);
        return NULL;
    }
    ui->host = (KXHost){ui_closed, title};
    const LV2_Feature kx = {KX_HOST, &ui->host}, kx_deprecated = {KX_HOST_DEPRECATED, &ui->host};
    const LV2_Feature *all[16];
    size_t n = 0;
    for (; features[n] && n < 13; n++) all[n] = features[n];
    all[n++] = &kx, all[n++] = &kx_deprecated, all[n] = NULL;
    LV2UI_Widget widget = NULL;
    ui->handle = ui->descriptor->instantiate(ui->descriptor, plugin_uri, bundle, write, ui, &widget, all);
    if (!ui->handle || !widget) {
        snprintf(error, error_size, "the UI %s did not instantiate", ui_uri);
        if (ui->handle) ui->descriptor->cleanup(ui->handle);
        dlclose(ui->library);
        free(ui);
        return NULL;
    }
    ui->widget = widget;
    ui->widget->show(ui->widget);
    return ui;
}

void external_ui_port_event(ExternalUI *ui, uint32_t port, uint32_t size, uint32_t protocol, const void *buffer) {
    if (ui->descriptor->port_event) ui->descriptor->port_event(ui->handle, port, size, protocol, buffer);
}

void external_ui_show(ExternalUI *ui, bool visible) {
    if (visible) ui->widget->show(ui->widget);
    else ui->widget->hide(ui->widget);
}

bool external_ui_run(ExternalUI *ui) {
    if (!ui->closed) ui->widget->run(ui->widget);
    return !ui->closed;
}

void external_ui_close(ExternalUI *ui) {
    if (!ui->closed) ui->widget->hide(ui->widget);
    ui->descriptor->cleanup(ui->handle);
    /* Not dlclosed: UIs leave threads and atexit handlers behind that would outlive their code. */
    free(ui);
}

/* The UI's own window: a top-level that was not there before it was shown and is viewable now
   (no window manager under Xvfb: top-levels are the root's children). */
Window external_ui_find_window(Display *display, const Window *before, unsigned before_count) {
    Window root_return, parent_return, *children = NULL, found = 0;
    unsigned count = 0;
    if (!XQueryTree(display, DefaultRootWindow(display), &root_return, &parent_return, &children, &count)) return 0;
    for (unsigned i = count; i-- > 0 && !found;) {
        bool old = false;
        for (unsigned j = 0; j < before_count && !old; j++) old = before[j] == children[i];
        XWindowAttributes attributes;
        if (!old && XGetWindowAttributes(display, children[i], &attributes) && attributes.map_state == IsViewable) found = children[i];
    }
    if (children) XFree(children);
    return found;
}
