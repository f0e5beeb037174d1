import AUHost
import CAUHostAtomics
import JACKIOUnit
import XCTest

/// A JACK I/O unit made through the C API as a host would, AutoConnect off (the dummy backend's
/// physical ports would take the samples the tests record), disposed with the test.
final class JACKUnitUnderTest {
    let unit: AudioUnit

    init(clientName: String, server: String = "default", input: Bool = false) throws {
        JACKProvider.installOnce()
        var description = JACKIOUnit.identity
        let component = try XCTUnwrap(AudioComponentFindNext(nil, &description), "the JACK I/O unit is registered")
        var made: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(component, &made), "AudioComponentInstanceNew")
        unit = try XCTUnwrap(made)
        try setString(kAUHostJACKProperty_ClientName, clientName)
        try setString(kAudioOutputUnitProperty_CurrentDevice, server)
        try AudioError.check(setUInt32(kAUHostJACKProperty_AutoConnect, 0), "AutoConnect")
        if input {
            var on: UInt32 = 1, off: UInt32 = 0
            try AudioError.check(
                AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, 4), "EnableIO in")
            try AudioError.check(
                AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &off, 4), "EnableIO out")
        }
    }

    private var disposed = false

    deinit {
        guard !disposed else { return }
        AudioOutputUnitStop(unit)
        AudioUnitUninitialize(unit)
        AudioComponentInstanceDispose(unit)
    }

    /// Disposes the unit as it is (running or not), as a host may.
    func dispose() {
        disposed = true
        AudioComponentInstanceDispose(unit)
    }

    func initialize() throws { try AudioError.check(AudioUnitInitialize(unit), LastErrorMessage.current ?? "AudioUnitInitialize") }
    func start() throws { try AudioError.check(AudioOutputUnitStart(unit), LastErrorMessage.current ?? "AudioOutputUnitStart") }
    func stop() throws { try AudioError.check(AudioOutputUnitStop(unit), LastErrorMessage.current ?? "AudioOutputUnitStop") }

    func setRenderCallback(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer) throws {
        var callback = AURenderCallbackStruct(inputProc: proc, inputProcRefCon: refCon)
        try AudioError.check(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                UInt32(MemoryLayout.size(ofValue: callback))),
            "SetRenderCallback")
    }

    func setInputCallback(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer) throws {
        var callback = AURenderCallbackStruct(inputProc: proc, inputProcRefCon: refCon)
        try AudioError.check(
            AudioUnitSetProperty(
                unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &callback,
                UInt32(MemoryLayout.size(ofValue: callback))),
            "SetInputCallback")
    }

    func transportCallbacks() throws -> HostCallbackInfo {
        var info = HostCallbackInfo()
        var size = UInt32(MemoryLayout<HostCallbackInfo>.size)
        try AudioError.check(
            AudioUnitGetProperty(unit, kAUHostJACKProperty_TransportHostCallbacks, kAudioUnitScope_Global, 0, &info, &size),
            "TransportHostCallbacks")
        return info
    }

    func setUInt32(_ id: AudioUnitPropertyID, _ value: UInt32) -> OSStatus {
        var value = value
        return AudioUnitSetProperty(unit, id, kAudioUnitScope_Global, 0, &value, 4)
    }

    func setFloat64(_ id: AudioUnitPropertyID, _ value: Float64) -> OSStatus {
        var value = value
        return AudioUnitSetProperty(unit, id, kAudioUnitScope_Global, 0, &value, 8)
    }

    func uint32(_ id: AudioUnitPropertyID) -> UInt32 {
        var value: UInt32 = 0xFFFF_FFFF
        var size: UInt32 = 4
        AudioUnitGetProperty(unit, id, kAudioUnitScope_Global, 0, &value, &size)
        return value
    }

    func float64(_ id: AudioUnitPropertyID) -> Float64 {
        var value: Float64 = -1
        var size: UInt32 = 8
        AudioUnitGetProperty(unit, id, kAudioUnitScope_Global, 0, &value, &size)
        return value
    }

    func string(_ id: AudioUnitPropertyID) -> String? {
        var ref: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        guard AudioUnitGetProperty(unit, id, kAudioUnitScope_Global, 0, &ref, &size) == noErr, let ref else { return nil }
        defer { ref.release() }
        return String(cfString: ref.takeUnretainedValue())
    }

    private func setString(_ id: AudioUnitPropertyID, _ value: String) throws {
        let string = CFBridge.string(value)
        defer { string.release() }
        var ref: Unmanaged<CFString>? = string
        try AudioError.check(
            AudioUnitSetProperty(unit, id, kAudioUnitScope_Global, 0, &ref, UInt32(MemoryLayout<Unmanaged<CFString>?>.size)), "set \(value)"
        )
    }
}

/// A ramp by the time stamp's sample time: channel 1 gets n / 65536, channel 2 its negation.
final class RampSource {
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    deinit { pointer.deallocate() }
}

let rampRender: AURenderCallback = { _, _, timeStamp, _, frames, ioData in
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    let start = Int(timeStamp.pointee.mSampleTime)
    for i in 0..<Int(frames) {
        let value = Float(start + i) / 65_536
        buffers[0].mData!.assumingMemoryBound(to: Float.self)[i] = value
        buffers[1].mData!.assumingMemoryBound(to: Float.self)[i] = -value
    }
    return noErr
}

/// What AudioUnitRender on element 1 gave the input callback, one channel, up to 48,000 frames.
final class CaptureSink {
    struct State {
        var unit: AudioUnit
        var list: UnsafeMutableAudioBufferListPointer
        var samples: UnsafeMutablePointer<Float>
        var frames: UInt64 = 0
        var lastStatus: Int64 = 0
    }
    static let capacity = 48_000
    let state: UnsafeMutablePointer<State>
    var pointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(state) }

    init(unit: AudioUnit) {
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        for c in 0..<2 { list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 4096 * 4, mData: calloc(4096, 4)) }
        state = .allocate(capacity: 1)
        state.initialize(to: State(unit: unit, list: list, samples: .allocate(capacity: Self.capacity)))
    }

    deinit {
        for c in 0..<2 { free(state.pointee.list[c].mData) }
        free(state.pointee.list.unsafeMutablePointer)
        state.pointee.samples.deallocate()
        state.deallocate()
    }

    var frames: Int { Int(auhost_atomic_load_u64(&state.pointee.frames)) }
    var lastStatus: OSStatus { OSStatus(truncatingIfNeeded: state.pointee.lastStatus) }
    var samples: [Float] { Array(UnsafeBufferPointer(start: state.pointee.samples, count: min(frames, Self.capacity))) }
}

let captureInput: AURenderCallback = { refCon, flags, timeStamp, bus, frames, _ in
    let s = refCon.assumingMemoryBound(to: CaptureSink.State.self)
    for c in 0..<2 { s.pointee.list[c].mDataByteSize = frames * 4 }
    let status = AudioUnitRender(s.pointee.unit, flags, timeStamp, bus, frames, s.pointee.list.unsafeMutablePointer)
    s.pointee.lastStatus = Int64(status)
    let done = Int(auhost_atomic_load_u64(&s.pointee.frames))
    let n = min(Int(frames), CaptureSink.capacity - done)
    if status == noErr, n > 0 {
        (s.pointee.samples + done).update(from: s.pointee.list[0].mData!.assumingMemoryBound(to: Float.self), count: n)
        auhost_atomic_store_u64(&s.pointee.frames, UInt64(done + n))
    }
    return status
}

/// What the unit's transport callbacks said in the last cycle (read by the test thread).
final class TransportProbe {
    struct State {
        var callbacks: HostCallbackInfo
        var playing: UInt64 = 0
        var cycles: UInt64 = 0
        var sampleBits: UInt64 = 0
        var beatBits: UInt64 = 0
        var tempoBits: UInt64 = 0
    }
    let state: UnsafeMutablePointer<State>
    var pointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(state) }

    init(_ callbacks: HostCallbackInfo) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(callbacks: callbacks))
    }
    deinit { state.deallocate() }

    var playing: UInt64 { auhost_atomic_load_u64(&state.pointee.playing) }
    var cycles: UInt64 { auhost_atomic_load_u64(&state.pointee.cycles) }
    var sample: Double { Double(bitPattern: auhost_atomic_load_u64(&state.pointee.sampleBits)) }
    /// Sample, beat and tempo of one cycle (read together under the cycle counter).
    var position: (Double, Double, Double) {
        while true {
            let before = cycles
            let result = (
                sample, Double(bitPattern: auhost_atomic_load_u64(&state.pointee.beatBits)),
                Double(bitPattern: auhost_atomic_load_u64(&state.pointee.tempoBits))
            )
            if cycles == before { return result }
        }
    }
}

let transportRender: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let s = refCon.assumingMemoryBound(to: TransportProbe.State.self)
    let info = s.pointee.callbacks
    var playing: DarwinBoolean = false, changed: DarwinBoolean = false, cycling: DarwinBoolean = false
    var sample: Float64 = 0, start: Float64 = 0, end: Float64 = 0, beat: Float64 = 0, tempo: Float64 = 0
    _ = info.transportStateProc?(info.hostUserData, &playing, &changed, &sample, &cycling, &start, &end)
    _ = info.beatAndTempoProc?(info.hostUserData, &beat, &tempo)
    auhost_atomic_store_u64(&s.pointee.sampleBits, sample.bitPattern)
    auhost_atomic_store_u64(&s.pointee.beatBits, beat.bitPattern)
    auhost_atomic_store_u64(&s.pointee.tempoBits, tempo.bitPattern)
    auhost_atomic_store_u64(&s.pointee.playing, playing.boolValue ? 1 : 0)
    _ = auhost_atomic_add_u64(&s.pointee.cycles, 1)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) { if let data = buffer.mData { memset(data, 0, Int(frames) * 4) } }
    return noErr
}

/// A render callback that sleeps while asked to (the test's way to overrun JACK's cycle).
final class SlowSource {
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    init() { pointer.storeBytes(of: UInt64(0), as: UInt64.self) }
    deinit { pointer.deallocate() }
    var sleepMicroseconds: UInt64 {
        get { auhost_atomic_load_u64(pointer.assumingMemoryBound(to: UInt64.self)) }
        set { auhost_atomic_store_u64(pointer.assumingMemoryBound(to: UInt64.self), newValue) }
    }
}

let slowRender: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let micros = auhost_atomic_load_u64(refCon.assumingMemoryBound(to: UInt64.self))
    if micros > 0 { usleep(UInt32(micros)) }
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) { if let data = buffer.mData { memset(data, 0, Int(frames) * 4) } }
    return noErr
}

/// Counts IsRunning notifications.
final class RunningListener {
    let counter = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    init(_ unit: AudioUnit) {
        counter.initialize(to: 0)
        AudioUnitAddPropertyListener(
            unit, kAudioOutputUnitProperty_IsRunning,
            { refCon, _, _, _, _ in
                _ = auhost_atomic_add_u64(refCon.assumingMemoryBound(to: UInt64.self), 1)
            }, counter)
    }
    deinit { counter.deallocate() }
    var calls: UInt64 { auhost_atomic_load_u64(counter) }
}
