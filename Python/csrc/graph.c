/*
 * graph.c — auhost._native.Graph: an AUGraph whose head is a generic output, pulled offline.
 * Boards (auhost/board.py) add nodes, connect them, feed their first nodes from the input array
 * and render through process(), which releases the GIL. Independent branches render on the
 * graph's worker threads (AUGraphSetRenderThreadCount).
 */
#include "native.h"

typedef struct {
    PyObject_HEAD
    AUGraph graph;
    AUNode head;
    AudioUnit headUnit;
    Feed feed;
    int busy;
    AudioTimeStamp time;
    float *scratch;
    size_t scratchCapacity;
} GraphObject;

#define CHECK(call, what) do { OSStatus _s = (call); if (_s != noErr) return raise_status(_s, what); } while (0)

/* Graph(): a new, open graph holding only its generic-output head. [setup] */
static PyObject *graph_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    if (!PyArg_ParseTuple(args, "")) return NULL;
    GraphObject *self = (GraphObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->time.mFlags = kAudioTimeStampSampleTimeValid;
    OSStatus status = NewAUGraph(&self->graph);
    AudioComponentDescription output = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
    if (status == noErr) status = AUGraphAddNode(self->graph, &output, &self->head);
    if (status == noErr) status = AUGraphOpen(self->graph);
    if (status == noErr) status = AUGraphNodeInfo(self->graph, self->head, NULL, &self->headUnit);
    if (status != noErr) {
        Py_DECREF(self);
        return raise_status(status, "making the graph");
    }
    return (PyObject *)self;
}

static void graph_dealloc(GraphObject *self) {
    if (self->graph) {
        AUGraphUninitialize(self->graph);
        AUGraphClose(self->graph);
        DisposeAUGraph(self->graph);
    }
    PyMem_RawFree(self->scratch);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* add_node(type, subtype, manufacturer, isolated=False) -> node; isolated nodes live in a child
   process (AUHostGraphAddNodeOutOfProcess). [setup] */
static PyObject *graph_add_node(GraphObject *self, PyObject *args) {
    unsigned int t, s, m;
    int isolated = 0;
    if (!PyArg_ParseTuple(args, "III|p", &t, &s, &m, &isolated)) return NULL;
    AudioComponentDescription d = {t, s, m, 0, 0};
    AUNode node;
    OSStatus status;
    Py_BEGIN_ALLOW_THREADS
    unsigned int mode = fp_mode_save();
    status = isolated ? AUHostGraphAddNodeOutOfProcess(self->graph, &d, &node) : AUGraphAddNode(self->graph, &d, &node);
    fp_mode_restore(mode);
    Py_END_ALLOW_THREADS
    if (status != noErr) return raise_status(status, "adding a node to the graph");
    return PyLong_FromLong(node);
}

/* head() -> the generic output's node. [any thread] */
static PyObject *graph_head(GraphObject *self, PyObject *unused) { return PyLong_FromLong(self->head); }

/* unit(node) -> Unit over the node's AudioUnit (the graph owns it). [setup] */
static PyObject *graph_unit(GraphObject *self, PyObject *args) {
    int node;
    if (!PyArg_ParseTuple(args, "i", &node)) return NULL;
    AudioUnit unit = NULL;
    CHECK(AUGraphNodeInfo(self->graph, node, NULL, &unit), "AUGraphNodeInfo");
    return unit_wrap_borrowed(unit, (PyObject *)self);
}

/* connect(source, source_bus, destination, destination_bus). [setup] */
static PyObject *graph_connect(GraphObject *self, PyObject *args) {
    int source, destination;
    unsigned int sourceBus, destinationBus;
    if (!PyArg_ParseTuple(args, "iIiI", &source, &sourceBus, &destination, &destinationBus)) return NULL;
    CHECK(AUGraphConnectNodeInput(self->graph, source, sourceBus, destination, destinationBus), "connecting graph nodes");
    Py_RETURN_NONE;
}

/* feed(node, bus): the node's input bus pulls from the array process() is given. [setup] */
static PyObject *graph_feed(GraphObject *self, PyObject *args) {
    int node;
    unsigned int bus;
    if (!PyArg_ParseTuple(args, "iI", &node, &bus)) return NULL;
    AURenderCallbackStruct callback = {feed_callback, &self->feed};
    CHECK(AUGraphSetNodeInputCallback(self->graph, node, bus, &callback), "AUGraphSetNodeInputCallback");
    Py_RETURN_NONE;
}

/* set_threads(n): render threads (AUGraphSetRenderThreadCount). [setup] */
static PyObject *graph_set_threads(GraphObject *self, PyObject *args) {
    unsigned int n;
    if (!PyArg_ParseTuple(args, "I", &n)) return NULL;
    CHECK(AUGraphSetRenderThreadCount(self->graph, n), "AUGraphSetRenderThreadCount");
    Py_RETURN_NONE;
}

/* set_latency_compensation(on): parallel branches of unequal latency arrive aligned. [setup] */
static PyObject *graph_set_latency_compensation(GraphObject *self, PyObject *args) {
    int on;
    if (!PyArg_ParseTuple(args, "p", &on)) return NULL;
    CHECK(AUGraphSetLatencyCompensation(self->graph, on ? 1 : 0), "AUGraphSetLatencyCompensation");
    Py_RETURN_NONE;
}

/* initialize() / uninitialize(). [setup] */
static PyObject *graph_initialize(GraphObject *self, PyObject *unused) {
    OSStatus status;
    Py_BEGIN_ALLOW_THREADS
    unsigned int mode = denormals_flush_begin();  /* the worker threads started here inherit it */
    status = AUGraphInitialize(self->graph);
    denormals_flush_end(mode);
    Py_END_ALLOW_THREADS
    if (status != noErr) return raise_status(status, "AUGraphInitialize");
    Py_RETURN_NONE;
}

static PyObject *graph_uninitialize(GraphObject *self, PyObject *unused) {
    CHECK(AUGraphUninitialize(self->graph), "AUGraphUninitialize");
    Py_RETURN_NONE;
}

/* latency() -> seconds along the longest path (AUGraphGetLatency). [setup] */
static PyObject *graph_latency(GraphObject *self, PyObject *unused) {
    Float64 seconds = 0;
    CHECK(AUGraphGetLatency(self->graph, &seconds), "AUGraphGetLatency");
    return PyFloat_FromDouble(seconds);
}

/* rewind(): time starts at 0 again (the board resets each node itself). [setup] */
static PyObject *graph_rewind(GraphObject *self, PyObject *unused) {
    self->time.mSampleTime = 0;
    Py_RETURN_NONE;
}

/* process(input, output, block): as Unit.process, pulling the head. [setup: one thread at a time] */
static PyObject *graph_process(GraphObject *self, PyObject *args) {
    PyObject *input, *output;
    unsigned int block;
    if (!PyArg_ParseTuple(args, "OOI", &input, &output, &block)) return NULL;
    if (block == 0) return PyErr_Format(PyExc_ValueError, "block must be at least 1 frame");
    if (self->busy) return PyErr_Format(PyExc_RuntimeError, "this board is already processing on another thread; give each thread its own");
    Py_buffer in = {0}, out = {0};
    float *inPointers[AUHOST_PY_MAX_CHANNELS], *outPointers[AUHOST_PY_MAX_CHANNELS];
    UInt32 inCount = 0, outCount = 0;
    UInt64 inFrames = 0, outFrames = 0;
    if (borrow_planar(input, 0, &in, inPointers, AUHOST_PY_MAX_CHANNELS, &inCount, &inFrames) != 0) return NULL;
    if (borrow_planar(output, 1, &out, outPointers, AUHOST_PY_MAX_CHANNELS, &outCount, &outFrames) != 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    UInt32 longest = outFrames < block ? (UInt32)(outFrames ? outFrames : 1) : block;
    float *scratch = scratch_reserve(&self->scratch, &self->scratchCapacity, (size_t)AUHOST_PY_MAX_CHANNELS * longest);
    if (!scratch) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        return NULL;
    }
    self->feed = (Feed){(const float *const *)inPointers, inCount, inFrames, 0, scratch, AUHOST_PY_MAX_CHANNELS};
    self->busy = 1;
    OSStatus status;
    UInt64 bad = 0;
    Py_BEGIN_ALLOW_THREADS
    status = render_blocks(self->headUnit, &self->feed, outPointers, outCount, outFrames, block, &self->time, NULL, NULL, 0);
    /* The board resets its nodes when this raises (they may have rendered blocks before it). */
    if (self->feed.nonFinite) bad = count_non_finite(inPointers, inCount, inFrames);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->feed = (Feed){0};
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    if (bad) return RAISE_NON_FINITE(bad);
    if (status != noErr) return raise_status(status, "rendering the graph");
    Py_RETURN_NONE;
}

static PyMethodDef graph_methods[] = {
    {"add_node", (PyCFunction)graph_add_node, METH_VARARGS, NULL},
    {"head", (PyCFunction)graph_head, METH_NOARGS, NULL},
    {"unit", (PyCFunction)graph_unit, METH_VARARGS, NULL},
    {"connect", (PyCFunction)graph_connect, METH_VARARGS, NULL},
    {"feed", (PyCFunction)graph_feed, METH_VARARGS, NULL},
    {"set_threads", (PyCFunction)graph_set_threads, METH_VARARGS, NULL},
    {"set_latency_compensation", (PyCFunction)graph_set_latency_compensation, METH_VARARGS, NULL},
    {"initialize", (PyCFunction)graph_initialize, METH_NOARGS, NULL},
    {"uninitialize", (PyCFunction)graph_uninitialize, METH_NOARGS, NULL},
    {"latency", (PyCFunction)graph_latency, METH_NOARGS, NULL},
    {"rewind", (PyCFunction)graph_rewind, METH_NOARGS, NULL},
    {"process", (PyCFunction)graph_process, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject AUHostPy_GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "auhost._native.Graph",
    .tp_basicsize = sizeof(GraphObject),
    .tp_dealloc = (destructor)graph_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An AUGraph with a generic-output head (auhost.board builds on it).",
    .tp_methods = graph_methods,
    .tp_new = graph_new,
};
