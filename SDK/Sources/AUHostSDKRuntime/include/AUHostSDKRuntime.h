/*
 * AUHostSDKRuntime.h — the C part every SDK plug-in links (and a host never does).
 *
 * It defines, inside the plug-in, the host functions the shared unit model calls (AudioUnitRender)
 * as forwarders to the table the host hands over through AUHostPlugInAttach. Before the host
 * attaches (or under a host that never does) a pull through a connection answers
 * kAudioUnitErr_NoConnection instead of failing to load.
 */
#ifndef AUHOST_SDK_RUNTIME_H
#define AUHOST_SDK_RUNTIME_H

#include <AUHostPlugIn.h>

AUHOST_EXTERN_C_BEGIN

/* [setup] Exported: the host's function table (see AUHostPlugIn.h). */
void AUHostPlugInAttach(const AUHostPlugInHostFunctions *host);

/* [any thread] Whether a host has attached (tests and diagnostics). */
int AUHostSDKIsAttached(void);

AUHOST_EXTERN_C_END

#endif
