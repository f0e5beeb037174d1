/* urn:auhost:fixture:patch-reporter: a gain whose settings are patch properties and which says
 * what they are, as samplers and convolvers do. out = in x level. On its control input it takes
 * patch:Set of #level (atom:Float) and #file (atom:Path), and answers patch:Get with one patch:Put
 * of those and of its read-only #status (atom:String, "ready"); in its third run it changes its
 * level to 0.25 by itself and says so with patch:Set. Every run it reports its read-only #peak
 * (atom:Float): the largest |in| of the run.
 * Thread: LV2's classes (run: audio). */
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/patch/patch.h>
#include <lv2/urid/urid.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLUGIN_URI "urn:auhost:fixture:patch-reporter"

typedef struct {
    const float *in;
    float *out;
    const LV2_Atom_Sequence *control;
    LV2_Atom_Sequence *notify;
    LV2_Atom_Forge forge;
    LV2_URID object, get, set, put, body, property, value, level_key, file_key, peak_key, status_key, float_type, path_type;
    float level;
    char file[256];
    unsigned runs;
} Reporter;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *bundle, const LV2_Feature *const *features) {
    (void)d, (void)rate, (void)bundle;
    LV2_URID_Map *map = NULL;
    for (int i = 0; features[i]; i++) {
        if (!strcmp(features[i]->URI, LV2_URID__map)) map = features[i]->data;
    }
    if (!map) return NULL;
    Reporter *r = calloc(1, sizeof *r);
    lv2_atom_forge_init(&r->forge, map);
    r->object = map->map(map->handle, LV2_ATOM__Object);
    r->get = map->map(map->handle, LV2_PATCH__Get);
    r->set = map->map(map->handle, LV2_PATCH__Set);
    r->put = map->map(map->handle, LV2_PATCH__Put);
    r->body = map->map(map->handle, LV2_PATCH__body);
    r->property = map->map(map->handle, LV2_PATCH__property);
    r->value = map->map(map->handle, LV2_PATCH__value);
    r->level_key = map->map(map->handle, PLUGIN_URI "#level");
    r->file_key = map->map(map->handle, PLUGIN_URI "#file");
    r->peak_key = map->map(map->handle, PLUGIN_URI "#peak");
    r->status_key = map->map(map->handle, PLUGIN_URI "#status");
    r->float_type = map->map(map->handle, LV2_ATOM__Float);
    r->path_type = map->map(map->handle, LV2_ATOM__Path);
    r->level = 0.5f;
    strcpy(r->file, "/fixture/default.wav");
    return r;
}

static void connect(LV2_Handle h, uint32_t port, void *data) {
    Reporter *r = h;
    switch (port) {
    case 0: r->in = data; break;
    case 1: r->out = data; break;
    case 2: r->control = data; break;
    case 3: r->notify = data; break;
    }
}

static void take_set(Reporter *r, const LV2_Atom_Object *set) {
    const LV2_Atom *property = NULL, *value = NULL;
    lv2_atom_object_get(set, r->property, &property, r->value, &value, 0);
    if (!property || !value || property->type != r->forge.URID) return;
    LV2_URID key = ((const LV2_Atom_URID *)property)->body;
    if (key == r->level_key && value->type == r->float_type) r->level = ((const LV2_Atom_Float *)value)->body;
    if (key == r->file_key && value->type == r->path_type && value->size < sizeof r->file) {
        memcpy(r->file, LV2_ATOM_BODY_CONST(value), value->size);
        r->file[value->size] = 0;
    }
}

/* patch:Set of a float property, at frame 0. */
static void set_float(Reporter *r, LV2_URID key, float value) {
    LV2_Atom_Forge_Frame set;
    lv2_atom_forge_frame_time(&r->forge, 0);
    lv2_atom_forge_object(&r->forge, &set, 0, r->set);
    lv2_atom_forge_key(&r->forge, r->property);
    lv2_atom_forge_urid(&r->forge, key);
    lv2_atom_forge_key(&r->forge, r->value);
    lv2_atom_forge_float(&r->forge, value);
    lv2_atom_forge_pop(&r->forge, &set);
}

static void run(LV2_Handle h, uint32_t frames) {
    Reporter *r = h;
    const uint32_t capacity = r->notify->atom.size;
    lv2_atom_forge_set_buffer(&r->forge, (uint8_t *)r->notify, capacity);
    LV2_Atom_Forge_Frame sequence;
    lv2_atom_forge_sequence_head(&r->forge, &sequence, 0);
    LV2_ATOM_SEQUENCE_FOREACH(r->control, event) {
        if (event->body.type != r->object) continue;
        const LV2_Atom_Object *message = (const LV2_Atom_Object *)&event->body;
        if (message->body.otype == r->set) take_set(r, message);
        if (message->body.otype == r->get) {
            LV2_Atom_Forge_Frame put, body;
            lv2_atom_forge_frame_time(&r->forge, 0);
            lv2_atom_forge_object(&r->forge, &put, 0, r->put);
            lv2_atom_forge_key(&r->forge, r->body);
            lv2_atom_forge_object(&r->forge, &body, 0, 0);
            lv2_atom_forge_key(&r->forge, r->file_key);
            lv2_atom_forge_path(&r->forge, r->file, (uint32_t)strlen(r->file));
            lv2_atom_forge_key(&r->forge, r->level_key);
            lv2_atom_forge_float(&r->forge, r->level);
            lv2_atom_forge_key(&r->forge, r->status_key);
            lv2_atom_forge_string(&r->forge, "ready", 5);
            lv2_atom_forge_pop(&r->forge, &body);
            lv2_atom_forge_pop(&r->forge, &put);
        }
    }
    if (++r->runs == 3) {
        r->level = 0.25f;
        set_float(r, r->level_key, r->level);
    }
    float peak = 0;
    for (uint32_t i = 0; i < frames; i++) {
        r->out[i] = r->in[i] * r->level;
        peak = fabsf(r->in[i]) > peak ? fabsf(r->in[i]) : peak;
    }
    set_float(r, r->peak_key, peak);
    lv2_atom_forge_pop(&r->forge, &sequence);
}

static void cleanup(LV2_Handle h) {
    free(h);
}

/* urn:auhost:fixture:patch-garbage: the same gain, writing broken patch replies a host must not
 * read past: a sequence claiming 4 KiB more than its buffer, holding a 40-byte patch:Put whose
 * patch:body claims a million bytes. Right after the object lies what a reader going past it would
 * take for a property of that body, level = 0.9 (and, read as the next event, a size of about
 * 1 GiB). */
static void run_garbage(LV2_Handle h, uint32_t frames) {
    Reporter *r = h;
    const uint32_t capacity = r->notify->atom.size;
    uint32_t *w = (uint32_t *)((uint8_t *)r->notify + sizeof(LV2_Atom_Sequence));
    if (capacity >= 96) {
        const float lure = 0.9f;
        w[0] = w[1] = 0;                                                 /* frame 0 */
        w[2] = 40, w[3] = r->object, w[4] = 0, w[5] = r->put;            /* the 40-byte patch:Put */
        w[6] = r->body, w[7] = 0, w[8] = 1000000, w[9] = r->object;     /* patch:body claims 1 MB */
        w[10] = 0, w[11] = 0;                                            /* the body's id and otype */
        w[12] = r->level_key, w[13] = 0, w[14] = 4, w[15] = r->float_type; /* past the object */
        memcpy(&w[16], &lure, sizeof lure);
        w[17] = 0;
    }
    r->notify->atom.type = r->forge.Sequence;
    r->notify->atom.size = capacity + 4096;
    for (uint32_t i = 0; i < frames; i++) r->out[i] = r->in[i] * r->level;
}

static const LV2_Descriptor descriptors[] = {
    {PLUGIN_URI, instantiate, connect, NULL, run, NULL, cleanup, NULL},
    {"urn:auhost:fixture:patch-garbage", instantiate, connect, NULL, run_garbage, NULL, cleanup, NULL},
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < 2 ? &descriptors[index] : NULL;
}
