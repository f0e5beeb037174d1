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
    kDSSIUnitProperty_Configure = 64010
};

AUHOST_EXTERN_C_END

#endif
