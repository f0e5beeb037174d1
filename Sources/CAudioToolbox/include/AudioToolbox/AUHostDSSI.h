/*
 * AUHostDSSI.h — AUHost extension (not part of Apple's API): DSSI units' configure() keys.
 */
#ifndef AUHOST_AUHOSTDSSI_H
#define AUHOST_AUHOSTDSSI_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN

/* A DSSI plug-in's configure() keys: session settings outside its ports and programs (hexter's
   "polyphony" and "monophonic", a sampler's file). kDSSIUnitProperty_Configure (global,
   read/write) is a CFDictionaryRef from key to CFString value. Setting it on an initialized unit
   calls configure() for each pair at once, on the caller's thread (as DSSI hosts call it from a
   thread of their own while the synth runs); the unit remembers every value it was given and
   gives them all again, before activate, each time it instantiates the plug-in (Initialize), as
   the DSSI specification asks. Reading gives the values remembered. A value the plug-in refuses
   is kAudioUnitErr_InvalidPropertyValue with the plug-in's own message (and not remembered); a
   value that is not a CFString, too; a unit that is not DSSI answers kAudioUnitErr_InvalidProperty.
   [setup] */
AU_ENUM(AudioUnitPropertyID) {
    kDSSIUnitProperty_Configure = 64010,
    kDSSIUnitProperty_Program = 64011
};

/* kDSSIUnitProperty_Program (global, read/write, a DSSIUnitProgram): selects a DSSI synth's
   bank and program by number, whether or not they are among the factory presets (which the
   catalog asks of a fresh instance: a sampler's programs appear only once configure() has loaded
   its file). The unit calls select_program at the start of the next render cycle (after a run of
   zero frames, in which a plug-in applies what configure() left pending: fluidsynth-dssi's "load"
   selects the soundfont's first preset at its next run), and again after every Initialize. Each
   set selects again, even the same numbers (after a new "load"). Reading gives the numbers last
   set (kAudioUnitErr_PropertyNotInUse before any). A unit that is not DSSI answers
   kAudioUnitErr_InvalidProperty. [setup] */
typedef struct DSSIUnitProgram {
    UInt32 bank;
    UInt32 program;
} DSSIUnitProgram;

AUHOST_EXTERN_C_END

#endif
