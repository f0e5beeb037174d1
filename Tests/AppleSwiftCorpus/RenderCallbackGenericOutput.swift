// Ported from: Audio Unit Hosting Guide for iOS, "Constructing Audio Unit Apps", Listing 2-3
// (Attaching a render callback immediately), and "Audio Unit Hosting Fundamentals", "Render
// Callback Functions Feed Audio to Audio Units" (the AURenderCallback prototype). The callback's
// state travels as an Unmanaged refCon; the generic output unit ('auou' 'genr') is pulled offline.
import AudioToolbox
import Foundation

/// A sine oscillator whose render callback finds it through `inRefCon`.
final class SineWaveGenerator {
    let frequency: Double
    let sampleRate: Double
    let amplitude: Double
    var sampleTime: Int = 0

    init(frequency: Double, sampleRate: Double, amplitude: Double) {
        self.frequency = frequency
        self.sampleRate = sampleRate
        self.amplitude = amplitude
    }
}

/// The render callback: writes the same sine into every buffer of ioData.
let sineWaveRenderCallback: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let generator = Unmanaged<SineWaveGenerator>.fromOpaque(inRefCon).takeUnretainedValue()
    let abl = UnsafeMutableAudioBufferListPointer(ioData)!
    for frame in 0..<Int(inNumberFrames) {
        let phase = 2.0 * Double.pi * generator.frequency * Double(generator.sampleTime + frame) / generator.sampleRate
        let value = Float32(generator.amplitude * sin(phase))
        for buffer in abl {
            let samples = UnsafeMutableBufferPointer<Float32>(buffer)
            samples[frame] = value
        }
    }
    generator.sampleTime += Int(inNumberFrames)
    return noErr
}

/// Builds a generic output unit fed by `sineWaveRenderCallback` and pulls it slice by slice.
final class GenericOutputSinePlayer {
    let generator: SineWaveGenerator
    var outputUnit: AudioUnit?
    let sampleRate: Double = 44100

    init(frequency: Double) {
        generator = SineWaveGenerator(frequency: frequency, sampleRate: sampleRate, amplitude: 0.5)
    }

    /// Renders `slices` × `framesPerSlice` frames of stereo, one array per channel.
    func render(slices: Int, framesPerSlice: UInt32) -> [[Float32]] {
        var outputDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output,
            componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        let component = AudioComponentFindNext(nil, &outputDescription)!
        var status = AudioComponentInstanceNew(component, &outputUnit)
        precondition(status == noErr, "AudioComponentInstanceNew \(status)")

        var streamFormat = AudioStreamBasicDescription()
        streamFormat.mSampleRate = sampleRate
        streamFormat.mFormatID = kAudioFormatLinearPCM
        streamFormat.mFormatFlags = kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved
        streamFormat.mBytesPerPacket = 4
        streamFormat.mFramesPerPacket = 1
        streamFormat.mBytesPerFrame = 4
        streamFormat.mChannelsPerFrame = 2
        streamFormat.mBitsPerChannel = 32
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            status = AudioUnitSetProperty(
                outputUnit!, kAudioUnitProperty_StreamFormat, scope, 0,
                &streamFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
            precondition(status == noErr, "StreamFormat \(status)")
        }

        // Listing 2-3: attach the callback while audio is not flowing.
        var callbackStruct = AURenderCallbackStruct()
        callbackStruct.inputProc = sineWaveRenderCallback
        callbackStruct.inputProcRefCon = Unmanaged.passUnretained(generator).toOpaque()
        status = AudioUnitSetProperty(
            outputUnit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
            &callbackStruct, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        precondition(status == noErr, "SetRenderCallback \(status)")
        status = AudioUnitInitialize(outputUnit!)
        precondition(status == noErr, "AudioUnitInitialize \(status)")

        var channels = [[Float32]](repeating: [], count: 2)
        let bufferList = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(bufferList.unsafeMutablePointer) }
        let left = UnsafeMutablePointer<Float32>.allocate(capacity: Int(framesPerSlice))
        let right = UnsafeMutablePointer<Float32>.allocate(capacity: Int(framesPerSlice))
        defer { left.deallocate(); right.deallocate() }
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        for _ in 0..<slices {
            bufferList[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: framesPerSlice * 4, mData: left)
            bufferList[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: framesPerSlice * 4, mData: right)
            var flags = AudioUnitRenderActionFlags()
            status = AudioUnitRender(outputUnit!, &flags, &timeStamp, 0, framesPerSlice, bufferList.unsafeMutablePointer)
            precondition(status == noErr, "AudioUnitRender \(status)")
            for (channel, buffer) in bufferList.enumerated() {
                channels[channel] += UnsafeMutableBufferPointer<Float32>(buffer)
            }
            timeStamp.mSampleTime += Float64(framesPerSlice)
        }
        AudioUnitUninitialize(outputUnit!)
        AudioComponentInstanceDispose(outputUnit!)
        outputUnit = nil
        return channels
    }
}
