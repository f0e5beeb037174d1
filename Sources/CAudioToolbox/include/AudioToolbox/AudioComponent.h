/*
 * AudioComponent.h — finding, naming and instantiating components; the plug-in ABI.
 *
 * A component is a unit that can be made: built in, a plug-in shared object, an LV2 plug-in, or one
 * registered in-process with AudioComponentRegister. Every one is found the same way: by
 * description, 0 in type/subtype/manufacturer matching anything.
 */
#ifndef AUHOST_AUDIOCOMPONENT_H
#define AUHOST_AUDIOCOMPONENT_H

#include <AudioToolbox/CoreFoundationLite.h>
#include <AudioToolbox/CoreAudioTypes.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef AU_OPTIONS(UInt32, AudioComponentFlags) {
    kAudioComponentFlag_Unsearchable = 1,
    kAudioComponentFlag_SandboxSafe = 2,
    kAudioComponentFlag_IsV3AudioUnit = 4,
    kAudioComponentFlag_RequiresAsyncInstantiation = 8,
    kAudioComponentFlag_CanLoadInProcess = 0x10
};

typedef AU_OPTIONS(UInt32, AudioComponentInstantiationOptions) {
    kAudioComponentInstantiation_LoadOutOfProcess = 1,
    kAudioComponentInstantiation_LoadInProcess = 2
};

typedef struct AudioComponentDescription {
    OSType componentType;
    OSType componentSubType;
    OSType componentManufacturer;
    UInt32 componentFlags;
    UInt32 componentFlagsMask;
} AudioComponentDescription;

typedef struct OpaqueAudioComponent *AudioComponent;
typedef struct ComponentInstanceRecord *AudioComponentInstance;

/* A method a plug-in returns from Lookup: its first argument is the plug-in's `self`, the rest are
   the selector's documented arguments (see the *Proc types in AUComponent.h). */
typedef OSStatus (*AudioComponentMethod)(void *self, ...);

/* The C ABI between host and unit. Open is called once with the new instance handle; every later
   call is Lookup(selector) then method(self, arguments…). Close ends the instance and frees it. */
typedef struct AudioComponentPlugInInterface {
    OSStatus (*Open)(void *_Nullable self, AudioComponentInstance _Nullable mInstance);   /* nullable here: units check what C hands them */
    OSStatus (*Close)(void *_Nullable self);
    AudioComponentMethod _Nullable (*_Nonnull Lookup)(SInt16 selector);
    void *_Nullable reserved;
} AudioComponentPlugInInterface;

/* A plug-in's factory: returns a new interface (its `self`) for the description, or NULL. */
typedef AudioComponentPlugInInterface *_Nullable (*AudioComponentFactoryFunction)(const AudioComponentDescription *inDesc);

AU_ENUM(OSStatus) {
    kAudioComponentErr_InstanceTimedOut = -66754,
    kAudioComponentErr_InstanceInvalidated = -66749,
    kAudioComponentErr_DuplicateDescription = -66752,
    kAudioComponentErr_UnsupportedType = -66751,
    kAudioComponentErr_TooManyInstances = -66750,
    kAudioComponentErr_NotPermitted = -66748,
    kAudioComponentErr_InitializationTimedOut = -66747,
    kAudioComponentErr_InvalidFormat = -66746
};

/* [setup] The next component after inComponent (NULL: the first) matching inDesc, or NULL.
   Order is stable: registration order within a provider, providers in installation order. */
AudioComponent _Nullable AudioComponentFindNext(AudioComponent _Nullable inComponent, const AudioComponentDescription *inDesc);
/* [setup] How many components match. */
UInt32 AudioComponentCount(const AudioComponentDescription *inDesc);
/* [setup] The component's name ("Manufacturer: Name"); release it with CFRelease. */
OSStatus AudioComponentCopyName(AudioComponent inComponent, CFStringRef _Nullable *_Nonnull outName);
/* [setup] The component's full description (its real manufacturer, never a wildcard). */
OSStatus AudioComponentGetDescription(AudioComponent inComponent, AudioComponentDescription *outDesc);
/* [setup] The version, 0xMMMMmmDD. */
OSStatus AudioComponentGetVersion(AudioComponent inComponent, UInt32 *outVersion);
/* [setup] Makes a new, uninitialized instance. A plug-in that cannot load returns its reason as the
   status (see AUHostCopyLastErrorMessage for the sentence naming the file or feature). */
OSStatus AudioComponentInstanceNew(AudioComponent inComponent, AudioComponentInstance _Nullable *_Nonnull outInstance);
/* [setup] Asynchronous instantiation; here the handler is called before this returns. */
void AudioComponentInstantiate(AudioComponent inComponent, AudioComponentInstantiationOptions inOptions,
                               void (*inCompletionHandler)(AudioComponentInstance _Nullable instance, OSStatus status, void *_Nullable userData),
                               void *_Nullable userData);
/* [setup] Uninitializes if needed, closes and frees the instance. */
OSStatus AudioComponentInstanceDispose(AudioComponentInstance inInstance);
/* [any thread] The component an instance was made from. */
AudioComponent AudioComponentInstanceGetComponent(AudioComponentInstance inInstance);
/* [any thread] Whether the instance implements a selector (kAudioUnitRenderSelect, …). */
Boolean AudioComponentInstanceCanDo(AudioComponentInstance inInstance, SInt16 inSelectorID);
/* [setup] Registers a component made by a factory function in this process. Registering the same
   full description again replaces nothing and returns the existing component. */
AudioComponent AudioComponentRegister(const AudioComponentDescription *inDesc, CFStringRef inName,
                                      UInt32 inVersion, AudioComponentFactoryFunction inFactory);

/* [any thread] AUHost extension: the sentence explaining the last error this thread got from a
   setup call (for example "plug-in /x/libA.so: symbol AFactory not found"), or NULL. Release it. */
CFStringRef _Nullable AUHostCopyLastErrorMessage(void);

/* [setup] AUHost extension: where the component comes from, for people and for lookups: "lv2 URI
   BUNDLE" for an LV2 plug-in, the shared object's path for an SDK plug-in, "built-in" or
   "registered in-process" otherwise. NULL for an unknown component. Release it. */
CFStringRef _Nullable AUHostComponentCopyOrigin(AudioComponent inComponent);

/* [setup] AUHost extension: the component of the LV2 plug-in with this URI (UTF-8), or NULL when
   no installed bundle on LV2_PATH describes it. Reads that plug-in's data only. */
AudioComponent _Nullable AUHostComponentFindLV2(const char *inURI);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
