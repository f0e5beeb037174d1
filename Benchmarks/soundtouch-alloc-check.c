// Benchmarks/soundtouch-alloc-check.c (run by scripts/soundtouch-alloc-check.sh): counts heap
// allocations inside SoundTouch 2.3.2 (libSoundTouchDll, the library NewTimePitch and the audio
// queue's time-pitch call) on the render thread's calls, fed as SoundTouchStretch feeds it: warmed
// up at the four corner settings (tempo 1/32 and 32, ±2400 cents; 8 rounds each) and cleared, then
// rendered in slices of `frames` with the settings changed between blocks of slices. Setting
// changes and processing are counted apart. The executable's malloc/calloc/realloc interpose the
// library's (operator new calls malloc).
#include <SoundTouchDLL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static long allocations;
void *malloc(size_t n) { allocations++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { allocations++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { allocations++; return __libc_realloc(p, n); }

static int chunk, channels;
static float *scratch;

// SoundTouchStretch.inputFrames(toProduce:tempo:): at least 64, at most a chunk.
static unsigned inputFrames(int missing, float tempo) {
    double want = ceil((double)missing * tempo);
    return (unsigned)(want < 64 ? 64 : want > chunk ? chunk : want);
}

// NewTimePitchUnit.renderSlice after the settings: put until a slice waits (64 puts at most), take it.
static void slice(HANDLE h, float tempo, int frames) {
    for (int attempts = 0; (int)soundtouch_numSamples(h) < frames && attempts < 64; attempts++)
        soundtouch_putSamples(h, scratch, inputFrames(frames - (int)soundtouch_numSamples(h), tempo));
    soundtouch_receiveSamples(h, scratch, frames);
}

static void set(HANDLE h, float tempo, float cents) {
    soundtouch_setTempo(h, tempo);
    soundtouch_setPitchSemiTones(h, cents / 100);
}

int main(int argc, char **argv) {
    chunk = argc > 1 ? atoi(argv[1]) : 512;
    channels = argc > 2 ? atoi(argv[2]) : 2;
    scratch = calloc((size_t)chunk * channels, sizeof(float));
    HANDLE h = soundtouch_createInstance();
    soundtouch_setChannels(h, channels);
    soundtouch_setSampleRate(h, 48000);
    soundtouch_setSetting(h, 5, 8);  // SETTING_OVERLAP_MS
    const float corners[5][2] = {{1.0f / 32, -2400}, {32, 2400}, {1.0f / 32, 2400}, {32, -2400}, {1, 1200}};
    for (int k = 0; k < 5; k++) {  // SoundTouchStretch.warmUp()
        set(h, corners[k][0], corners[k][1]);
        for (int round = 0; round < 8; round++) {
            for (int attempts = 0; (int)soundtouch_numSamples(h) < chunk && attempts < 64; attempts++)
                soundtouch_putSamples(h, scratch, inputFrames(chunk - (int)soundtouch_numSamples(h), corners[k][0]));
            while (soundtouch_receiveSamples(h, scratch, chunk) > 0) {}
        }
    }
    soundtouch_clear(h);
    set(h, 1, 0);
    for (int i = 0; i < chunk * channels; i++) scratch[i] = (float)rand() / RAND_MAX - 0.5f;

    const struct { const char *what; float tempo, cents; } steps[] = {
        {"rate 1.5, pitch +300 (the benchmark's)", 1.5f, 300}, {"rate 1.5, pitch +300 again", 1.5f, 300},
        {"rate 0.5, same pitch", 0.5f, 300}, {"rate 2, same pitch", 2, 300},
        {"pitch -1200", 2, -1200}, {"pitch +2400, rate 1/32", 1.0f / 32, 2400}, {"rate 32, pitch -2400", 32, -2400},
        {"rate 1.01, pitch +1", 1.01f, 1}, {"rate 1.01, pitch +2", 1.01f, 2},
    };
    printf("slices of %d frames, %d channels, after the warm-up:\n", chunk, channels);
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        long before = allocations;
        set(h, steps[i].tempo, steps[i].cents);
        long setting = allocations - before;
        before = allocations;
        for (int n = 0; n < 100; n++) slice(h, steps[i].tempo, n % 3 ? chunk : chunk / 3 + 1);
        printf("  %-40s setting it: %3ld allocations; 100 slices: %4ld\n", steps[i].what, setting, allocations - before);
    }
    soundtouch_destroyInstance(h);
    return 0;
}
