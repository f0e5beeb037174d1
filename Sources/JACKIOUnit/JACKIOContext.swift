import AUHostCore
import CAUHostAtomics
import CJACK
import Glibc

/// Everything JACK's process thread touches for one JACK I/O unit: allocated with the unit (so
/// the transport callbacks' user data stays valid for the unit's life), filled at initialize.
/// Setup threads write the ports, callbacks and sizes only while the client is not active.
struct JACKIOContext {
    static let maximumChannels = 64

    let state: UnsafeMutablePointer<RenderState>
    var client: OpaquePointer?
    /// The client's ports (capacity `maximumChannels` each) and how many are registered.
    let outputPorts: UnsafeMutablePointer<OpaquePointer?>
    let inputPorts: UnsafeMutablePointer<OpaquePointer?>
    var outputCount = 0
    var inputCount = 0
    /// This cycle's input port buffers, for AudioUnitRender on element 1.
    let captured: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    var capturedFrames: UInt32 = 0
    var inputProc: AURenderCallback?
    var inputRefCon: UnsafeMutableRawPointer?
    let timeStamp: UnsafeMutablePointer<AudioTimeStamp>
    let flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>
    var sampleTime: Int64 = 0
    var maxFrames: UInt32 = 0
    var serverSampleRate: Double = 0
    /// The transport as the cycle in progress began.
    var transport = JACKTransportSnapshot()

    // Written by JACK's threads, read anywhere (atomics).
    var xruns: UInt64 = 0
    var freewheeling: UInt64 = 0
    var shutDown: UInt64 = 0
    var framesProcessed: UInt64 = 0
    /// Cycles longer than MaximumFramesPerSlice (played as silence).
    var oversizedCycles: UInt64 = 0
    /// The timebase master's tempo as Float64 bits (0: not master), written by setup threads.
    var timebaseTempoBits: UInt64 = 0

    /// Thread: setup.
    init(state: UnsafeMutablePointer<RenderState>) {
        self.state = state
        outputPorts = .allocate(capacity: Self.maximumChannels)
        outputPorts.initialize(repeating: nil, count: Self.maximumChannels)
        inputPorts = .allocate(capacity: Self.maximumChannels)
        inputPorts.initialize(repeating: nil, count: Self.maximumChannels)
        captured = .allocate(capacity: Self.maximumChannels)
        captured.initialize(repeating: nil, count: Self.maximumChannels)
        timeStamp = .allocate(capacity: 1)
        timeStamp.initialize(to: AudioTimeStamp())
        flags = .allocate(capacity: 1)
        flags.initialize(to: AudioUnitRenderActionFlags(rawValue: 0))
    }

    /// Frees the context's memory. Thread: setup (the client is closed).
    func release() {
        outputPorts.deallocate()
        inputPorts.deallocate()
        captured.deallocate()
        timeStamp.deallocate()
        flags.deallocate()
    }
}
