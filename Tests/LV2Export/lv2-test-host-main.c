/*
 * lv2-test-host — what the LV2 export checks ask of a real lilv host (scripts/check-lv2-export.sh).
 *
 *   lv2-test-host render URI IN.wav OUT.wav [--block N] [--bare] [--preset PRESET_URI] [SYMBOL=VALUE]...
 *   lv2-test-host midi URI EVENTS.txt OUT.wav FRAMES [--block N] [SYMBOL=VALUE]...
 *   lv2-test-host state URI IN.wav SAVED.wav RESTORED.wav [SYMBOL=VALUE]...
 *   lv2-test-host pair URI1 URI2 IN.wav OUT1.wav OUT2.wav
 *   lv2-test-host units URI
 *   lv2-test-host bench URI BLOCKS [--block N]
 *
 * render: IN through the plug-in (a mono file feeds every input) with the features a full host
 * offers (--bare: none at all, so the plug-in knows no block length), optionally after loading a
 * preset through lilv. midi: an instrument driven by the
 * events of EVENTS.txt (lines "FRAME STATUS DATA1 DATA2", decimal), FRAMES frames at 48 kHz.
 * state: instance A set up with the values and rendered into SAVED; its state saved with
 * lilv_state_new_from_instance (it must hold the unit's ClassInfo), restored into a fresh
 * instance B with lilv_state_restore; B's own state, saved before it runs, must equal A's (so
 * the ClassInfo went through state:interface); B rendered into RESTORED. pair: two plug-ins instantiated in
 * this one process, run block by block in turn. units: each control port's symbol, unit, range.
 * bench: BLOCKS runs of N frames (default 512) of silence, separate input and output buffers,
 * as lv2bench feeds and connects them, each run timed alone (CLOCK_MONOTONIC): min and median per run in µs,
 * robust to a shared machine's preemptions where a total is not.
 * Exit status 0 on success. Thread class: n/a (a test tool).
 */
#include "lv2-test-host.h"

#include <lilv/lilv.h>
#include <lv2/state/state.h>
#include <lv2/units/units.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int block_option(int *argc, char **argv) {
    int block = 256;
    for (int i = 0; i < *argc - 1; i++) {
        if (strcmp(argv[i], "--block") == 0) {
            block = atoi(argv[i + 1]);
            memmove(&argv[i], &argv[i + 2], sizeof(char *) * (size_t)(*argc - i - 2));
            *argc -= 2;
            break;
        }
    }
    return block;
}

static void set_values(TestInstance *t, int argc, char **argv, int from) {
    for (int i = from; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (eq == NULL) continue;
        *eq = 0;
        test_instance_set(t, argv[i], (float)atof(eq + 1));
        *eq = '=';
    }
}

static void set_port_value(const char *symbol, void *user, const void *value, uint32_t size, uint32_t type) {
    (void)size;
    (void)type;
    test_instance_set((TestInstance *)user, symbol, *(const float *)value);
}

/* atom:Float's URID in the test host's map (set before a state is saved). */
static LV2_URID test_float_type;

static const void *get_port_value(const char *symbol, void *user, uint32_t *size, uint32_t *type) {
    TestInstance *t = user;
    for (uint32_t i = 0; i < t->ports; i++) {
        const LilvPort *port = lilv_plugin_get_port_by_index(t->plugin, i);
        if (strcmp(lilv_node_as_string(lilv_port_get_symbol(t->plugin, port)), symbol) == 0) {
            *size = sizeof(float);
            *type = test_float_type;
            return &t->controls[i];
        }
    }
    *size = 0;
    return NULL;
}

/* IN with as many channels as the plug-in has inputs (a mono file feeds each). */
static float **inputs_for(TestInstance *t, float **file, int channels, long frames) {
    float **in = test_planar(t->audio_in > 0 ? t->audio_in : 1, frames);
    for (int c = 0; c < t->audio_in; c++) memcpy(in[c], file[c % channels], sizeof(float) * (size_t)frames);
    return in;
}

static int render(int argc, char **argv) {
    int block = block_option(&argc, argv);
    if (argc < 5) return 2;
    const char *preset = NULL;
    int bare = 0;
    for (int i = 5; i < argc; i++) {
        if (strcmp(argv[i], "--preset") == 0 && i + 1 < argc) preset = argv[i + 1];
        if (strcmp(argv[i], "--bare") == 0) bare = 1;
    }
    int channels, rate;
    long frames;
    float **file = test_read_wav(argv[3], &channels, &frames, &rate);
    TestHost host;
    if (bare) test_host_init_bare(&host, rate, block);
    else test_host_init(&host, rate, block);
    TestInstance t;
    test_instance_make(&host, &t, test_host_plugin(&host, argv[2]));
    if (preset) {
        LilvNode *node = lilv_new_uri(host.world, preset);
        lilv_world_load_resource(host.world, node);
        LilvState *state = lilv_state_new_from_world(host.world, &host.map, node);
        if (state == NULL) {
            fprintf(stderr, "lv2-test-host: preset %s does not load\n", preset);
            return 1;
        }
        lilv_state_restore(state, t.instance, set_port_value, &t, 0, host.features);
        lilv_state_free(state);
        lilv_node_free(node);
    }
    set_values(&t, argc, argv, 5);
    float **in = inputs_for(&t, file, channels, frames), **out = test_planar(t.audio_out, frames);
    test_instance_process(&host, &t, in, out, frames, NULL, 0);
    test_write_wav(argv[4], out, t.audio_out, frames, rate);
    test_instance_free(&t);
    return 0;
}

static int midi(int argc, char **argv) {
    int block = block_option(&argc, argv);
    if (argc < 6) return 2;
    FILE *f = fopen(argv[3], "r");
    if (f == NULL) {
        fprintf(stderr, "lv2-test-host: cannot open %s\n", argv[3]);
        return 1;
    }
    TestMIDIEvent events[4096];
    int count = 0;
    long frame;
    int s, d1, d2;
    while (count < 4096 && fscanf(f, "%ld %d %d %d", &frame, &s, &d1, &d2) == 4)
        events[count++] = (TestMIDIEvent){frame, {(uint8_t)s, (uint8_t)d1, (uint8_t)d2}};
    fclose(f);
    long frames = atol(argv[5]);
    TestHost host;
    test_host_init(&host, 48000, block);
    TestInstance t;
    test_instance_make(&host, &t, test_host_plugin(&host, argv[2]));
    set_values(&t, argc, argv, 6);
    float **out = test_planar(t.audio_out, frames);
    test_instance_process(&host, &t, NULL, out, frames, events, count);
    test_write_wav(argv[4], out, t.audio_out, frames, 48000);
    test_instance_free(&t);
    printf("%d MIDI events over %ld frames in blocks of %d\n", count, frames, block);
    return 0;
}

static int state(int argc, char **argv) {
    if (argc < 6) return 2;
    int channels, rate;
    long frames;
    float **file = test_read_wav(argv[3], &channels, &frames, &rate);
    TestHost host;
    test_host_init(&host, rate, 256);
    test_float_type = host.map.map(NULL, LV2_ATOM__Float);
    const LilvPlugin *plugin = test_host_plugin(&host, argv[2]);
    TestInstance a, b;
    test_instance_make(&host, &a, plugin);
    set_values(&a, argc, argv, 6);
    float **in = inputs_for(&a, file, channels, frames), **out = test_planar(a.audio_out, frames);
    test_instance_process(&host, &a, in, out, frames, NULL, 0);
    test_write_wav(argv[4], out, a.audio_out, frames, rate);
    LilvState *saved = lilv_state_new_from_instance(plugin, a.instance, &host.map, NULL, NULL, NULL, NULL, get_port_value, &a,
                                                    LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE, host.features);
    char *text = lilv_state_to_string(host.world, &host.map, &host.unmap, saved, "urn:auhost:test:state", NULL);
    if (strstr(text, "urn:auhost:lv2:state#classInfo") == NULL) {
        fprintf(stderr, "lv2-test-host: the saved state holds no ClassInfo:\n%s\n", text);
        return 1;
    }
    test_instance_free(&a);
    test_instance_make(&host, &b, plugin);
    lilv_state_restore(saved, b.instance, set_port_value, &b, 0, host.features);
    /* Before B runs, its unit holds only what state:interface restored (control ports reach the
       unit at the next run): B's own state must equal what A saved, ClassInfo included. */
    LilvState *again = lilv_state_new_from_instance(plugin, b.instance, &host.map, NULL, NULL, NULL, NULL, get_port_value, &b,
                                                    LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE, host.features);
    if (!lilv_state_equals(saved, again)) {
        char *text_b = lilv_state_to_string(host.world, &host.map, &host.unmap, again, "urn:auhost:test:state", NULL);
        fprintf(stderr, "lv2-test-host: the restored instance saves another state:\n%s\nthan the one restored:\n%s\n", text_b, text);
        return 1;
    }
    lilv_state_free(again);
    float **out_b = test_planar(b.audio_out, frames);
    test_instance_process(&host, &b, in, out_b, frames, NULL, 0);
    test_write_wav(argv[5], out_b, b.audio_out, frames, rate);
    test_instance_free(&b);
    lilv_state_free(saved);
    printf("state saved with ClassInfo (%zu bytes of Turtle), restored into a new instance, which saves it back equal\n", strlen(text));
    lilv_free(text);
    return 0;
}

static int pair(int argc, char **argv) {
    if (argc < 7) return 2;
    int channels, rate;
    long frames;
    float **file = test_read_wav(argv[4], &channels, &frames, &rate);
    TestHost host;
    test_host_init(&host, rate, 256);
    TestInstance t[2];
    test_instance_make(&host, &t[0], test_host_plugin(&host, argv[2]));
    test_instance_make(&host, &t[1], test_host_plugin(&host, argv[3]));
    float **in[2], **out[2];
    for (int k = 0; k < 2; k++) {
        in[k] = inputs_for(&t[k], file, channels, frames);
        out[k] = test_planar(t[k].audio_out, frames);
    }
    /* Interleaved: one block of each in turn, so both images run in the same stretch of time. */
    for (long start = 0; start < frames; start += host.block) {
        long n = frames - start < host.block ? frames - start : host.block;
        for (int k = 0; k < 2; k++) {
            float *ip[64], *op[64];
            for (int c = 0; c < t[k].audio_in; c++) ip[c] = in[k][c] + start;
            for (int c = 0; c < t[k].audio_out; c++) op[c] = out[k][c] + start;
            test_instance_process(&host, &t[k], ip, op, n, NULL, 0);
        }
    }
    test_write_wav(argv[5], out[0], t[0].audio_out, frames, rate);
    test_write_wav(argv[6], out[1], t[1].audio_out, frames, rate);
    test_instance_free(&t[0]);
    test_instance_free(&t[1]);
    return 0;
}

static int units(int argc, char **argv) {
    if (argc < 3) return 2;
    TestHost host;
    test_host_init(&host, 48000, 256);
    const LilvPlugin *plugin = test_host_plugin(&host, argv[2]);
    LilvNode *unit = lilv_new_uri(host.world, LV2_UNITS__unit), *control = lilv_new_uri(host.world, LV2_CORE__ControlPort);
    for (uint32_t i = 0; i < lilv_plugin_get_num_ports(plugin); i++) {
        const LilvPort *port = lilv_plugin_get_port_by_index(plugin, i);
        if (!lilv_port_is_a(plugin, port, control)) continue;
        LilvNode *def, *min, *max;
        lilv_port_get_range(plugin, port, &def, &min, &max);
        LilvNodes *u = lilv_port_get_value(plugin, port, unit);
        printf("%s unit=%s min=%g max=%g default=%g\n", lilv_node_as_string(lilv_port_get_symbol(plugin, port)),
               u ? lilv_node_as_uri(lilv_nodes_get_first(u)) : "none", min ? lilv_node_as_float(min) : 0,
               max ? lilv_node_as_float(max) : 0, def ? lilv_node_as_float(def) : 0);
        lilv_nodes_free(u);
        lilv_node_free(def);
        lilv_node_free(min);
        lilv_node_free(max);
    }
    return 0;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int bench(int argc, char **argv) {
    int block = block_option(&argc, argv);
    if (argc < 4) return 2;
    long blocks = atol(argv[3]);
    if (blocks < 1) return 2;
    TestHost host;
    test_host_init(&host, 48000, block);
    TestInstance t;
    test_instance_make(&host, &t, test_host_plugin(&host, argv[2]));
    float **in = test_planar(t.audio_in > 0 ? t.audio_in : 1, block), **out = test_planar(t.audio_out, block);
    for (int c = 0; c < t.audio_in; c++) memset(in[c], 0, sizeof(float) * (size_t)block);
    for (int c = 0; c < t.audio_in; c++) lilv_instance_connect_port(t.instance, t.in_index[c], in[c]);
    for (int c = 0; c < t.audio_out; c++) lilv_instance_connect_port(t.instance, t.out_index[c], out[c]);
    for (int i = 0; i < 100; i++) lilv_instance_run(t.instance, (uint32_t)block); /* warm up */
    double *times = malloc(sizeof(double) * (size_t)blocks);
    for (long i = 0; i < blocks; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        lilv_instance_run(t.instance, (uint32_t)block);
        clock_gettime(CLOCK_MONOTONIC, &b);
        times[i] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
    }
    qsort(times, (size_t)blocks, sizeof(double), compare_doubles);
    printf("time per block: min %.2f µs, median %.2f µs, max %.2f µs (%ld blocks of %d frames)\n", times[0], times[blocks / 2],
           times[blocks - 1], blocks, block);
    test_instance_free(&t);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2) {
        const char *mode = argv[1];
        int status = strcmp(mode, "render") == 0 ? render(argc, argv)
                     : strcmp(mode, "midi") == 0  ? midi(argc, argv)
                     : strcmp(mode, "state") == 0 ? state(argc, argv)
                     : strcmp(mode, "pair") == 0  ? pair(argc, argv)
                     : strcmp(mode, "units") == 0 ? units(argc, argv)
                     : strcmp(mode, "bench") == 0 ? bench(argc, argv)
                                                  : 2;
        if (status != 2) return status;
    }
    fprintf(stderr, "usage: see the comment at the top of lv2-test-host-main.c\n");
    return 2;
}
