import AUHost
import CAUHostAtomics
import Foundation

/// Render-notify churn: a unit (the built-in delay) renders without pause on its own thread while
/// the bytes add and remove notifications on up to 8 contexts, remove them in any order, try
/// duplicates and unknown ones, and pause. A context is poisoned the moment its removal returns
/// and freed at the end of the run: a call still running, or begun, after removal returned traps
/// (and under AddressSanitizer a call after the free is a report).
///
/// Thread: one thread at a time (the renderer is the harness's own).
public enum RenderNotifyFuzz {
    struct Context {
        var alive: UInt64 = 1
        var inFlight: UInt64 = 0
    }

    /// The unit and its render thread, made on first use and kept for the process.
    nonisolated(unsafe) static let unit: AudioUnit? = {
        var d = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var u: AudioUnit?
        // The render thread below shares the unit: rendering on one thread while another adds and
        // removes notifies is the contract under test.
        guard AudioComponentInstanceNew(AudioComponentFindNext(nil, &d)!, &u) == noErr, let made = u else { return nil }
        nonisolated(unsafe) let unit = made
        var cb = AURenderCallbackStruct(inputProc: fuzzInputCallback, inputProcRefCon: nil)
        _ = AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        guard AudioUnitInitialize(unit) == noErr else { return nil }
        let thread = Thread {
            let storage = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 256)
            var stamp = AudioTimeStamp()
            stamp.mFlags = .sampleTimeValid
            while true {
                storage.prepare(frames: 64)
                var flags: AudioUnitRenderActionFlags = []
                _ = AudioUnitRender(unit, &flags, &stamp, 0, 64, storage.list)
                stamp.mSampleTime += 64
            }
        }
        thread.start()
        return unit
    }()

    /// Runs the churn `data` describes.
    ///
    /// Thread: one thread at a time.
    public static func run(_ data: UnsafeRawBufferPointer) {
        guard let unit else { return }
        var input = CAPIFuzzInput(data)
        let contexts = UnsafeMutablePointer<Context>.allocate(capacity: 8)
        contexts.initialize(repeating: Context(), count: 8)
        var added = [Bool](repeating: false, count: 8)
        for _ in 0..<256 where !input.isAtEnd {
            let op = input.u8(), k = Int(op >> 5)
            switch op & 3 {
            case 0:
                // Alive before the add: the renderer may call it before the add returns.
                auhost_atomic_store_u64(&contexts[k].alive, 1)
                let status = AudioUnitAddRenderNotify(unit, churnNotify, contexts + k)
                precondition(status == noErr, "AddRenderNotify answered \(status)")
                added[k] = true
            case 1:
                let status = AudioUnitRemoveRenderNotify(unit, churnNotify, contexts + k)
                precondition(
                    (status == noErr) == added[k],
                    "RemoveRenderNotify answered \(status) for a notify that was \(added[k] ? "" : "not ")added")
                if status == noErr { removed(contexts + k); added[k] = false }
            case 2:
                for _ in 0..<Int(input.u8() % 16) { sched_yield() }
            default:
                // The same function with another refCon, and a NULL function, are not in the list.
                precondition(AudioUnitRemoveRenderNotify(unit, churnNotify, nil) == kAudio_ParamError)
                precondition(_AudioUnitRemoveRenderNotify(unit, nil, contexts + k) == kAudio_ParamError)  // as C passes NULL
            }
        }
        for k in 0..<8 where added[k] {
            precondition(AudioUnitRemoveRenderNotify(unit, churnNotify, contexts + k) == noErr)
            removed(contexts + k)
        }
        contexts.deinitialize(count: 8)
        contexts.deallocate()
    }

    /// Checks and poisons a context whose removal just returned.
    private static func removed(_ c: UnsafeMutablePointer<Context>) {
        precondition(auhost_atomic_load_u64(&c.pointee.inFlight) == 0, "a removed render notify was still running")
        auhost_atomic_store_u64(&c.pointee.alive, 0)
    }

    private static let churnNotify: AURenderCallback = { refCon, _, _, _, _, _ in
        let c = refCon.assumingMemoryBound(to: Context.self)
        _ = auhost_atomic_add_u64(&c.pointee.inFlight, 1)
        precondition(auhost_atomic_load_u64(&c.pointee.alive) != 0, "a render notify ran after its removal returned")
        _ = auhost_atomic_add_u64(&c.pointee.inFlight, UInt64.max)
        return noErr
    }
}
