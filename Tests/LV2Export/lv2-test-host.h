/*
 * lv2-test-host.h — the small lilv host the LV2 export checks use (scripts/check-lv2-export.sh):
 * a world over LV2_PATH, a URID map, the features a full host offers (urid:map, options with
 * maxBlockLength / nominalBlockLength / sampleRate, boundedBlockLength), and one instance whose
 * ports are connected to planar buffers and run in blocks. Thread class: n/a (a single-threaded
 * test tool; run happens on the calling thread).
 */
#ifndef LV2_TEST_HOST_H
#define LV2_TEST_HOST_H

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/urid/urid.h>
#include <stdint.h>

typedef struct {
    LilvWorld *world;
    LV2_URID_Map map;
    LV2_URID_Unmap unmap;
    const LV2_Feature *const *features; /* NULL-terminated */
    int block;
    double rate;
} TestHost;

/* One instance: its control values (by port index; NaN for non-control ports), planar audio. */
typedef struct {
    const LilvPlugin *plugin;
    LilvInstance *instance;
    uint32_t ports;
    float *controls;
    int audio_in, audio_out;
    uint32_t *in_index, *out_index; /* port index of each audio channel */
    int32_t atom_in;                /* the atom input's port index, -1 if none */
    LV2_Atom_Sequence *sequence;    /* its buffer */
} TestInstance;

/* Loads every bundle on LV2_PATH; block is the longest run (offered as maxBlockLength). A bare
   host offers no features at all, as lv2apply does (and says nothing of its block length). */
void test_host_init(TestHost *host, double rate, int block);
void test_host_init_bare(TestHost *host, double rate, int block);
/* The plug-in with this URI, or exits with a sentence. */
const LilvPlugin *test_host_plugin(TestHost *host, const char *uri);
/* Instantiates (exits on failure), control inputs at their defaults. */
void test_instance_make(TestHost *host, TestInstance *t, const LilvPlugin *plugin);
/* Sets control input SYMBOL (exits when there is none). */
void test_instance_set(TestInstance *t, const char *symbol, float value);
/* Runs `frames` frames from planar `in` (audio_in channels) into planar `out` (audio_out), in
   blocks of host->block; midi events (frame, 3 bytes) go to the atom input. */
typedef struct { long frame; uint8_t bytes[3]; } TestMIDIEvent;
void test_instance_process(TestHost *host, TestInstance *t, float *const *in, float *const *out, long frames,
                           const TestMIDIEvent *events, int event_count);
void test_instance_free(TestInstance *t);

/* Audio files as planar float32. */
float **test_read_wav(const char *path, int *channels, long *frames, int *rate);
void test_write_wav(const char *path, float *const *data, int channels, long frames, int rate);
float **test_planar(int channels, long frames);

#endif
