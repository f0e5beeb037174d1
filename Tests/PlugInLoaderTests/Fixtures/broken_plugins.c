/* Deliberately broken plug-ins (C, against the documented ABI only): each factory fails in one way
   the host must report without crashing. Built by the tests into libBrokenPlugIns.so. */
#include <AudioToolbox/AudioToolbox.h>
#include <stdlib.h>

static OSStatus refuseOpen(void *self, AudioComponentInstance instance) {
    (void)self; (void)instance;
    return kAudioUnitErr_Unauthorized;
}

static OSStatus freeOnClose(void *self) {
    free(self);
    return noErr;
}

static AudioComponentMethod answerNothing(SInt16 selector) {
    (void)selector;
    return NULL;
}

/* Returns an interface whose Open fails with kAudioUnitErr_Unauthorized. */
AudioComponentPlugInInterface *OpenFailsFactory(const AudioComponentDescription *inDesc) {
    (void)inDesc;
    AudioComponentPlugInInterface *plugIn = calloc(1, sizeof *plugIn);
    plugIn->Open = refuseOpen;
    plugIn->Close = freeOnClose;
    plugIn->Lookup = answerNothing;
    return plugIn;
}

/* Makes nothing. */
AudioComponentPlugInInterface *NullFactory(const AudioComponentDescription *inDesc) {
    (void)inDesc;
    return NULL;
}
