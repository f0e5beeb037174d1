/* The atom fixture (urn:auhost:fixture:ui-atom): a plug-in and its X11 UIs that talk in atoms
 * only, so that every step needs atoms to cross both ways.
 *   plug-in    out = in * level; level starts at 1 and is set by a patch:Set of #level (a Float)
 *              on its `control` atom input, which it answers on its `notify` atom output with a
 *              patch:Set of #level holding level + 0.5 (so the answer is the plug-in's, not an
 *              echo of the UI's own value); a patch:Get is answered the same way with its level.
 *   #atom      sends patch:Get as it opens; a click at x sends patch:Set #level x / width (atom:eventTransfer) to
 *              `control`. An answer arriving on `notify` is written, as a float, to the `seen`
 *              control port, where the host's parameter shows it.
 *   #hostile   on a click writes what a host must refuse before the same patch:Set: a 40000-byte
 *              chunk (larger than the plug-in's input buffer), an atom to the `seen` control
 *              port, an atom whose size is not its buffer's, and one with atom:atomTransfer.
 * The same plug-in as urn:auhost:fixture:ui-request declares #level patch:writable and answers
 * with the level itself (as a plug-in whose host keeps the parameter must); its UI:
 *   #request   on a click asks the host for a value (ui:requestValue, no type): of #level left
 *              of x = 100, of an undeclared #nothing right of it. A request the host refuses
 *              writes 1 + status / 4 to `seen` (unknown 1.5, unsupported 1.75); a granted one
 *              is seen when the plug-in's answer arrives.
 * Thread classes as in lv2.h and ui.h (run: audio; the UI: the UI thread). */
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/patch/patch.h>
#include <lv2/ui/ui.h>
#include <lv2/urid/urid.h>
#include <X11/Xlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LEVEL_URI "urn:auhost:fixture:ui-atom#level"
enum { IN = 0, OUT = 1, CONTROL = 2, NOTIFY = 3, SEEN = 4, WIDTH = 200, HEIGHT = 60 };

typedef struct {
    LV2_URID set, get, property, value, level, floats, event_transfer, atom_transfer;
} URIDs;

static bool map_urids(const LV2_Feature *const *features, URIDs *u, LV2_URID_Map **map_out) {
    LV2_URID_Map *map = NULL;
    for (int i = 0; features && features[i]; i++)
        if (!strcmp(features[i]->URI, LV2_URID__map)) map = features[i]->data;
    if (!map) return false;
    u->set = map->map(map->handle, LV2_PATCH__Set);
    u->get = map->map(map->handle, LV2_PATCH__Get);
    u->property = map->map(map->handle, LV2_PATCH__property);
    u->value = map->map(map->handle, LV2_PATCH__value);
    u->level = map->map(map->handle, LEVEL_URI);
    u->floats = map->map(map->handle, LV2_ATOM__Float);
    u->event_transfer = map->map(map->handle, LV2_ATOM__eventTransfer);
    u->atom_transfer = map->map(map->handle, LV2_ATOM__atomTransfer);
    *map_out = map;
    return true;
}

/* The level a patch:Set of #level carries, or -1 when `atom` (an object: callers check) is not one. */
static float level_of(const URIDs *u, const LV2_Atom *atom) {
    const LV2_Atom_Object *object = (const LV2_Atom_Object *)atom;
    if (object->body.otype != u->set) return -1;
    const LV2_Atom *property = NULL, *value = NULL;
    lv2_atom_object_get(object, u->property, &property, u->value, &value, 0);
    if (!property || !value || ((const LV2_Atom_URID *)property)->body != u->level || value->type != u->floats) return -1;
    return ((const LV2_Atom_Float *)value)->body;
}

/* ---- the plug-in ---- */

typedef struct {
    const float *in;
    float *out;
    const LV2_Atom_Sequence *control;
    LV2_Atom_Sequence *notify;
    URIDs u;
    LV2_URID object;
    LV2_Atom_Forge forge;
    float level;
    bool honest; /* urn:auhost:fixture:ui-request: answers the level itself */
} Plugin;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *features) {
    (void)rate; (void)path;
    Plugin *p = calloc(1, sizeof(Plugin));
    LV2_URID_Map *map = NULL;
    if (!p || !map_urids(features, &p->u, &map)) {
        free(p);
        return NULL;
    }
    p->object = map->map(map->handle, LV2_ATOM__Object);
    lv2_atom_forge_init(&p->forge, map);
    p->level = 1;
    p->honest = strstr(d->URI, "ui-request") != NULL;
    return p;
}

static void connect_port(LV2_Handle h, uint32_t port, void *data) {
    Plugin *p = h;
    if (port == IN) p->in = data;
    else if (port == OUT) p->out = data;
    else if (port == CONTROL) p->control = data;
    else if (port == NOTIFY) p->notify = data;
}

static void run(LV2_Handle h, uint32_t frames) {
    Plugin *p = h;
    lv2_atom_forge_set_buffer(&p->forge, (uint8_t *)p->notify, p->notify->atom.size + sizeof(LV2_Atom));
    LV2_Atom_Forge_Frame sequence;
    lv2_atom_forge_sequence_head(&p->forge, &sequence, 0);
    LV2_ATOM_SEQUENCE_FOREACH(p->control, event) {
        if (event->body.type != p->object) continue;
        bool asked = ((const LV2_Atom_Object *)&event->body)->body.otype == p->u.get;
        float level = asked ? p->level : level_of(&p->u, &event->body);
        if (level < 0) continue;
        p->level = level;
        LV2_Atom_Forge_Frame object;
        lv2_atom_forge_frame_time(&p->forge, event->time.frames);
        lv2_atom_forge_object(&p->forge, &object, 0, p->u.set);
        lv2_atom_forge_key(&p->forge, p->u.property);
        lv2_atom_forge_urid(&p->forge, p->u.level);
        lv2_atom_forge_key(&p->forge, p->u.value);
        lv2_atom_forge_float(&p->forge, p->honest ? level : level + 0.5f);
        lv2_atom_forge_pop(&p->forge, &object);
    }
    lv2_atom_forge_pop(&p->forge, &sequence);
    for (uint32_t i = 0; i < frames; i++) p->out[i] = p->in[i] * p->level;
}

static void cleanup(LV2_Handle h) { free(h); }

static const LV2_Descriptor descriptors[] = {
    {"urn:auhost:fixture:ui-atom", instantiate, connect_port, NULL, run, NULL, cleanup, NULL},
    {"urn:auhost:fixture:ui-request", instantiate, connect_port, NULL, run, NULL, cleanup, NULL},
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) { return index < 2 ? &descriptors[index] : NULL; }

/* ---- the UIs ---- */

typedef struct {
    Display *display;
    Window window;
    GC gc;
    URIDs u;
    LV2_URID_Map *map;
    bool hostile;
    const LV2UI_Request_Value *request; /* #request: the host's ui:requestValue, if offered */
    LV2UI_Write_Function write;
    LV2UI_Controller controller;
} AtomUI;

static LV2UI_Handle ui_instantiate(const LV2UI_Descriptor *descriptor, const char *plugin_uri, const char *bundle_path,
                                   LV2UI_Write_Function write_function, LV2UI_Controller controller, LV2UI_Widget *widget,
                                   const LV2_Feature *const *features) {
    (void)plugin_uri; (void)bundle_path;
    Window parent = 0;
    const LV2UI_Request_Value *request = NULL;
    for (int i = 0; features && features[i]; i++) {
        if (!strcmp(features[i]->URI, LV2_UI__parent)) parent = (Window)(uintptr_t)features[i]->data;
        if (!strcmp(features[i]->URI, LV2_UI__requestValue)) request = features[i]->data;
    }
    AtomUI *ui = calloc(1, sizeof(AtomUI));
    if (!ui || !map_urids(features, &ui->u, &ui->map) || !(ui->display = XOpenDisplay(NULL))) {
        free(ui);
        return NULL;
    }
    ui->hostile = strstr(descriptor->URI, "#hostile") != NULL;
    if (strstr(descriptor->URI, "#request")) {
        if (!request) {
            free(ui);
            return NULL; /* the fixture needs the feature offered, supported or not */
        }
        ui->request = request;
    }
    ui->write = write_function;
    ui->controller = controller;
    if (!parent) parent = DefaultRootWindow(ui->display);
    int screen = DefaultScreen(ui->display);
    ui->window = XCreateSimpleWindow(ui->display, parent, 0, 0, WIDTH, HEIGHT, 0, 0, WhitePixel(ui->display, screen));
    XSelectInput(ui->display, ui->window, ButtonPressMask);
    ui->gc = XCreateGC(ui->display, ui->window, 0, NULL);
    XMapWindow(ui->display, ui->window);
    XFlush(ui->display);
    *widget = (LV2UI_Widget)(uintptr_t)ui->window;
    /* Ask for the level at once, as eg-sampler's UI asks for its sample: before the host's `ready`. */
    uint8_t get[64];
    LV2_Atom_Forge forge;
    LV2_Atom_Forge_Frame frame;
    lv2_atom_forge_init(&forge, ui->map);
    lv2_atom_forge_set_buffer(&forge, get, sizeof get);
    lv2_atom_forge_object(&forge, &frame, 0, ui->u.get);
    lv2_atom_forge_pop(&forge, &frame);
    write_function(controller, CONTROL, (uint32_t)sizeof(LV2_Atom) + ((LV2_Atom *)get)->size, ui->u.event_transfer, get);
    return ui;
}

static void ui_cleanup(LV2UI_Handle handle) {
    AtomUI *ui = handle;
    XFreeGC(ui->display, ui->gc);
    XDestroyWindow(ui->display, ui->window);
    XCloseDisplay(ui->display);
    free(ui);
}

/* The plug-in's answer: shown to the host through the `seen` control port. */
static void ui_port_event(LV2UI_Handle handle, uint32_t port, uint32_t size, uint32_t format, const void *buffer) {
    AtomUI *ui = handle;
    const LV2_Atom *atom = buffer;
    if (port != NOTIFY || format != ui->u.event_transfer || size < sizeof(LV2_Atom_Object)) return;
    if (atom->type != ui->map->map(ui->map->handle, LV2_ATOM__Object)) return;
    float level = level_of(&ui->u, buffer);
    if (level >= 0) ui->write(ui->controller, SEEN, sizeof level, 0, &level);
}

static void clicked(AtomUI *ui, int x) {
    if (ui->request) {
        const char *key = x < WIDTH / 2 ? LEVEL_URI : "urn:auhost:fixture:ui-atom#nothing";
        LV2UI_Request_Value_Status status = ui->request->request(ui->request->handle, ui->map->map(ui->map->handle, key), 0, NULL);
        float seen = 1.0f + (float)status / 4;
        if (status != LV2UI_REQUEST_VALUE_SUCCESS) ui->write(ui->controller, SEEN, sizeof seen, 0, &seen);
        return;
    }
    uint8_t buffer[256];
    LV2_Atom_Forge forge;
    lv2_atom_forge_init(&forge, ui->map);
    lv2_atom_forge_set_buffer(&forge, buffer, sizeof buffer);
    LV2_Atom_Forge_Frame frame;
    lv2_atom_forge_object(&forge, &frame, 0, ui->u.set);
    lv2_atom_forge_key(&forge, ui->u.property);
    lv2_atom_forge_urid(&forge, ui->u.level);
    lv2_atom_forge_key(&forge, ui->u.value);
    lv2_atom_forge_float(&forge, (float)x / WIDTH);
    lv2_atom_forge_pop(&forge, &frame);
    const LV2_Atom *atom = (const LV2_Atom *)buffer;
    uint32_t size = (uint32_t)sizeof(LV2_Atom) + atom->size;
    if (ui->hostile) {
        /* An atom:Chunk within the protocol's 64 KiB but larger than the host's 32 KiB input buffer. */
        static uint8_t big[sizeof(LV2_Atom) + 40000];
        LV2_Atom *chunk = (LV2_Atom *)big;
        chunk->size = 40000;
        chunk->type = ui->map->map(ui->map->handle, LV2_ATOM__Chunk);
        ui->write(ui->controller, CONTROL, sizeof big, ui->u.event_transfer, big);
        ui->write(ui->controller, SEEN, size, ui->u.event_transfer, buffer);   /* not an atom port */
        ui->write(ui->controller, CONTROL, size + 8, ui->u.event_transfer, buffer); /* lies about its size */
        ui->write(ui->controller, CONTROL, size, ui->u.atom_transfer, buffer);  /* the other protocol */
    }
    ui->write(ui->controller, CONTROL, size, ui->u.event_transfer, buffer);
}

static int ui_idle(LV2UI_Handle handle) {
    AtomUI *ui = handle;
    while (XPending(ui->display)) {
        XEvent event;
        XNextEvent(ui->display, &event);
        if (event.type == ButtonPress) clicked(ui, event.xbutton.x);
    }
    return 0;
}

static const LV2UI_Idle_Interface idle_interface = {ui_idle};

static const void *ui_extension_data(const char *uri) {
    return strcmp(uri, LV2_UI__idleInterface) ? NULL : &idle_interface;
}

static const LV2UI_Descriptor ui_descriptors[] = {
    {"urn:auhost:fixture:ui-atom#atom", ui_instantiate, ui_cleanup, ui_port_event, ui_extension_data},
    {"urn:auhost:fixture:ui-atom#hostile", ui_instantiate, ui_cleanup, ui_port_event, ui_extension_data},
    {"urn:auhost:fixture:ui-request#request", ui_instantiate, ui_cleanup, ui_port_event, ui_extension_data},
};

LV2_SYMBOL_EXPORT const LV2UI_Descriptor *lv2ui_descriptor(uint32_t index) {
    return index < 3 ? &ui_descriptors[index] : NULL;
}
