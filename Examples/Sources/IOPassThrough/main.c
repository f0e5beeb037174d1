/*
 * Pattern 1 of the hosting guide ("I/O pass-through", figure 2-1): the I/O unit's input element
 * is connected to its own output element with an audio unit connection, so captured audio goes
 * straight to the output. The format is set on the input element's output scope only; the
 * connection carries it to the output element.
 *
 * Linux: the audio session is replaced by the I/O unit's own properties (device name, preferred
 * period) — see Examples/README.md.  Usage: io-passthrough PCM FRAMES
 */
#include <ExampleSupport.h>
#include <stdio.h>
#include <stdlib.h>

static volatile SInt64 framesPlayed;

/* A render notification counts what reached the output element, so the example knows when to stop. */
static OSStatus CountFrames(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *timeStamp,
                            UInt32 bus, UInt32 frames, AudioBufferList *ioData) {
    // Output element only: rendering the input element (bus 1) notifies too.
    if ((*flags & kAudioUnitRenderAction_PostRender) && bus == 0) __atomic_add_fetch(&framesPlayed, frames, __ATOMIC_RELEASE);
    return noErr;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: io-passthrough PCM FRAMES\n"); return 2; }
    SInt64 frames = atoll(argv[2]);

    AudioComponentDescription ioUnitDescription = {0};
    ioUnitDescription.componentType = kAudioUnitType_Output;
    ioUnitDescription.componentSubType = kAudioUnitSubType_RemoteIO;
    ioUnitDescription.componentManufacturer = kAudioUnitManufacturer_Apple;
    AudioComponent component = AudioComponentFindNext(NULL, &ioUnitDescription);
    AudioUnit ioUnit;
    CheckStatus(AudioComponentInstanceNew(component, &ioUnit), "AudioComponentInstanceNew(RemoteIO)");

    // Linux counterpart of the audio session: which device, and the I/O buffer duration.
    CheckStatus(ExampleSetDevice(ioUnit, argv[1]), "set CurrentDevice");
    UInt32 periodFrames = 64, periodCount = 3;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0,
                                     &periodFrames, sizeof periodFrames), "set PreferredPeriodFrames");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0,
                                     &periodCount, sizeof periodCount), "set PreferredPeriodCount");

    // Input is off by default on an I/O unit: enable it on the input element (1).
    UInt32 enableInput = 1;
    AudioUnitElement inputElement = 1, outputElement = 0;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, inputElement,
                                     &enableInput, sizeof enableInput), "enable input");

    // The app-side format of the input element; the connection passes it to the output element.
    AudioStreamBasicDescription stereoFormat = ExampleCanonicalFormat(48000, 2);
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, inputElement,
                                     &stereoFormat, sizeof stereoFormat), "set the input element's format");

    AudioUnitConnection inputToOutput;
    inputToOutput.sourceAudioUnit = ioUnit;
    inputToOutput.sourceOutputNumber = inputElement;
    inputToOutput.destInputNumber = outputElement;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, outputElement,
                                     &inputToOutput, sizeof inputToOutput), "connect input element to output element");
    CheckStatus(AudioUnitAddRenderNotify(ioUnit, CountFrames, NULL), "AudioUnitAddRenderNotify");

    CheckStatus(AudioUnitInitialize(ioUnit), "AudioUnitInitialize");
    UInt32 latency = 0, size = sizeof latency;
    CheckStatus(AudioUnitGetProperty(ioUnit, kAUHostALSAProperty_DuplexLatencyFrames, kAudioUnitScope_Global, 0, &latency, &size),
                "get DuplexLatencyFrames");
    CheckStatus(AudioOutputUnitStart(ioUnit), "AudioOutputUnitStart");
    int ran = ExampleWaitFor(&framesPlayed, frames + latency, 30);
    CheckStatus(AudioOutputUnitStop(ioUnit), "AudioOutputUnitStop");
    UInt32 xruns = 0;
    size = sizeof xruns;
    CheckStatus(AudioUnitGetProperty(ioUnit, kAUHostALSAProperty_XrunCount, kAudioUnitScope_Global, 0, &xruns, &size), "get XrunCount");
    AudioUnitUninitialize(ioUnit);
    AudioComponentInstanceDispose(ioUnit);
    if (!ran) { fprintf(stderr, "error: the device played %lld of %lld frames\n", (long long)framesPlayed, (long long)frames); return 1; }
    printf("latency %u\nxruns %u\n", latency, xruns);
    return 0;
}
