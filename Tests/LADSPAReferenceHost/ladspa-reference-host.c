// ladspa-reference-host LIBRARY LABEL RATE BLOCK INPUT.raw OUTPUT.raw [CONTROL-VALUE...]
//
// The tests' own float reference for LADSPA units: the plainest host there is. Loads LIBRARY,
// finds LABEL, instantiates it at RATE, connects every port (control inputs to the values given,
// in port order; control outputs to scratch), activates it, and runs it over INPUT in blocks of
// BLOCK frames with separate input and output buffers. INPUT and OUTPUT are raw interleaved
// 32-bit floats with as many channels as the plug-in has audio inputs / outputs; OUTPUT has as
// many frames as INPUT (a generator is run for the frames given by INPUT's length / 1 when it has
// no inputs: pass a one-channel INPUT of the length wanted). Exit status 0 on success, 1 with a
// sentence on stderr otherwise.
//
// With LADSPA_REFERENCE_FLUSH_SUBNORMALS=1 in the environment it runs with flush-to-zero and
// denormals-are-zero set, as `auhost` does on its main thread (AUHostCommand.swift), so that a
// plug-in whose state passes through subnormals compares bit for bit with `auhost render`.
#include <dlfcn.h>
#include <ladspa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

static int fail(const char *what, const char *detail) {
    fprintf(stderr, "ladspa-reference-host: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

int main(int argc, char **argv) {
    const char *flush = getenv("LADSPA_REFERENCE_FLUSH_SUBNORMALS");
#if defined(__x86_64__) || defined(__i386__)
    if (flush && strcmp(flush, "1") == 0) _mm_setcsr(_mm_getcsr() | 0x8040u); /* FTZ | DAZ */
#endif
    if (argc < 7) return fail("usage: LIBRARY LABEL RATE BLOCK INPUT.raw OUTPUT.raw [CONTROL-VALUE...]", NULL);
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) return fail("cannot load the library", dlerror());
    LADSPA_Descriptor_Function describe = (LADSPA_Descriptor_Function)dlsym(library, "ladspa_descriptor");
    if (!describe) return fail("no ladspa_descriptor", argv[1]);
    const LADSPA_Descriptor *d = NULL;
    for (unsigned long i = 0; (d = describe(i)) != NULL; i++)
        if (strcmp(d->Label, argv[2]) == 0) break;
    if (!d) return fail("no plug-in with that label", argv[2]);
    unsigned long rate = strtoul(argv[3], NULL, 10);
    unsigned long block = strtoul(argv[4], NULL, 10);
    if (rate == 0 || block == 0) return fail("bad rate or block", NULL);

    unsigned long inputs = 0, outputs = 0, controls = 0;
    for (unsigned long p = 0; p < d->PortCount; p++) {
        LADSPA_PortDescriptor pd = d->PortDescriptors[p];
        if (LADSPA_IS_PORT_AUDIO(pd)) { if (LADSPA_IS_PORT_INPUT(pd)) inputs++; else outputs++; }
        else if (LADSPA_IS_PORT_INPUT(pd)) controls++;
    }
    if ((unsigned long)(argc - 7) != controls) return fail("give one value per control input", NULL);

    FILE *in = fopen(argv[5], "rb");
    if (!in) return fail("cannot open the input", argv[5]);
    fseek(in, 0, SEEK_END);
    long bytes = ftell(in);
    fseek(in, 0, SEEK_SET);
    unsigned long inChannels = inputs ? inputs : 1;
    unsigned long frames = (unsigned long)bytes / sizeof(float) / inChannels;
    float *interleaved = malloc(frames * inChannels * sizeof(float) + 1);
    if (fread(interleaved, sizeof(float), frames * inChannels, in) != frames * inChannels) return fail("short input", NULL);
    fclose(in);

    LADSPA_Handle h = d->instantiate(d, rate);
    if (!h) return fail("instantiate failed", NULL);
    float *controlValues = calloc(d->PortCount, sizeof(float));
    float **inBuffers = calloc(inputs + 1, sizeof(float *)), **outBuffers = calloc(outputs + 1, sizeof(float *));
    unsigned long ci = 0, ai = 0, ao = 0;
    for (unsigned long p = 0; p < d->PortCount; p++) {
        LADSPA_PortDescriptor pd = d->PortDescriptors[p];
        if (LADSPA_IS_PORT_AUDIO(pd)) {
            float *buffer = calloc(block, sizeof(float));
            if (LADSPA_IS_PORT_INPUT(pd)) inBuffers[ai++] = buffer; else outBuffers[ao++] = buffer;
            d->connect_port(h, p, buffer);
        } else {
            if (LADSPA_IS_PORT_INPUT(pd)) controlValues[p] = (float)atof(argv[7 + ci++]);
            d->connect_port(h, p, &controlValues[p]);
        }
    }
    if (d->activate) d->activate(h);
    FILE *out = fopen(argv[6], "wb");
    if (!out) return fail("cannot open the output", argv[6]);
    float *outInterleaved = malloc(block * (outputs ? outputs : 1) * sizeof(float));
    for (unsigned long start = 0; start < frames; start += block) {
        unsigned long n = frames - start < block ? frames - start : block;
        for (unsigned long c = 0; c < inputs; c++)
            for (unsigned long i = 0; i < n; i++) inBuffers[c][i] = interleaved[(start + i) * inChannels + c];
        d->run(h, n);
        for (unsigned long i = 0; i < n; i++)
            for (unsigned long c = 0; c < outputs; c++) outInterleaved[i * outputs + c] = outBuffers[c][i];
        fwrite(outInterleaved, sizeof(float), n * outputs, out);
    }
    fclose(out);
    if (d->deactivate) d->deactivate(h);
    if (d->cleanup) d->cleanup(h);
    return 0;
}
