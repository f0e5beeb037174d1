/* What client code written for Apple asks of <CoreFoundation/CoreFoundation.h> (Apple's Audio Queue
 * and System Sound listings): run loops run, time out, stop from a callback and wake for a source
 * signalled from another thread; file URLs give their string; MacRoman converts. check-c builds it
 * with gcc and clang (the declared subset) and with clang -fblocks (the toolchain's own
 * CoreFoundation.h), and runs each; the output names which CoreFoundation the compiler saw. */
#define _POSIX_C_SOURCE 200809L /* nanosleep under -std=c17 */
#include <CoreFoundation/CoreFoundation.h>
#include <AudioToolbox/AudioToolbox.h>
#include <pthread.h>
#include <time.h>

static int timerFired, sourcePerformed;

static void stopOnTimer(CFRunLoopTimerRef timer, void *info) {
    (void)timer;
    timerFired++;
    CFRunLoopStop((CFRunLoopRef)info);
}

static void performSource(void *info) {
    (void)info;
    sourcePerformed++;
}

static void *signalFromAnotherThread(void *arg) {
    void **pair = arg;
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    CFRunLoopSourceSignal((CFRunLoopSourceRef)pair[0]);
    CFRunLoopWakeUp((CFRunLoopRef)pair[1]);
    return NULL;
}

int main(void) {
    int failures = 0;
    CFRunLoopRef loop = CFRunLoopGetCurrent();
    failures += loop == NULL || CFRunLoopGetMain() != loop;  /* main() runs on the main thread */

    /* An empty run in the default mode times out. */
    failures += CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.01, false) != kCFRunLoopRunFinished &&
                CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.01, false) != kCFRunLoopRunTimedOut;

    /* CFRunLoopRun returns once a timer's callback stops the loop. */
    CFRunLoopTimerContext timerContext = {0, loop, NULL, NULL, NULL};
    CFRunLoopTimerRef timer =
        CFRunLoopTimerCreate(NULL, CFAbsoluteTimeGetCurrent() + 0.02, 0, 0, 0, stopOnTimer, &timerContext);
    CFRunLoopAddTimer(loop, timer, kCFRunLoopCommonModes);
    CFRunLoopRun();
    CFRelease(timer);
    failures += timerFired != 1;

    /* A source signalled from another thread runs on this one, in the mode it was added for. */
    CFRunLoopSourceContext sourceContext = {0};
    sourceContext.perform = performSource;
    CFRunLoopSourceRef source = CFRunLoopSourceCreate(NULL, 0, &sourceContext);
    CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode);
    void *pair[2] = {source, loop};
    pthread_t thread;
    pthread_create(&thread, NULL, signalFromAnotherThread, pair);
    CFRunLoopRunResult result = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 5, true);
    pthread_join(thread, NULL);
    CFRunLoopRemoveSource(loop, source, kCFRunLoopDefaultMode);
    CFRunLoopSourceInvalidate(source);
    CFRelease(source);
    failures += result != kCFRunLoopRunHandledSource || sourcePerformed != 1;

    /* A file URL's string, read back in MacRoman. */
    const char *path = "/tmp/ComedyHorns.aif";
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    char text[256] = "";
    Boolean converted = CFStringGetCString(CFURLGetString(url), text, sizeof text, kCFStringEncodingMacRoman);
    CFRelease(url);
    failures += !converted || strcmp(text, "file:///tmp/ComedyHorns.aif") != 0;

    /* MacTypes.h has the types Apple's headers are written in. */
    Byte byte = 0xFF;
    ItemCount items = 2;
    ByteCount bytes = sizeof byte * items;
    failures += bytes != 2;

    printf("CoreFoundation (%s): run loop timed out, stopped by a timer (%d), ran a source signalled from another "
           "thread (%d); URL %s: %s\n",
           AUHOST_REAL_COREFOUNDATION ? "the toolchain's CoreFoundation.h" : "AUHost's declared subset", timerFired,
           sourcePerformed, text, failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
