/*
 * AUHostLV2.h — AUHost extension (not part of Apple's API): LV2 units.
 */
#ifndef AUHOST_AUHOSTLV2_H
#define AUHOST_AUHOSTLV2_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

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
