import AUHost
import Foundation

/// Out-of-process units whose child is killed or stopped at random points. The bytes choose one
/// of the built-in effects or SDK plug-ins, instantiated out of process once per fuzzing process
/// (a child costs tens of milliseconds to start, so the units are kept between inputs and
/// restarted only after a fault), then up to 32 calls: renders of any frame count, SIGKILL or
/// SIGSTOP/SIGCONT to the child before a render or while one runs (from another thread after a
/// generated delay), parameters, resets, initialize and uninitialize, formats, MaximumFramesPerSlice,
/// render deadlines (hostile ones must be refused), ClassInfo round trips, fault descriptions and
/// restarts. The host must never trap or hang, and after the child died a render must still
/// answer noErr with silence and report the fault in LastRenderError.
///
/// Inputs are not independent (a unit keeps its parameters between inputs); a finding is
/// replayed on fresh units, where it may need the inputs before it.
public enum IsolatedUnitFuzz {
    /// The units out of process, by target index; made on first use. Thread: the harness's one thread.
    nonisolated(unsafe) static var units: [Int: AudioUnit] = [:]

    /// Long enough for a 16,384-frame render of any target, short enough that a stopped child costs little.
    static let defaultDeadline = 0.02

    static let targets: [AudioComponentDescription] = {
        let effects = CAPIFuzz.builtInTargets.filter { $0.componentType == kAudioUnitType_Effect }
        return effects + CAPIFuzz.plugInTargets
    }()

    /// Thread: one thread at a time.
    public static func run(_ data: UnsafeRawBufferPointer) {
        var input = CAPIFuzzInput(data)
        guard !targets.isEmpty else { return }
        let index = input.below(targets.count)
        guard let unit = units[index] ?? make(targets[index]) else { return }
        units[index] = unit
        // Every input starts from the same deadline (an earlier input's 0.1 s or automatic one made
        // each stopped child cost that long).
        setDeadline(unit, defaultDeadline)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        for _ in 0..<32 where !input.isAtEnd { step(&input, unit, &time) }
        // The next input starts from a live child.
        if let fault = AUHostIsolatedUnitCopyFaultDescription(unit) {
            fault.release()
            precondition(AUHostIsolatedUnitRestart(unit) == noErr, "a faulted unit could not be restarted")
        }
    }

    static func make(_ target: AudioComponentDescription) -> AudioUnit? {
        var description = target
        guard let component = AudioComponentFindNext(nil, &description) else { return nil }
        var made: AudioUnit?
        withUnsafeMutablePointer(to: &made) { slot in
            AudioComponentInstantiate(
                component, .loadOutOfProcess,
                { unit, status, refCon in
                    if status == noErr { refCon!.assumingMemoryBound(to: AudioUnit?.self).pointee = unit }
                }, slot)
        }
        guard let unit = made else { return nil }
        precondition(AUHostIsolatedUnitIsOutOfProcess(unit) != 0)
        var callback = AURenderCallbackStruct(inputProc: fuzzInputCallback, inputProcRefCon: nil)
        _ = AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        _ = AudioUnitInitialize(unit)
        return unit
    }

    @discardableResult
    static func setDeadline(_ unit: AudioUnit, _ seconds: Double) -> OSStatus {
        var value = seconds
        return AudioUnitSetProperty(unit, kAUHostIsolatedUnitProperty_RenderDeadline, kAudioUnitScope_Global, 0, &value, 8)
    }

    static func childProcess(_ unit: AudioUnit) -> pid_t {
        var pid: UInt32 = 0
        var size: UInt32 = 4
        guard AudioUnitGetProperty(unit, kAUHostIsolatedUnitProperty_ProcessID, kAudioUnitScope_Global, 0, &pid, &size) == noErr else {
            return 0
        }
        return pid_t(bitPattern: pid)
    }

    static func step(_ input: inout CAPIFuzzInput, _ unit: AudioUnit, _ time: inout AudioTimeStamp) {
        switch input.u8() % 12 {
        case 0, 1: _ = render(&input, unit, &time)
        case 2: killThenRender(&input, unit, &time)
        case 3:
            // Stopped past the deadline: the render answers at its deadline, not when the child wakes.
            // One render first: a fresh child's first cycle has a second's grace (firstCycleDeadline),
            // and stopping cold children spent 80 % of the campaign's time waiting it out.
            // The stopped render runs under a 2 ms deadline, the input's own restored after it: an
            // automatic deadline (three quarters of the cycle) at a sample rate of 1 Hz is hours.
            let pid = childProcess(unit)
            guard pid > 0 else { return }
            _ = render(&input, unit, &time)
            var deadline: Double = 0
            var size: UInt32 = 8
            _ = AudioUnitGetProperty(unit, kAUHostIsolatedUnitProperty_RenderDeadline, kAudioUnitScope_Global, 0, &deadline, &size)
            setDeadline(unit, 0.002)
            kill(pid, SIGSTOP)
            _ = render(&input, unit, &time)
            kill(pid, SIGCONT)
            setDeadline(unit, deadline)
        case 4:
            let id = AudioUnitParameterID(input.below(16))
            _ = AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, input.float(), input.u8() < 32 ? input.u32() : 0)
        case 5: _ = AudioUnitReset(unit, kAudioUnitScope_Global, 0)
        case 6: _ = input.u8() & 1 == 0 ? AudioUnitInitialize(unit) : AudioUnitUninitialize(unit)
        case 7:
            var frames = input.pick([1, 64, 512, 1_024, 4_096, 16_384, 16_385, 0])
            _ = AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4)
        case 8:
            let scope = input.u8() & 1 == 0 ? kAudioUnitScope_Input : kAudioUnitScope_Output
            var format = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            guard AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &format, &size) == noErr else { return }
            format.mSampleRate = input.rate()
            if input.u8() < 64 { format.mChannelsPerFrame = input.pick([1, 2, 8, 9, 0]) }
            _ = AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &format, size)
        case 9:
            // Hostile deadlines are refused; sane ones stay short so that a stopped child costs little.
            let seconds = [Double.nan, -1, .infinity, 1e300, 0, 0.001, 0.005, 0.05][input.below(8)]
            let status = setDeadline(unit, seconds)
            if !(seconds.isFinite && seconds >= 0) && status == noErr { fatalError("deadline \(seconds) was accepted") }
        case 10:
            var state: Unmanaged<CFPropertyList>?
            var size = UInt32(MemoryLayout<Unmanaged<CFPropertyList>?>.size)
            guard AudioUnitGetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, &size) == noErr else {
                return
            }
            _ = AudioUnitSetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, size)
            state?.release()
        default:
            if input.u8() < 64 { _ = AUHostIsolatedUnitRestart(unit) } else { AUHostIsolatedUnitCopyFaultDescription(unit)?.release() }
        }
    }

    /// Kills the child before the render or while it runs (from another thread after 0–2 ms),
    /// then checks what a host relies on: the render answers noErr with silence and the fault is
    /// in LastRenderError.
    static func killThenRender(_ input: inout CAPIFuzzInput, _ unit: AudioUnit, _ time: inout AudioTimeStamp) {
        let pid = childProcess(unit)
        guard pid > 0 else { return }
        // A unit faulted before (a non-finite output, a stopped child) keeps reporting that fault.
        let earlierFault = AUHostIsolatedUnitCopyFaultDescription(unit)
        earlierFault?.release()
        let delay = input.below(2_000)
        let killedWhileRendering = input.u8() & 1 != 0
        if !killedWhileRendering {
            kill(pid, SIGKILL)
        } else {
            Thread.detachNewThread {
                usleep(UInt32(delay))
                kill(pid, SIGKILL)
            }
            _ = render(&input, unit, &time)
            usleep(2_100)
        }
        while kill(pid, 0) == 0 && isRunning(pid) { usleep(100) }
        guard let (status, frames, channels) = render(&input, unit, &time), status == noErr, frames > 0 else { return }
        for channel in 0..<channels {
            let samples = (CAPIFuzz.memory + channel * CAPIFuzz.regionBytes).assumingMemoryBound(to: Float.self)
            if !(0..<frames).allSatisfy({ samples[$0] == 0 }) { fatalError("a unit whose child was killed rendered sound") }
        }
        var error: OSStatus = noErr
        var size: UInt32 = 4
        _ = AudioUnitGetProperty(unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &error, &size)
        // The render the kill races may have been answered first, with a NaN: that fault stands.
        let named = [kAudioComponentErr_InstanceInvalidated, kAudioUnitErr_RenderTimeout].contains(error)
            || (killedWhileRendering && error == kAUHostIsolatedUnitErr_NonFiniteOutput)
        if earlierFault == nil ? !named : error == noErr { fatalError("a killed child's unit reports LastRenderError \(error)") }
    }

    /// Whether `pid` has not yet ended (a zombie the host has not reaped counts as ended). Read
    /// with read(2): Foundation's String(contentsOfFile:) leaks its buffer on /proc files (size 0).
    static func isRunning(_ pid: pid_t) -> Bool {
        let fd = open("/proc/\(pid)/stat", O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0, let close = bytes[..<count].lastIndex(of: UInt8(ascii: ")")), close + 2 < count else { return false }
        return bytes[close + 2] != UInt8(ascii: "Z")
    }

    /// Renders a generated frame count into the harness memory (one channel per 64 KiB region);
    /// nil when the unit is not initialized or its output has more channels than regions.
    static func render(_ input: inout CAPIFuzzInput, _ unit: AudioUnit, _ time: inout AudioTimeStamp) -> (OSStatus, Int, Int)? {
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size) == noErr,
            (1...8).contains(format.mChannelsPerFrame)
        else { return nil }
        let channels = Int(format.mChannelsPerFrame)
        let frames = Int(input.pick([1, 2, 64, 512, 1_024, 4_096, 16_384], rawShare: 0))
        let list = AudioBufferStorage.allocateList(bufferCount: channels)
        defer { AudioBufferStorage.deallocateList(list) }
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        for i in 0..<channels {
            buffers[i] = AudioBuffer(
                mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: CAPIFuzz.memory + i * CAPIFuzz.regionBytes)
        }
        var flags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(unit, &flags, &time, 0, UInt32(frames), list)
        time.mSampleTime += Double(frames)
        return (status, frames, channels)
    }
}
