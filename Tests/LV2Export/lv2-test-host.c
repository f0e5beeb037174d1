/* The test host's lilv side (see lv2-test-host.h). */
#include "lv2-test-host.h"

#include <lv2/atom/util.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **uris;
static uint32_t uri_count;

static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (uint32_t i = 0; i < uri_count; i++)
        if (strcmp(uris[i], uri) == 0) return i + 1;
    uris = realloc(uris, sizeof(char *) * (uri_count + 1));
    uris[uri_count++] = strdup(uri);
    return uri_count;
}

static const char *unmap_uri(LV2_URID_Unmap_Handle handle, LV2_URID urid) {
    (void)handle;
    return urid >= 1 && urid <= uri_count ? uris[urid - 1] : NULL;
}

static void die(const char *message, const char *detail) {
    fprintf(stderr, "lv2-test-host: %s%s\n", message, detail ? detail : "");
    exit(1);
}

void test_host_init(TestHost *host, double rate, int block) {
    memset(host, 0, sizeof *host);
    host->rate = rate;
    host->block = block;
    host->world = lilv_world_new();
    lilv_world_load_all(host->world);
    host->map = (LV2_URID_Map){NULL, map_uri};
    host->unmap = (LV2_URID_Unmap){NULL, unmap_uri};
    static int32_t max_block, nominal_block;
    static float sample_rate;
    max_block = block;
    nominal_block = block;
    sample_rate = (float)rate;
    static LV2_Options_Option options[4];
    LV2_URID int_type = map_uri(NULL, LV2_ATOM__Int), float_type = map_uri(NULL, LV2_ATOM__Float);
    options[0] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_BUF_SIZE__maxBlockLength), 4, int_type, &max_block};
    options[1] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_BUF_SIZE__nominalBlockLength), 4, int_type,
                                      &nominal_block};
    options[2] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_PARAMETERS__sampleRate), 4, float_type, &sample_rate};
    options[3] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL};
    static LV2_Feature map_feature, unmap_feature, options_feature, bounded_feature;
    map_feature = (LV2_Feature){LV2_URID__map, &host->map};
    unmap_feature = (LV2_Feature){LV2_URID__unmap, &host->unmap};
    options_feature = (LV2_Feature){LV2_OPTIONS__options, options};
    bounded_feature = (LV2_Feature){LV2_BUF_SIZE__boundedBlockLength, NULL};
    static const LV2_Feature *features[5];
    features[0] = &map_feature;
    features[1] = &unmap_feature;
    features[2] = &options_feature;
    features[3] = &bounded_feature;
    features[4] = NULL;
    host->features = features;
}

void test_host_init_bare(TestHost *host, double rate, int block) {
    test_host_init(host, rate, block);
    static const LV2_Feature *none[1] = {NULL};
    host->features = none;
}

const LilvPlugin *test_host_plugin(TestHost *host, const char *uri) {
    LilvNode *node = lilv_new_uri(host->world, uri);
    const LilvPlugin *plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(host->world), node);
    lilv_node_free(node);
    if (plugin == NULL) die("no plug-in on LV2_PATH has the URI ", uri);
    return plugin;
}

void test_instance_make(TestHost *host, TestInstance *t, const LilvPlugin *plugin) {
    memset(t, 0, sizeof *t);
    t->plugin = plugin;
    t->instance = lilv_plugin_instantiate(plugin, host->rate, host->features);
    if (t->instance == NULL) die("instantiation failed: ", lilv_node_as_uri(lilv_plugin_get_uri(plugin)));
    t->ports = lilv_plugin_get_num_ports(plugin);
    t->controls = calloc(t->ports, sizeof(float));
    float *mins = calloc(t->ports, sizeof(float)), *maxs = calloc(t->ports, sizeof(float));
    lilv_plugin_get_port_ranges_float(plugin, mins, maxs, t->controls);
    free(mins);
    free(maxs);
    t->in_index = calloc(t->ports, sizeof(uint32_t));
    t->out_index = calloc(t->ports, sizeof(uint32_t));
    t->atom_in = -1;
    LilvNode *audio = lilv_new_uri(host->world, LV2_CORE__AudioPort), *control = lilv_new_uri(host->world, LV2_CORE__ControlPort),
             *input = lilv_new_uri(host->world, LV2_CORE__InputPort), *atom = lilv_new_uri(host->world, LV2_ATOM__AtomPort);
    for (uint32_t i = 0; i < t->ports; i++) {
        const LilvPort *port = lilv_plugin_get_port_by_index(plugin, i);
        int is_input = lilv_port_is_a(plugin, port, input);
        if (lilv_port_is_a(plugin, port, audio)) {
            if (is_input) t->in_index[t->audio_in++] = i;
            else t->out_index[t->audio_out++] = i;
        } else if (lilv_port_is_a(plugin, port, control)) {
            if (isnan(t->controls[i])) t->controls[i] = 0;
            lilv_instance_connect_port(t->instance, i, &t->controls[i]);
        } else if (lilv_port_is_a(plugin, port, atom) && is_input) {
            t->atom_in = (int32_t)i;
            t->sequence = calloc(1, 65536);
            lilv_instance_connect_port(t->instance, i, t->sequence);
        } else {
            die("a port of a kind this test host does not connect: ", lilv_node_as_string(lilv_port_get_symbol(plugin, port)));
        }
    }
    lilv_node_free(audio);
    lilv_node_free(control);
    lilv_node_free(input);
    lilv_node_free(atom);
    lilv_instance_activate(t->instance);
}

void test_instance_set(TestInstance *t, const char *symbol, float value) {
    for (uint32_t i = 0; i < t->ports; i++) {
        const LilvPort *port = lilv_plugin_get_port_by_index(t->plugin, i);
        if (strcmp(lilv_node_as_string(lilv_port_get_symbol(t->plugin, port)), symbol) == 0) {
            t->controls[i] = value;
            return;
        }
    }
    die("no control port with the symbol ", symbol);
}

void test_instance_process(TestHost *host, TestInstance *t, float *const *in, float *const *out, long frames,
                           const TestMIDIEvent *events, int event_count) {
    LV2_URID sequence_type = host->map.map(NULL, LV2_ATOM__Sequence), midi_type = host->map.map(NULL, LV2_MIDI__MidiEvent);
    int next = 0;
    for (long start = 0; start < frames; start += host->block) {
        long n = frames - start < host->block ? frames - start : host->block;
        for (int c = 0; c < t->audio_in; c++) lilv_instance_connect_port(t->instance, t->in_index[c], in[c] + start);
        for (int c = 0; c < t->audio_out; c++) lilv_instance_connect_port(t->instance, t->out_index[c], out[c] + start);
        if (t->atom_in >= 0) {
            /* The events of this block, stamped relative to its start, each padded to 8 bytes. */
            t->sequence->atom.type = sequence_type;
            t->sequence->atom.size = sizeof(LV2_Atom_Sequence_Body);
            t->sequence->body.unit = 0;
            t->sequence->body.pad = 0;
            while (next < event_count && events[next].frame < start + n) {
                LV2_Atom_Event *e = (LV2_Atom_Event *)((uint8_t *)&t->sequence->body + t->sequence->atom.size);
                e->time.frames = events[next].frame - start;
                e->body.type = midi_type;
                e->body.size = 3;
                memcpy(e + 1, events[next].bytes, 3);
                t->sequence->atom.size += (uint32_t)lv2_atom_pad_size(sizeof(LV2_Atom_Event) + 3);
                next++;
            }
        }
        lilv_instance_run(t->instance, (uint32_t)n);
    }
}

void test_instance_free(TestInstance *t) {
    lilv_instance_deactivate(t->instance);
    lilv_instance_free(t->instance);
    free(t->controls);
    free(t->in_index);
    free(t->out_index);
    free(t->sequence);
}

float **test_planar(int channels, long frames) {
    float **p = calloc((size_t)channels, sizeof(float *));
    for (int c = 0; c < channels; c++) p[c] = calloc((size_t)frames + 1, sizeof(float));
    return p;
}

float **test_read_wav(const char *path, int *channels, long *frames, int *rate) {
    SF_INFO info = {0};
    SNDFILE *f = sf_open(path, SFM_READ, &info);
    if (f == NULL) die("cannot open ", path);
    float *interleaved = malloc(sizeof(float) * (size_t)(info.frames * info.channels + 1));
    if (sf_readf_float(f, interleaved, info.frames) != info.frames) die("short read from ", path);
    sf_close(f);
    float **p = test_planar(info.channels, info.frames);
    for (long i = 0; i < info.frames; i++)
        for (int c = 0; c < info.channels; c++) p[c][i] = interleaved[i * info.channels + c];
    free(interleaved);
    *channels = info.channels;
    *frames = info.frames;
    *rate = info.samplerate;
    return p;
}

void test_write_wav(const char *path, float *const *data, int channels, long frames, int rate) {
    SF_INFO info = {.samplerate = rate, .channels = channels, .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT};
    SNDFILE *f = sf_open(path, SFM_WRITE, &info);
    if (f == NULL) die("cannot create ", path);
    float *interleaved = malloc(sizeof(float) * (size_t)(frames * channels + 1));
    for (long i = 0; i < frames; i++)
        for (int c = 0; c < channels; c++) interleaved[i * channels + c] = data[c][i];
    if (sf_writef_float(f, interleaved, frames) != frames) die("short write to ", path);
    sf_close(f);
    free(interleaved);
}
