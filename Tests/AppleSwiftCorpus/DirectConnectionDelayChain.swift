// Ported from: Audio Unit Hosting Guide for iOS, "Constructing Audio Unit Apps", Listing 2-6
// (Connecting two audio units directly, kAudioUnitProperty_MakeConnection with an
// AudioUnitConnection), without a graph: each unit is initialized in turn, as the guide says one
// must when building a processing chain without a graph. The source unit is Apple's delay effect
// (kAudioUnitType_Effect / kAudioUnitSubType_Delay) at a 50 % wet/dry mix, the destination the
// generic output unit, which the host pulls.
import AudioToolbox
import Foundation

/// Impulses of height 1 at the given frames; silence elsewhere.
final class ImpulseTrain {
    let impulseFrames: Set<Int>
    var frame = 0
    init(impulseFrames: Set<Int>) { self.impulseFrames = impulseFrames }
}

let impulseTrainCallback: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let train = Unmanaged<ImpulseTrain>.fromOpaque(inRefCon).takeUnretainedValue()
    for buffer in UnsafeMutableAudioBufferListPointer(ioData)! {
        let samples = UnsafeMutableBufferPointer<Float32>(buffer)
        for i in 0..<Int(inNumberFrames) {
            samples[i] = train.impulseFrames.contains(train.frame + i) ? 1 : 0
        }
    }
    train.frame += Int(inNumberFrames)
    return noErr
}

final class DirectDelayChain {
    var mixerUnitInstance: AudioUnit?  // the guide's name for the source unit: here the delay
    var ioUnitInstance: AudioUnit?
    let train: ImpulseTrain

    init(impulseFrames: Set<Int>) {
        train = ImpulseTrain(impulseFrames: impulseFrames)
    }

    func build(sampleRate: Float64, delayTime: AudioUnitParameterValue, wetDryMix: AudioUnitParameterValue) {
        var delayDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        var ioDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &delayDescription)!, &mixerUnitInstance)
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &ioDescription)!, &ioUnitInstance)

        var monoFormat = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        let formatSize = UInt32(MemoryLayout.size(ofValue: monoFormat))
        for unit in [mixerUnitInstance!, ioUnitInstance!] {
            for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
                let status = AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &monoFormat, formatSize)
                precondition(status == noErr, "StreamFormat \(status)")
            }
        }
        var callbackStruct = AURenderCallbackStruct(
            inputProc: impulseTrainCallback,
            inputProcRefCon: Unmanaged.passUnretained(train).toOpaque())
        AudioUnitSetProperty(
            mixerUnitInstance!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
            &callbackStruct, UInt32(MemoryLayout.size(ofValue: callbackStruct)))

        // Listing 2-6.
        let mixerUnitOutputBus: AudioUnitElement = 0
        let ioUnitOutputElement: AudioUnitElement = 0
        var mixerOutToIoUnitIn = AudioUnitConnection()
        mixerOutToIoUnitIn.sourceAudioUnit = mixerUnitInstance
        mixerOutToIoUnitIn.sourceOutputNumber = mixerUnitOutputBus
        mixerOutToIoUnitIn.destInputNumber = ioUnitOutputElement
        let status = AudioUnitSetProperty(
            ioUnitInstance!,  // connection destination
            kAudioUnitProperty_MakeConnection,  // property key
            kAudioUnitScope_Input,  // destination scope
            ioUnitOutputElement,  // destination element
            &mixerOutToIoUnitIn,  // connection definition
            UInt32(MemoryLayout<AudioUnitConnection>.size))
        precondition(status == noErr, "MakeConnection \(status)")

        precondition(AudioUnitInitialize(mixerUnitInstance!) == noErr)
        precondition(AudioUnitInitialize(ioUnitInstance!) == noErr)
        AudioUnitSetParameter(mixerUnitInstance!, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, wetDryMix, 0)
        AudioUnitSetParameter(mixerUnitInstance!, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, delayTime, 0)
        AudioUnitSetParameter(mixerUnitInstance!, kDelayParam_Feedback, kAudioUnitScope_Global, 0, 0, 0)
    }

    func pull(frames: Int, framesPerSlice: UInt32) -> [Float32] {
        var rendered: [Float32] = []
        var slice = [Float32](repeating: 0, count: Int(framesPerSlice))
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        while rendered.count < frames {
            slice.withUnsafeMutableBufferPointer { samples in
                var bufferList = AudioBufferList(
                    mNumberBuffers: 1,
                    mBuffers: AudioBuffer(samples, numberOfChannels: 1))
                var flags = AudioUnitRenderActionFlags()
                let status = AudioUnitRender(ioUnitInstance!, &flags, &timeStamp, 0, framesPerSlice, &bufferList)
                precondition(status == noErr, "AudioUnitRender \(status)")
            }
            rendered += slice
            timeStamp.mSampleTime += Float64(framesPerSlice)
        }
        return Array(rendered.prefix(frames))
    }

    func dispose() {
        for unit in [ioUnitInstance!, mixerUnitInstance!] {
            AudioUnitUninitialize(unit)
            AudioComponentInstanceDispose(unit)
        }
    }
}
