/* The UI fixture's Gtk2 UI (#gtk): the X11 fixture's bar as a GtkDrawingArea, 200x60, whose
 * filled width is the gain; a click at x sets the gain to x / width (in ui:touch begin/end when
 * the host offers touch). Its widget is a Gtk widget: the host puts it in a Gtk2 window.
 * Thread: the Gtk main thread of whatever process hosts it. */
#include <gtk/gtk.h>
#include <lv2/ui/ui.h>
#include <stdlib.h>
#include <string.h>

enum { WIDTH = 200, HEIGHT = 60, GAIN_PORT = 2 };

typedef struct {
    GtkWidget *area;
    float gain;
    LV2UI_Write_Function write;
    LV2UI_Controller controller;
    const LV2UI_Touch *touch;
} BarUI;

static gboolean expose(GtkWidget *area, GdkEventExpose *event, gpointer data) {
    (void)event;
    BarUI *ui = data;
    GdkWindow *window = gtk_widget_get_window(area);
    GdkGC *gc = gdk_gc_new(window);
    GdkColor background = {0, 0x3000, 0x3000, 0x3000}, bar = {0, 0x2000, 0xc000, 0x4000};
    GtkAllocation size;
    gtk_widget_get_allocation(area, &size);
    int width = size.width, height = size.height;
    gdk_gc_set_rgb_fg_color(gc, &background);
    gdk_draw_rectangle(window, gc, TRUE, 0, 0, width, height);
    int filled = (int)(ui->gain * (float)width + 0.5f);
    gdk_gc_set_rgb_fg_color(gc, &bar);
    if (filled > 0) gdk_draw_rectangle(window, gc, TRUE, 0, 0, filled, height);
    g_object_unref(gc);
    return TRUE;
}

static gboolean pressed(GtkWidget *area, GdkEventButton *event, gpointer data) {
    BarUI *ui = data;
    GtkAllocation size;
    gtk_widget_get_allocation(area, &size);
    float gain = (float)event->x / (float)(size.width > 0 ? size.width : 1);
    ui->gain = gain < 0 ? 0 : gain > 1 ? 1 : gain;
    if (ui->touch) ui->touch->touch(ui->touch->handle, GAIN_PORT, true);
    ui->write(ui->controller, GAIN_PORT, sizeof(float), 0, &ui->gain);
    if (ui->touch) ui->touch->touch(ui->touch->handle, GAIN_PORT, false);
    gtk_widget_queue_draw(area);
    return TRUE;
}

static LV2UI_Handle instantiate(const LV2UI_Descriptor *descriptor, const char *plugin_uri, const char *bundle_path,
                                LV2UI_Write_Function write_function, LV2UI_Controller controller,
                                LV2UI_Widget *widget, const LV2_Feature *const *features) {
    (void)descriptor; (void)plugin_uri; (void)bundle_path;
    BarUI *ui = calloc(1, sizeof(BarUI));
    for (int i = 0; features && features[i]; i++) {
        if (!strcmp(features[i]->URI, LV2_UI__touch)) ui->touch = features[i]->data;
    }
    ui->gain = 0.5f;
    ui->write = write_function;
    ui->controller = controller;
    ui->area = gtk_drawing_area_new();
    gtk_widget_set_size_request(ui->area, WIDTH, HEIGHT);
    gtk_widget_add_events(ui->area, GDK_BUTTON_PRESS_MASK);
    g_signal_connect(ui->area, "expose-event", G_CALLBACK(expose), ui);
    g_signal_connect(ui->area, "button-press-event", G_CALLBACK(pressed), ui);
    *widget = ui->area;
    return ui;
}

static void cleanup(LV2UI_Handle handle) {
    free(handle);
}

static void port_event(LV2UI_Handle handle, uint32_t port, uint32_t size, uint32_t format, const void *buffer) {
    BarUI *ui = handle;
    if (port != GAIN_PORT || format != 0 || size != sizeof(float)) return;
    ui->gain = *(const float *)buffer;
    gtk_widget_queue_draw(ui->area);
}

static const LV2UI_Descriptor descriptor = {"urn:auhost:fixture:ui-gain#gtk", instantiate, cleanup, port_event, NULL};

LV2_SYMBOL_EXPORT const LV2UI_Descriptor *lv2ui_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}
