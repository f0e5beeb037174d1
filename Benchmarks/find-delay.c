/*
 * find-delay.c — the issue-13 C bar: a C program that finds the built-in delay with
 * AudioComponentFindNext, makes an instance and disposes of it. With lazy providers this never
 * reads the LV2 catalog, however many plug-ins are installed. Prints "PASS" and exits 0.
 * Built and timed by Benchmarks/compare-discovery.sh (linked against libauhost-capi.so).
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>

int main(void) {
    AudioComponentDescription desc = { kAudioUnitType_Effect, 'dely', 'AUHs', 0, 0 };
    AudioComponent component = AudioComponentFindNext(NULL, &desc);
    if (!component) { fprintf(stderr, "no aufx dely AUHs\n"); return 1; }
    AudioComponentInstance unit = NULL;
    OSStatus status = AudioComponentInstanceNew(component, &unit);
    if (status != noErr || !unit) { fprintf(stderr, "AudioComponentInstanceNew: %d\n", (int)status); return 1; }
    status = AudioComponentInstanceDispose(unit);
    if (status != noErr) { fprintf(stderr, "AudioComponentInstanceDispose: %d\n", (int)status); return 1; }
    puts("PASS");
    return 0;
}
