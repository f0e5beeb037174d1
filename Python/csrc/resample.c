/*
 * resample.c — auhost._native.Resampler: Audio Converter Services (libsoxr underneath) turning
 * float32 (channels, frames) at one rate into another, chunk by chunk: feeding a file in pieces
 * gives the samples of one call. The GIL is released while converting.
 */
#include "native.h"

/* The input procedure's "nothing more until the next chunk" answer (any status but noErr ends
   a fill and keeps the converter's state). */
#define AUHOST_PY_WAIT_FOR_INPUT 'more'

typedef struct {
    PyObject_HEAD
    AudioConverterRef converter;
    UInt32 channels;
    double inRate, outRate;
    int busy;
    /* The chunk being fed: its rows, its length, how much the converter has taken. */
    float *rows[AUHOST_PY_MAX_CHANNELS];
    UInt64 frames, taken;
    int final;
} ResamplerObject;

static AudioStreamBasicDescription planar_float(double rate, UInt32 channels) {
    AudioStreamBasicDescription f = {0};
    f.mSampleRate = rate;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved;
    f.mBytesPerPacket = f.mBytesPerFrame = 4;
    f.mFramesPerPacket = 1;
    f.mChannelsPerFrame = channels;
    f.mBitsPerChannel = 32;
    return f;
}

/* Hands the converter the rest of the current chunk. [render: inside the fill, GIL released] */
static OSStatus supply(AudioConverterRef converter, UInt32 *ioPackets, AudioBufferList *ioData,
                       AudioStreamPacketDescription **descriptions, void *userData) {
    (void)converter; (void)descriptions;
    ResamplerObject *self = userData;
    UInt64 left = self->frames - self->taken;
    if (left == 0) {
        *ioPackets = 0;
        return self->final ? noErr : AUHOST_PY_WAIT_FOR_INPUT;
    }
    UInt32 n = left < *ioPackets ? (UInt32)left : *ioPackets;
    for (UInt32 c = 0; c < self->channels && c < ioData->mNumberBuffers; c++) {
        ioData->mBuffers[c].mData = self->rows[c] + self->taken;
        ioData->mBuffers[c].mDataByteSize = n * sizeof(float);
        ioData->mBuffers[c].mNumberChannels = 1;
    }
    self->taken += n;
    *ioPackets = n;
    return noErr;
}

/* Resampler(channels, in_rate, out_rate, quality=0x7F). [setup] */
static PyObject *resampler_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    unsigned int channels, quality = kAudioConverterQuality_Max;
    double inRate, outRate;
    if (!PyArg_ParseTuple(args, "Idd|I", &channels, &inRate, &outRate, &quality)) return NULL;
    if (channels < 1 || channels > AUHOST_PY_MAX_CHANNELS) return PyErr_Format(PyExc_ValueError, "1 to %d channels", AUHOST_PY_MAX_CHANNELS);
    ResamplerObject *self = (ResamplerObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->channels = channels;
    self->inRate = inRate;
    self->outRate = outRate;
    AudioStreamBasicDescription in = planar_float(inRate, channels), out = planar_float(outRate, channels);
    OSStatus status = AudioConverterNew(&in, &out, &self->converter);
    if (status == noErr)
        status = AudioConverterSetProperty(self->converter, kAudioConverterSampleRateConverterQuality, sizeof quality, &quality);
    if (status != noErr) {
        Py_DECREF(self);
        return raise_status(status, "AudioConverterNew");
    }
    return (PyObject *)self;
}

static void resampler_dealloc(ResamplerObject *self) {
    if (self->converter) AudioConverterDispose(self->converter);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* process(chunk, final) -> bytes of float32 planar output, rows of equal length one after the
   other (the Python layer reshapes them). final=True flushes the resampler's tail. [setup] */
static PyObject *resampler_process(ResamplerObject *self, PyObject *args) {
    PyObject *input;
    int final;
    if (!PyArg_ParseTuple(args, "Op", &input, &final)) return NULL;
    if (self->busy) return PyErr_Format(PyExc_RuntimeError, "the resampler is in use on another thread");
    Py_buffer view;
    UInt32 channels;
    UInt64 frames;
    if (borrow_planar(input, 0, &view, self->rows, AUHOST_PY_MAX_CHANNELS, &channels, &frames) != 0) return NULL;
    if (channels != self->channels) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "the resampler takes %u channels; the chunk has %u", self->channels, channels);
    }
    self->frames = frames;
    self->taken = 0;
    self->final = final;
    /* Output grows in pieces of `step` frames per channel. */
    const UInt32 step = 8192;
    size_t capacity = 0, produced = 0;
    float **outRows = PyMem_RawCalloc(channels, sizeof(float *));
    OSStatus status = noErr;
    int failed = outRows == NULL;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    while (!failed) {
        if (produced + step > capacity) {
            size_t grown = (capacity + step) * 2;
            for (UInt32 c = 0; c < channels && !failed; c++) {
                float *row = realloc(outRows[c], grown * sizeof(float));
                if (!row) failed = 1; else outRows[c] = row;
            }
            if (failed) break;
            capacity = grown;
        }
        struct { UInt32 mNumberBuffers; AudioBuffer mBuffers[AUHOST_PY_MAX_CHANNELS]; } list;
        list.mNumberBuffers = channels;
        for (UInt32 c = 0; c < channels; c++) {
            list.mBuffers[c].mNumberChannels = 1;
            list.mBuffers[c].mDataByteSize = step * sizeof(float);
            list.mBuffers[c].mData = outRows[c] + produced;
        }
        UInt32 got = step;
        status = AudioConverterFillComplexBuffer(self->converter, supply, self, &got, (AudioBufferList *)&list, NULL);
        produced += got;
        if (status == AUHOST_PY_WAIT_FOR_INPUT) { status = noErr; break; }
        if (status != noErr || got < step) break;
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    PyBuffer_Release(&view);
    PyObject *result = NULL;
    if (failed) PyErr_NoMemory();
    else if (status != noErr) raise_status(status, "AudioConverterFillComplexBuffer");
    else {
        result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(produced * channels * sizeof(float)));
        if (result) {
            char *to = PyBytes_AS_STRING(result);
            for (UInt32 c = 0; c < channels; c++) memcpy(to + c * produced * sizeof(float), outRows[c], produced * sizeof(float));
        }
    }
    if (outRows) {
        for (UInt32 c = 0; c < channels; c++) free(outRows[c]);
        PyMem_RawFree(outRows);
    }
    return result;
}

static PyMethodDef resampler_methods[] = {
    {"process", (PyCFunction)resampler_process, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject AUHostPy_ResamplerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "auhost._native.Resampler",
    .tp_basicsize = sizeof(ResamplerObject),
    .tp_dealloc = (destructor)resampler_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = resampler_methods,
    .tp_new = resampler_new,
};
