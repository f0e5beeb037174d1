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
// ladspa-reference-host --dssi LIBRARY LABEL RATE BLOCK FRAMES EVENTS.txt OUTPUT.raw PROGRAM [CONTROL-VALUE...]
//
// The direct run of a DSSI synth: dssi_descriptor, instantiate, activate, select_program with the
// bank and number of program index PROGRAM (-1: none), then run_synth over FRAMES frames in
// blocks of BLOCK, each block given the events of EVENTS.txt ("FRAME STATUS DATA1 DATA2" lines, in
// order) that fall in it, at their frame within the block, as ALSA sequencer events.
//
// ladspa-reference-host --bounds LIBRARY LABEL RATE BLOCK INPUT.raw [CONTROL-VALUE...]
//
// Whether a plug-in's output depends on memory it was not given: runs one block (the first BLOCK
// frames of INPUT) on fresh instances, the audio inputs placed before BLOCK floats of one fill
// value, the outputs filled with another beforehand, and what malloc hands out filled with a third
// (glibc's M_PERTURB), and prints four lines: "reads-past-inputs yes|no" (the output changes with
// what lies after the input buffers), "keeps-output-contents yes|no" (with what was in the output
// buffers: a port left unwritten or added to), "reads-uninitialised-memory yes|no" (with what was
// in memory it allocated and did not set) and "breaks-in-place yes|no" (with output k sharing input
// k's buffer, as applyplugin runs every plug-in; "declared" when it says INPLACE_BROKEN). Any yes
// makes the output depend on how the host lays out memory.
//
// With LADSPA_REFERENCE_FLUSH_SUBNORMALS=1 in the environment it runs with flush-to-zero and
// denormals-are-zero set, as `auhost` does on its main thread (AUHostCommand.swift), so that a
// plug-in whose state passes through subnormals compares bit for bit with `auhost render`.
#include <dlfcn.h>
#include <malloc.h>
#include <dssi.h>
#include <ladspa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

static int fail(const char *what, const char *detail) {
    fprintf(stderr, "ladspa-reference-host: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

/* The plug-in labelled `label` in `library`, or NULL after saying why on stderr. */
static const LADSPA_Descriptor *find_plugin(const char *library, const char *label) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) { fail("cannot load the library", dlerror()); return NULL; }
    LADSPA_Descriptor_Function describe = (LADSPA_Descriptor_Function)dlsym(handle, "ladspa_descriptor");
    if (!describe) { fail("no ladspa_descriptor", library); return NULL; }
    const LADSPA_Descriptor *d = NULL;
    for (unsigned long i = 0; (d = describe(i)) != NULL; i++)
        if (strcmp(d->Label, label) == 0) return d;
    fail("no plug-in with that label", label);
    return NULL;
}

/* How many audio inputs, audio outputs and control inputs `d` has. */
static void count_ports(const LADSPA_Descriptor *d, unsigned long *inputs, unsigned long *outputs, unsigned long *controls) {
    *inputs = *outputs = *controls = 0;
    for (unsigned long p = 0; p < d->PortCount; p++) {
        LADSPA_PortDescriptor pd = d->PortDescriptors[p];
        if (LADSPA_IS_PORT_AUDIO(pd)) { if (LADSPA_IS_PORT_INPUT(pd)) (*inputs)++; else (*outputs)++; }
        else if (LADSPA_IS_PORT_INPUT(pd)) (*controls)++;
    }
}

static int dssi_main(int argc, char **argv);
static int bounds_main(int argc, char **argv);

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--dssi") == 0) return dssi_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "--bounds") == 0) return bounds_main(argc - 1, argv + 1);
    const char *flush = getenv("LADSPA_REFERENCE_FLUSH_SUBNORMALS");
#if defined(__x86_64__) || defined(__i386__)
    if (flush && strcmp(flush, "1") == 0) _mm_setcsr(_mm_getcsr() | 0x8040u); /* FTZ | DAZ */
#endif
    if (argc < 7) return fail("usage: LIBRARY LABEL RATE BLOCK INPUT.raw OUTPUT.raw [CONTROL-VALUE...]", NULL);
    const LADSPA_Descriptor *d = find_plugin(argv[1], argv[2]);
    if (!d) return 1;
    if (!d->run) return fail("no run function (a DSSI synth: use --dssi)", argv[2]);
    unsigned long rate = strtoul(argv[3], NULL, 10);
    unsigned long block = strtoul(argv[4], NULL, 10);
    if (rate == 0 || block == 0) return fail("bad rate or block", NULL);

    unsigned long inputs, outputs, controls;
    count_ports(d, &inputs, &outputs, &controls);
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

/* The DSSI mode: argv[0] is "--dssi". */
static int dssi_main(int argc, char **argv) {
    if (argc < 9) return fail("usage: --dssi LIBRARY LABEL RATE BLOCK FRAMES EVENTS.txt OUTPUT.raw PROGRAM [CONTROL-VALUE...]", NULL);
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) return fail("cannot load the library", dlerror());
    DSSI_Descriptor_Function describe = (DSSI_Descriptor_Function)dlsym(library, "dssi_descriptor");
    if (!describe) return fail("no dssi_descriptor", argv[1]);
    const DSSI_Descriptor *dd = NULL;
    for (unsigned long i = 0; (dd = describe(i)) != NULL; i++)
        if (strcmp(dd->LADSPA_Plugin->Label, argv[2]) == 0) break;
    if (!dd || !dd->run_synth) return fail("no DSSI synth with that label", argv[2]);
    const LADSPA_Descriptor *d = dd->LADSPA_Plugin;
    unsigned long rate = strtoul(argv[3], NULL, 10), block = strtoul(argv[4], NULL, 10), frames = strtoul(argv[5], NULL, 10);
    long program = strtol(argv[8], NULL, 10);
    FILE *eventsFile = fopen(argv[6], "r");
    if (!eventsFile) return fail("cannot open the events", argv[6]);
    unsigned long capacity = 4096, count = 0;
    unsigned long *eventFrames = malloc(capacity * sizeof *eventFrames);
    unsigned char (*bytes)[3] = malloc(capacity * sizeof *bytes);
    unsigned long frame;
    unsigned int st, d1, d2;
    while (count < capacity && fscanf(eventsFile, "%lu %u %u %u", &frame, &st, &d1, &d2) == 4) {
        eventFrames[count] = frame;
        bytes[count][0] = st; bytes[count][1] = d1; bytes[count][2] = d2;
        count++;
    }
    fclose(eventsFile);

    LADSPA_Handle h = d->instantiate(d, rate);
    if (!h) return fail("instantiate failed", NULL);
    float *controlValues = calloc(d->PortCount, sizeof(float));
    float **outBuffers = calloc(d->PortCount, sizeof(float *));
    unsigned long outputs = 0, ci = 0;
    for (unsigned long p = 0; p < d->PortCount; p++) {
        LADSPA_PortDescriptor pd = d->PortDescriptors[p];
        if (LADSPA_IS_PORT_AUDIO(pd)) {
            float *buffer = calloc(block, sizeof(float));
            if (LADSPA_IS_PORT_OUTPUT(pd)) outBuffers[outputs++] = buffer;
            d->connect_port(h, p, buffer);
        } else {
            if (LADSPA_IS_PORT_INPUT(pd)) {
                if (9 + (int)ci >= argc) return fail("give one value per control input", NULL);
                controlValues[p] = (float)atof(argv[9 + ci++]);
            }
            d->connect_port(h, p, &controlValues[p]);
        }
    }
    if (d->activate) d->activate(h);
    if (program >= 0) {
        const DSSI_Program_Descriptor *pd = dd->get_program ? dd->get_program(h, (unsigned long)program) : NULL;
        if (!pd) return fail("no such program", argv[8]);
        unsigned long bank = pd->Bank, number = pd->Program;
        dd->select_program(h, bank, number);
    }
    snd_seq_event_t *events = calloc(capacity, sizeof *events);
    FILE *out = fopen(argv[7], "wb");
    if (!out) return fail("cannot open the output", argv[7]);
    float *interleaved = malloc(block * (outputs ? outputs : 1) * sizeof(float));
    unsigned long next = 0;
    for (unsigned long start = 0; start < frames; start += block) {
        unsigned long n = frames - start < block ? frames - start : block, k = 0;
        while (next < count && eventFrames[next] < start + n) {
            snd_seq_event_t *e = &events[k];
            memset(e, 0, sizeof *e);
            e->time.tick = eventFrames[next] < start ? 0 : eventFrames[next] - start;
            unsigned char s = bytes[next][0], a = bytes[next][1], b = bytes[next][2];
            int keep = 1;
            switch (s & 0xF0) {
            case 0x90: e->type = b ? SND_SEQ_EVENT_NOTEON : SND_SEQ_EVENT_NOTEOFF; e->data.note.channel = s & 15; e->data.note.note = a; e->data.note.velocity = b; break;
            case 0x80: e->type = SND_SEQ_EVENT_NOTEOFF; e->data.note.channel = s & 15; e->data.note.note = a; e->data.note.velocity = b; break;
            case 0xB0: e->type = SND_SEQ_EVENT_CONTROLLER; e->data.control.channel = s & 15; e->data.control.param = a; e->data.control.value = b; break;
            case 0xE0: e->type = SND_SEQ_EVENT_PITCHBEND; e->data.control.channel = s & 15; e->data.control.value = ((int)b << 7 | a) - 8192; break;
            default: keep = 0;
            }
            k += keep;
            next++;
        }
        dd->run_synth(h, n, events, k);
        for (unsigned long i = 0; i < n; i++)
            for (unsigned long c = 0; c < outputs; c++) interleaved[i * outputs + c] = outBuffers[c][i];
        fwrite(interleaved, sizeof(float), n * outputs, out);
    }
    fclose(out);
    if (d->deactivate) d->deactivate(h);
    if (d->cleanup) d->cleanup(h);
    return 0;
}

/* What one block of the --bounds mode changes: what follows the inputs' BLOCK frames, what the
 * outputs hold beforehand, the byte malloc's memory is filled with the complement of (M_PERTURB),
 * and whether output k shares input k's buffer (as applyplugin runs every plug-in). */
struct memory_setting {
    float inputTail, outputFill;
    int heapFill, inPlace;
};

/* One block of the --bounds mode on a fresh instance; writes the outputs to `result` (outputs ×
 * BLOCK floats). */
static int run_bounded(const LADSPA_Descriptor *d, unsigned long rate, unsigned long block, const float *signal,
                       unsigned long inChannels, const float *controls, struct memory_setting m, float *result) {
    mallopt(M_PERTURB, m.heapFill);
    LADSPA_Handle h = d->instantiate(d, rate);
    if (!h) return 0;
    unsigned long n = d->PortCount, ai = 0, ao = 0, ci = 0, owned = 0;
    float *inputs[n], *outputs[n], *allocated[n], controlValues[n];
    for (unsigned long p = 0; p < n; p++) {
        LADSPA_PortDescriptor pd = d->PortDescriptors[p];
        if (!LADSPA_IS_PORT_AUDIO(pd)) {
            controlValues[p] = LADSPA_IS_PORT_INPUT(pd) ? controls[ci++] : 0;
            d->connect_port(h, p, &controlValues[p]);
        } else if (LADSPA_IS_PORT_INPUT(pd)) {
            float *buffer = allocated[owned++] = malloc(2 * block * sizeof(float));
            for (unsigned long i = 0; i < 2 * block; i++) buffer[i] = i < block ? signal[i * inChannels + ai] : m.inputTail;
            inputs[ai++] = buffer;
            d->connect_port(h, p, buffer);
        }
    }
    for (unsigned long p = 0; p < n; p++) {
        LADSPA_PortDescriptor pd = d->PortDescriptors[p];
        if (!LADSPA_IS_PORT_AUDIO(pd) || !LADSPA_IS_PORT_OUTPUT(pd)) continue;
        float *buffer;
        if (m.inPlace && ao < ai) {
            buffer = inputs[ao];
        } else {
            buffer = allocated[owned++] = malloc(2 * block * sizeof(float));
            for (unsigned long i = 0; i < 2 * block; i++) buffer[i] = m.outputFill;
        }
        outputs[ao++] = buffer;
        d->connect_port(h, p, buffer);
    }
    if (d->activate) d->activate(h);
    d->run(h, block);
    for (unsigned long k = 0; k < ao; k++) memcpy(result + block * k, outputs[k], block * sizeof(float));
    if (d->deactivate) d->deactivate(h);
    if (d->cleanup) d->cleanup(h);
    for (unsigned long k = 0; k < owned; k++) free(allocated[k]);
    return 1;
}

/* The --bounds mode: argv[0] is "--bounds". */
static int bounds_main(int argc, char **argv) {
    /* M_PERTURB fills only chunks that do not come from glibc's per-thread cache: run without it. */
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (!tunables || !strstr(tunables, "glibc.malloc.tcache_count=0")) {
        setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0", 1);
        execv("/proc/self/exe", argv - 1);
        return fail("cannot run itself again without the malloc cache", NULL);
    }
    if (argc < 6) return fail("usage: --bounds LIBRARY LABEL RATE BLOCK INPUT.raw [CONTROL-VALUE...]", NULL);
    const LADSPA_Descriptor *d = find_plugin(argv[1], argv[2]);
    if (!d) return 1;
    if (!d->run) return fail("no run function (a DSSI synth)", argv[2]);
    unsigned long rate = strtoul(argv[3], NULL, 10), block = strtoul(argv[4], NULL, 10);
    if (rate == 0 || block == 0) return fail("bad rate or block", NULL);
    unsigned long inputs, outputs, controlCount;
    count_ports(d, &inputs, &outputs, &controlCount);
    if ((unsigned long)(argc - 6) != controlCount) return fail("give one value per control input", NULL);
    float controls[controlCount + 1];
    for (unsigned long c = 0; c < controlCount; c++) controls[c] = (float)atof(argv[6 + c]);
    unsigned long inChannels = inputs ? inputs : 1;
    float *signal = calloc(block * inChannels, sizeof(float));
    FILE *in = fopen(argv[5], "rb");
    if (!in) return fail("cannot open the input", argv[5]);
    size_t got = fread(signal, sizeof(float), block * inChannels, in);
    fclose(in);
    (void)got; /* a shorter input leaves the rest of the block silent */
    size_t size = block * (outputs ? outputs : 1) * sizeof(float);
    /* The reference setting, then one change each. */
    static const struct memory_setting settings[] = {
        {0, 0, 0xFF, 0}, {7, 0, 0xFF, 0}, {0, 1, 0xFF, 0}, {0, 0, 0xBD, 0}, {0, 0, 0xFF, 1},
    };
    static const char *findings[] = {NULL, "reads-past-inputs", "keeps-output-contents", "reads-uninitialised-memory", "breaks-in-place"};
    float *runs[5];
    for (int k = 0; k < 5; k++) {
        runs[k] = calloc(1, size);
        if (!run_bounded(d, rate, block, signal, inChannels, controls, settings[k], runs[k])) return fail("instantiate failed", NULL);
    }
    for (int k = 1; k < 5; k++) {
        int declared = settings[k].inPlace && LADSPA_IS_INPLACE_BROKEN(d->Properties);
        printf("%s %s\n", findings[k], declared ? "declared" : memcmp(runs[0], runs[k], size) ? "yes" : "no");
    }
    return 0;
}
