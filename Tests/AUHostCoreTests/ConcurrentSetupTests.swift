import XCTest
import Foundation
import CAUHostAtomics
import TestSupport

/// A render callback writing a constant 7 (the other source the stress test swaps in).
let sevensCallback: AURenderCallback = { _, _, _, _, frames, ioData in
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        buffer.mData!.assumingMemoryBound(to: Float.self).update(repeating: 7, count: Int(frames))
    }
    return noErr
}

/// "Setup calls on one instance are serialised; render calls stay lock-free": four threads set
/// and read properties of one unit at once (bypass, the input's render callback, context name,
/// render quality, CPU load, element name, a user preset, the stream format and the last render
/// error) while a fifth renders it without pause. Every call succeeds, every render succeeds, and
/// every rendered block is whole: one source and one bypass state throughout (the render thread
/// reads a configuration published whole, never one changed under it). `make tsan` runs this under
/// ThreadSanitizer. AUHOST_SETUP_STRESS_ITERATIONS sets the sets per thread (default 2,000).
final class ConcurrentSetupTests: XCTestCase {
    func testPropertySetsFromFourThreadsWhileRendering() throws {
        let f = try GainFixture(maxFrames: 256)
        let iterations = ProcessInfo.processInfo.environment["AUHOST_SETUP_STRESS_ITERATIONS"].flatMap(Int.init) ?? 2_000
        XCTAssertEqual(AudioUnitSetParameter(f.unit, 0, kAudioUnitScope_Global, 0, 0.5, 0), noErr)

        nonisolated(unsafe) let stop = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        stop.initialize(to: 0)  // freed once the renderer has left (a stuck one keeps reading it)
        let renderResults = RenderTally()
        let renderer = Thread {
            while auhost_atomic_load_u64(stop) == 0 {
                let status = f.render(64)
                renderResults.record(status: status, left: f.left(64), right: f.right(64))
            }
            _ = auhost_atomic_add_u64(stop, 1)
        }
        renderer.start()

        nonisolated(unsafe) let unit = f.unit  // set from other threads while it renders: the contract under test
        let counter = f.counterPointer
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 0..<iterations {
                failures.check(setupCall(unit, thread: thread, iteration: i, counter: counter), thread, i)
                // A pause now and then, so that renders fall between changes as well as during them.
                if i % 16 == 0 { usleep(200) }
            }
        }
        auhost_atomic_store_u64(stop, 1)
        guard waitUntil(timeout: 60, { auhost_atomic_load_u64(stop) != 1 }) else {
            return XCTFail("the renderer did not stop within 60 s (stuck in a render)")
        }
        stop.deallocate()

        XCTAssertEqual(failures.messages, [], "setup calls that failed")
        XCTAssertEqual(renderResults.failedRenders, 0, "renders that failed")
        XCTAssertEqual(renderResults.tornBlocks, 0, "blocks mixing two sources or two bypass states")
        XCTAssertGreaterThan(renderResults.blocks, 0, "the renderer ran")
        XCTAssertEqual(renderResults.kinds.count, 4, "blocks of every source × bypass combination: \(renderResults.kinds)")
        print("concurrent setup: 4 × \(iterations) setup calls, \(renderResults.blocks) renders, kinds \(renderResults.kinds.sorted())")
    }
}

/// Reads the unit's output format from inside its own render (what a sloppy host does in a render
/// callback), then writes silence.
let formatReadingCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let unit = OpaquePointer(refCon)
    var format = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    _ = AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        buffer.mData!.assumingMemoryBound(to: Float.self).update(repeating: Float(format.mChannelsPerFrame), count: Int(frames))
    }
    return noErr
}

extension ConcurrentSetupTests {
    /// A set that publishes a configuration waits for the render in progress to leave it; a
    /// property read made from inside that render must not wait for the set's lock in turn
    /// (it would never get it). Bypass toggled 2,000 times while the render callback reads the
    /// format every cycle: both finish, and every rendered block carries the format it read.
    func testPropertyReadsFromInsideTheRenderDoNotDeadlockWithSets() throws {
        let f = try GainFixture(maxFrames: 256)
        var callback = AURenderCallbackStruct(inputProc: formatReadingCallback, inputProcRefCon: UnsafeMutableRawPointer(f.unit))
        XCTAssertEqual(
            AudioUnitSetProperty(
                f.unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), noErr)
        // Not freed on a deadlock: the stuck threads still hold them.
        nonisolated(unsafe) let stop = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        stop.initialize(to: 0)
        nonisolated(unsafe) let wrong = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        wrong.initialize(to: 0)
        let renderer = Thread {
            while auhost_atomic_load_u64(stop) == 0 {
                if f.render(64) != noErr || f.left(64).contains(where: { $0 != 2 }) { _ = auhost_atomic_add_u64(wrong, 1) }
            }
            _ = auhost_atomic_add_u64(stop, 1)
        }
        renderer.start()
        nonisolated(unsafe) let unit = f.unit
        let setter = DispatchSemaphore(value: 0)
        let failures = FailureLog()
        DispatchQueue.global().async {
            for i in 0..<2_000 {
                var bypass = UInt32(i % 2)
                failures.check(AudioUnitSetProperty(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &bypass, 4), 0, i)
            }
            setter.signal()
        }
        guard setter.wait(timeout: .now() + 60) == .success else {
            // Deadlocked: the threads stay stuck (and their memory with them); report and leave.
            return XCTFail("the sets did not finish in 60 s: a set and the render's property read wait for each other")
        }
        auhost_atomic_store_u64(stop, 1)
        guard waitUntil(timeout: 60, { auhost_atomic_load_u64(stop) != 1 }) else {
            return XCTFail("the renderer did not stop within 60 s after the sets finished (stuck in a render)")
        }
        XCTAssertEqual(failures.messages, [])
        XCTAssertEqual(auhost_atomic_load_u64(wrong), 0, "blocks that failed or did not carry the format read (2 channels)")
        stop.deallocate()
        wrong.deallocate()
    }
}

/// One of the setup calls the four threads make, chosen by iteration.
private func setupCall(_ unit: AudioUnit, thread: Int, iteration: Int, counter: UnsafeMutablePointer<Int>) -> OSStatus {
    switch (thread + iteration) % 8 {
    case 0:
        var bypass: UInt32 = iteration % 3 == 0 ? 1 : 0
        return AudioUnitSetProperty(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &bypass, 4)
    case 1:
        var callback = AURenderCallbackStruct(inputProc: iteration % 2 == 0 ? rampCallback : sevensCallback, inputProcRefCon: counter)
        return AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    case 2:
        var name: Unmanaged<CFString>? = AUHostConstantString("stress \(thread)")
        return AudioUnitSetProperty(
            unit, kAudioUnitProperty_ContextName, kAudioUnitScope_Global, 0, &name, UInt32(MemoryLayout<CFString?>.size))
    case 3:
        var quality = UInt32(iteration % 128)
        return AudioUnitSetProperty(unit, kAudioUnitProperty_RenderQuality, kAudioUnitScope_Global, 0, &quality, 4)
    case 4:
        var load = Float64(iteration % 10) / 10
        return AudioUnitSetProperty(unit, kAudioUnitProperty_CPULoad, kAudioUnitScope_Global, 0, &load, 8)
    case 5:
        var name: Unmanaged<CFString>? = AUHostConstantString("input \(iteration % 4)")
        return AudioUnitSetProperty(
            unit, kAudioUnitProperty_ElementName, kAudioUnitScope_Input, 0, &name, UInt32(MemoryLayout<CFString?>.size))
    case 6:
        var preset = AUPreset(presetNumber: -1, presetName: AUHostConstantString("user \(thread)"))
        return AudioUnitSetProperty(
            unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size))
    default:
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size)
        guard status == noErr else { return status }
        var error: OSStatus = 0
        var errorSize = UInt32(4)
        return AudioUnitGetProperty(unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &error, &errorSize)
    }
}

/// What the renderer saw. A block is whole when both channels come from one source with one gain:
/// the ramp (steps of 1 bypassed, 0.5 at gain 0.5) or the sevens (7 bypassed, 3.5 processed).
private final class RenderTally: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var blocks = 0, failedRenders = 0, tornBlocks = 0
    private(set) var kinds: Set<String> = []

    func record(status: OSStatus, left: [Float], right: [Float]) {
        let kind = status == noErr ? RenderTally.kind(left, right) : nil
        lock.lock()
        defer { lock.unlock() }
        blocks += 1
        if status != noErr { failedRenders += 1 } else if let kind { kinds.insert(kind) } else { tornBlocks += 1 }
    }

    private static func kind(_ left: [Float], _ right: [Float]) -> String? {
        for (name, value) in [("sevens bypassed", Float(7)), ("sevens at gain", Float(3.5))]
        where left.allSatisfy({ $0 == value }) && right.allSatisfy({ $0 == value }) {
            return name
        }
        for (name, gain) in [("ramp bypassed", Float(1)), ("ramp at gain", Float(0.5))] {
            let isRamp = left.indices.dropFirst().allSatisfy { left[$0] - left[$0 - 1] == gain }
            if isRamp, zip(left, right).allSatisfy({ $1 - $0 == 1000 * gain }) { return name }
        }
        return nil
    }
}

private final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var messages: [String] = []

    func check(_ status: OSStatus, _ thread: Int, _ iteration: Int) {
        guard status != noErr else { return }
        lock.lock()
        if messages.count < 10 { messages.append("thread \(thread) call \(iteration): \(status)") }
        lock.unlock()
    }
}
