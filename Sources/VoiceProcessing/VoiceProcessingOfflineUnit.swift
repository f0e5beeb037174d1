import AUHostCore

/// The voice-processing unit rendered offline ('auou' 'vpof' 'AUHs'): the processing of the ALSA
/// voice-processing unit with the device replaced by render callbacks, so recordings can be
/// processed and tested. Its elements mirror Apple's voice-processing I/O unit: input scope
/// element 0 takes the far end (what the loudspeaker would play), input scope element 1 the
/// microphone (where the device would supply it).
///
/// AudioUnitRender on output element 1 pulls both inputs for the time stamp, feeds the far end to
/// the canceller, and gives the processed microphone, `kAudioUnitProperty_Latency` late (one 10 ms
/// chunk plus webrtc's own delay). AudioUnitRender on output element 0 gives the far end pulled by
/// the element-1 render of the same time stamp (silence with kAUVoiceIOProperty_MuteOutput), or
/// pulls input 0 itself when no such render happened (that far end then does not reach the
/// canceller). With kAUVoiceIOProperty_BypassVoiceProcessing the microphone passes untouched.
/// The output is the same, sample for sample, whatever block sizes the host renders in: webrtc
/// sees the far end and the microphone chunk by chunk (VoiceBlockSizeTests).
///
/// Formats: Float32 non-interleaved, 1 or 2 channels, one rate divisible by 100 on every element
/// (refused at AudioUnitInitialize otherwise, with kAudioUnitErr_FormatNotSupported); each output
/// element has its input element's channel count.
///
/// ```swift
/// var d = AudioComponentDescription(componentType: kAudioUnitType_Output,
///     componentSubType: kAudioUnitSubType_AUHostVoiceProcessingOffline, componentManufacturer: kAudioUnitManufacturer_AUHost, ...)
/// // set render callbacks on input scope elements 0 (far end) and 1 (microphone), initialize,
/// // then AudioUnitRender(unit, &flags, &time, 1, frames, list) block after block.
/// ```
public final class VoiceProcessingOfflineUnit: AUPulledOutputBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Output, subType: kAudioUnitSubType_AUHostVoiceProcessingOffline,
        manufacturer: kAudioUnitManufacturer_AUHost)

    /// Bypass, gain control, mute, the suppression level and the metrics property.
    public let controls = VoiceIOControls()
    /// Everything the render thread touches.
    let context: UnsafeMutablePointer<OfflineVoiceContext>

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = VoiceProcessingOfflineUnit.identity) {
        context = .allocate(capacity: 1)
        context.initialize(to: OfflineVoiceContext())
        super.init(description: description, inputs: 2, outputs: 2, channels: 1, sampleRate: 48_000)
        context.pointee.switches = controls.switches
    }

    deinit {
        uninitialize()
        context.deinitialize(count: 1)
        context.deallocate()
    }

    /// Float32 non-interleaved, 1 or 2 channels (the rate is checked at initialize).
    ///
    /// Thread: setup.
    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        format.isCanonical && format.mSampleRate > 0 && (1...2).contains(format.mChannelsPerFrame) && element <= 1
    }

    /// Checks the four formats agree and creates the processor.
    ///
    /// Thread: setup.
    public override func allocateRenderResources() throws {
        let rate = inputFormats[1].mSampleRate
        let formats = inputFormats + outputFormats
        guard formats.allSatisfy({ $0.mSampleRate == rate }) else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The offline voice-processing unit runs every element at one rate; its formats are \(formats.map { "\($0.mSampleRate) Hz" }). Set the same rate (or use a format converter in front)."
            )
        }
        for element in 0..<2 where inputFormats[element].mChannelsPerFrame != outputFormats[element].mChannelsPerFrame {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The offline voice-processing unit's output element \(element) has its input element's channel count: input \(inputFormats[element].mChannelsPerFrame), output \(outputFormats[element].mChannelsPerFrame)."
            )
        }
        let settings = controls.settings
        let frames = Int(maxFramesPerSlice)
        let kernel = UnsafeMutablePointer<VoiceProcessingKernel>.allocate(capacity: 1)
        do {
            kernel.initialize(
                to: try VoiceProcessingKernel(
                    sampleRate: rate, captureChannels: Int(inputFormats[1].mChannelsPerFrame),
                    referenceChannels: Int(inputFormats[0].mChannelsPerFrame), maximumFrames: frames, settings: settings))
        } catch {
            kernel.deallocate()
            throw error
        }
        kernel.pointee.requestDelay(milliseconds: 0)
        context.pointee.configure(kernel: kernel, farChannels: Int(inputFormats[0].mChannelsPerFrame), maximumFrames: frames)
    }

    /// Thread: setup.
    public override func deallocateRenderResources() {
        context.pointee.release()
    }

    /// Forgets the canceller's state, as a fresh unit would start (setup thread: it allocates).
    ///
    /// Thread: setup.
    public override func resetState() {
        guard isInitialized else { return }
        deallocateRenderResources()
        try? allocateRenderResources()
    }

    /// One 10 ms chunk plus webrtc's own delay; 0 when bypassed or uninitialized.
    public override var latency: Double {
        guard let kernel = context.pointee.kernel, !controls.bypass else { return 0 }
        return Double(kernel.pointee.latencyFrames) / inputFormats[1].mSampleRate
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        // A plain function in the render file, checked there.
        renderOfflineVoice(context, renderState(), bus, flags, timeStamp, frames, output)
    }

    /// Thread: setup.
    public override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        if let info = try controls.propertyInfo(id, scope, element) { return info }
        return try super.customPropertyInfo(id, scope, element)
    }

    /// Thread: setup.
    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        if controls.get(id, data, kernel: context.pointee.kernel, reportedDelay: 0) { return }
        try super.getCustomProperty(id, scope, element, data)
    }

    /// Thread: setup.
    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        if try controls.set(id, scope, element, data, size, kernel: context.pointee.kernel, initialized: isInitialized) {
            propertyChanged(kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0)
        }
    }
}
