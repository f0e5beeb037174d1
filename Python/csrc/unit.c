/*
 * unit.c — auhost._native.Unit: one AudioUnit through the C API. Setup calls hold the GIL;
 * process() releases it while the unit renders. The Python layer (auhost/plugin.py) decides
 * formats and checks arguments; this file makes the calls and turns statuses into exceptions.
 */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL auhost_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include "native.h"
#include <numpy/arrayobject.h>

static UnitObject *unit_alloc(PyTypeObject *type) {
    UnitObject *self = (UnitObject *)type->tp_alloc(type, 0);
    if (self) self->time.mFlags = kAudioTimeStampSampleTimeValid;
    return self;
}

PyObject *unit_wrap_borrowed(AudioUnit unit, PyObject *owner) {
    UnitObject *self = unit_alloc(&AUHostPy_UnitType);
    if (!self) return NULL;
    self->unit = unit;
    self->owner = owner;
    Py_INCREF(owner);
    self->outOfProcess = AUHostIsolatedUnitIsOutOfProcess(unit) ? 1 : 0;
    return (PyObject *)self;
}

typedef struct { AudioComponentInstance instance; OSStatus status; } Made;

static void made(AudioComponentInstance instance, OSStatus status, void *userData) {
    Made *m = userData;
    m->instance = instance;
    m->status = status;
}

/* Unit(type, subtype, manufacturer, isolated=False) or Unit(uri=..., isolated=False). [setup] */
static PyObject *unit_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"type", "subtype", "manufacturer", "uri", "isolated", NULL};
    unsigned int t = 0, s = 0, m = 0;
    const char *uri = NULL;
    int isolated = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|IIIzp", keywords, &t, &s, &m, &uri, &isolated)) return NULL;
    AudioComponent component;
    if (uri) {
        component = AUHostComponentFindLV2(uri);
        if (!component) return PyErr_Format(PyExc_LookupError, "no LV2 plug-in on LV2_PATH has the URI %s", uri);
    } else {
        AudioComponentDescription d = {t, s, m, 0, 0};
        component = AudioComponentFindNext(NULL, &d);
        if (!component) return PyErr_Format(PyExc_LookupError, "no unit has the description %08x %08x %08x", t, s, m);
    }
    Made result = {NULL, noErr};
    Py_BEGIN_ALLOW_THREADS
    unsigned int mode = fp_mode_save();
    if (isolated)
        AudioComponentInstantiate(component, kAudioComponentInstantiation_LoadOutOfProcess, made, &result);
    else
        result.status = AudioComponentInstanceNew(component, &result.instance);
    fp_mode_restore(mode);
    Py_END_ALLOW_THREADS
    if (result.status != noErr || result.instance == NULL)
        return raise_status(result.status ? result.status : kAudio_ParamError, "the unit could not be made");
    UnitObject *self = unit_alloc(type);
    if (!self) {
        AudioComponentInstanceDispose(result.instance);
        return NULL;
    }
    self->unit = result.instance;
    self->outOfProcess = isolated;
    return (PyObject *)self;
}

static void unit_dealloc(UnitObject *self) {
    if (self->weakrefs) PyObject_ClearWeakRefs((PyObject *)self);
    if (self->unit && self->owner == NULL) AudioComponentInstanceDispose(self->unit);
    Py_XDECREF(self->owner);
    PyMem_RawFree(self->scratch);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#define CHECK(call, what) do { OSStatus _s = (call); if (_s != noErr) return raise_status(_s, what); } while (0)

/* description() -> (type, subtype, manufacturer). [setup] */
static PyObject *unit_description(UnitObject *self, PyObject *unused) {
    AudioComponentDescription d;
    CHECK(AudioComponentGetDescription(AudioComponentInstanceGetComponent(self->unit), &d), "AudioComponentGetDescription");
    return Py_BuildValue("(III)", d.componentType, d.componentSubType, d.componentManufacturer);
}

/* get_u32(id, scope=0, element=0) / get_f64(...) and set_u32 / set_f64. [setup] */
static PyObject *unit_get_u32(UnitObject *self, PyObject *args) {
    unsigned int id, scope = 0, element = 0;
    if (!PyArg_ParseTuple(args, "I|II", &id, &scope, &element)) return NULL;
    UInt32 value = 0, size = sizeof value;
    CHECK(AudioUnitGetProperty(self->unit, id, scope, element, &value, &size), "AudioUnitGetProperty");
    return PyLong_FromUnsignedLong(value);
}

static PyObject *unit_get_f64(UnitObject *self, PyObject *args) {
    unsigned int id, scope = 0, element = 0;
    if (!PyArg_ParseTuple(args, "I|II", &id, &scope, &element)) return NULL;
    Float64 value = 0;
    UInt32 size = sizeof value;
    CHECK(AudioUnitGetProperty(self->unit, id, scope, element, &value, &size), "AudioUnitGetProperty");
    return PyFloat_FromDouble(value);
}

static PyObject *unit_set_u32(UnitObject *self, PyObject *args) {
    unsigned int id, scope = 0, element = 0, value;
    if (!PyArg_ParseTuple(args, "II|II", &id, &value, &scope, &element)) return NULL;
    UInt32 v = value;
    CHECK(AudioUnitSetProperty(self->unit, id, scope, element, &v, sizeof v), "AudioUnitSetProperty");
    Py_RETURN_NONE;
}

static PyObject *unit_set_f64(UnitObject *self, PyObject *args) {
    unsigned int id, scope = 0, element = 0;
    double value;
    if (!PyArg_ParseTuple(args, "Id|II", &id, &value, &scope, &element)) return NULL;
    Float64 v = value;
    CHECK(AudioUnitSetProperty(self->unit, id, scope, element, &v, sizeof v), "AudioUnitSetProperty");
    Py_RETURN_NONE;
}

/* format(scope, element) -> (rate, channels). [setup] */
static PyObject *unit_format(UnitObject *self, PyObject *args) {
    unsigned int scope, element;
    if (!PyArg_ParseTuple(args, "II", &scope, &element)) return NULL;
    AudioStreamBasicDescription f;
    UInt32 size = sizeof f;
    CHECK(AudioUnitGetProperty(self->unit, kAudioUnitProperty_StreamFormat, scope, element, &f, &size), "reading a stream format");
    return Py_BuildValue("(dI)", f.mSampleRate, f.mChannelsPerFrame);
}

/* set_format(scope, element, rate, channels) -> status (0 when taken; the caller negotiates). [setup] */
static PyObject *unit_set_format(UnitObject *self, PyObject *args) {
    unsigned int scope, element, channels;
    double rate;
    if (!PyArg_ParseTuple(args, "IIdI", &scope, &element, &rate, &channels)) return NULL;
    AudioStreamBasicDescription f = {0};
    f.mSampleRate = rate;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved;
    f.mBytesPerPacket = 4;
    f.mFramesPerPacket = 1;
    f.mBytesPerFrame = 4;
    f.mChannelsPerFrame = channels;
    f.mBitsPerChannel = 32;
    OSStatus status = AudioUnitSetProperty(self->unit, kAudioUnitProperty_StreamFormat, scope, element, &f, sizeof f);
    return PyLong_FromLong(status);
}

/* initialize(), uninitialize(), reset(): the unit's lifecycle; reset also rewinds time. [setup] */
static PyObject *unit_initialize(UnitObject *self, PyObject *unused) {
    OSStatus status;
    Py_BEGIN_ALLOW_THREADS
    unsigned int mode = fp_mode_save();
    status = AudioUnitInitialize(self->unit);
    fp_mode_restore(mode);
    Py_END_ALLOW_THREADS
    if (status != noErr) return raise_status(status, "AudioUnitInitialize");
    Py_RETURN_NONE;
}

static PyObject *unit_uninitialize(UnitObject *self, PyObject *unused) {
    CHECK(AudioUnitUninitialize(self->unit), "AudioUnitUninitialize");
    Py_RETURN_NONE;
}

static PyObject *unit_reset(UnitObject *self, PyObject *unused) {
    CHECK(AudioUnitReset(self->unit, kAudioUnitScope_Global, 0), "AudioUnitReset");
    self->time.mSampleTime = 0;
    Py_RETURN_NONE;
}

/* attach_feed(): input bus 0 pulls from the arrays process() is given. [setup] */
static PyObject *unit_attach_feed(UnitObject *self, PyObject *unused) {
    AURenderCallbackStruct callback = {feed_callback, &self->feed};
    CHECK(AudioUnitSetProperty(self->unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                               sizeof callback), "setting the input callback");
    Py_RETURN_NONE;
}

/* parameter_ids() -> list of global-scope parameter IDs. [setup] */
static PyObject *unit_parameter_ids(UnitObject *self, PyObject *unused) {
    UInt32 size = 0;
    Boolean writable;
    if (AudioUnitGetPropertyInfo(self->unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, &writable) != noErr)
        return PyList_New(0);
    UInt32 count = size / sizeof(AudioUnitParameterID);
    AudioUnitParameterID *ids = PyMem_Calloc(count ? count : 1, sizeof *ids);
    if (!ids) return PyErr_NoMemory();
    OSStatus status = AudioUnitGetProperty(self->unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, ids, &size);
    PyObject *list = status == noErr ? PyList_New(size / sizeof *ids) : NULL;
    for (UInt32 i = 0; list && i < size / sizeof *ids; i++) PyList_SET_ITEM(list, i, PyLong_FromUnsignedLong(ids[i]));
    PyMem_Free(ids);
    if (status != noErr) return raise_status(status, "reading the parameter list");
    return list;
}

/* parameter_info(id) -> dict(name, unit, unit_name, min, max, default, flags, value_strings). [setup] */
static PyObject *unit_parameter_info(UnitObject *self, PyObject *args) {
    unsigned int id;
    if (!PyArg_ParseTuple(args, "I", &id)) return NULL;
    AudioUnitParameterInfo info;
    memset(&info, 0, sizeof info);
    UInt32 size = sizeof info;
    CHECK(AudioUnitGetProperty(self->unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &size),
          "reading a parameter's info");
    PyObject *name;
    if (info.cfNameString) {
        name = string_from_cf(info.cfNameString, (info.flags & kAudioUnitParameterFlag_CFNameRelease) != 0);
    } else {
        info.name[sizeof info.name - 1] = 0;
        name = PyUnicode_DecodeUTF8(info.name, (Py_ssize_t)strlen(info.name), "replace");
    }
    PyObject *unitName = string_from_cf(info.unitName, 0);
    PyObject *strings = Py_None;
    Py_INCREF(Py_None);
    CFArrayRef array = NULL;
    UInt32 arraySize = sizeof array;
    if (AudioUnitGetProperty(self->unit, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, id, &array, &arraySize) == noErr
        && array) {
        CFIndex n = CFArrayGetCount(array);
        Py_DECREF(strings);
        strings = PyList_New(n);
        for (CFIndex i = 0; strings && i < n; i++)
            PyList_SET_ITEM(strings, i, string_from_cf((CFStringRef)CFArrayGetValueAtIndex(array, i), 0));
        CFRelease(array);
    }
    PyObject *result = Py_BuildValue("{s:N,s:I,s:N,s:d,s:d,s:d,s:I,s:N}", "name", name, "unit", info.unit, "unit_name", unitName,
                                     "min", (double)info.minValue, "max", (double)info.maxValue, "default",
                                     (double)info.defaultValue, "flags", info.flags, "value_strings", strings);
    return result;
}

/* get_parameter(id) -> float; set_parameter(id, value). Global scope. [any thread] */
static PyObject *unit_get_parameter(UnitObject *self, PyObject *args) {
    unsigned int id;
    if (!PyArg_ParseTuple(args, "I", &id)) return NULL;
    AudioUnitParameterValue value = 0;
    CHECK(AudioUnitGetParameter(self->unit, id, kAudioUnitScope_Global, 0, &value), "AudioUnitGetParameter");
    return PyFloat_FromDouble(value);
}

static PyObject *unit_set_parameter(UnitObject *self, PyObject *args) {
    unsigned int id;
    float value;
    if (!PyArg_ParseTuple(args, "If", &id, &value)) return NULL;
    CHECK(AudioUnitSetParameter(self->unit, id, kAudioUnitScope_Global, 0, value, 0), "AudioUnitSetParameter");
    Py_RETURN_NONE;
}

/* presets() -> [(number, name)]; set_preset(number, name). [setup] */
static PyObject *unit_presets(UnitObject *self, PyObject *unused) {
    CFArrayRef array = NULL;
    UInt32 size = sizeof array;
    if (AudioUnitGetProperty(self->unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &array, &size) != noErr || !array)
        return PyList_New(0);
    CFIndex n = CFArrayGetCount(array);
    PyObject *list = PyList_New(n);
    for (CFIndex i = 0; list && i < n; i++) {
        const AUPreset *preset = CFArrayGetValueAtIndex(array, i);
        PyList_SET_ITEM(list, i, Py_BuildValue("(iN)", (int)preset->presetNumber, string_from_cf(preset->presetName, 0)));
    }
    CFRelease(array);
    return list;
}

static PyObject *unit_set_preset(UnitObject *self, PyObject *args) {
    int number;
    const char *name;
    if (!PyArg_ParseTuple(args, "is", &number, &name)) return NULL;
    AUPreset preset = {number, CFStringCreateWithCString(NULL, name, kCFStringEncodingUTF8)};
    OSStatus status = AudioUnitSetProperty(self->unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, sizeof preset);
    if (preset.presetName) CFRelease(preset.presetName);
    if (status != noErr) return raise_status(status, "choosing the preset");
    Py_RETURN_NONE;
}

/* get_state() -> bytes (ClassInfo as a binary property list); set_state(bytes). [setup] */
static PyObject *unit_get_state(UnitObject *self, PyObject *unused) {
    CFPropertyListRef info = NULL;
    UInt32 size = sizeof info;
    CHECK(AudioUnitGetProperty(self->unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &info, &size), "reading ClassInfo");
    if (!info) return PyBytes_FromStringAndSize("", 0);
    CFDataRef data = CFPropertyListCreateData(NULL, info, kCFPropertyListBinaryFormat_v1_0, 0, NULL);
    CFRelease(info);
    if (!data) return raise_status(kAudio_ParamError, "serialising ClassInfo");
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)CFDataGetBytePtr(data), CFDataGetLength(data));
    CFRelease(data);
    return bytes;
}

static PyObject *unit_set_state(UnitObject *self, PyObject *args) {
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "y*", &view)) return NULL;
    CFDataRef data = CFDataCreate(NULL, view.buf, view.len);
    PyBuffer_Release(&view);
    CFPropertyListRef info = data ? CFPropertyListCreateWithData(NULL, data, kCFPropertyListImmutable, NULL, NULL) : NULL;
    if (data) CFRelease(data);
    if (!info) {
        PyErr_SetString(PyExc_ValueError, "the state is not a property list (it must be bytes that a plug-in's .state gave)");
        return NULL;
    }
    if (CFGetTypeID(info) != CFDictionaryGetTypeID()) {
        CFRelease(info);
        PyErr_SetString(PyExc_ValueError, "the state is a property list but not a ClassInfo dictionary");
        return NULL;
    }
    OSStatus status = AudioUnitSetProperty(self->unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &info, sizeof info);
    CFRelease(info);
    if (status != noErr) return raise_status(status, "restoring the state (ClassInfo)");
    Py_RETURN_NONE;
}

/* fault() -> None or the sentence naming an isolated unit's crash, hang or NaN. [setup] */
static PyObject *unit_fault(UnitObject *self, PyObject *unused) {
    if (!self->outOfProcess) Py_RETURN_NONE;
    return string_from_cf(AUHostIsolatedUnitCopyFaultDescription(self->unit), 1);
}

/* restart(): a fresh child for an isolated unit. [setup] */
static PyObject *unit_restart(UnitObject *self, PyObject *unused) {
    OSStatus status;
    Py_BEGIN_ALLOW_THREADS
    status = AUHostIsolatedUnitRestart(self->unit);
    Py_END_ALLOW_THREADS
    if (status != noErr) return raise_status(status, "restarting the isolated unit");
    Py_RETURN_NONE;
}

/* Converts [(frame, status, data1, data2), ...] (sorted by the caller) to C. [setup] */
static MIDIEventAt *parse_events(PyObject *events, Py_ssize_t *count) {
    *count = 0;
    if (events == NULL || events == Py_None) return NULL;
    PyObject *seq = PySequence_Fast(events, "events must be a sequence of (frame, status, data1, data2)");
    if (!seq) return (MIDIEventAt *)-1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    MIDIEventAt *out = PyMem_Calloc(n ? (size_t)n : 1, sizeof *out);
    if (!out) { Py_DECREF(seq); PyErr_NoMemory(); return (MIDIEventAt *)-1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long frame;
        unsigned int s, d1, d2;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "KIII", &frame, &s, &d1, &d2)) {
            PyMem_Free(out);
            Py_DECREF(seq);
            return (MIDIEventAt *)-1;
        }
        out[i] = (MIDIEventAt){frame, s, d1, d2};
    }
    Py_DECREF(seq);
    *count = n;
    return out;
}

/* After a render stopped at NaN or infinite input: the unit may have rendered the blocks before
   it, so it starts over (reset, time 0) as a refused call must leave no half-processed stream.
   Answers how many samples were bad, for the message. [setup: GIL released] */
static UInt64 refuse_non_finite(UnitObject *self, float *const *channels, UInt32 count, UInt64 frames) {
    AudioUnitReset(self->unit, kAudioUnitScope_Global, 0);
    self->time.mSampleTime = 0;
    return count_non_finite(channels, count, frames);
}

/* process(input or None, output, block, events=None): renders output.shape[1] frames into
   `output` (C-contiguous float32 (channels, frames)), feeding input bus 0 from `input`.
   Releases the GIL while rendering. [setup: one thread per unit at a time] */
static PyObject *unit_process(UnitObject *self, PyObject *args) {
    PyObject *input, *output, *events = NULL;
    unsigned int block;
    if (!PyArg_ParseTuple(args, "OOI|O", &input, &output, &block, &events)) return NULL;
    if (block == 0) return PyErr_Format(PyExc_ValueError, "block must be at least 1 frame");
    /* busy: 0 free, 1 claimed by the Python layer (which then calls here), 2 rendering. */
    if (self->busy == 2) return PyErr_Format(PyExc_RuntimeError, "this unit is already processing on another thread; give each thread its own");
    int claimed = self->busy;
    Py_buffer in = {0}, out = {0};
    float *inPointers[AUHOST_PY_MAX_CHANNELS], *outPointers[AUHOST_PY_MAX_CHANNELS];
    UInt32 inCount = 0, outCount = 0;
    UInt64 inFrames = 0, outFrames = 0;
    if (input != Py_None && borrow_planar(input, 0, &in, inPointers, AUHOST_PY_MAX_CHANNELS, &inCount, &inFrames) != 0) return NULL;
    if (borrow_planar(output, 1, &out, outPointers, AUHOST_PY_MAX_CHANNELS, &outCount, &outFrames) != 0) {
        if (input != Py_None) PyBuffer_Release(&in);
        return NULL;
    }
    Py_ssize_t eventCount;
    MIDIEventAt *parsed = parse_events(events, &eventCount);
    UInt32 longest = outFrames < block ? (UInt32)(outFrames ? outFrames : 1) : block;
    float *scratch = parsed == (MIDIEventAt *)-1 ? NULL
        : scratch_reserve(&self->scratch, &self->scratchCapacity, (size_t)AUHOST_PY_MAX_CHANNELS * longest);
    if (parsed == (MIDIEventAt *)-1 || !scratch) {
        if (parsed != (MIDIEventAt *)-1) PyMem_Free(parsed);
        if (input != Py_None) PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        return NULL;
    }
    self->feed = (Feed){.channels = (const float *const *)inPointers, .count = inCount, .frames = inFrames, .scratch = scratch,
                        .scratch_channels = AUHOST_PY_MAX_CHANNELS, .checkInFeed = 1};
    self->busy = 2;
    OSStatus status;
    UInt64 bad = 0;
    Py_BEGIN_ALLOW_THREADS
    status = render_blocks(self->unit, &self->feed, outPointers, outCount, outFrames, block, &self->time, self->unit, parsed, eventCount);
    if (self->feed.nonFinite) bad = refuse_non_finite(self, inPointers, inCount, inFrames);
    Py_END_ALLOW_THREADS
    self->busy = claimed;
    self->feed = (Feed){0};
    PyMem_Free(parsed);
    if (input != Py_None) PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    if (bad) return RAISE_NON_FINITE(bad);
    if (status != noErr) return raise_status(status, "AudioUnitRender");
    Py_RETURN_NONE;
}

/* claim() / release(): the busy flag, for the Python layer's slow path (formats change there). */
static PyObject *unit_claim(UnitObject *self, PyObject *unused) {
    if (self->busy) return PyErr_Format(PyExc_RuntimeError, "this plug-in is already processing on another thread; give each thread its own");
    self->busy = 1;
    Py_RETURN_NONE;
}

static PyObject *unit_release(UnitObject *self, PyObject *unused) {
    self->busy = 0;
    Py_RETURN_NONE;
}

/* set_fast(rate, channels, block, out_channels): what the fast path may assume; (0, 0, 0, 0) clears it. [setup] */
static PyObject *unit_set_fast(UnitObject *self, PyObject *args) {
    double rate;
    unsigned int channels, block, out;
    if (!PyArg_ParseTuple(args, "dIII", &rate, &channels, &block, &out)) return NULL;
    if (out > AUHOST_PY_MAX_CHANNELS) return PyErr_Format(PyExc_ValueError, "too many output channels");
    self->fastRate = rate;
    self->fastChannels = channels;
    self->fastBlock = block;
    self->fastOut = out;
    Py_RETURN_NONE;
}

/* fast(audio, sample_rate, buffer_size, reset) -> float32 array, or NotImplemented when anything
   is not the plain case (then the Python layer checks, converts, configures and comes back):
   a C-contiguous float32 ndarray, (channels, frames) or (frames,), at the configured rate, channel
   count and block. Everything a call needs happens here, in one C call: 10,000 calls of 512
   frames spent most of their time in Python-level checks before it existed.
   [setup: one thread per unit; releases the GIL while rendering] */
static PyObject *unit_fast(UnitObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || self->fastChannels == 0 || self->outOfProcess) Py_RETURN_NOTIMPLEMENTED;
    PyObject *audio = args[0];
    if (!PyArray_CheckExact(audio)) Py_RETURN_NOTIMPLEMENTED;
    PyArrayObject *array = (PyArrayObject *)audio;
    int ndim = PyArray_NDIM(array);
    if (PyArray_TYPE(array) != NPY_FLOAT32 || !PyArray_IS_C_CONTIGUOUS(array) || !PyArray_ISNOTSWAPPED(array) || (ndim != 1 && ndim != 2))
        Py_RETURN_NOTIMPLEMENTED;
    npy_intp channels = ndim == 2 ? PyArray_DIM(array, 0) : 1;
    npy_intp frames = PyArray_DIM(array, ndim - 1);
    if (frames < 1 || channels != (npy_intp)self->fastChannels) Py_RETURN_NOTIMPLEMENTED;
    double rate = PyFloat_Check(args[1]) ? PyFloat_AS_DOUBLE(args[1]) : PyLong_CheckExact(args[1]) ? PyLong_AsDouble(args[1]) : -1;
    if (rate == -1 && PyErr_Occurred()) PyErr_Clear();
    if (rate != self->fastRate) Py_RETURN_NOTIMPLEMENTED;
    long block = PyLong_CheckExact(args[2]) ? PyLong_AsLong(args[2]) : -1;
    if (block == -1 && PyErr_Occurred()) PyErr_Clear();
    if (block != (long)self->fastBlock) Py_RETURN_NOTIMPLEMENTED;
    int reset = PyObject_IsTrue(args[3]);
    if (reset < 0) return NULL;
    if (self->busy) return PyErr_Format(PyExc_RuntimeError, "this plug-in is already processing on another thread; give each thread its own");

    UInt64 latency = 0;
    if (reset) {
        OSStatus status = AudioUnitReset(self->unit, kAudioUnitScope_Global, 0);
        if (status != noErr) return raise_status(status, "AudioUnitReset");
        self->time.mSampleTime = 0;
        Float64 seconds = 0;
        UInt32 size = sizeof seconds;
        if (AudioUnitGetProperty(self->unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &seconds, &size) == noErr
            && seconds > 0 && seconds == seconds)
            latency = (UInt64)llround((seconds < 60 ? seconds : 60) * rate);
    }
    UInt32 outCount = self->fastOut;
    int monoOut = ndim == 1 && outCount == 1;
    npy_intp rendered = frames + (npy_intp)latency;
    npy_intp shape[2] = {outCount, rendered};
    PyObject *output = monoOut ? PyArray_SimpleNew(1, &shape[1], NPY_FLOAT32) : PyArray_SimpleNew(2, shape, NPY_FLOAT32);
    if (!output) return NULL;
    float *inPointers[AUHOST_PY_MAX_CHANNELS], *outPointers[AUHOST_PY_MAX_CHANNELS];
    float *inBase = PyArray_DATA(array), *outBase = PyArray_DATA((PyArrayObject *)output);
    for (npy_intp c = 0; c < channels; c++) inPointers[c] = inBase + c * frames;
    for (UInt32 c = 0; c < outCount; c++) outPointers[c] = outBase + c * rendered;
    UInt32 longest = frames < block ? (UInt32)frames : (UInt32)block;
    float *scratch = scratch_reserve(&self->scratch, &self->scratchCapacity, (size_t)AUHOST_PY_MAX_CHANNELS * longest);
    if (!scratch) {
        Py_DECREF(output);
        return NULL;
    }
    Py_INCREF(audio);  /* the array stays alive (and its data put) while the GIL is released */
    self->feed = (Feed){.channels = (const float *const *)inPointers, .count = (UInt32)channels, .frames = (UInt64)frames,
                        .scratch = scratch, .scratch_channels = AUHOST_PY_MAX_CHANNELS, .checkInFeed = 1};
    self->busy = 2;
    OSStatus status;
    UInt64 bad = 0;
    Py_BEGIN_ALLOW_THREADS
    status = render_blocks(self->unit, &self->feed, outPointers, outCount, (UInt64)rendered, (UInt32)block, &self->time, self->unit, NULL, 0);
    if (self->feed.nonFinite) bad = refuse_non_finite(self, inPointers, (UInt32)channels, (UInt64)frames);
    if (status == noErr && latency) {
        for (UInt32 c = 0; c < outCount; c++) memmove(outBase + c * frames, outBase + c * rendered + latency, (size_t)frames * sizeof(float));
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->feed = (Feed){0};
    Py_DECREF(audio);
    if (bad || status != noErr) {
        Py_DECREF(output);
        return bad ? RAISE_NON_FINITE(bad) : raise_status(status, "AudioUnitRender");
    }
    if (latency) {
        /* The rows were moved to the front: view them as (channels, frames). */
        npy_intp trimmed[2] = {outCount, frames};
        PyArray_Dims dims = {monoOut ? &trimmed[1] : trimmed, monoOut ? 1 : 2};
        PyObject *resized = PyArray_Resize((PyArrayObject *)output, &dims, 0, NPY_CORDER);
        if (!resized) {
            Py_DECREF(output);
            return NULL;
        }
        Py_DECREF(resized);
    }
    return output;
}

static PyObject *unit_is_isolated(UnitObject *self, void *closure) { return PyBool_FromLong(self->outOfProcess); }

static PyMethodDef unit_methods[] = {
    {"description", (PyCFunction)unit_description, METH_NOARGS, NULL},
    {"get_u32", (PyCFunction)unit_get_u32, METH_VARARGS, NULL},
    {"get_f64", (PyCFunction)unit_get_f64, METH_VARARGS, NULL},
    {"set_u32", (PyCFunction)unit_set_u32, METH_VARARGS, NULL},
    {"set_f64", (PyCFunction)unit_set_f64, METH_VARARGS, NULL},
    {"format", (PyCFunction)unit_format, METH_VARARGS, NULL},
    {"set_format", (PyCFunction)unit_set_format, METH_VARARGS, NULL},
    {"initialize", (PyCFunction)unit_initialize, METH_NOARGS, NULL},
    {"uninitialize", (PyCFunction)unit_uninitialize, METH_NOARGS, NULL},
    {"reset", (PyCFunction)unit_reset, METH_NOARGS, NULL},
    {"attach_feed", (PyCFunction)unit_attach_feed, METH_NOARGS, NULL},
    {"parameter_ids", (PyCFunction)unit_parameter_ids, METH_NOARGS, NULL},
    {"parameter_info", (PyCFunction)unit_parameter_info, METH_VARARGS, NULL},
    {"get_parameter", (PyCFunction)unit_get_parameter, METH_VARARGS, NULL},
    {"set_parameter", (PyCFunction)unit_set_parameter, METH_VARARGS, NULL},
    {"presets", (PyCFunction)unit_presets, METH_NOARGS, NULL},
    {"set_preset", (PyCFunction)unit_set_preset, METH_VARARGS, NULL},
    {"get_state", (PyCFunction)unit_get_state, METH_NOARGS, NULL},
    {"set_state", (PyCFunction)unit_set_state, METH_VARARGS, NULL},
    {"fault", (PyCFunction)unit_fault, METH_NOARGS, NULL},
    {"restart", (PyCFunction)unit_restart, METH_NOARGS, NULL},
    {"process", (PyCFunction)unit_process, METH_VARARGS, NULL},
    {"fast", (PyCFunction)(void (*)(void))unit_fast, METH_FASTCALL, NULL},
    {"set_fast", (PyCFunction)unit_set_fast, METH_VARARGS, NULL},
    {"claim", (PyCFunction)unit_claim, METH_NOARGS, NULL},
    {"release", (PyCFunction)unit_release, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef unit_getset[] = {
    {"isolated", (getter)unit_is_isolated, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject AUHostPy_UnitType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "auhost._native.Unit",
    .tp_basicsize = sizeof(UnitObject),
    .tp_dealloc = (destructor)unit_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One AudioUnit instance (auhost.plugin.Plugin wraps it).",
    .tp_methods = unit_methods,
    .tp_getset = unit_getset,
    .tp_weaklistoffset = offsetof(UnitObject, weakrefs),
    .tp_new = unit_new,
};
