// Ported from: Audio Unit Hosting Guide for iOS, "Constructing Audio Unit Apps", Listings 2-2
// (Building an audio processing graph), 2-4 (Attaching a render callback in a thread-safe manner,
// AUGraphSetNodeInputCallback + AUGraphUpdate), 2-5 (Connecting two audio unit nodes) and 2-7
// (Initializing the graph), with the Multichannel Mixer unit of "Using Specific Audio Units"
// (input-scope Volume per bus). The I/O unit is the generic output ('auou' 'genr'), which the
// host pulls itself: the offline render of Apple's "AUGraph with a generic output" pattern.
import AudioToolbox
import Foundation

/// One sound per mixer bus (the guide's soundStructArray): a signal in exact 1/64 steps.
final class SoundBuffer {
    let samples: [Float32]
    var sampleNumber = 0
    init(samples: [Float32]) { self.samples = samples }
}

let mixerInputRenderCallback: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let sound = Unmanaged<SoundBuffer>.fromOpaque(inRefCon).takeUnretainedValue()
    let abl = UnsafeMutableAudioBufferListPointer(ioData)!
    for frame in 0..<Int(inNumberFrames) {
        let value = sound.samples[(sound.sampleNumber + frame) % sound.samples.count]
        for buffer in abl {
            UnsafeMutableBufferPointer<Float32>(buffer)[frame] = value
        }
    }
    sound.sampleNumber += Int(inNumberFrames)
    return noErr
}

final class MixerHostOfflineGraph {
    var processingGraph: AUGraph?
    var ioNode = AUNode()
    var mixerNode = AUNode()
    var ioUnit: AudioUnit?
    var mixerUnit: AudioUnit?
    let sounds: [SoundBuffer]
    let busVolumes: [AudioUnitParameterValue]

    init(sounds: [[Float32]], busVolumes: [AudioUnitParameterValue]) {
        self.sounds = sounds.map { SoundBuffer(samples: $0) }
        self.busVolumes = busVolumes
    }

    func configureAndInitializeAudioProcessingGraph() {
        var ioUnitDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output,
            componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        var mixerUnitDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Mixer,
            componentSubType: kAudioUnitSubType_MultiChannelMixer,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        // Listing 2-2.
        var result = NewAUGraph(&processingGraph)
        precondition(result == noErr, "NewAUGraph \(result)")
        result = AUGraphAddNode(processingGraph!, &ioUnitDescription, &ioNode)
        precondition(result == noErr, "AUGraphAddNode io \(result)")
        result = AUGraphAddNode(processingGraph!, &mixerUnitDescription, &mixerNode)
        precondition(result == noErr, "AUGraphAddNode mixer \(result)")
        result = AUGraphOpen(processingGraph!)
        precondition(result == noErr, "AUGraphOpen \(result)")
        AUGraphNodeInfo(processingGraph!, ioNode, nil, &ioUnit)
        AUGraphNodeInfo(processingGraph!, mixerNode, nil, &mixerUnit)

        // Configure the mixer: bus count and a stereo canonical format on every side.
        var busCount = UInt32(sounds.count)
        result = AudioUnitSetProperty(
            mixerUnit!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0,
            &busCount, UInt32(MemoryLayout<UInt32>.size))
        precondition(result == noErr, "ElementCount \(result)")
        var maximumFramesPerSlice: UInt32 = 4096
        AudioUnitSetProperty(
            mixerUnit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
            &maximumFramesPerSlice, UInt32(MemoryLayout<UInt32>.size))
        var stereoStreamFormat = AudioStreamBasicDescription()
        stereoStreamFormat.mFormatID = kAudioFormatLinearPCM
        stereoStreamFormat.mFormatFlags = kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved
        stereoStreamFormat.mBytesPerPacket = 4
        stereoStreamFormat.mFramesPerPacket = 1
        stereoStreamFormat.mBytesPerFrame = 4
        stereoStreamFormat.mChannelsPerFrame = 2
        stereoStreamFormat.mBitsPerChannel = 32
        stereoStreamFormat.mSampleRate = 44100
        for bus in 0..<busCount {
            result = AudioUnitSetProperty(
                mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus,
                &stereoStreamFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
            precondition(result == noErr, "mixer input format \(result)")
        }
        result = AudioUnitSetProperty(
            mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0,
            &stereoStreamFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
        precondition(result == noErr, "mixer output format \(result)")
        result = AudioUnitSetProperty(
            ioUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0,
            &stereoStreamFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
        precondition(result == noErr, "output unit format \(result)")

        // Listing 2-4: one callback per mixer input bus, set through the graph.
        for (bus, sound) in sounds.enumerated() {
            var callbackStruct = AURenderCallbackStruct()
            callbackStruct.inputProc = mixerInputRenderCallback
            callbackStruct.inputProcRefCon = Unmanaged.passUnretained(sound).toOpaque()
            result = AUGraphSetNodeInputCallback(processingGraph!, mixerNode, UInt32(bus), &callbackStruct)
            precondition(result == noErr, "AUGraphSetNodeInputCallback \(result)")
        }
        // Listing 2-5: mixer output bus 0 → I/O unit output element 0.
        let mixerUnitOutputBus: AudioUnitElement = 0
        let ioUnitOutputElement: AudioUnitElement = 0
        result = AUGraphConnectNodeInput(processingGraph!, mixerNode, mixerUnitOutputBus, ioNode, ioUnitOutputElement)
        precondition(result == noErr, "AUGraphConnectNodeInput \(result)")

        // Listing 2-7.
        result = AUGraphInitialize(processingGraph!)
        precondition(result == noErr, "AUGraphInitialize \(result)")

        // "Use Parameters and UIKit to Give Users Control": the mixer's input volumes.
        for (bus, volume) in busVolumes.enumerated() {
            AudioUnitSetParameter(mixerUnit!, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, UInt32(bus), volume, 0)
        }
        // Listing 2-4's "some time later": commit pending changes (none are left; the call must succeed).
        var graphUpdated: DarwinBoolean = false
        result = AUGraphUpdate(processingGraph!, &graphUpdated)
        precondition(result == noErr, "AUGraphUpdate \(result)")
    }

    /// AUGraphIsInitialized, as the guide's troubleshooting tips check the graph before starting it.
    var isInitialized: Bool {
        var outIsInitialized: DarwinBoolean = false
        let result = AUGraphIsInitialized(processingGraph!, &outIsInitialized)
        return result == noErr && outIsInitialized.boolValue
    }

    /// Pulls the generic output `slices` times; returns left and right.
    func renderOffline(slices: Int, framesPerSlice: UInt32) -> [[Float32]] {
        var output = [[Float32]](repeating: [], count: 2)
        let bufferList = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(bufferList.unsafeMutablePointer) }
        var left = [Float32](repeating: 0, count: Int(framesPerSlice))
        var right = [Float32](repeating: 0, count: Int(framesPerSlice))
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        for _ in 0..<slices {
            left.withUnsafeMutableBytes { l in
                right.withUnsafeMutableBytes { r in
                    bufferList[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(l.count), mData: l.baseAddress)
                    bufferList[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(r.count), mData: r.baseAddress)
                    var flags = AudioUnitRenderActionFlags()
                    let status = AudioUnitRender(ioUnit!, &flags, &timeStamp, 0, framesPerSlice, bufferList.unsafeMutablePointer)
                    precondition(status == noErr, "AudioUnitRender \(status)")
                }
            }
            output[0] += left
            output[1] += right
            timeStamp.mSampleTime += Float64(framesPerSlice)
        }
        return output
    }

    func dispose() {
        AUGraphUninitialize(processingGraph!)
        AUGraphClose(processingGraph!)
        DisposeAUGraph(processingGraph!)
        processingGraph = nil
    }
}
