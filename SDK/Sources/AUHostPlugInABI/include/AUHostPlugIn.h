/*
 * AUHostPlugIn.h — what AUHost adds to the Audio Unit plug-in ABI for plug-ins loaded at run time.
 *
 * The boundary between host and plug-in is the documented C ABI of AudioComponent.h: a factory
 * function returning an AudioComponentPlugInInterface (Open, Close, Lookup by selector). A plug-in
 * never links the host, and the host exports no symbols, so the few host functions a plug-in needs
 * (AudioUnitRender, to pull an input connected with kAudioUnitProperty_MakeConnection) reach it as
 * a table of function pointers handed over right after the binary is opened.
 *
 * Every symbol below is optional for a plug-in written in plain C: the host uses what it finds.
 * Plug-ins built with the Swift SDK (SDK/) export all three.
 */
#ifndef AUHOST_PLUGIN_H
#define AUHOST_PLUGIN_H

#include <AudioToolbox/AudioComponent.h>
#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

/* The ABI version this header describes. A manifest's "abiVersion" above it is refused. */
#define AUHOST_PLUGIN_ABI_VERSION 1

/* Host functions a plug-in may call. The table lives as long as the process. */
typedef struct AUHostPlugInHostFunctions {
    UInt32 abiVersion;              /* AUHOST_PLUGIN_ABI_VERSION of the host */
    UInt32 size;                    /* sizeof(AUHostPlugInHostFunctions) of the host: newer fields come last */
    /* [render] The host's AudioUnitRender, for pulling a connected upstream unit. */
    OSStatus (*render)(AudioUnit inUnit, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                       const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber,
                       UInt32 inNumberFrames, AudioBufferList *ioData);
} AUHostPlugInHostFunctions;

/* [setup] Exported by the plug-in as "AUHostPlugInAttach": the host calls it once after dlopen,
   before any factory, with its function table. */
typedef void (*AUHostPlugInAttachFunction)(const AUHostPlugInHostFunctions *host);

/* [setup] Exported by the plug-in as "AUHostPlugInABIVersion": the ABI it was built against. */
typedef UInt32 (*AUHostPlugInABIVersionFunction)(void);

/* [setup] Exported by the plug-in as "AUHostPlugInCopyFactoryError": after a factory on this
   thread returned NULL, writes why (a NUL-terminated sentence, truncated to inSize bytes) and
   returns the status that describes it (kAudioUnitErr_InvalidFile when the description asked for
   is not the one the factory makes); noErr when it has no reason to give. */
typedef OSStatus (*AUHostPlugInCopyFactoryErrorFunction)(char *outBuffer, UInt32 inSize);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
