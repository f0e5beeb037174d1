// Ported from: AUComponent.h / Audio Unit Programming Guide, "Parameter Scheduling":
// AudioUnitScheduleParameters with AudioUnitParameterEvent records — an immediate change at a
// buffer offset (eventType .parameterEvent_Immediate, eventValues.immediate) and a linear ramp
// (.parameterEvent_Ramped, eventValues.ramp: startBufferOffset, durationInFrames, startValue,
// endValue) — scheduled before the AudioUnitRender call they apply to, and AudioUnitSetParameter
// with a non-zero inBufferOffsetInFrames. The unit is Apple's delay at its default 1 s delay
// time with no feedback, fed a constant 1.0: during the first second its output is the dry part
// alone, 1 − WetDryMix/100, so the output traces the mix parameter frame by frame. The second
// host fades a Multichannel Mixer input out with a ramped Volume event (input scope, element =
// the bus), the fade Apple's mixer hosts schedule instead of stepping the volume.
import AudioToolbox
import Foundation

final class ConstantSource {
    let value: Float32
    init(value: Float32) { self.value = value }
}

let constantSourceCallback: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let source = Unmanaged<ConstantSource>.fromOpaque(inRefCon).takeUnretainedValue()
    for buffer in UnsafeMutableAudioBufferListPointer(ioData)! {
        let samples = UnsafeMutableBufferPointer<Float32>(buffer)
        for i in 0..<Int(inNumberFrames) { samples[i] = source.value }
    }
    return noErr
}

final class DelayMixAutomation {
    var delayUnit: AudioUnit?
    let source = ConstantSource(value: 1)
    var timeStamp = AudioTimeStamp()

    func setUp(sampleRate: Float64, maximumFrames: UInt32) {
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &delayUnit)
        var format = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitSetProperty(delayUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size)
        AudioUnitSetProperty(delayUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size)
        var maximumFramesPerSlice = maximumFrames
        AudioUnitSetProperty(
            delayUnit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
            &maximumFramesPerSlice, UInt32(MemoryLayout<UInt32>.size))
        var callback = AURenderCallbackStruct(
            inputProc: constantSourceCallback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        AudioUnitSetProperty(
            delayUnit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
            &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        precondition(AudioUnitInitialize(delayUnit!) == noErr)
        AudioUnitSetParameter(delayUnit!, kDelayParam_Feedback, kAudioUnitScope_Global, 0, 0, 0)
        AudioUnitSetParameter(delayUnit!, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, 1, 0)
        timeStamp.mFlags = .sampleTimeValid
    }

    /// Schedules `events` for the next render call, renders `frames` frames and returns them.
    func render(frames: UInt32, scheduling events: [AudioUnitParameterEvent]) -> [Float32] {
        if !events.isEmpty {
            var events = events
            let status = AudioUnitScheduleParameters(delayUnit!, &events, UInt32(events.count))
            precondition(status == noErr, "AudioUnitScheduleParameters \(status)")
        }
        return render(frames: frames)
    }

    func render(frames: UInt32) -> [Float32] {
        var output = [Float32](repeating: 0, count: Int(frames))
        output.withUnsafeMutableBufferPointer { samples in
            var bufferList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(samples, numberOfChannels: 1))
            var flags = AudioUnitRenderActionFlags()
            let status = AudioUnitRender(delayUnit!, &flags, &timeStamp, 0, frames, &bufferList)
            precondition(status == noErr, "AudioUnitRender \(status)")
        }
        timeStamp.mSampleTime += Float64(frames)
        return output
    }

    static func immediate(_ parameter: AudioUnitParameterID, value: AudioUnitParameterValue, atOffset offset: UInt32)
        -> AudioUnitParameterEvent
    {
        var event = AudioUnitParameterEvent()
        event.scope = kAudioUnitScope_Global
        event.element = 0
        event.parameter = parameter
        event.eventType = .parameterEvent_Immediate
        event.eventValues.immediate.bufferOffset = offset
        event.eventValues.immediate.value = value
        return event
    }

    static func ramp(
        _ parameter: AudioUnitParameterID, from startValue: AudioUnitParameterValue, to endValue: AudioUnitParameterValue,
        startingAt offset: Int32, over duration: UInt32
    ) -> AudioUnitParameterEvent {
        AudioUnitParameterEvent(
            scope: kAudioUnitScope_Global, element: 0, parameter: parameter, eventType: .parameterEvent_Ramped,
            eventValues: AudioUnitParameterEvent.__Unnamed_union_eventValues(
                ramp: AudioUnitParameterEvent.__Unnamed_union_eventValues.__Unnamed_struct_ramp(
                    startBufferOffset: offset, durationInFrames: duration, startValue: startValue, endValue: endValue)))
    }

    func dispose() {
        AudioUnitUninitialize(delayUnit!)
        AudioComponentInstanceDispose(delayUnit!)
    }
}

final class MixerFadeOut {
    var mixerUnit: AudioUnit?
    let source = ConstantSource(value: 1)

    /// Renders one call of `frames` frames with bus 0's volume ramped from 1 to 0 over
    /// `duration` frames starting at `start`.
    func render(frames: UInt32, fadeStart start: Int32, duration: UInt32) -> [Float32] {
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
        AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &monoFormat, size)
        AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &monoFormat, size)
        var maximumFrames = frames
        AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames, 4)
        var callback = AURenderCallbackStruct(
            inputProc: constantSourceCallback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        AudioUnitSetProperty(
            mixerUnit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
            &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        precondition(AudioUnitInitialize(mixerUnit!) == noErr)
        defer {
            AudioUnitUninitialize(mixerUnit!)
            AudioComponentInstanceDispose(mixerUnit!)
        }

        var fade = AudioUnitParameterEvent()
        fade.scope = kAudioUnitScope_Input
        fade.element = 0
        fade.parameter = kMultiChannelMixerParam_Volume
        fade.eventType = .parameterEvent_Ramped
        fade.eventValues.ramp.startBufferOffset = start
        fade.eventValues.ramp.durationInFrames = duration
        fade.eventValues.ramp.startValue = 1
        fade.eventValues.ramp.endValue = 0
        precondition(AudioUnitScheduleParameters(mixerUnit!, &fade, 1) == noErr)

        var output = [Float32](repeating: -1, count: Int(frames))
        output.withUnsafeMutableBufferPointer { samples in
            var bufferList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(samples, numberOfChannels: 1))
            var flags = AudioUnitRenderActionFlags()
            var timeStamp = AudioTimeStamp()
            timeStamp.mFlags = .sampleTimeValid
            let status = AudioUnitRender(mixerUnit!, &flags, &timeStamp, 0, frames, &bufferList)
            precondition(status == noErr, "AudioUnitRender \(status)")
        }
        return output
    }
}
