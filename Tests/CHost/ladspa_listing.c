/*
 * A program linking the installed library finds LADSPA plug-ins: describing a LADSPA library
 * means running it, which the library does in the child `make install` puts in
 * PREFIX/libexec/auhost. check-c runs this with an empty cache and the test LADSPA_PATH; it
 * succeeds when a unit whose name contains argv[1] is listed.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *wanted = argc > 1 ? argv[1] : "C* AmpVTS";
    AudioComponentDescription any = {0};
    AudioComponent component = NULL;
    while ((component = AudioComponentFindNext(component, &any))) {
        CFStringRef name = NULL;
        if (AudioComponentCopyName(component, &name) != noErr || !name) continue;
        char text[512];
        Boolean converted = CFStringGetCString(name, text, sizeof text, kCFStringEncodingUTF8);
        CFRelease(name);
        if (converted && strstr(text, wanted)) {
            printf("LADSPA through the installed library: %s\n", text);
            return 0;
        }
    }
    fprintf(stderr, "no unit named like \"%s\": the LADSPA libraries were not described\n", wanted);
    return 1;
}
