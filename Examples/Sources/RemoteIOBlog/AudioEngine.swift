import AudioToolbox
import AUHost

let kOutputBus: AudioUnitElement = 0
let kInputBus: AudioUnitElement = 1

/// The blog's CheckOSStatus: prints the failure (with AUHost's sentence) and says whether to go on.
func CheckOSStatus(_ status: OSStatus, _ message: String) -> Bool {
    guard status != noErr else { return true }
    let reason = AUHostCopyLastErrorMessage().flatMap { String(cfString: $0.takeRetainedValue()) } ?? ""
    print("error: \(message) (status \(status)). \(reason)")
    return false
}

/// The blog's ASAudioEngine, in Swift: a RemoteIO unit set up property by property (the "Unit
/// API" way) or an AUGraph of a Multichannel Mixer with two input buses into RemoteIO (the "AU
/// Graph" way). The record callback renders each captured period into the engine's own buffer
/// (ShouldAllocateBuffer 0); the playback callback plays it back, and in the graph, bus 1 adds
/// the "beats" sound.
final class AudioEngine {
    var mVoipUnit: AudioUnit?
    var mMixerUnit: AudioUnit?
    var processingGraph: AUGraph?
    let inputAudioDescription: AudioStreamBasicDescription
    let outputAudioDescription: AudioStreamBasicDescription
    /// The captured period, in the app's buffers (allocated once here, reused on the render thread).
    let recorded: AudioBufferStorage
    /// Frames of the "beats" source played so far (render thread only).
    var beatsFrame = 0
    /// Periods played, for the main thread to know when to stop.
    let framesPlayed = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    var lastRecordError: OSStatus = noErr

    init(format: AudioStreamBasicDescription) {
        inputAudioDescription = format
        outputAudioDescription = format
        recorded = AudioBufferStorage(format: format, capacity: 4096)
        framesPlayed.initialize(to: 0)
    }

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Thread: setup. The blog's "Unit API方式 (Remote IO Unit)".
    func setUpRemoteIO(device: String) -> Bool {
        var outputDescription = AudioComponentDescription()
        outputDescription.componentType = kAudioUnitType_Output
        outputDescription.componentSubType = kAudioUnitSubType_RemoteIO
        outputDescription.componentManufacturer = kAudioUnitManufacturer_Apple
        outputDescription.componentFlags = 0
        outputDescription.componentFlagsMask = 0
        let comp = AudioComponentFindNext(nil, &outputDescription)
        guard CheckOSStatus(AudioComponentInstanceNew(comp!, &mVoipUnit), "couldn't create a new instance of RemoteIO") else {
            return false
        }
        guard configureSession(device: device) else { return false }
        // The blog sets the playback callback in global scope; AUHost's ALSA unit takes it only on
        // the input scope of element 0 (see Examples/README.md).
        return configureRemoteIO(playbackCallbackScope: kAudioUnitScope_Global)
            && CheckOSStatus(AudioUnitInitialize(mVoipUnit!), "couldn't initialize VoiceProcessingIO instance")
    }

    /// Thread: setup. The blog's "AU Graph方式 (MultiChannelMixer Unit + Remote IO Unit)".
    func setUpGraph(device: String) -> Bool {
        guard CheckOSStatus(NewAUGraph(&processingGraph), "couldn't create a new instance of AUGraph") else { return false }
        var iOUnitDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_RemoteIO,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var MixerUnitDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var iONode = AUNode(), mixerNode = AUNode()
        guard
            CheckOSStatus(
                AUGraphAddNode(processingGraph!, &iOUnitDescription, &iONode), "couldn't add a node instance of kAudioUnitSubType_RemoteIO"),
            CheckOSStatus(
                AUGraphAddNode(processingGraph!, &MixerUnitDescription, &mixerNode), "couldn't add a node instance of mixer unit"),
            CheckOSStatus(AUGraphOpen(processingGraph!), "couldn't open the graph"),
            CheckOSStatus(AUGraphNodeInfo(processingGraph!, mixerNode, nil, &mMixerUnit), "couldn't get instance of mixer unit"),
            CheckOSStatus(AUGraphNodeInfo(processingGraph!, iONode, nil, &mVoipUnit), "couldn't get a new instance of remoteio unit"),
            configureSession(device: device)
        else { return false }

        var busCount: UInt32 = 2  // bus count for mixer unit input
        let guitarBus: UInt32 = 0  // mixer unit bus 0 takes the recorded sound
        let beatsBus: UInt32 = 1  // mixer unit bus 1 takes the beats sound
        guard
            CheckOSStatus(
                AudioUnitSetProperty(
                    mMixerUnit!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0,
                    &busCount, UInt32(MemoryLayout<UInt32>.size)), "could not set mixer unit input bus count")
        else { return false }
        var maximumFramesPerSlice: UInt32 = 4096
        guard
            CheckOSStatus(
                AudioUnitSetProperty(
                    mMixerUnit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
                    &maximumFramesPerSlice, UInt32(MemoryLayout<UInt32>.size)),
                "could not set mixer unit maximum frame per slice")
        else { return false }
        for busNumber in 0..<busCount {
            var playbackCallback = AURenderCallbackStruct(inputProc: playbackCallbackFunc, inputProcRefCon: refCon)
            print("Registering the render callback with mixer unit input bus \(busNumber)")
            guard
                CheckOSStatus(
                    AUGraphSetNodeInputCallback(processingGraph!, mixerNode, busNumber, &playbackCallback),
                    "couldn't set playback callback on mixer unit")
            else { return false }
        }
        var format = outputAudioDescription
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard
            CheckOSStatus(
                AudioUnitSetProperty(mMixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, guitarBus, &format, size),
                "couldn't set the input 0 client format on mixer unit"),
            CheckOSStatus(
                AudioUnitSetProperty(mMixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, beatsBus, &format, size),
                "couldn't set the input 1 client format on mixer unit")
        else { return false }
        var graphSampleRate: Float64 = inputAudioDescription.mSampleRate  // the blog's 44100.0; the file PCMs run at 48 kHz here
        guard
            CheckOSStatus(
                AudioUnitSetProperty(
                    mMixerUnit!, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0,
                    &graphSampleRate, UInt32(MemoryLayout<Float64>.size)),
                "couldn't set the output client format on mixer unit")
        else { return false }

        // The graph installs the mixer -> I/O connection; the playback callback lives on the mixer.
        return configureRemoteIO(playbackCallbackScope: nil)
            && CheckOSStatus(AUGraphConnectNodeInput(processingGraph!, mixerNode, 0, iONode, 0), "couldn't connect ionode to mixernode")
            && CheckOSStatus(AUGraphInitialize(processingGraph!), "AUGraphInitialize failed")
    }

    /// Thread: setup. On iOS this is the audio session; on Linux the I/O unit's device and the
    /// preferred period ("I/O buffer duration") are its own properties.
    private func configureSession(device: String) -> Bool {
        let name = CFStringCreateWithCString(nil, device, CFStringBuiltInEncodings.UTF8.rawValue)!
        var period: UInt32 = 64, periods: UInt32 = 3
        // The property takes a CFStringRef: hand over the reference's own bytes.
        return CheckOSStatus(
            withUnsafeBytes(of: name) {
                AudioUnitSetProperty(
                    mVoipUnit!, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, $0.baseAddress, UInt32($0.count))
            }, "couldn't set the device")
            && CheckOSStatus(
                AudioUnitSetProperty(
                    mVoipUnit!, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0,
                    &period, 4), "couldn't set the period")
            && CheckOSStatus(
                AudioUnitSetProperty(
                    mVoipUnit!, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0,
                    &periods, 4), "couldn't set the period count")
    }

    /// Thread: setup. The blog's RemoteIO properties, in its order. A nil scope leaves the
    /// playback callback off the I/O unit (the graph form puts it on the mixer).
    private func configureRemoteIO(playbackCallbackScope: AudioUnitScope?) -> Bool {
        let unit = mVoipUnit!
        var flag: UInt32 = 1
        guard
            CheckOSStatus(
                AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, kOutputBus, &flag, 4),
                "could not enable output on RemoteIO"),
            CheckOSStatus(
                AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, kInputBus, &flag, 4),
                "AudioUnitSetProperty EnableIO")
        else { return false }
        var input = inputAudioDescription, output = outputAudioDescription
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard
            CheckOSStatus(
                AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, kInputBus, &input, size),
                "couldn't set the input client format on RemoteIO"),
            CheckOSStatus(
                AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, kOutputBus, &output, size),
                "couldn't set the output client format on RemoteIO")
        else { return false }
        var maxFramesPerSlice: UInt32 = 4096
        guard
            CheckOSStatus(
                AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFramesPerSlice, 4),
                "couldn't set max frames per slice on RemoteIO")
        else { return false }
        var recordCallback = AURenderCallbackStruct(inputProc: recordCallbackFunc, inputProcRefCon: refCon)
        guard
            CheckOSStatus(
                AudioUnitSetProperty(
                    unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, kInputBus,
                    &recordCallback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)),
                "couldn't set record callback on RemoteIO")
        else { return false }
        if let scope = playbackCallbackScope {
            var playbackCallback = AURenderCallbackStruct(inputProc: playbackCallbackFunc, inputProcRefCon: refCon)
            guard
                CheckOSStatus(
                    AudioUnitSetProperty(
                        unit, kAudioUnitProperty_SetRenderCallback, scope, kOutputBus,
                        &playbackCallback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)),
                    "couldn't set playback callback on RemoteIO")
            else { return false }
        }
        flag = 0
        return CheckOSStatus(
            AudioUnitSetProperty(unit, kAudioUnitProperty_ShouldAllocateBuffer, kAudioUnitScope_Output, kInputBus, &flag, 4),
            "couldn't set property for ShouldAllocateBuffer")
    }
}
