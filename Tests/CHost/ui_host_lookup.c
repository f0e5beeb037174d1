/*
 * A program linking the installed library shows LV2 plug-in UIs: each UI runs in the
 * auhost-ui-host child `make install` puts in PREFIX/libexec/auhost, found from the library's
 * own folder wherever this program lives. check-c runs this over the UI fixture bundle with a
 * display nobody serves: a child that started answers kAUHostLV2UIErr_NoDisplay from its own
 * process; a missing child is kAUHostLV2UIErr_LoadFailed.
 */
#include "named_component.h"

#include <AudioToolbox/AUHostLV2UI.h>
#include <stdio.h>

int main(void) {
    char name[512];
    AudioComponent component = named_component("AUHost UI fixture gain", name, sizeof name);
    AudioUnit unit = NULL;
    if (!component || AudioComponentInstanceNew(component, &unit) != noErr) {
        fprintf(stderr, "the UI fixture plug-in is not on LV2_PATH\n");
        return 1;
    }
    UInt32 count = 0;
    OSStatus status = AUHostLV2UIGetCount(unit, &count);
    for (UInt32 index = 0; status == noErr && index < count; ++index) {
        Boolean supported = false;
        if (AUHostLV2UICopyInfo(unit, index, NULL, NULL, &supported) != noErr || !supported) continue;
        AUHostLV2UIRef ui = NULL;
        status = AUHostLV2UIOpen(unit, index, 0, ":65535", &ui);
        AudioComponentInstanceDispose(unit);
        if (status == kAUHostLV2UIErr_NoDisplay) {
            printf("UI host found through the installed library (it reported the missing display)\n");
            return 0;
        }
        fprintf(stderr, "AUHostLV2UIOpen: %d, not kAUHostLV2UIErr_NoDisplay (is auhost-ui-host installed?)\n", (int)status);
        return 1;
    }
    fprintf(stderr, "no UI this host can show (status %d, %u UIs)\n", (int)status, (unsigned)count);
    return 1;
}
