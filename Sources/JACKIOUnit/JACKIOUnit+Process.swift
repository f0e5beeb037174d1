import AUHostCore
import CAUHostAtomics
import CJACK
import Glibc

// Everything JACK's process thread runs for the unit, in one file so that the compiler's
// real-time checks (@_noAllocation @_noLocks) see every body. The JACK calls made here
// (jack_port_get_buffer, jack_transport_query) are documented as real-time safe; the app's input
// callback and the units upstream are render-thread code by contract. Each is wrapped in
// _unsafePerformance for that reason.

/// JACK's process callback.
let jackIOProcess: JackProcessCallback = { frames, arg in
    guard let arg else { return 0 }
    jackIOCycle(arg.assumingMemoryBound(to: JACKIOContext.self), frames)
    return 0
}

/// One JACK cycle: the transport snapshot and time stamp, the input callback, then the pull of
/// input element 0 into the output ports.
@_noAllocation @_noLocks
func jackIOCycle(_ io: UnsafeMutablePointer<JACKIOContext>, _ frames: UInt32) {
    guard let client = io.pointee.client else { return }
    var position = jack_position_t()
    let transportState = _unsafePerformance { jack_transport_query(client, &position) }
    io.pointee.transport.update(from: transportState, position, sampleRate: io.pointee.serverSampleRate)
    stampCycle(io)
    if frames > io.pointee.maxFrames {
        _unsafePerformance { _ = auhost_atomic_add_u64(&io.pointee.oversizedCycles, 1) }
        silenceOutputs(io, frames)
        return
    }
    for c in 0..<io.pointee.inputCount {
        io.pointee.captured[c] = _unsafePerformance { portSamples(io.pointee.inputPorts[c], frames) }
    }
    io.pointee.capturedFrames = io.pointee.inputCount > 0 ? frames : 0
    if io.pointee.inputCount > 0, let proc = io.pointee.inputProc {
        io.pointee.flags.pointee = AudioUnitRenderActionFlags(rawValue: 0)
        let refCon = io.pointee.inputRefCon
        var status: OSStatus = noErr
        _unsafePerformance { status = renderCallbackCall(proc)(refCon, io.pointee.flags, io.pointee.timeStamp, 1, frames, nil) }
        if status != noErr { io.pointee.state.pointee.lastRenderError = status }
    }
    if io.pointee.outputCount > 0 {
        let s = io.pointee.state
        let section = s.pointee.enterRender()
        renderOutputs(io, frames)
        s.pointee.leaveRender(section)
    }
    io.pointee.capturedFrames = 0
    io.pointee.sampleTime &+= Int64(frames)
    _unsafePerformance { _ = auhost_atomic_add_u64(&io.pointee.framesProcessed, UInt64(frames)) }
}

/// A port's buffer for this cycle as floats (JACK's default audio type is 32-bit float).
@_noAllocation @_noLocks
private func portSamples(_ port: OpaquePointer?, _ frames: UInt32) -> UnsafeMutablePointer<Float>? {
    guard let port else { return nil }
    return _unsafePerformance { jack_port_get_buffer(port, frames)?.assumingMemoryBound(to: Float.self) }
}

@_noAllocation @_noLocks
private func stampCycle(_ io: UnsafeMutablePointer<JACKIOContext>) {
    var now = timespec()
    // clock_gettime(CLOCK_MONOTONIC) is a vDSO read: no allocation, no lock.
    _unsafePerformance { _ = clock_gettime(CLOCK_MONOTONIC, &now) }
    let ts = io.pointee.timeStamp
    ts.pointee.mSampleTime = Double(io.pointee.sampleTime)
    ts.pointee.mHostTime = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    ts.pointee.mFlags = AudioTimeStampFlags(
        rawValue: AudioTimeStampFlags.sampleTimeValid.rawValue | AudioTimeStampFlags.hostTimeValid.rawValue)
}

@_noAllocation @_noLocks
private func silenceOutputs(_ io: UnsafeMutablePointer<JACKIOContext>, _ frames: UInt32) {
    for c in 0..<io.pointee.outputCount {
        portSamples(io.pointee.outputPorts[c], frames)?.update(repeating: 0, count: Int(frames))
    }
}

/// Pulls input element 0 (render callback or connection) with render notifications and copies
/// channel c into output port c; silence when nothing is connected or the pull fails.
@_noAllocation @_noLocks
private func renderOutputs(_ io: UnsafeMutablePointer<JACKIOContext>, _ frames: UInt32) {
    let s = io.pointee.state
    guard s.pointee.inputHasSource(0), let list = s.pointee.inputs[0].buffers.list else {
        silenceOutputs(io, frames)
        return
    }
    let flags = io.pointee.flags
    let timeStamp = UnsafePointer(io.pointee.timeStamp)
    flags.pointee = AudioUnitRenderActionFlags(rawValue: 0)
    s.pointee.notify(.unitRenderAction_PreRender, flags, timeStamp, 0, frames, list)
    let status = s.pointee.pullInput(0, flags, timeStamp, frames)
    if status == noErr {
        let buffers = audioBuffers(list)
        for c in 0..<io.pointee.outputCount {
            guard let port = portSamples(io.pointee.outputPorts[c], frames) else { continue }
            if c < Int(list.pointee.mNumberBuffers), let data = buffers[c].mData {
                UnsafeMutableRawPointer(port).copyMemory(from: data, byteCount: Int(frames) * 4)
            } else {
                port.update(repeating: 0, count: Int(frames))
            }
        }
    } else {
        s.pointee.lastRenderError = status
        silenceOutputs(io, frames)
    }
    let post =
        status == noErr
        ? AudioUnitRenderActionFlags.unitRenderAction_PostRender
        : AudioUnitRenderActionFlags.unitRenderAction_PostRender.union(.unitRenderAction_PostRenderError)
    s.pointee.notify(post, flags, timeStamp, 0, frames, list)
}

/// AudioUnitRender on element 1: the cycle's input ports into `output` (canonical floats).
@_noAllocation @_noLocks
func renderJACKInput(_ io: UnsafeMutablePointer<JACKIOContext>, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>)
    -> OSStatus
{
    guard io.pointee.capturedFrames > 0 else { return kAudioUnitErr_CannotDoInCurrentContext }
    guard frames <= io.pointee.capturedFrames else { return kAudio_ParamError }
    let buffers = audioBuffers(output)
    for c in 0..<Int(output.pointee.mNumberBuffers) {
        guard let data = buffers[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
        if c < io.pointee.inputCount, let source = io.pointee.captured[c] {
            UnsafeMutableRawPointer(data).copyMemory(from: source, byteCount: Int(frames) * 4)
        } else {
            data.update(repeating: 0, count: Int(frames))
        }
    }
    return noErr
}

/// JACK's xrun and freewheel callbacks: counters only.
let jackIOXrun: JackXRunCallback = { arg in
    guard let arg else { return 0 }
    _ = auhost_atomic_add_u64(&arg.assumingMemoryBound(to: JACKIOContext.self).pointee.xruns, 1)
    return 0
}

let jackIOFreewheel: JackFreewheelCallback = { starting, arg in
    guard let arg else { return }
    auhost_atomic_store_u64(&arg.assumingMemoryBound(to: JACKIOContext.self).pointee.freewheeling, starting != 0 ? 1 : 0)
}
