/*
 * AUHostLV2UI.h — AUHost extension (not part of Apple's API): an LV2 unit's plug-in UIs, the way
 * kAudioUnitProperty_CocoaUI gives a unit's view on Apple's platforms.
 *
 * A UI runs in a child process of its own (auhost-ui-host, beside the program or named by
 * $AUHOST_UI_HOST) that loads it through suil: the host process links neither Gtk nor Qt, and a
 * UI that crashes takes only its child down (the unit keeps rendering; open it again). The child
 * shows X11 UIs (ui:X11UI) in a top-level window or embedded in a parent X11 window, Gtk2 UIs (and
 * Qt5 ones through suil) in a Gtk2 window it makes, and external UIs (kx:Widget) in their own
 * windows; Gtk3 UIs answer kAUHostLV2UIErr_UnsupportedKind.
 *
 * The port protocol runs on the thread that calls AUHostLV2UIIdle, never on the render thread:
 * a control the UI moves becomes AudioUnitSetParameter (with the event callback's value change,
 * and ui:touch as begin/end gestures); a value changed on the host's side (AudioUnitSetParameter,
 * a preset, a scheduled or MIDI-mapped change, a meter output) reaches the UI at the next idle.
 * Atoms (patch messages, waveforms) cross both ways for a unit in this process; a UI's value
 * requests (ui:requestValue) reach the host through AUHostLV2UIOpenWithValueRequests.
 *
 * A UI that requires instance-access or data-access needs the plug-in's instance in its own
 * process. For a unit out of process (AUHostIsolation.h) it runs there, beside the running
 * plug-in, on the thread that instantiated it (open it after AudioUnitInitialize; Uninitialize
 * closes it); a crash of such a UI takes the unit's process with it (the unit reports the fault
 * and outputs silence until restarted). For a unit in this process it answers
 * kAUHostLV2UIErr_NeedsInstanceAccess.
 */
#ifndef AUHOST_AUHOSTLV2UI_H
#define AUHOST_AUHOSTLV2UI_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

/* An open plug-in UI. */
typedef struct OpaqueAUHostLV2UI *AUHostLV2UIRef;

AU_ENUM(OSStatus) {
    /* No UI at that index (see AUHostLV2UIGetCount). */
    kAUHostLV2UIErr_UnknownUI = -66800,
    /* suil cannot show this kind of UI in an X11 window (Gtk, Qt, external UIs). */
    kAUHostLV2UIErr_UnsupportedKind = -66801,
    /* The X display ($DISPLAY, or the one given) cannot be opened. */
    kAUHostLV2UIErr_NoDisplay = -66802,
    /* The UI did not load or instantiate (the message carries its reason), or the child is missing. */
    kAUHostLV2UIErr_LoadFailed = -66803,
    /* The user closed the UI's window (or the UI asked to close): not a failure; close the UI. */
    kAUHostLV2UIErr_Closed = -66804,
    /* The UI's process crashed (the message names the signal); the unit is unharmed, unless the
       UI ran beside the plug-in in the unit's own process (then that process ended too). */
    kAUHostLV2UIErr_Crashed = -66805,
    /* The UI requires instance-access or data-access (the plug-in's instance in its process),
       which it has only for a unit out of process; open the unit so. */
    kAUHostLV2UIErr_NeedsInstanceAccess = -66806
};

/* Events the UI causes, numbered as Apple's AudioUnitEventType. */
AU_ENUM(UInt32) {
    kAUHostLV2UIEvent_ParameterValueChange = 0,
    kAUHostLV2UIEvent_BeginParameterChangeGesture = 1,
    kAUHostLV2UIEvent_EndParameterChangeGesture = 2
};

/* Called on the thread that calls AUHostLV2UIIdle, after the parameter was set. */
typedef void (*AUHostLV2UIEventProc)(void *_Nullable inUserData, UInt32 inEventType, AudioUnitParameterID inParameter,
                                     AudioUnitParameterValue inValue);

/* How many UIs the unit's plug-in declares (0 for none). Works for LV2 units in this process and
   out of process (AUHostIsolation.h: the UI's child and the unit's child are separate processes;
   controls go through the unit's parameters, atoms through the unit's child at each idle).
   kAudio_ParamError for a unit that is not
   an LV2 unit. [setup] */
OSStatus AUHostLV2UIGetCount(AudioUnit inUnit, UInt32 *outCount);

/* UI inIndex's URI and kind (a class URI such as http://lv2plug.in/ns/extensions/ui#X11UI), +1
   CFStrings the caller releases (either out-pointer may be NULL); outSupported (may be NULL) tells
   whether AUHostLV2UIOpen can show it for this unit (one needing the plug-in's instance only for a unit
   out of process). kAUHostLV2UIErr_UnknownUI past the count. [setup] */
OSStatus AUHostLV2UICopyInfo(AudioUnit inUnit, UInt32 inIndex, CFStringRef _Nullable *_Nullable outURI,
                             CFStringRef _Nullable *_Nullable outKind, Boolean *_Nullable outSupported);

/* Opens UI inIndex in its own process and waits (up to 10 s) until it is up: in a top-level window
   titled with the unit's name when inParentWindow is 0, else embedded in that X11 window.
   inDisplay names the X display (NULL: $DISPLAY). The UI starts with the unit's current values.
   kAUHostLV2UIErr_UnknownUI, _UnsupportedKind, _NeedsInstanceAccess, _NoDisplay, _LoadFailed or
   _Crashed, with a message naming the cause. [setup] */
OSStatus AUHostLV2UIOpen(AudioUnit inUnit, UInt32 inIndex, UInt64 inParentWindow, const char *_Nullable inDisplay,
                         AUHostLV2UIRef _Nullable *_Nonnull outUI);

/* ui:requestValue: the UI asks the host for a value of one of the plug-in's writable patch
   parameters (a sample's path for a sampler, say). Called on the thread that calls
   AUHostLV2UIIdle with the parameter's URI and the type asked for (a URI such as
   http://lv2plug.in/ns/ext/atom#Path or #Float: the UI's, else the parameter's range). Write the
   value as a NUL-terminated string into outValue (inCapacity bytes: a path, a string, a number
   in the C locale, or true/false) and return true to set it, as AudioUnitSetParameter or
   kLV2UnitProperty_PatchText would (the plug-in gets a patch:Set before its next run and the UI
   its reply); return false to decline (the user cancelled). */
typedef Boolean (*AUHostLV2UIRequestValueProc)(void *_Nullable inUserData, const char *inKey, const char *inType, char *outValue,
                                               UInt32 inCapacity);
/* The size of the buffer handed to an AUHostLV2UIRequestValueProc. */
enum { kAUHostLV2UIRequestValueCapacity = 4096 };
/* AUHostLV2UIOpen, with inProc answering the UI's value requests. A UI opened with AUHostLV2UIOpen
   is told requests are unsupported (LV2UI_REQUEST_VALUE_ERR_UNSUPPORTED: it may fall back on a
   file dialog of its own); here a request for a writable patch parameter succeeds and reaches
   inProc at the next idle, one for any other key is unknown (ERR_UNKNOWN). [setup] */
OSStatus AUHostLV2UIOpenWithValueRequests(AudioUnit inUnit, UInt32 inIndex, UInt64 inParentWindow, const char *_Nullable inDisplay,
                                          AUHostLV2UIRequestValueProc inProc, void *_Nullable inUserData,
                                          AUHostLV2UIRef _Nullable *_Nonnull outUI);
/* Sets (or clears, with NULL) the callback for the UI's parameter changes and gestures. [setup] */
OSStatus AUHostLV2UISetEventCallback(AUHostLV2UIRef inUI, AUHostLV2UIEventProc _Nullable inProc, void *_Nullable inUserData);

/* Services the UI: applies what it sent, sends it the values that changed on the host's side.
   Call it regularly (jalv: every 30 ms) on one thread. noErr while the UI is open;
   kAUHostLV2UIErr_Closed once the user closed it; kAUHostLV2UIErr_Crashed if its process died.
   [setup: never on the render thread] */
OSStatus AUHostLV2UIIdle(AUHostLV2UIRef inUI);

/* Maps or unmaps the UI's window. [setup] */
OSStatus AUHostLV2UIShow(AUHostLV2UIRef inUI);
OSStatus AUHostLV2UIHide(AUHostLV2UIRef inUI);

/* Resizes the UI's window (width and height in pixels, 1…16384). [setup] */
OSStatus AUHostLV2UIResize(AUHostLV2UIRef inUI, UInt32 inWidth, UInt32 inHeight);

/* The X11 window the UI shows in: the top-level the child made, or the UI's widget when
   embedded. [any thread] */
OSStatus AUHostLV2UIGetWindow(AUHostLV2UIRef inUI, UInt64 *outWindow);

/* Closes the UI (its process ends) and frees inUI. [setup] */
OSStatus AUHostLV2UIClose(AUHostLV2UIRef inUI);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
