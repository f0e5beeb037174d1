import ALSADevice
import AUHostCore
import VoiceProcessing

/// The voice-processing I/O unit ('auou' 'vpio' 'appl', kAudioUnitSubType_VoiceProcessingIO):
/// the ALSA I/O unit with webrtc-audio-processing on its input element. Whatever output element 0
/// plays is the echo reference; the microphone read from input element 1 (input callback and
/// AudioUnitRender, as with RemoteIO) has the echo cancelled, noise suppressed, gain controlled and
/// low rumble filtered. The delay handed to the canceller is the device's duplex latency
/// (kAUHostALSAProperty_DuplexLatencyFrames: one playback buffer between a rendered frame and the
/// capture of its echo); the canceller refines it with its own estimate.
///
/// Everything else is the ALSA I/O unit's (devices, formats, rate conversion, properties). Enable
/// input as with RemoteIO. The capture device needs 1 or 2 channels and a rate divisible by 100.
/// Properties: kAUVoiceIOProperty_BypassVoiceProcessing (the microphone then comes out exactly as
/// from the plain unit), _VoiceProcessingEnableAGC (default on), _MuteOutput (with input enabled:
/// without input the unit is the plain ALSA unit and plays unmuted),
/// kAUHostVoiceIOProperty_EchoMetrics and _SuppressionLevel. kAudioUnitProperty_Latency adds one
/// 10 ms chunk plus webrtc's own delay on the capture side (0 when bypassed). Each played period
/// waits in the kernel and is paired chunk by chunk with the next capture (the device thread
/// captures a period before it renders the one it plays), whatever the period size.
///
/// ```c
/// AudioComponentDescription d = { kAudioUnitType_Output, kAudioUnitSubType_VoiceProcessingIO,
///                                 kAudioUnitManufacturer_Apple, 0, 0 };
/// AudioUnit vp; AudioComponentInstanceNew(AudioComponentFindNext(NULL, &d), &vp);
/// UInt32 on = 1;
/// AudioUnitSetProperty(vp, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, 4);
/// // render callback on input 0 (what the far end says), input callback → AudioUnitRender(vp, …, 1, …)
/// AudioUnitInitialize(vp); AudioOutputUnitStart(vp);
/// ```
public final class VoiceProcessingIOUnit: ALSAIOUnit {
    /// Apple's identity for the unit.
    public static let voiceIdentity = AudioComponentDescription(
        type: kAudioUnitType_Output, subType: kAudioUnitSubType_VoiceProcessingIO,
        manufacturer: kAudioUnitManufacturer_Apple)

    /// Bypass, gain control, mute, the suppression level and the metrics property.
    public let controls = VoiceIOControls()
    /// The device thread's voice state while initialized with input enabled.
    var voice: UnsafeMutablePointer<VoiceIOContext>?
    /// The delay handed to the canceller (seconds).
    var reportedDelay = 0.0

    /// Thread: setup.
    public override init(_ description: AudioComponentDescription = VoiceProcessingIOUnit.voiceIdentity) {
        super.init(description)
    }

    deinit {
        uninitialize()
    }

    /// Opens the devices as the ALSA I/O unit does, then creates the processor for the capture
    /// device's rate and channels.
    ///
    /// Thread: setup.
    public override func allocateRenderResources() throws {
        try super.allocateRenderResources()
        guard inputEnabled, let session, let capture = session.capture?.configuration else { return }
        do {
            let playbackChannels = session.playback?.configuration?.channels ?? 1
            guard capture.channels <= 2 else {
                throw AudioError(
                    kAudioUnitErr_FormatNotSupported,
                    "The voice-processing unit processes 1 or 2 microphone channels; the capture device \(captureDeviceName) granted \(capture.channels). Set the input scope format of element 1 to 1 or 2 channels."
                )
            }
            let settings = controls.settings
            let kernel = UnsafeMutablePointer<VoiceProcessingKernel>.allocate(capacity: 1)
            do {
                kernel.initialize(
                    to: try VoiceProcessingKernel(
                        sampleRate: Double(capture.sampleRate), captureChannels: capture.channels,
                        referenceChannels: min(max(playbackChannels, 1), 2),
                        maximumFrames: max(capture.periodFrames, Int(maxFramesPerSlice)), settings: settings))
            } catch {
                kernel.deallocate()
                throw error
            }
            reportedDelay = Double(session.stream.duplexLatencyFrames) / Double(capture.sampleRate)
            kernel.pointee.requestDelay(milliseconds: Int((reportedDelay * 1000).rounded()))
            let context = UnsafeMutablePointer<VoiceIOContext>.allocate(capacity: 1)
            context.initialize(to: VoiceIOContext(kernel: kernel, switches: controls.switches))
            voice = context
            io.pointee.voice = context
        } catch {
            super.deallocateRenderResources()
            throw error
        }
    }

    /// Stops the device thread and closes the devices (the ALSA I/O unit's), then frees the processor.
    ///
    /// Thread: setup.
    public override func deallocateRenderResources() {
        super.deallocateRenderResources()
        io.pointee.voice = nil
        if let voice {
            voice.pointee.kernel.pointee.release()
            voice.pointee.kernel.deinitialize(count: 1)
            voice.pointee.kernel.deallocate()
            voice.deinitialize(count: 1)
            voice.deallocate()
        }
        voice = nil
        reportedDelay = 0
    }

    /// Starts the device thread with the processor's chunking restarted (a stopped stream restarts
    /// from silence).
    ///
    /// Thread: setup.
    public override func startIO() throws {
        if let voice, !isRunning { voice.pointee.kernel.pointee.restart() }
        try super.startIO()
    }

    /// The ALSA I/O unit's latency plus the processing's on the capture side (0 when bypassed).
    public override var latency: Double {
        guard let voice, !controls.bypass, let rate = session?.capture?.configuration?.sampleRate else { return super.latency }
        return super.latency + Double(voice.pointee.kernel.pointee.latencyFrames) / Double(rate)
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
        if controls.get(id, data, kernel: voice?.pointee.kernel, reportedDelay: reportedDelay) { return }
        try super.getCustomProperty(id, scope, element, data)
    }

    /// Thread: setup.
    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        if try controls.propertyInfo(id, scope, element) != nil {
            if try controls.set(id, scope, element, data, size, kernel: voice?.pointee.kernel, initialized: isInitialized) {
                propertyChanged(kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0)
            }
            return
        }
        try super.setCustomProperty(id, scope, element, data, size)
    }
}
