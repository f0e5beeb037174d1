/*
 * file.c — auhost._native.FileReader / FileWriter: Extended Audio File Services with a canonical
 * client format (float32, one buffer per channel), so arrays move in and out without conversion
 * in Python. Reads and writes release the GIL.
 */
#include "native.h"

typedef struct {
    PyObject_HEAD
    ExtAudioFileRef file;
    AudioStreamBasicDescription format;
    int busy;
} FileObject;

static AudioStreamBasicDescription canonical(double rate, UInt32 channels) {
    AudioStreamBasicDescription f = {0};
    f.mSampleRate = rate;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved;
    f.mBytesPerPacket = 4;
    f.mFramesPerPacket = 1;
    f.mBytesPerFrame = 4;
    f.mChannelsPerFrame = channels;
    f.mBitsPerChannel = 32;
    return f;
}

static void file_dealloc(FileObject *self) {
    if (self->file) ExtAudioFileDispose(self->file);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* FileReader(path): opened, client format canonical float32. [setup] */
static PyObject *reader_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
    FileObject *self = (FileObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    OSStatus status;
    Py_BEGIN_ALLOW_THREADS
    status = ExtAudioFileOpenPath(path, &self->file);
    Py_END_ALLOW_THREADS
    UInt32 size = sizeof self->format;
    if (status == noErr)
        status = ExtAudioFileGetProperty(self->file, kExtAudioFileProperty_FileDataFormat, &size, &self->format);
    if (status == noErr) {
        AudioStreamBasicDescription client = canonical(self->format.mSampleRate, self->format.mChannelsPerFrame);
        status = ExtAudioFileSetProperty(self->file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client);
    }
    if (status != noErr) {
        Py_DECREF(self);
        return raise_status(status, "opening the audio file");
    }
    return (PyObject *)self;
}

/* info() -> dict(samplerate, channels, frames, format_id, bits, flags). [setup] */
static PyObject *file_info(FileObject *self, PyObject *unused) {
    SInt64 frames = 0;
    UInt32 size = sizeof frames;
    if (self->file) ExtAudioFileGetProperty(self->file, kExtAudioFileProperty_FileLengthFrames, &size, &frames);
    return Py_BuildValue("{s:d,s:I,s:L,s:I,s:I,s:I}", "samplerate", self->format.mSampleRate, "channels",
                         self->format.mChannelsPerFrame, "frames", (long long)frames, "format_id", self->format.mFormatID, "bits",
                         self->format.mBitsPerChannel, "flags", self->format.mFormatFlags);
}

static int usable(FileObject *self) {
    if (!self->file) { PyErr_SetString(PyExc_ValueError, "the audio file is closed"); return 0; }
    if (self->busy) { PyErr_SetString(PyExc_RuntimeError, "the audio file is in use on another thread"); return 0; }
    return 1;
}

/* read_into(out) -> frames read (fewer at the end). `out` is float32 (channels, n). [setup] */
static PyObject *reader_read_into(FileObject *self, PyObject *args) {
    PyObject *output;
    if (!PyArg_ParseTuple(args, "O", &output) || !usable(self)) return NULL;
    Py_buffer view;
    float *pointers[AUHOST_PY_MAX_CHANNELS];
    UInt32 channels;
    UInt64 frames;
    if (borrow_planar(output, 1, &view, pointers, AUHOST_PY_MAX_CHANNELS, &channels, &frames) != 0) return NULL;
    if (channels != self->format.mChannelsPerFrame) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "the file has %u channels; the array has %u", self->format.mChannelsPerFrame, channels);
    }
    struct { UInt32 mNumberBuffers; AudioBuffer mBuffers[AUHOST_PY_MAX_CHANNELS]; } list;
    UInt64 done = 0;
    OSStatus status = noErr;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    while (done < frames) {
        UInt64 left = frames - done;
        UInt32 n = left > (1u << 20) ? (1u << 20) : (UInt32)left;
        list.mNumberBuffers = channels;
        for (UInt32 c = 0; c < channels; c++) {
            list.mBuffers[c].mNumberChannels = 1;
            list.mBuffers[c].mDataByteSize = n * sizeof(float);
            list.mBuffers[c].mData = pointers[c] + done;
        }
        status = ExtAudioFileRead(self->file, &n, (AudioBufferList *)&list);
        if (status != noErr || n == 0) break;
        done += n;
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    PyBuffer_Release(&view);
    if (status != noErr) return raise_status(status, "ExtAudioFileRead");
    return PyLong_FromUnsignedLongLong(done);
}

/* seek(frame) / tell(). [setup] */
static PyObject *reader_seek(FileObject *self, PyObject *args) {
    long long frame;
    if (!PyArg_ParseTuple(args, "L", &frame) || !usable(self)) return NULL;
    OSStatus status = ExtAudioFileSeek(self->file, frame);
    if (status != noErr) return raise_status(status, "ExtAudioFileSeek");
    Py_RETURN_NONE;
}

static PyObject *reader_tell(FileObject *self, PyObject *unused) {
    if (!usable(self)) return NULL;
    SInt64 frame = 0;
    OSStatus status = ExtAudioFileTell(self->file, &frame);
    if (status != noErr) return raise_status(status, "ExtAudioFileTell");
    return PyLong_FromLongLong(frame);
}

/* close(): finishes the file (a writer's header) and frees it. [setup] */
static PyObject *file_close(FileObject *self, PyObject *unused) {
    if (self->busy) return PyErr_Format(PyExc_RuntimeError, "the audio file is in use on another thread");
    if (self->file) {
        OSStatus status = ExtAudioFileDispose(self->file);
        self->file = NULL;
        if (status != noErr) return raise_status(status, "closing the audio file");
    }
    Py_RETURN_NONE;
}

/* FileWriter(path, file_type, samplerate, channels, encoding) with encoding one of "float32",
   "int16", "int24", "int32", "flac16", "flac24", "vorbis". [setup] */
static PyObject *writer_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    const char *path, *encoding;
    unsigned int fileType, channels;
    double rate;
    if (!PyArg_ParseTuple(args, "sIdIs", &path, &fileType, &rate, &channels, &encoding)) return NULL;
    if (channels < 1 || channels > AUHOST_PY_MAX_CHANNELS)
        return PyErr_Format(PyExc_ValueError, "a file holds 1 to %d channels, not %u", AUHOST_PY_MAX_CHANNELS, channels);
    AudioStreamBasicDescription f = {0};
    f.mSampleRate = rate;
    f.mChannelsPerFrame = channels;
    f.mFramesPerPacket = 1;
    if (strcmp(encoding, "float32") == 0 || strncmp(encoding, "int", 3) == 0) {
        int bits = strcmp(encoding, "float32") == 0 ? 32 : atoi(encoding + 3);
        if (bits != 16 && bits != 24 && bits != 32) return PyErr_Format(PyExc_ValueError, "unknown encoding %s", encoding);
        f.mFormatID = kAudioFormatLinearPCM;
        f.mFormatFlags = kAudioFormatFlagIsPacked | (encoding[0] == 'f' ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger);
        f.mBitsPerChannel = bits;
        f.mBytesPerFrame = f.mBytesPerPacket = bits / 8 * channels;
    } else if (strcmp(encoding, "flac16") == 0 || strcmp(encoding, "flac24") == 0) {
        f.mFormatID = kAudioFormatFLAC;
        f.mBitsPerChannel = encoding[4] == '1' ? 16 : 24;
        f.mFormatFlags = f.mBitsPerChannel == 24 ? 3 : 1;
        f.mFramesPerPacket = 0;
    } else if (strcmp(encoding, "vorbis") == 0) {
        f.mFormatID = kAudioFormatVorbis;
        f.mFramesPerPacket = 0;
    } else {
        return PyErr_Format(PyExc_ValueError, "unknown encoding %s", encoding);
    }
    FileObject *self = (FileObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->format = f;
    OSStatus status;
    Py_BEGIN_ALLOW_THREADS
    status = ExtAudioFileCreateWithPath(path, fileType, &f, NULL, kAudioFileFlags_EraseFile, &self->file);
    Py_END_ALLOW_THREADS
    if (status == noErr) {
        AudioStreamBasicDescription client = canonical(rate, channels);
        status = ExtAudioFileSetProperty(self->file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client);
    }
    if (status != noErr) {
        Py_DECREF(self);
        return raise_status(status, "creating the audio file");
    }
    return (PyObject *)self;
}

/* write(samples): float32 C-contiguous (channels, frames). [setup] */
static PyObject *writer_write(FileObject *self, PyObject *args) {
    PyObject *input;
    if (!PyArg_ParseTuple(args, "O", &input) || !usable(self)) return NULL;
    Py_buffer view;
    float *pointers[AUHOST_PY_MAX_CHANNELS];
    UInt32 channels;
    UInt64 frames;
    if (borrow_planar(input, 0, &view, pointers, AUHOST_PY_MAX_CHANNELS, &channels, &frames) != 0) return NULL;
    if (channels != self->format.mChannelsPerFrame) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "the file has %u channels; the array has %u", self->format.mChannelsPerFrame, channels);
    }
    struct { UInt32 mNumberBuffers; AudioBuffer mBuffers[AUHOST_PY_MAX_CHANNELS]; } list;
    OSStatus status = noErr;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    for (UInt64 done = 0; done < frames && status == noErr;) {
        UInt64 left = frames - done;
        UInt32 n = left > (1u << 20) ? (1u << 20) : (UInt32)left;
        list.mNumberBuffers = channels;
        for (UInt32 c = 0; c < channels; c++) {
            list.mBuffers[c].mNumberChannels = 1;
            list.mBuffers[c].mDataByteSize = n * sizeof(float);
            list.mBuffers[c].mData = pointers[c] + done;
        }
        status = ExtAudioFileWrite(self->file, n, (AudioBufferList *)&list);
        done += n;
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    PyBuffer_Release(&view);
    if (status != noErr) return raise_status(status, "ExtAudioFileWrite");
    Py_RETURN_NONE;
}

static PyMethodDef reader_methods[] = {
    {"info", (PyCFunction)file_info, METH_NOARGS, NULL},
    {"read_into", (PyCFunction)reader_read_into, METH_VARARGS, NULL},
    {"seek", (PyCFunction)reader_seek, METH_VARARGS, NULL},
    {"tell", (PyCFunction)reader_tell, METH_NOARGS, NULL},
    {"close", (PyCFunction)file_close, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef writer_methods[] = {
    {"write", (PyCFunction)writer_write, METH_VARARGS, NULL},
    {"close", (PyCFunction)file_close, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject AUHostPy_FileReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "auhost._native.FileReader",
    .tp_basicsize = sizeof(FileObject),
    .tp_dealloc = (destructor)file_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = reader_methods,
    .tp_new = reader_new,
};

PyTypeObject AUHostPy_FileWriterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "auhost._native.FileWriter",
    .tp_basicsize = sizeof(FileObject),
    .tp_dealloc = (destructor)file_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = writer_methods,
    .tp_new = writer_new,
};
