import AudioToolbox

/// Buffers, control values and latency.
extension LV2Instance {
    /// The buffer of the `index`-th audio input (in port order), `maxBlockLength` frames.
    /// Thread: render (real-time), or setup while not running.
    public func audioInput(_ index: Int) -> UnsafeMutablePointer<Float> { buffers.audioInputs[index] }

    /// The buffer of the `index`-th audio output (in port order), `maxBlockLength` frames.
    /// Thread: render (real-time), or setup while not running.
    public func audioOutput(_ index: Int) -> UnsafeMutablePointer<Float> { buffers.audioOutputs[index] }

    /// The `index`-th CV input / output buffer (in port order), `maxBlockLength` frames.
    /// Thread: render (real-time), or setup while not running.
    public func cvInput(_ index: Int) -> UnsafeMutablePointer<Float> { buffers.cvInputs[index] }
    /// Thread: render (real-time), or setup while not running.
    public func cvOutput(_ index: Int) -> UnsafeMutablePointer<Float> { buffers.cvOutputs[index] }

    /// The instance's own memory for port `index` (what it was connected to at instantiation;
    /// nil for an unconnected optional port). Thread: any.
    public func portBuffer(index: Int) -> UnsafeMutableRawPointer? { buffers.pointer(for: index) }

    /// How many audio inputs / outputs the plug-in has. Thread: any.
    public var audioInputCount: Int { buffers.audioInputs.count }
    /// Thread: any.
    public var audioOutputCount: Int { buffers.audioOutputs.count }
    /// How many CV inputs the plug-in has. Thread: any.
    public var cvInputCount: Int { buffers.cvInputs.count }

    /// The value of control port `portIndex` (input or output). Thread: any (a plain float read;
    /// outputs change during run). Throws `kAudioUnitErr_InvalidParameter` for a non-control port.
    public func controlValue(portIndex: Int) throws -> Float {
        try checkControl(portIndex)
        return buffers.controls[portIndex]
    }

    /// Sets control input `portIndex`; the plug-in reads it at its next run. Values are not
    /// clamped (LV2 plug-ins must tolerate any value). Thread: any (a plain float write).
    public func setControl(portIndex: Int, to value: Float) throws {
        try checkControl(portIndex, input: true)
        buffers.controls[portIndex] = value
    }

    /// Sets the control input with `symbol`. Thread: setup (non-real-time): looks the symbol up.
    public func setControl(symbol: String, to value: Float) throws {
        try setControl(portIndex: portIndex(symbol: symbol), to: value)
    }

    /// The value of the control port with `symbol`. Thread: setup (non-real-time).
    public func controlValue(symbol: String) throws -> Float {
        try controlValue(portIndex: portIndex(symbol: symbol))
    }

    /// Pointer to the float a control port is connected to, for render-thread code that sets
    /// parameters without calls. Thread: setup (non-real-time) to obtain; any to use.
    public func controlPointer(portIndex: Int) throws -> UnsafeMutablePointer<Float> {
        try checkControl(portIndex)
        return buffers.controls + portIndex
    }

    /// Control outputs as (symbol, value), in port order. Thread: setup (non-real-time).
    public var controlOutputs: [(symbol: String, value: Float)] {
        descriptor.ports.filter { $0.kind == .control && $0.direction == .output }
            .map { ($0.symbol, buffers.controls[$0.index]) }
    }

    /// The latency the plug-in reports on its latency port, in frames, after the last run (or
    /// `runToRevealLatency`); nil when it has no latency port. Thread: any.
    public var latencyFrames: Float? {
        descriptor.ports.first { $0.reportsLatency }.map { buffers.controls[$0.index] }
    }

    /// The port index of `symbol`. Thread: setup (non-real-time).
    public func portIndex(symbol: String) throws -> Int {
        guard let port = descriptor.ports.first(where: { $0.symbol == symbol }) else {
            throw LV2HostError(
                LV2Status.invalidParameter,
                "LV2 plug-in <\(descriptor.uri)> has no port with symbol '\(symbol)'; "
                    + "its ports are: \(descriptor.ports.map(\.symbol).joined(separator: ", ")).")
        }
        return port.index
    }

    private func checkControl(_ portIndex: Int, input: Bool = false) throws {
        let ports = descriptor.ports
        guard portIndex >= 0, portIndex < ports.count, ports[portIndex].kind == .control,
            !input || ports[portIndex].direction == .input
        else {
            throw LV2HostError(
                LV2Status.invalidParameter,
                "LV2 plug-in <\(descriptor.uri)>: port \(portIndex) is not a control \(input ? "input" : "port").")
        }
    }
}
