/*
 * compare-audio — two audio files compared sample for sample, bit for bit, as float32.
 *
 *   compare-audio A B [SKIP_A]
 *
 * A and B must have as many frames (both render the same input). Frames SKIP_A.. of A are
 * compared with frames 0.. of B (A from a host that does not compensate latency, B from one that
 * does); the channel counts and rates must agree and at least one frame must be compared. Prints what was compared and the
 * first difference; exit status 0 when every bit is equal, 1 otherwise. Thread class: n/a (a test tool).
 */
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float *load(const char *path, SF_INFO *info) {
    memset(info, 0, sizeof *info);
    SNDFILE *f = sf_open(path, SFM_READ, info);
    if (f == NULL) {
        fprintf(stderr, "compare-audio: cannot open %s: %s\n", path, sf_strerror(NULL));
        exit(1);
    }
    float *data = malloc(sizeof(float) * (size_t)info->frames * (size_t)info->channels + 1);
    sf_count_t got = sf_readf_float(f, data, info->frames);
    sf_close(f);
    if (got != info->frames) {
        fprintf(stderr, "compare-audio: %s: read %lld of %lld frames\n", path, (long long)got, (long long)info->frames);
        exit(1);
    }
    return data;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s A B [SKIP_A]\n", argv[0]);
        return 2;
    }
    long skip = argc == 4 ? atol(argv[3]) : 0;
    SF_INFO ia, ib;
    float *a = load(argv[1], &ia), *b = load(argv[2], &ib);
    if (ia.channels != ib.channels || ia.samplerate != ib.samplerate) {
        fprintf(stderr, "compare-audio: %s is %d ch at %d Hz, %s %d ch at %d Hz\n", argv[1], ia.channels, ia.samplerate,
                argv[2], ib.channels, ib.samplerate);
        return 1;
    }
    if (ia.frames != ib.frames) {
        fprintf(stderr, "compare-audio: %s has %lld frames, %s %lld (both render the same input)\n", argv[1], (long long)ia.frames,
                argv[2], (long long)ib.frames);
        return 1;
    }
    long frames = (long)ia.frames - skip;
    if (frames <= 0) {
        fprintf(stderr, "compare-audio: nothing to compare (%lld and %lld frames, skip %ld)\n", (long long)ia.frames,
                (long long)ib.frames, skip);
        return 1;
    }
    int ch = ia.channels;
    for (long i = 0; i < frames * ch; i++) {
        float x = a[skip * ch + i], y = b[i];
        if (memcmp(&x, &y, sizeof x) != 0) {
            fprintf(stderr, "compare-audio: frame %ld channel %ld differs: %.9g (%s) vs %.9g (%s)\n", i / ch, i % ch, x, argv[1],
                    y, argv[2]);
            return 1;
        }
    }
    printf("equal: %ld frames x %d ch, bit for bit (%s from frame %ld, %s from 0)\n", frames, ch, argv[1], skip, argv[2]);
    return 0;
}
