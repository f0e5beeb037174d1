/*
 * render.c — the hot path: feeding a unit from an array and pulling blocks into another, with the
 * GIL released by the caller. Nothing here touches a Python object.
 */
#include "native.h"

typedef uint32_t Lanes __attribute__((vector_size(16)));
#define EXPONENT 0x7f800000u /* all ones in a float's exponent: NaN or infinity */
#define CARRY 0x00800000u    /* (bits & EXPONENT) + CARRY reaches bit 31 only when the exponent is all ones */

/* Copies n floats (to may be NULL: only checks) and answers whether any was NaN or infinite, four
   lanes at a time with and/add/or only (no compare, so it vectorizes everywhere): one read of the
   caller's array does both. */
static int copy_non_finite(float *to, const float *from, UInt64 n) {
    const Lanes exponent = {EXPONENT, EXPONENT, EXPONENT, EXPONENT}, carry = {CARRY, CARRY, CARRY, CARRY};
    Lanes seen = {0};
    UInt64 i = 0;
    for (; i + 4 <= n; i += 4) {
        Lanes bits;
        memcpy(&bits, from + i, sizeof bits);
        if (to) memcpy(to + i, &bits, sizeof bits);
        seen |= (bits & exponent) + carry;
    }
    uint32_t any = seen[0] | seen[1] | seen[2] | seen[3];
    for (; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, from + i, sizeof bits);
        if (to) memcpy(to + i, &bits, sizeof bits);
        any |= (bits & EXPONENT) + CARRY;
    }
    return (any & 0x80000000u) != 0;
}

int feed_block_non_finite(const Feed *feed, UInt64 position, UInt64 n) {
    if (position >= feed->frames) return 0;
    if (n > feed->frames - position) n = feed->frames - position;
    for (UInt32 c = 0; c < feed->count; c++)
        if (copy_non_finite(NULL, feed->channels[c] + position, n)) return 1;
    return 0;
}

OSStatus feed_callback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                       UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    (void)ioActionFlags; (void)inTimeStamp; (void)inBusNumber;
    Feed *feed = inRefCon;
    if (ioData == NULL) return kAudio_ParamError;
    UInt64 available = feed->position < feed->frames ? feed->frames - feed->position : 0;
    UInt32 copied = feed->count == 0 ? 0 : available < inNumberFrames ? (UInt32)available : inNumberFrames;
    for (UInt32 b = 0; b < ioData->mNumberBuffers; b++) {
        AudioBuffer *buffer = &ioData->mBuffers[b];
        if (buffer->mData == NULL) {
            /* Lend our scratch, never the caller's array: a unit may process in place. */
            if (b >= feed->scratch_channels) return kAudio_ParamError;
            buffer->mData = feed->scratch + (size_t)b * inNumberFrames;
        }
        float *to = buffer->mData;
        const float *from = copied ? feed->channels[b % feed->count] + feed->position : NULL;
        if (!feed->checkInFeed) {
            if (copied) memcpy(to, from, copied * sizeof(float));
        } else if (copied && copy_non_finite(to, from, copied)) {
            feed->nonFinite = 1;
            return kAudio_ParamError;
        }
        if (copied < inNumberFrames) memset(to + copied, 0, (inNumberFrames - copied) * sizeof(float));
        buffer->mDataByteSize = inNumberFrames * sizeof(float);
        buffer->mNumberChannels = 1;
    }
    /* Every channel of these frames went through the check (the feed's position is the start of
       the block, never past what was checked). */
    if (feed->checkInFeed && ioData->mNumberBuffers >= feed->count && feed->position + copied > feed->checked)
        feed->checked = feed->position + copied;
    return noErr;
}

static OSStatus render_loop(AudioUnit unit, Feed *feed, float *const *out, UInt32 outCount, UInt64 frames, UInt32 block,
                            AudioTimeStamp *time, AudioUnit midiUnit, const MIDIEventAt *events, Py_ssize_t eventCount);

OSStatus render_blocks(AudioUnit unit, Feed *feed, float *const *out, UInt32 outCount, UInt64 frames, UInt32 block,
                       AudioTimeStamp *time, AudioUnit midiUnit, const MIDIEventAt *events, Py_ssize_t eventCount) {
    unsigned int mode = denormals_flush_begin();
    OSStatus status = render_loop(unit, feed, out, outCount, frames, block, time, midiUnit, events, eventCount);
    if (status == noErr && feed && feed->frames > frames && feed_block_non_finite(feed, frames, feed->frames - frames)) {
        feed->nonFinite = 1;  /* input past the rendered frames was never read: refused all the same */
        status = kAudio_ParamError;
    }
    denormals_flush_end(mode);
    return status;
}

static OSStatus render_loop(AudioUnit unit, Feed *feed, float *const *out, UInt32 outCount, UInt64 frames, UInt32 block,
                            AudioTimeStamp *time, AudioUnit midiUnit, const MIDIEventAt *events, Py_ssize_t eventCount) {
    struct {
        UInt32 mNumberBuffers;
        AudioBuffer mBuffers[AUHOST_PY_MAX_CHANNELS];
    } list;
    Py_ssize_t nextEvent = 0;
    for (UInt64 position = 0; position < frames;) {
        UInt32 n = frames - position < block ? (UInt32)(frames - position) : block;
        if (feed) {
            feed->position = position;
            /* A block is checked before a unit reads it, by the feed as it copies (checkInFeed) or
               here (it then stays in cache for that copy): a pass over the whole input first cost
               more time than the unit. */
            if (!feed->checkInFeed && feed_block_non_finite(feed, position, n)) {
                feed->nonFinite = 1;
                return kAudio_ParamError;
            }
        }
        while (nextEvent < eventCount && events[nextEvent].frame < position + n) {
            const MIDIEventAt *e = &events[nextEvent++];
            UInt32 offset = e->frame > position ? (UInt32)(e->frame - position) : 0;
            OSStatus status = MusicDeviceMIDIEvent(midiUnit, e->status, e->data1, e->data2, offset);
            if (status != noErr) return status;
        }
        list.mNumberBuffers = outCount;
        for (UInt32 c = 0; c < outCount; c++) {
            list.mBuffers[c].mNumberChannels = 1;
            list.mBuffers[c].mDataByteSize = n * sizeof(float);
            list.mBuffers[c].mData = out[c] + position;
        }
        AudioUnitRenderActionFlags flags = 0;
        OSStatus status = AudioUnitRender(unit, &flags, time, 0, n, (AudioBufferList *)&list);
        if (status != noErr) return status;
        if (feed && feed->checkInFeed && feed->checked < position + n) {
            /* Frames the unit did not pull (or channels it did not take) are refused all the same. */
            if (feed_block_non_finite(feed, feed->checked, position + n - feed->checked)) {
                feed->nonFinite = 1;
                return kAudio_ParamError;
            }
            feed->checked = position + n;
        }
        for (UInt32 c = 0; c < outCount; c++) {
            /* A unit may answer with its own buffers instead of filling ours. */
            if (list.mBuffers[c].mData != out[c] + position && list.mBuffers[c].mData != NULL)
                memcpy(out[c] + position, list.mBuffers[c].mData, n * sizeof(float));
        }
        time->mSampleTime += n;
        position += n;
    }
    return noErr;
}

UInt64 count_non_finite(float *const *channels, UInt32 count, UInt64 frames) {
    UInt64 bad = 0;
    for (UInt32 c = 0; c < count; c++) {
        const UInt32 *bits = (const UInt32 *)channels[c];
        for (UInt64 i = 0; i < frames; i++) bad += (bits[i] & 0x7f800000u) == 0x7f800000u;
    }
    return bad;
}

int borrow_planar(PyObject *obj, int writable, Py_buffer *view, float **pointers, UInt32 max, UInt32 *channels,
                  UInt64 *frames) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) != 0) return -1;
    if (view->ndim != 2 || view->format == NULL || strcmp(view->format, "f") != 0 || view->itemsize != 4) {
        PyErr_SetString(PyExc_TypeError, "expected a C-contiguous float32 array shaped (channels, frames)");
        PyBuffer_Release(view);
        return -1;
    }
    if (view->shape[0] < 1 || (UInt64)view->shape[0] > max) {
        PyErr_Format(PyExc_ValueError, "expected 1 to %u channels, got %zd", (unsigned)max, view->shape[0]);
        PyBuffer_Release(view);
        return -1;
    }
    *channels = (UInt32)view->shape[0];
    *frames = (UInt64)view->shape[1];
    for (UInt32 c = 0; c < *channels; c++) pointers[c] = (float *)view->buf + (size_t)c * (size_t)view->shape[1];
    return 0;
}

float *scratch_reserve(float **scratch, size_t *capacity, size_t floats) {
    if (*scratch && *capacity >= floats) return *scratch;
    float *grown = PyMem_RawRealloc(*scratch, floats * sizeof(float));
    if (!grown) {
        PyErr_NoMemory();
        return NULL;
    }
    *scratch = grown;
    *capacity = floats;
    return grown;
}

PyObject *string_from_cf(CFStringRef s, int release) {
    if (s == NULL) Py_RETURN_NONE;
    PyObject *result = NULL;
    const char *direct = CFStringGetCStringPtr(s, kCFStringEncodingUTF8);
    if (direct) {
        result = PyUnicode_DecodeUTF8(direct, (Py_ssize_t)strlen(direct), "replace");
    } else {
        CFIndex size = CFStringGetLength(s) * 4 + 1;
        char *buffer = PyMem_Malloc((size_t)size);
        if (buffer && CFStringGetCString(s, buffer, size, kCFStringEncodingUTF8))
            result = PyUnicode_DecodeUTF8(buffer, (Py_ssize_t)strlen(buffer), "replace");
        else if (!buffer) PyErr_NoMemory();
        else result = PyUnicode_FromString("");
        PyMem_Free(buffer);
    }
    if (release) CFRelease(s);
    return result;
}

PyObject *raise_status(OSStatus status, const char *what) {
    CFStringRef last = AUHostCopyLastErrorMessage();
    PyObject *sentence = last ? string_from_cf(last, 1) : NULL;
    PyObject *message;
    if (sentence && PyUnicode_GetLength(sentence) > 0)
        message = PyUnicode_FromFormat("%s: %U (status %d)", what, sentence, (int)status);
    else
        message = PyUnicode_FromFormat("%s failed with status %d", what, (int)status);
    Py_XDECREF(sentence);
    PyErr_Clear();
    if (message == NULL) return NULL;
    PyObject *error = PyObject_CallOneArg(AUHostPy_Error, message);
    Py_DECREF(message);
    PyObject *code = PyLong_FromLong(status);
    if (error && code) PyObject_SetAttrString(error, "status", code);
    Py_XDECREF(code);
    if (error) {
        PyErr_SetObject(AUHostPy_Error, error);
        Py_DECREF(error);
    }
    return NULL;
}
