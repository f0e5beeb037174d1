import AUHostCore
import CAUHostAtomics
import CJACK
import Foundation
import Synchronization

/// The JACK I/O unit ('auou' 'jack' 'AUHs'): a graph's head as a JACK client, with named ports,
/// the server's rate and buffer size, xruns counted, the JACK transport offered as host callbacks
/// and freewheeling on request. The contract (elements, formats, properties, faults) is in
/// AUHostJACK.h.
///
/// Lifecycle: AudioUnitInitialize opens the client and registers one port per app channel;
/// AudioOutputUnitStart activates it (and connects to the physical ports with AutoConnect);
/// Stop deactivates it; Uninitialize closes it.
public final class JACKIOUnit: AUBase {
    /// AUHost's identity for the unit.
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Output, subType: kAudioUnitSubType_AUHostJACKIO, manufacturer: kAudioUnitManufacturer_AUHost)

    // Setup-side settings (properties), read when the unit initializes or starts.
    var serverName = "default"
    var clientName = "auhost"
    var autoConnect = true
    var outputEnabled = true
    var inputEnabled = false
    var inputCallback = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
    /// Whether Start activated the client (until Stop or Uninitialize).
    private var activated = false

    /// Everything JACK's threads touch (allocated once with the unit).
    let io: UnsafeMutablePointer<JACKIOContext>
    /// Why the server stopped the unit (written on JACK's notification thread).
    let failure = Mutex<String?>(nil)
    var stopReason: String? { failure.withLock { $0 } }
    private var relay: Unmanaged<JACKStopRelay>?

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = JACKIOUnit.identity) {
        io = .allocate(capacity: 1)
        super.init(description: description, inputs: 2, outputs: 2, channels: 2, sampleRate: 48_000)
        io.initialize(to: JACKIOContext(state: state))
    }

    deinit {
        uninitialize()
        io.pointee.release()
        io.deinitialize(count: 1)
        io.deallocate()
    }

    public override var isOutputUnit: Bool { true }

    /// Canonical Float32 (non-interleaved), 1…64 channels, on the app sides (input 0, output 1);
    /// the device sides describe the ports and follow the app sides.
    ///
    /// Thread: setup.
    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard element <= 1, format.mSampleRate > 0 else { return false }
        let canonical = AudioStreamBasicDescription.canonical(sampleRate: format.mSampleRate, channels: format.mChannelsPerFrame)
        return format == canonical && (1...UInt32(JACKIOContext.maximumChannels)).contains(format.mChannelsPerFrame)
    }

    /// Opens the client on the server, checks the app sides against its rate and buffer size,
    /// and registers the ports.
    ///
    /// Thread: setup.
    public override func allocateRenderResources() throws {
        guard outputEnabled || inputEnabled else {
            throw AudioError(
                kAudioUnitErr_FailedInitialization,
                "Both directions of the JACK I/O unit are disabled; enable output (EnableIO, output scope, element 0) or input (input scope, element 1)."
            )
        }
        failure.withLock { $0 = nil }
        let client = try JACKClient.open(name: clientName, server: serverName)
        do {
            try configure(client)
        } catch {
            jack_client_close(client)
            io.pointee.client = nil
            throw error
        }
    }

    private func configure(_ client: OpaquePointer) throws {
        let rate = Double(jack_get_sample_rate(client))
        let bufferFrames = jack_get_buffer_size(client)
        let app = [outputEnabled ? inputFormats[0] : nil, inputEnabled ? outputFormats[1] : nil].compactMap { $0 }
        if let other = app.first(where: { $0.mSampleRate != rate }) {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "JACK server \"\(serverName)\" runs at \(Int(rate)) Hz; the JACK I/O unit's app side is at \(other.mSampleRate) Hz. Set the stream format to the server's rate (an AUConverter before the unit converts)."
            )
        }
        guard bufferFrames <= maxFramesPerSlice else {
            throw AudioError(
                kAudioUnitErr_TooManyFramesToProcess,
                "JACK server \"\(serverName)\" runs cycles of \(bufferFrames) frames, more than MaximumFramesPerSlice (\(maxFramesPerSlice)); raise MaximumFramesPerSlice."
            )
        }
        io.pointee.client = client
        io.pointee.serverSampleRate = rate
        io.pointee.maxFrames = maxFramesPerSlice
        io.pointee.outputCount = 0
        io.pointee.inputCount = 0
        if outputEnabled {
            for c in 0..<Int(inputFormats[0].mChannelsPerFrame) {
                io.pointee.outputPorts[c] = try JACKClient.register(client, "out_\(c + 1)", output: true)
                io.pointee.outputCount = c + 1
            }
        }
        if inputEnabled {
            for c in 0..<Int(outputFormats[1].mChannelsPerFrame) {
                io.pointee.inputPorts[c] = try JACKClient.register(client, "in_\(c + 1)", output: false)
                io.pointee.inputCount = c + 1
            }
        }
        let context = UnsafeMutableRawPointer(io)
        jack_set_process_callback(client, jackIOProcess, context)
        jack_set_xrun_callback(client, jackIOXrun, context)
        jack_set_freewheel_callback(client, jackIOFreewheel, context)
        let relay = Unmanaged.passRetained(JACKStopRelay(self))
        self.relay?.release()
        self.relay = relay
        jack_on_info_shutdown(client, jackIOShutdown, relay.toOpaque())
        try applyTimebase()
    }

    /// Deactivates and closes the client.
    ///
    /// Thread: setup.
    public override func deallocateRenderResources() {
        guard let client = io.pointee.client else { return }
        let wasRunning = isRunning
        // A client the server shut down is only closed (jack2 frees its state on close).
        if stopReason == nil { jack_deactivate(client) }
        jack_client_close(client)
        io.pointee.client = nil
        io.pointee.outputCount = 0
        io.pointee.inputCount = 0
        activated = false
        relay?.release()
        relay = nil
        if wasRunning { propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0) }
    }

    /// AudioOutputUnitStart: initializes first if needed, activates the client and, with
    /// AutoConnect, connects the ports to the server's physical ports.
    ///
    /// Thread: setup.
    public override func startIO() throws {
        if !isInitialized { try initialize() }
        guard let client = io.pointee.client, stopReason == nil else {
            throw AudioError(
                kAudioUnitErr_NoConnection,
                "The JACK I/O unit has no server connection\(stopReason.map { ": \($0)" } ?? ""); initialize it again.")
        }
        if isRunning { return }
        io.pointee.inputProc = inputCallback.inputProc
        io.pointee.inputRefCon = inputCallback.inputProcRefCon
        io.pointee.sampleTime = 0
        auhost_atomic_store_u64(&io.pointee.xruns, 0)
        guard jack_activate(client) == 0 else {
            throw AudioError(kAudioUnitErr_NoConnection, "JACK server \"\(serverName)\" did not activate client \(actualClientName).")
        }
        activated = true
        if autoConnect { JACKClient.connectToPhysicalPorts(client, io) }
        propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
    }

    /// AudioOutputUnitStop: returns once JACK no longer calls the unit.
    ///
    /// Thread: setup.
    public override func stopIO() throws {
        guard activated, let client = io.pointee.client else { return }
        let wasRunning = isRunning
        if stopReason == nil { jack_deactivate(client) }
        activated = false
        if wasRunning { propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0) }
    }

    /// The output-unit and AUHost JACK properties (JACKIOUnit+Properties.swift).
    ///
    /// Thread: setup.
    public override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        try jackPropertyInfo(id, scope, element)
    }

    /// Thread: setup.
    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeMutableRawPointer
    ) throws {
        try jackGetProperty(id, scope, element, data)
    }

    /// Thread: setup.
    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        try jackSetProperty(id, scope, element, data, size)
    }

    /// AudioUnitRender on element 1 gives the cycle's input (call it from the input or render
    /// callback); element 0 is pulled by JACK's cycle itself.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard bus == 1 else { return kAudioUnitErr_CannotDoInCurrentContext }
        return renderJACKInput(io, frames, output)
    }

    /// Whether JACK calls the unit: started, and the server has not shut the client down.
    ///
    /// Thread: any.
    public var isRunning: Bool { activated && stopReason == nil }

    /// The client's name as the server granted it (the asked-for name while uninitialized).
    ///
    /// Thread: setup.
    public var actualClientName: String {
        guard let client = io.pointee.client, let name = jack_get_client_name(client) else { return clientName }
        return String(cString: name)
    }

    /// Called on JACK's notification thread when the server shut the client down: records the
    /// reason; LastRenderError and IsRunning listeners run on the listener thread.
    func serverStopped(_ reason: String) {
        failure.withLock { $0 = reason }
        state.pointee.lastRenderError = kAudioUnitErr_NoConnection
        postPropertyChange(kAudioOutputUnitProperty_IsRunning)
    }

    /// RemoteIO's alternative addresses, as on the ALSA I/O unit (AUBase.deviceIOPropertyAddress).
    ///
    /// Thread: setup.
    public override func propertyAddress(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement
    ) -> (scope: AudioUnitScope, element: AudioUnitElement) {
        Self.deviceIOPropertyAddress(id, scope, element)
    }
}

/// Forwards JACK's shutdown notice to the unit without keeping the unit alive.
final class JACKStopRelay: @unchecked Sendable {
    weak var unit: JACKIOUnit?
    init(_ unit: JACKIOUnit) { self.unit = unit }
}

/// JACK's shutdown callback (on JACK's notification thread, never the process thread).
let jackIOShutdown: JackInfoShutdownCallback = { _, reason, arg in
    guard let arg else { return }
    let relay = Unmanaged<JACKStopRelay>.fromOpaque(arg).takeUnretainedValue()
    relay.unit?.serverStopped(reason.map { String(cString: $0) } ?? "the JACK server shut the client down")
}
