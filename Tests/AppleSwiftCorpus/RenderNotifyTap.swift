// Ported from: AUComponent.h / Audio Unit Hosting Guide, AudioUnitAddRenderNotify: a render
// notification called before (kAudioUnitRenderAction_PreRender) and after
// (kAudioUnitRenderAction_PostRender) every render of the unit, with the unit's ioData — the
// way Apple's hosts tap a unit's output (metering, recording) without changing the graph. The
// tap, registered with an Unmanaged refCon, copies each post-render buffer; the unit is the
// Multichannel Mixer ('aumx' 'mcmx') with its output Volume at 0.5, fed by a render callback.
import AudioToolbox
import Foundation

final class OutputTap {
    var preRenderCount = 0
    var postRenderCount = 0
    var preRenderSampleTimes: [Float64] = []
    var captured: [Float32] = []
}

let outputTapRenderNotify: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let tap = Unmanaged<OutputTap>.fromOpaque(inRefCon).takeUnretainedValue()
    if ioActionFlags.pointee.contains(.unitRenderAction_PreRender) {
        tap.preRenderCount += 1
        tap.preRenderSampleTimes.append(inTimeStamp.pointee.mSampleTime)
    }
    if ioActionFlags.pointee.contains(.unitRenderAction_PostRender) {
        tap.postRenderCount += 1
        let abl = UnsafeMutableAudioBufferListPointer(ioData)!
        tap.captured += UnsafeMutableBufferPointer<Float32>(abl[0]).prefix(Int(inNumberFrames))
    }
    return noErr
}

/// A counting ramp: frame n carries n / 4096.
final class CountingSource {
    var frame = 0
}

let countingSourceCallback: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let source = Unmanaged<CountingSource>.fromOpaque(inRefCon).takeUnretainedValue()
    for buffer in UnsafeMutableAudioBufferListPointer(ioData)! {
        let samples = UnsafeMutableBufferPointer<Float32>(buffer)
        for i in 0..<Int(inNumberFrames) { samples[i] = Float32(source.frame + i) / 4096 }
    }
    source.frame += Int(inNumberFrames)
    return noErr
}

final class MixerOutputTapHost {
    let tap = OutputTap()
    let source = CountingSource()
    var mixerUnit: AudioUnit?

    /// Renders `slices` slices of `frames` mono frames; returns what the host received.
    func render(slices: Int, frames: UInt32, outputVolume: AudioUnitParameterValue) -> [Float32] {
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &mixerUnit)
        var busCount: UInt32 = 1
        AudioUnitSetProperty(
            mixerUnit!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &busCount, UInt32(MemoryLayout<UInt32>.size))
        var monoFormat = AudioStreamBasicDescription(
            mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        precondition(
            AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &monoFormat, size) == noErr)
        precondition(
            AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &monoFormat, size) == noErr)
        var callback = AURenderCallbackStruct(
            inputProc: countingSourceCallback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        AudioUnitSetProperty(
            mixerUnit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
            &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        precondition(AudioUnitInitialize(mixerUnit!) == noErr)
        AudioUnitSetParameter(mixerUnit!, kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0, outputVolume, 0)

        precondition(AudioUnitAddRenderNotify(mixerUnit!, outputTapRenderNotify, Unmanaged.passUnretained(tap).toOpaque()) == noErr)

        var received: [Float32] = []
        var samples = [Float32](repeating: 0, count: Int(frames))
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        for _ in 0..<slices {
            samples.withUnsafeMutableBufferPointer { pointer in
                var bufferList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(pointer, numberOfChannels: 1))
                var flags = AudioUnitRenderActionFlags()
                let status = AudioUnitRender(mixerUnit!, &flags, &timeStamp, 0, frames, &bufferList)
                precondition(status == noErr, "AudioUnitRender \(status)")
            }
            received += samples
            timeStamp.mSampleTime += Float64(frames)
        }
        precondition(AudioUnitRemoveRenderNotify(mixerUnit!, outputTapRenderNotify, Unmanaged.passUnretained(tap).toOpaque()) == noErr)
        // One more render after removal: the tap must not see it.
        samples.withUnsafeMutableBufferPointer { pointer in
            var bufferList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(pointer, numberOfChannels: 1))
            var flags = AudioUnitRenderActionFlags()
            AudioUnitRender(mixerUnit!, &flags, &timeStamp, 0, frames, &bufferList)
        }
        AudioUnitUninitialize(mixerUnit!)
        AudioComponentInstanceDispose(mixerUnit!)
        return received
    }
}
