/*
 * module.c — auhost._native: the module, its exception and the component catalog calls.
 */
#define PY_ARRAY_UNIQUE_SYMBOL auhost_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include "native.h"
#include <numpy/arrayobject.h>

PyObject *AUHostPy_Error;

/* components(type=0, subtype=0, manufacturer=0) -> [(type, subtype, manufacturer, name, origin)]
   for every component matching (0 is a wildcard). Builds the catalog (cached per user). [setup] */
static PyObject *components(PyObject *module, PyObject *args) {
    unsigned int t = 0, s = 0, m = 0;
    if (!PyArg_ParseTuple(args, "|III", &t, &s, &m)) return NULL;
    AudioComponentDescription search = {t, s, m, 0, 0};
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    AudioComponent c = NULL;
    for (;;) {
        Py_BEGIN_ALLOW_THREADS
        c = AudioComponentFindNext(c, &search);
        Py_END_ALLOW_THREADS
        if (!c) break;
        AudioComponentDescription d;
        CFStringRef name = NULL;
        if (AudioComponentGetDescription(c, &d) != noErr) continue;
        AudioComponentCopyName(c, &name);
        PyObject *item = Py_BuildValue("(IIINN)", d.componentType, d.componentSubType, d.componentManufacturer,
                                       string_from_cf(name, 1), string_from_cf(AUHostComponentCopyOrigin(c), 1));
        if (!item || PyList_Append(list, item) != 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

/* find_lv2(uri) -> (type, subtype, manufacturer, name, origin) or None; reads that plug-in only. [setup] */
static PyObject *find_lv2(PyObject *module, PyObject *args) {
    const char *uri;
    if (!PyArg_ParseTuple(args, "s", &uri)) return NULL;
    AudioComponent c;
    Py_BEGIN_ALLOW_THREADS
    c = AUHostComponentFindLV2(uri);
    Py_END_ALLOW_THREADS
    if (!c) Py_RETURN_NONE;
    AudioComponentDescription d;
    CFStringRef name = NULL;
    AudioComponentGetDescription(c, &d);
    AudioComponentCopyName(c, &name);
    return Py_BuildValue("(IIINN)", d.componentType, d.componentSubType, d.componentManufacturer, string_from_cf(name, 1),
                         string_from_cf(AUHostComponentCopyOrigin(c), 1));
}

/* The numbers the Python layer needs, taken from the headers by name (never retyped). */
#define C(name) {#name, (long long)(name)}
static const struct { const char *name; long long value; } constants[] = {
    C(kAudioUnitProperty_ClassInfo), C(kAudioUnitProperty_StreamFormat), C(kAudioUnitProperty_ElementCount),
    C(kAudioUnitProperty_Latency), C(kAudioUnitProperty_MaximumFramesPerSlice), C(kAudioUnitProperty_TailTime),
    C(kAudioUnitProperty_LastRenderError), C(kAudioUnitProperty_ParameterList),
    C(kAudioUnitScope_Global), C(kAudioUnitScope_Input), C(kAudioUnitScope_Output),
    C(kAudioUnitType_Output), C(kAudioUnitType_MusicDevice), C(kAudioUnitType_MusicEffect), C(kAudioUnitType_FormatConverter),
    C(kAudioUnitType_Effect), C(kAudioUnitType_Mixer), C(kAudioUnitSubType_Delay), C(kAudioUnitSubType_AUiPodEQ),
    C(kAudioUnitSubType_NBandEQ), C(kAudioUnitSubType_MultiChannelMixer), C(kAudioUnitManufacturer_Apple), C(kAudioUnitType_Panner), C(kAudioUnitType_Generator),
    C(kAudioUnitParameterFlag_IsWritable), C(kAudioUnitParameterFlag_IsReadable), C(kAudioUnitParameterFlag_ValuesHaveStrings),
    C(kAudioUnitParameterUnit_Generic), C(kAudioUnitParameterUnit_Indexed), C(kAudioUnitParameterUnit_Boolean),
    C(kAudioUnitParameterUnit_Percent), C(kAudioUnitParameterUnit_Seconds), C(kAudioUnitParameterUnit_Hertz),
    C(kAudioUnitParameterUnit_Decibels), C(kAudioUnitParameterUnit_LinearGain), C(kAudioUnitParameterUnit_Milliseconds),
    C(kAudioUnitParameterUnit_Cents), C(kAudioUnitParameterUnit_Ratio), C(kAudioUnitParameterUnit_Pan),
    C(kAudioUnitParameterUnit_BPM), C(kAudioUnitParameterUnit_CustomUnit),
    C(kAUHostIsolatedUnitProperty_RenderDeadline), C(kAudioComponentErr_InstanceInvalidated),
    C(kAudioFileWAVEType), C(kAudioFileAIFFType), C(kAudioFileCAFType), C(kAudioFileFLACType), C(kAudioFileOggType),
    C(kAudioFormatLinearPCM), C(kAudioFormatFLAC), C(kAudioFormatVorbis), C(kAudioFormatFlagIsFloat),
};
#undef C

static PyMethodDef module_methods[] = {
    {"components", components, METH_VARARGS, "Components matching a description (0 = any)."},
    {"find_lv2", find_lv2, METH_VARARGS, "The component of an LV2 URI, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "auhost._native", "AUHost's C API for Python (the hot path and thin wrappers).", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    denormals_ieee();  /* undo what loading libSoundTouchDll did to this thread (native.h) */
    import_array();
    PyObject *module = PyModule_Create(&module_def);
    if (!module) return NULL;
    /* AUHostError(message, status): `status` is the OSStatus the engine answered. */
    PyObject *dict = Py_BuildValue("{s:s}", "__doc__", "A Core Audio call failed; .status holds its OSStatus.");
    AUHostPy_Error = PyErr_NewException("auhost.AUHostError", PyExc_RuntimeError, dict);
    Py_XDECREF(dict);
    if (!AUHostPy_Error || PyModule_AddObjectRef(module, "AUHostError", AUHostPy_Error) < 0) return NULL;
    PyTypeObject *types[] = {&AUHostPy_UnitType, &AUHostPy_GraphType, &AUHostPy_FileReaderType, &AUHostPy_FileWriterType,
                             &AUHostPy_ResamplerType};
    const char *names[] = {"Unit", "Graph", "FileReader", "FileWriter", "Resampler"};
    for (int i = 0; i < 5; i++) {
        if (PyType_Ready(types[i]) < 0 || PyModule_AddObjectRef(module, names[i], (PyObject *)types[i]) < 0) return NULL;
    }
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        if (PyModule_AddObject(module, constants[i].name, PyLong_FromLongLong(constants[i].value)) < 0) return NULL;
    }
    return module;
}
