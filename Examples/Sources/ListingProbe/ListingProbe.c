#include <ListingProbe.h>
#include <AudioToolbox/AudioToolbox.h>

static int disposeCalls, runLoopStops;

OSStatus __real_AudioServicesDisposeSystemSoundID(SystemSoundID inSystemSoundID);
void __real_CFRunLoopStop(CFRunLoopRef rl);

OSStatus __wrap_AudioServicesDisposeSystemSoundID(SystemSoundID inSystemSoundID);
void __wrap_CFRunLoopStop(CFRunLoopRef rl);

/* [setup] Counts, then disposes. */
OSStatus __wrap_AudioServicesDisposeSystemSoundID(SystemSoundID inSystemSoundID) {
    disposeCalls++;
    return __real_AudioServicesDisposeSystemSoundID(inSystemSoundID);
}

/* [setup] Counts, then stops the run loop. */
void __wrap_CFRunLoopStop(CFRunLoopRef rl) {
    runLoopStops++;
    __real_CFRunLoopStop(rl);
}

/* Runs after main returns: the listing's CFRunLoopRun returned. */
__attribute__((destructor)) static void printCounts(void) {
    printf("dispose-calls %d\nrun-loop-stops %d\n", disposeCalls, runLoopStops);
    fflush(stdout);
}
