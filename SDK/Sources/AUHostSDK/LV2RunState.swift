import AudioUnitBase
import CLV2Export

// Everything LV2's audio class touches, in one place (as jalv gathers its audio-thread state):
// the port pointers, the last control values seen, the buffer list and time stamp handed to the
// unit. Allocated at instantiate, freed at cleanup; `connect` and `run` allocate nothing, take no
// lock and touch no reference count (the unit is reached through an unretained reference the
// instance keeps alive).

/// What `connect_port` and `run` read and write.
struct LV2RunState {
    /// The LV2Instance (retained by it at instantiate, released at cleanup).
    var owner: UnsafeMutableRawPointer?
    let unit: Unmanaged<AUBase>
    let isInstrument: Bool
    let audioInputs: Int
    let audioOutputs: Int
    let portCount: Int
    let ports: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let midiIndex: Int
    let firstControl: Int
    let controlCount: Int
    let controlIDs: UnsafeMutablePointer<AudioUnitParameterID>
    /// The control values last handed to the unit (NaN: none yet, so the first run sets them all).
    let lastControl: UnsafeMutablePointer<Float>
    let enabledIndex: Int
    let latencyIndex: Int
    let maxFrames: Int
    /// One buffer per output channel, pointed at the output ports for each render call.
    let list: UnsafeMutablePointer<AudioBufferList>
    /// Inputs copied aside when a host connects one channel's input to another channel's output.
    let scratch: UnsafeMutablePointer<Float>
    var sampleTime: Double = 0
    var flags = AudioUnitRenderActionFlags()
    var timeStamp = AudioTimeStamp()
    var midiEventType: LV2_URID = 0
    var latencyFrames: Float = 0
    /// The time:Position vocabulary's URIDs (all 0 unless the unit takes time and the host maps).
    var timeURIDs = LV2TimeURIDs()
    /// Where the music is at the next frame to render, from the last time:Position.
    var time = LV2HostTime()

    /// Thread: setup (instantiate).
    static func allocate(layout: LV2PortLayout, maxFrames: Int, unit: AUBase) -> UnsafeMutablePointer<LV2RunState> {
        let ports = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(layout.portCount, 1))
        ports.initialize(repeating: nil, count: max(layout.portCount, 1))
        let n = max(layout.controls.count, 1)
        let ids = UnsafeMutablePointer<AudioUnitParameterID>.allocate(capacity: n)
        ids.initialize(repeating: 0, count: n)
        for (i, c) in layout.controls.enumerated() { ids[i] = c.definition.id }
        let last = UnsafeMutablePointer<Float>.allocate(capacity: n)
        last.initialize(repeating: .nan, count: n)
        let list = AudioBufferStorage.allocateList(bufferCount: max(layout.audioOutputs, 1))
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: max(layout.audioInputs, 1) * maxFrames)
        scratch.initialize(repeating: 0, count: max(layout.audioInputs, 1) * maxFrames)
        let s = UnsafeMutablePointer<LV2RunState>.allocate(capacity: 1)
        s.initialize(
            to: LV2RunState(
                owner: nil, unit: .passUnretained(unit), isInstrument: layout.hasMIDI, audioInputs: layout.audioInputs,
                audioOutputs: layout.audioOutputs, portCount: layout.portCount, ports: ports,
                midiIndex: layout.hasEventInput ? layout.midiIndex : -1,
                firstControl: layout.firstControlIndex, controlCount: layout.controls.count, controlIDs: ids, lastControl: last,
                enabledIndex: layout.hasEnabled ? layout.enabledIndex : -1, latencyIndex: layout.hasLatency ? layout.latencyIndex : -1,
                maxFrames: maxFrames, list: list, scratch: scratch))
        s.pointee.timeStamp.mFlags = .sampleTimeValid
        return s
    }

    /// Thread: setup (cleanup).
    static func free(_ s: UnsafeMutablePointer<LV2RunState>) {
        s.pointee.ports.deallocate()
        s.pointee.controlIDs.deallocate()
        s.pointee.lastControl.deallocate()
        AudioBufferStorage.deallocateList(s.pointee.list)
        s.pointee.scratch.deallocate()
        s.deinitialize(count: 1)
        s.deallocate()
    }

    /// LV2 connect_port. Thread: render (LV2's audio class).
    @_noAllocation @_noLocks
    static func connect(_ s: UnsafeMutablePointer<LV2RunState>, port: UInt32, _ data: UnsafeMutableRawPointer?) {
        guard Int(port) < s.pointee.portCount else { return }
        s.pointee.ports[Int(port)] = data
    }

    /// LV2 run: reads the control ports (a changed value is set on the unit, clamped to its range,
    /// as AudioUnitSetParameter does), writes the latency port, and renders `frames` frames (any
    /// number, 1 included) in calls of at most maxFrames.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    static func run(_ s: UnsafeMutablePointer<LV2RunState>, frames: Int) {
        let unit = s.pointee.unit
        for i in 0..<s.pointee.controlCount {
            guard let port = s.pointee.ports[s.pointee.firstControl + i] else { continue }
            let value = port.load(as: Float.self)
            guard value.bitPattern != s.pointee.lastControl[i].bitPattern else { continue }
            s.pointee.lastControl[i] = value
            let id = s.pointee.controlIDs[i]
            // AUBase.setParameter is itself @_noAllocation @_noLocks; the call is virtual-free but
            // goes through a class reference the checker cannot see is unretained.
            _ = _unsafePerformance { unit._withUnsafeGuaranteedRef { $0.setParameter(id, value: value) } }
        }
        if s.pointee.latencyIndex >= 0, let port = s.pointee.ports[s.pointee.latencyIndex] {
            port.storeBytes(of: s.pointee.latencyFrames, as: Float.self)
        }
        var enabled = true
        if s.pointee.enabledIndex >= 0, let port = s.pointee.ports[s.pointee.enabledIndex] { enabled = port.load(as: Float.self) > 0 }
        var start = 0
        let takesTime = s.pointee.timeURIDs.position != 0
        while start < frames {
            var count = min(s.pointee.maxFrames, frames - start)
            if takesTime {
                // A time:Position at this frame moves the music there; the next one ends the call.
                count = min(count, lv2ReadTimePositions(s, at: start, frames: frames) - start)
            }
            if s.pointee.isInstrument {
                renderInstrument(s, start: start, count: count, total: frames)
            } else {
                processEffect(s, start: start, count: count, enabled: enabled)
            }
            start += count
            s.pointee.sampleTime += Double(count)
            if takesTime { s.pointee.time.advance(frames: count) }
        }
    }

    /// An effect runs in place on the output ports (AudioUnitProcess); bypassed (lv2:enabled 0)
    /// the input passes unchanged, as BypassEffect passes it.
    @_noAllocation @_noLocks
    private static func processEffect(_ s: UnsafeMutablePointer<LV2RunState>, start: Int, count: Int, enabled: Bool) {
        let n = s.pointee.audioOutputs
        let ports = s.pointee.ports
        for c in 0..<n where ports[c] == nil || ports[n + c] == nil { return }  // unconnected: nothing to read or write
        // A host may connect channel c's input and channel d's output to one buffer: copy aside first.
        var crossed = false
        for c in 0..<n { for d in 0..<n where c != d && ports[c] == ports[n + d] { crossed = true } }
        if crossed {
            for c in 0..<n {
                copy(
                    ports[c].unsafelyUnwrapped.assumingMemoryBound(to: Float.self) + start, s.pointee.scratch + c * s.pointee.maxFrames,
                    count)
            }
        }
        let buffers = bufferArray(s.pointee.list)
        for c in 0..<n {
            let output = ports[n + c].unsafelyUnwrapped.assumingMemoryBound(to: Float.self) + start
            let input =
                crossed
                ? s.pointee.scratch + c * s.pointee.maxFrames : ports[c].unsafelyUnwrapped.assumingMemoryBound(to: Float.self) + start
            if input != output { copy(input, output, count) }
            point(buffers, c, output, count)
        }
        guard enabled else { return }
        s.pointee.flags = AudioUnitRenderActionFlags()
        s.pointee.timeStamp.mSampleTime = s.pointee.sampleTime
        let list = s.pointee.list
        _ = _unsafePerformance {
            unit(s)._withUnsafeGuaranteedRef { $0.process(&s.pointee.flags, &s.pointee.timeStamp, UInt32(count), list) }
        }
    }

    /// An instrument gets the MIDI events of this slice (frames start ..< start + count of the
    /// run; an event stamped past the run's end plays at its last frame), then renders into the
    /// output ports (AudioUnitRender).
    @_noAllocation @_noLocks
    private static func renderInstrument(_ s: UnsafeMutablePointer<LV2RunState>, start: Int, count: Int, total: Int) {
        let ports = s.pointee.ports
        let n = s.pointee.audioOutputs
        for c in 0..<n where ports[c] == nil { return }
        if s.pointee.isInstrument, s.pointee.midiIndex >= 0, let port = ports[s.pointee.midiIndex] {
            // An atom:Sequence: the atom header, the sequence body header (unit, pad), then events
            // (a 64-bit frame time and an atom), each padded to 8 bytes (lv2/atom/util.h's walk,
            // in Swift so that the real-time checker sees it).
            let size = Int(port.load(as: LV2_Atom.self).size)
            let header = MemoryLayout<LV2_Atom>.size, bodyHeader = MemoryLayout<LV2_Atom_Sequence_Body>.size
            let eventHeader = MemoryLayout<LV2_Atom_Event>.size
            var offset = bodyHeader
            while offset + eventHeader <= size {
                let e = (port + header + offset).assumingMemoryBound(to: LV2_Atom_Event.self)
                let bodySize = Int(e.pointee.body.size)
                guard offset + eventHeader + bodySize <= size else { break }
                deliver(s, e, start: start, count: count, total: total)
                offset += (eventHeader + bodySize + 7) & ~7
            }
        }
        let buffers = bufferArray(s.pointee.list)
        for c in 0..<n {
            let output = ports[c].unsafelyUnwrapped.assumingMemoryBound(to: Float.self) + start
            point(buffers, c, output, count)
        }
        s.pointee.flags = AudioUnitRenderActionFlags()
        s.pointee.timeStamp.mSampleTime = s.pointee.sampleTime
        let list = s.pointee.list
        _ = _unsafePerformance {
            unit(s)._withUnsafeGuaranteedRef { $0.render(&s.pointee.flags, &s.pointee.timeStamp, 0, UInt32(count), list) }
        }
    }

    /// A channel message (note, controller, pitch bend…) of 1–3 bytes, queued for the unit at its
    /// frame in this slice; system messages are not for Audio Unit instruments and are skipped.
    @_noAllocation @_noLocks
    private static func deliver(
        _ s: UnsafeMutablePointer<LV2RunState>, _ e: UnsafeMutablePointer<LV2_Atom_Event>, start: Int, count: Int, total: Int
    ) {
        guard e.pointee.body.type == s.pointee.midiEventType, e.pointee.body.size >= 1 else { return }
        let frame = min(max(Int(e.pointee.time.frames), 0), total - 1)
        guard frame >= start && frame < start + count else { return }
        let bytes = UnsafeRawPointer(e + 1).assumingMemoryBound(to: UInt8.self)
        let status = bytes[0]
        guard status >= 0x80 && status < 0xF0 else { return }
        let size = Int(e.pointee.body.size)
        let data1 = size > 1 ? UInt32(bytes[1]) : 0, data2 = size > 2 ? UInt32(bytes[2]) : 0
        let unit = unit(s)
        _ = _unsafePerformance {
            unit._withUnsafeGuaranteedRef {
                $0.midiEvent(status: UInt32(status), data1: data1, data2: data2, offset: UInt32(frame - start))
            }
        }
    }

    /// The buffers of a list: mBuffers follows mNumberBuffers, aligned as AudioBuffer (the C layout).
    @_noAllocation @_noLocks @inline(__always)
    private static func bufferArray(_ list: UnsafeMutablePointer<AudioBufferList>) -> UnsafeMutablePointer<AudioBuffer> {
        (UnsafeMutableRawPointer(list) + MemoryLayout<AudioBuffer>.alignment).assumingMemoryBound(to: AudioBuffer.self)
    }

    /// Points buffer `c` of a list at `count` frames of `data`. Thread: render.
    @_noAllocation @_noLocks @inline(__always)
    private static func point(_ buffers: UnsafeMutablePointer<AudioBuffer>, _ c: Int, _ data: UnsafeMutablePointer<Float>, _ count: Int) {
        buffers[c].mNumberChannels = 1
        buffers[c].mDataByteSize = UInt32(count * 4)
        buffers[c].mData = UnsafeMutableRawPointer(data)
    }

    /// `count` floats from `from` to `to` (distinct memory). Thread: render.
    @_noAllocation @_noLocks @inline(__always)
    private static func copy(_ from: UnsafePointer<Float>, _ to: UnsafeMutablePointer<Float>, _ count: Int) {
        for i in 0..<count { to[i] = from[i] }
    }

    @_noAllocation @_noLocks @inline(__always)
    private static func unit(_ s: UnsafeMutablePointer<LV2RunState>) -> Unmanaged<AUBase> { s.pointee.unit }
}
