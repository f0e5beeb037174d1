#include "AUHostSDKRuntime.h"

/* Written once by the loader before any factory runs, read afterwards: no lock needed. */
static const AUHostPlugInHostFunctions *attachedHost;

void AUHostPlugInAttach(const AUHostPlugInHostFunctions *host) {
    /* A table from an older host may be shorter; only fields inside its size are used. */
    attachedHost = host;
}

int AUHostSDKIsAttached(void) { return attachedHost != NULL; }

/* The unit model pulls a MakeConnection input with AudioUnitRender; inside a plug-in that is the
   host's function, reached through the table (the host executable exports no symbols). */
OSStatus AudioUnitRender(AudioUnit inUnit, AudioUnitRenderActionFlags *ioActionFlags,
                         const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber,
                         UInt32 inNumberFrames, AudioBufferList *ioData) {
    const AUHostPlugInHostFunctions *host = attachedHost;
    if (host == NULL || host->size < sizeof(AUHostPlugInHostFunctions) || host->render == NULL)
        return kAudioUnitErr_NoConnection;
    return host->render(inUnit, ioActionFlags, inTimeStamp, inOutputBusNumber, inNumberFrames, ioData);
}
