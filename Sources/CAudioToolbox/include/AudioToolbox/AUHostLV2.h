/*
 * AUHostLV2.h — AUHost extension (not part of Apple's API): LV2 units.
 */
#ifndef AUHOST_AUHOSTLV2_H
#define AUHOST_AUHOSTLV2_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

/* Settings an LV2 plug-in takes through patch messages (patch:writable parameters), not ports,
   and values it only reports (patch:readable). Numbers and switches are parameters (global
   scope): the k-th the plug-in declares (writable ones first, then read-only ones, each in URI
   order) has ID kLV2UnitPatchParameterBase + k, with the range and default of its data; a changed
   writable value reaches the plug-in as patch:Set before the next run; read-only ones are flagged
   as meters (kAudioUnitParameterFlag_MeterReadOnly). Paths and strings are the property
   kLV2UnitProperty_PatchText (global, read/write): a CFDictionaryRef from label or URI to
   CFString (a relative path is made absolute against the current directory); setting sends
   them before the next run (or the first after AudioUnitInitialize), reading gives the values
   set or reported, keyed by URI. The plug-in is asked for its values (patch:Get) at its first
   run, and what it reports (patch:Set, patch:Put) is what the parameters and PatchText read from
   then on. An unknown or read-only key or a value that is not a string is
   kAudioUnitErr_InvalidPropertyValue, naming it. */
AU_ENUM(AudioUnitParameterID) {
    kLV2UnitPatchParameterBase = 0x50000000
};
AU_ENUM(AudioUnitPropertyID) {
    kLV2UnitProperty_PatchText = 64003
};

/* Saves an initialized LV2 unit's current parameters and its plug-in's own state as an LV2 preset
   named inName: a bundle "<plug-in>_<name>.preset.lv2" in inDirectory (NULL: ~/.lv2, where jalv
   saves them), declaring a pset:Preset of the plug-in, so this host (the unit's FactoryPresets,
   at once), lv2info and other LV2 hosts list and load it. Saving again under a name replaces it.
   outBundlePath (may be NULL) receives the bundle's path; the caller releases it.
   kAudio_ParamError for a unit that is not an LV2 unit in this process or an empty name,
   kAudioUnitErr_Uninitialized before AudioUnitInitialize, kAudioUnitErr_InvalidFile when the
   bundle cannot be written. [setup] */
OSStatus AUHostLV2SaveUserPreset(AudioUnit inUnit, CFStringRef inName, CFStringRef _Nullable inDirectory,
                                 CFStringRef _Nullable *_Nullable outBundlePath);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
