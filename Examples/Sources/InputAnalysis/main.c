/*
 * Pattern 5 of the hosting guide, input side ("Input-only", for recording or analysis): only the
 * I/O unit's input element is enabled (output off). The input callback, told a period was
 * captured (ioData NULL), renders element 1 into the app's own buffers (ShouldAllocateBuffer 0),
 * measures each channel's peak (the analysis) and records the audio with ExtAudioFileWriteAsync.
 *
 * Linux: the audio session is replaced by the I/O unit's device and period properties.
 * Usage: input-analysis PCM FRAMES OUT.wav   (prints "peak0 <x>" and "peak1 <x>")
 */
#include <ExampleSupport.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { kChannels = 2, kMaxFrames = 4096 };

typedef struct {
    AudioUnit ioUnit;
    ExtAudioFileRef file;
    AudioBufferList *buffers;          /* allocated at setup, reused every period */
    Float32 peak[kChannels];
    SInt64 framesWanted;
    OSStatus lastError;
    volatile SInt64 framesRecorded;
} Recorder;

/* [render thread] The input callback: pull the captured period, analyse it, queue it for the file. */
static OSStatus inputCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                              UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Recorder *recorder = inRefCon;
    if (recorder->framesRecorded >= recorder->framesWanted) return noErr;   /* the recording is complete */
    for (UInt32 c = 0; c < kChannels; ++c) recorder->buffers->mBuffers[c].mDataByteSize = inNumberFrames * sizeof(Float32);
    OSStatus status = AudioUnitRender(recorder->ioUnit, ioActionFlags, inTimeStamp, 1, inNumberFrames, recorder->buffers);
    if (status == noErr) status = ExtAudioFileWriteAsync(recorder->file, inNumberFrames, recorder->buffers);
    if (status != noErr) {
        if (!recorder->lastError) recorder->lastError = status;
        return status;
    }
    for (UInt32 c = 0; c < kChannels; ++c) {
        const Float32 *samples = recorder->buffers->mBuffers[c].mData;
        for (UInt32 i = 0; i < inNumberFrames; ++i) recorder->peak[c] = fmaxf(recorder->peak[c], fabsf(samples[i]));
    }
    __atomic_add_fetch(&recorder->framesRecorded, inNumberFrames, __ATOMIC_RELEASE);
    return noErr;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: input-analysis PCM FRAMES OUT.wav\n"); return 2; }
    SInt64 frames = atoll(argv[2]);
    static Recorder recorder;

    AudioComponentDescription ioUnitDescription = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
    CheckStatus(AudioComponentInstanceNew(AudioComponentFindNext(NULL, &ioUnitDescription), &recorder.ioUnit), "AudioComponentInstanceNew");
    AudioUnit ioUnit = recorder.ioUnit;
    recorder.framesWanted = frames;

    // Linux counterpart of the audio session.
    CheckStatus(ExampleSetDevice(ioUnit, argv[1]), "set CurrentDevice");
    UInt32 periodFrames = 256, periodCount = 2;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0,
                                     &periodFrames, sizeof periodFrames), "set PreferredPeriodFrames");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0,
                                     &periodCount, sizeof periodCount), "set PreferredPeriodCount");

    // Input on, output off.
    UInt32 on = 1, off = 0;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, sizeof on), "enable input");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &off, sizeof off), "disable output");
    AudioStreamBasicDescription stereoFormat = ExampleCanonicalFormat(48000, kChannels);
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1,
                                     &stereoFormat, sizeof stereoFormat), "set the input element's format");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_ShouldAllocateBuffer, kAudioUnitScope_Output, 1, &off, sizeof off),
                "set ShouldAllocateBuffer");

    // The app's buffers: one per channel (the AudioBufferList "-1" allocation of the seed's listing 4).
    recorder.buffers = calloc(1, sizeof(AudioBufferList) + (kChannels - 1) * sizeof(AudioBuffer));
    recorder.buffers->mNumberBuffers = kChannels;
    for (UInt32 c = 0; c < kChannels; ++c) {
        recorder.buffers->mBuffers[c].mNumberChannels = 1;
        recorder.buffers->mBuffers[c].mData = calloc(kMaxFrames, sizeof(Float32));
    }

    // The recording: a 32-bit float WAV file; the client format is the canonical one.
    AudioStreamBasicDescription fileFormat = {0};
    fileFormat.mSampleRate = 48000;
    fileFormat.mFormatID = kAudioFormatLinearPCM;
    fileFormat.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    fileFormat.mChannelsPerFrame = kChannels;
    fileFormat.mFramesPerPacket = 1;
    fileFormat.mBitsPerChannel = 32;
    fileFormat.mBytesPerFrame = fileFormat.mBytesPerPacket = 4 * kChannels;
    CheckStatus(ExtAudioFileCreateWithPath(argv[3], kAudioFileWAVEType, &fileFormat, NULL, kAudioFileFlags_EraseFile, &recorder.file),
                "ExtAudioFileCreateWithPath");
    CheckStatus(ExtAudioFileSetProperty(recorder.file, kExtAudioFileProperty_ClientDataFormat, sizeof stereoFormat, &stereoFormat),
                "set the client data format");
    CheckStatus(ExtAudioFileWriteAsync(recorder.file, 0, NULL), "prime ExtAudioFileWriteAsync");

    AURenderCallbackStruct inputCallbackStruct = {inputCallback, &recorder};
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0,
                                     &inputCallbackStruct, sizeof inputCallbackStruct), "set the input callback");

    CheckStatus(AudioUnitInitialize(ioUnit), "AudioUnitInitialize");
    CheckStatus(AudioOutputUnitStart(ioUnit), "AudioOutputUnitStart");
    int ran = ExampleWaitFor(&recorder.framesRecorded, frames, 30);
    CheckStatus(AudioOutputUnitStop(ioUnit), "AudioOutputUnitStop");
    CheckStatus(recorder.lastError, "the input callback");
    CheckStatus(ExtAudioFileDispose(recorder.file), "ExtAudioFileDispose");
    AudioUnitUninitialize(ioUnit);
    AudioComponentInstanceDispose(ioUnit);
    if (!ran) { fprintf(stderr, "error: recorded %lld of %lld frames\n", (long long)recorder.framesRecorded, (long long)frames); return 1; }
    printf("recorded %lld\npeak0 %.9g\npeak1 %.9g\n", (long long)recorder.framesRecorded, recorder.peak[0], recorder.peak[1]);
    return 0;
}
