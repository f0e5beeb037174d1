/*
 * native.h — what the files of auhost._native share. Every Core Audio declaration comes from the
 * project's own headers (<AudioToolbox/AudioToolbox.h>), so the compiler checks each call and
 * struct against the library it links; nothing here restates a Core Audio type.
 */
#ifndef AUHOST_PY_NATIVE_H
#define AUHOST_PY_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <AudioToolbox/AudioToolbox.h>

/* The exception every failing Core Audio call raises: auhost.AUHostError(message, status). */
extern PyObject *AUHostPy_Error;

/* Raises AUHostError for `status` with "what: <the engine's last sentence> (status N)".
   Returns NULL so callers can `return raise_status(...)`. [setup: holds the GIL] */
PyObject *raise_status(OSStatus status, const char *what);

/* A Python str from a CFString (None for NULL); releases it when `release`. [setup] */
PyObject *string_from_cf(CFStringRef s, int release);

/* The input side of a render: channel pointers into a C-contiguous float32 (channels, frames)
   array, read by feed_callback from `position` on; frames past `frames` read as silence. */
typedef struct {
    const float *const *channels;
    UInt32 count;
    UInt64 frames;
    UInt64 position;
    float *scratch;            /* lent to units that pass mData == NULL: count * block floats */
    UInt32 scratch_channels;
    int checkInFeed;           /* the callback checks what it copies (one thread pulls: a unit) */
    UInt64 checked;            /* with checkInFeed: frames before this one are checked */
    int nonFinite;             /* set when a block held NaN or infinity */
} Feed;

/* AURenderCallback over a Feed. [render] */
OSStatus feed_callback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                       UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData);

/* A MIDI channel message due at `frame` of a render. */
typedef struct {
    UInt64 frame;
    UInt32 status, data1, data2;
} MIDIEventAt;

/* Renders `frames` frames of `unit` (an effect fed by `feed`, an instrument, or a graph's head)
   into `out` (`outCount` channel pointers), `block` frames a call, sending `events` (sorted by
   frame) to `midiUnit` at their offsets. Advances *time. Returns the first failing status
   (kAudio_ParamError with feed->nonFinite set for NaN or infinite input). [render: called with
   the GIL released] */
OSStatus render_blocks(AudioUnit unit, Feed *feed, float *const *out, UInt32 outCount, UInt64 frames, UInt32 block,
                       AudioTimeStamp *time, AudioUnit midiUnit, const MIDIEventAt *events, Py_ssize_t eventCount);

/* Whether frames [position, position + n) of the feed's input (clipped to it) hold NaN or
   infinity. render_blocks checks each block before the unit reads it (in feed_callback as it
   copies when checkInFeed, else before pulling: a graph's parallel branches pull the same feed
   from several threads) and stops with kAudio_ParamError and feed->nonFinite set at the first
   such block: the unit may have rendered the blocks before it, so callers reset it. [render] */
int feed_block_non_finite(const Feed *feed, UInt64 position, UInt64 n);

/* How many samples are NaN or infinite (exponent all ones), for the refusal's message.
   [any thread; no Python objects] */
UInt64 count_non_finite(float *const *channels, UInt32 count, UInt64 frames);

/* Raises ValueError for `bad` non-finite input samples. Returns NULL. [setup: holds the GIL] */
#define RAISE_NON_FINITE(bad) PyErr_Format(PyExc_ValueError, \
    "audio holds %llu NaN or infinite samples (as float32); clean them (numpy.nan_to_num) before processing", \
    (unsigned long long)(bad))

/* Borrows a 2-D C-contiguous float32 buffer from `obj` (writable when asked) and fills `pointers`
   (at most `max` channels) with its rows; sets *channels and *frames. -1 with an exception set
   when obj is not such a buffer. [setup] */
int borrow_planar(PyObject *obj, int writable, Py_buffer *view, float **pointers, UInt32 max, UInt32 *channels,
                  UInt64 *frames);

/* Denormal handling. libauhost links libSoundTouchDll, which Debian builds with -ffast-math: the
   loader runs its crtfastmath constructor, which turns on flush-to-zero and denormals-are-zero for
   the thread that loads it — here, the interpreter's thread, where NumPy would then flush
   subnormals. Module init clears those bits again; renders (and graph initialization, whose
   worker threads inherit the mode) set them for their own duration only, as audio hosts do
   (JUCE's ScopedNoDenormals), which also matches the CLI, whose main thread runs with them on. */
#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define AUHOST_PY_FTZ_DAZ 0x8040u
static inline unsigned int denormals_flush_begin(void) {
    unsigned int old = _mm_getcsr();
    _mm_setcsr(old | AUHOST_PY_FTZ_DAZ);
    return old;
}
static inline void denormals_flush_end(unsigned int old) { _mm_setcsr(old); }
static inline void denormals_ieee(void) { _mm_setcsr(_mm_getcsr() & ~AUHOST_PY_FTZ_DAZ); }
/* Around calls that may dlopen a plug-in built with -ffast-math: the thread keeps its mode. */
static inline unsigned int fp_mode_save(void) { return _mm_getcsr(); }
static inline void fp_mode_restore(unsigned int mode) { _mm_setcsr(mode); }
#else
static inline unsigned int fp_mode_save(void) { return 0; }
static inline void fp_mode_restore(unsigned int mode) { (void)mode; }
static inline unsigned int denormals_flush_begin(void) { return 0; }
static inline void denormals_flush_end(unsigned int old) { (void)old; }
static inline void denormals_ieee(void) {}
#endif

/* Grows *scratch to hold `floats` floats (kept for the next call); NULL with MemoryError set on
   failure. [setup: holds the GIL] */
float *scratch_reserve(float **scratch, size_t *capacity, size_t floats);

/* The most channels a render takes or gives (a bound on input: larger arrays are refused). */
#define AUHOST_PY_MAX_CHANNELS 64

extern PyTypeObject AUHostPy_UnitType;
extern PyTypeObject AUHostPy_GraphType;
extern PyTypeObject AUHostPy_FileReaderType;
extern PyTypeObject AUHostPy_FileWriterType;
extern PyTypeObject AUHostPy_ResamplerType;

/* A unit: owned (disposed with the object) or a graph node's (the graph owns it; `owner` keeps the
   graph alive). `busy` refuses a second thread while one renders with the GIL released. */
typedef struct {
    PyObject_HEAD
    AudioUnit unit;
    PyObject *owner;
    int busy;
    int outOfProcess;
    AudioTimeStamp time;
    Feed feed;
    PyObject *weakrefs;
    float *scratch;            /* kept between calls: a fresh 64-channel block per call cost more than the render */
    size_t scratchCapacity;    /* in floats */
    /* The configuration the Python layer last set up (formats, block), for the fast path:
       effects only, in process only; fastChannels 0 means none. */
    double fastRate;
    UInt32 fastChannels, fastBlock, fastOut;
} UnitObject;

/* Makes a Unit object over a graph's node unit. [setup] */
PyObject *unit_wrap_borrowed(AudioUnit unit, PyObject *owner);

#endif
