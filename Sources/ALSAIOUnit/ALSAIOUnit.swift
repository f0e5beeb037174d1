import ALSADevice
import AUHostCore
import DSPKernels
import Foundation
import Synchronization

/// The ALSA I/O unit ('auou' 'alsa' 'AUHs'): the hosting guide's RemoteIO / HAL output unit on
/// Linux, the head of a real-time graph. Element 0 is output (to the playback PCM), element 1
/// input (from the capture PCM). The full contract (elements, formats, properties, faults) is
/// documented in AUHostALSA.h.
///
/// ```c
/// AudioComponentDescription d = { kAudioUnitType_Output, kAudioUnitSubType_RemoteIO,
///                                 kAudioUnitManufacturer_Apple, 0, 0 };
/// AudioUnit io; AudioComponentInstanceNew(AudioComponentFindNext(NULL, &d), &io);
/// AURenderCallbackStruct cb = { myRender, myState };
/// AudioUnitSetProperty(io, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb, sizeof cb);
/// AudioUnitInitialize(io); AudioOutputUnitStart(io);
/// ```
///
/// Lifecycle: AudioUnitInitialize opens and configures the PCMs (so granted values are readable
/// after it); AudioOutputUnitStart runs the device thread; Stop stops it; Uninitialize closes the
/// PCMs (a `file` PCM finishes its file then).
///
/// Not final: `VoiceProcessingIOUnit` ('auou' 'vpio') is this unit with processing hooked into
/// the device thread (`IOContext.voice`).
public class ALSAIOUnit: AUBase {
    /// AUHost's own identity for the unit.
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Output, subType: kAudioUnitSubType_AUHostALSAIO,
        manufacturer: kAudioUnitManufacturer_AUHost)

    // Setup-side settings (properties), read when the unit initializes.
    var playbackDeviceName = "default"
    var captureDeviceName = "default"
    var outputEnabled = true
    var inputEnabled = false
    var preferredSampleRate: Double = 0
    var preferredPeriodFrames: UInt32 = 256
    var preferredPeriodCount: UInt32 = 2
    var inputCallback = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
    /// Whether the app chose the device-side format (output 0 / input 1) explicitly.
    var chosenDeviceFormat = (playback: false, capture: false)

    /// The open devices and stream while initialized.
    var session: ALSAIOSession?
    /// Everything the device thread touches (allocated once, reconfigured at initialize).
    let io: UnsafeMutablePointer<IOContext>
    /// Why the device stopped the unit (written by the stream's notifier thread).
    let failure = Mutex<String?>(nil)

    /// A unit answering to `description` (its own identity or one of the documented aliases).
    ///
    /// Thread: setup.
    public init(_ description: AudioComponentDescription = ALSAIOUnit.identity) {
        io = .allocate(capacity: 1)
        super.init(description: description, inputs: 2, outputs: 2, channels: 2, sampleRate: 48_000)
        io.initialize(to: IOContext(state: state))
        // Know which device-side formats the app set: the property listener runs after every
        // successful StreamFormat (and SampleRate) set, on the setting thread.
        addPropertyListener(kAudioUnitProperty_StreamFormat, streamFormatChanged, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        // Close the devices here, while this class's properties still exist.
        uninitialize()
        io.pointee.release()
        io.deinitialize(count: 1)
        io.deallocate()
    }

    public override var isOutputUnit: Bool { true }

    /// App sides (input 0, output 1): any linear PCM the converter handles. Device sides
    /// (output 0, input 1): the ALSA formats this unit can ask for.
    ///
    /// Thread: setup.
    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard format.mSampleRate > 0, element <= 1 else { return false }
        let appSide = (scope == kAudioUnitScope_Input) == (element == 0)
        if appSide { return (try? SampleFormat(format)) != nil }
        return DeviceFormat(format) != nil
    }

    /// Opens and configures the PCMs, checks what they granted against the app-side formats, and
    /// prepares the device thread's state.
    ///
    /// Thread: setup.
    public override func allocateRenderResources() throws {
        let opened = try openSession()
        var kernels: (playback: UnsafeMutablePointer<ConverterKernel>?, capture: UnsafeMutablePointer<ConverterKernel>?) = (nil, nil)
        do {
            kernels.playback = try rateConverter(opened.playback?.configuration, app: inputFormats[0], playback: true)
            kernels.capture = try rateConverter(opened.capture?.configuration, app: outputFormats[1], playback: false)
        } catch {
            kernels.playback?.deinitialize(count: 1)
            kernels.playback?.deallocate()
            opened.close()
            throw error
        }
        io.pointee.configure(
            playbackFormat: inputFormats[0], captureFormat: outputFormats[1],
            devicePlaybackChannels: opened.playback?.configuration?.channels ?? 0,
            deviceCaptureChannels: opened.capture?.configuration?.channels ?? 0,
            maxFrames: Int(maxFramesPerSlice), playbackKernel: kernels.playback, captureKernel: kernels.capture)
        session = opened
    }

    /// The rate converter of one direction when the device granted another rate than the app
    /// side's (nil when they agree): for playback the input scope of element 0 → the device's
    /// float channels, for capture the device's floats → the output scope of element 1. Channel
    /// c feeds channel c; channels the other side lacks are silent or dropped (as without
    /// conversion). libsoxr at 20-bit quality (28-bit with RenderQuality ≥ 127).
    private func rateConverter(
        _ granted: PCMConfiguration?, app: AudioStreamBasicDescription,
        playback: Bool
    ) throws -> UnsafeMutablePointer<ConverterKernel>? {
        guard let granted, Double(granted.sampleRate) != app.mSampleRate else { return nil }
        let device = AudioStreamBasicDescription.canonical(sampleRate: Double(granted.sampleRate), channels: UInt32(granted.channels))
        let (from, to) = playback ? (app, device) : (device, app)
        let map = (0..<Int(to.mChannelsPerFrame)).map { $0 < Int(from.mChannelsPerFrame) ? $0 : -1 }
        var quality: UInt32 = 0
        try? getProperty(kAudioUnitProperty_RenderQuality, kAudioUnitScope_Global, 0, &quality)
        let k = UnsafeMutablePointer<ConverterKernel>.allocate(capacity: 1)
        do {
            k.initialize(
                to: try ConverterKernel(
                    input: from, output: to, map: map, maximumFrames: Int(maxFramesPerSlice),
                    quality: quality >= 127 ? .veryHigh : .high))
        } catch let error as DSPKernelError {
            k.deallocate()
            let side =
                playback
                ? "the input scope of element 0 (\(app)) to the device's format"
                : "the device's format to the output scope of element 1 (\(app))"
            throw AudioError(
                error.status,
                "The ALSA I/O unit cannot convert \(side) (\(DeviceFormat.description(of: granted))): \(error.message)")
        }
        return k
    }

    /// The rate converter's delay (0 without one): playback's in device frames, capture's in
    /// app frames, as each resampler adds it.
    public override var latency: Double {
        if let kernel = io.pointee.playbackKernel, let granted = session?.playback?.configuration {
            return Double(kernel.pointee.prerollFrames) / Double(granted.sampleRate)
        }
        if let kernel = io.pointee.captureKernel {
            return Double(kernel.pointee.prerollFrames) / outputFormats[1].mSampleRate
        }
        return 0
    }

    /// Stops the device thread and closes the PCMs.
    ///
    /// Thread: setup.
    public override func deallocateRenderResources() {
        guard let current = session else { return }
        let wasRunning = current.stream.isRunning
        current.stream.stop()
        current.close()
        session = nil
        io.pointee.captured = nil
        io.pointee.releaseKernel()
        if wasRunning { propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0) }
    }

    /// AudioOutputUnitStart: initializes first if needed (so a missing or busy device fails
    /// here with its reason), then starts the device thread. Starting a running unit does nothing.
    ///
    /// Thread: setup.
    public override func startIO() throws {
        if !isInitialized { try initialize() }
        guard let current = session else {
            throw AudioError(kAudioUnitErr_Uninitialized, "The ALSA I/O unit has no open device; initialize it first.")
        }
        if current.stream.isRunning { return }
        current.stream.stop()  // releases a run that ended by itself (device failure)
        failure.withLock { $0 = nil }
        io.pointee.captured = nil
        io.pointee.inputProc = inputCallback.inputProc
        io.pointee.inputRefCon = inputCallback.inputProcRefCon
        do {
            try current.stream.start()
        } catch let error as ALSAError {
            throw AudioError(error.status, error.message)
        }
        if let warning = current.stream.schedulingWarning { FileHandle.standardError.write(Data("auhost: \(warning)\n".utf8)) }
        propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
    }

    /// AudioOutputUnitStop: returns once the device thread has left the unit. Stopping a stopped
    /// unit does nothing.
    ///
    /// Thread: setup.
    public override func stopIO() throws {
        guard let current = session else { return }
        let wasRunning = current.stream.isRunning
        current.stream.stop()
        io.pointee.captured = nil
        if wasRunning { propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0) }
    }

    /// The output-unit and AUHost ALSA properties (ALSAIOUnit+Properties.swift).
    ///
    /// Thread: setup.
    public override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        try alsaPropertyInfo(id, scope, element)
    }

    /// Thread: setup.
    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        try alsaGetProperty(id, scope, element, data)
    }

    /// Thread: setup.
    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        try alsaSetProperty(id, scope, element, data, size)
    }

    /// AudioUnitRender on element 1 gives the period just captured, converted to the output
    /// scope format of element 1 (call it from the input or render callback); outside a device
    /// cycle with input enabled it answers kAudioUnitErr_CannotDoInCurrentContext. Element 0 is
    /// pulled by the device itself.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard bus == 1 else { return kAudioUnitErr_CannotDoInCurrentContext }
        // A plain function in the render file, checked there; no reference counting here.
        return renderCaptured(io, frames, output)
    }

    /// Whether the device thread is running.
    ///
    /// Thread: any.
    public var isRunning: Bool { session?.stream.isRunning ?? false }

    /// Called by the stream's supervisor thread when the device stopped the unit by itself:
    /// records the reason and sets LastRenderError; both LastRenderError and IsRunning listeners
    /// run on the listener thread, not here (AudioOutputUnitStop joins this thread while holding
    /// the instance's setup lock, and a listener may call back into the unit).
    func deviceStopped(_ error: ALSAError) {
        failure.withLock { $0 = error.message }
        state.pointee.lastRenderError = error.status
        postPropertyChange(kAudioOutputUnitProperty_IsRunning)
    }

    /// RemoteIO's alternative addresses (AUBase.deviceIOPropertyAddress).
    ///
    /// Thread: setup.
    public override func propertyAddress(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement
    ) -> (scope: AudioUnitScope, element: AudioUnitElement) {
        Self.deviceIOPropertyAddress(id, scope, element)
    }
}

/// Marks device-side formats the app set itself (see `ALSAIOUnit.init`).
private let streamFormatChanged: AudioUnitPropertyListenerProc = { refCon, _, _, scope, element in
    let unit = Unmanaged<ALSAIOUnit>.fromOpaque(refCon).takeUnretainedValue()
    if scope == kAudioUnitScope_Output && element == 0 { unit.chosenDeviceFormat.playback = true }
    if scope == kAudioUnitScope_Input && element == 1 { unit.chosenDeviceFormat.capture = true }
}
