import AUHost
import Foundation
import TestSupport
import UnitIsolation
import XCTest

/// A plug-in that crashes, aborts, hangs or writes NaN out of process, as one node of a running
/// four-node graph (faulty fixture and a gain into a sum unit, into a generic output): the other
/// branch's output stays exact, the faulty node is silent from the cycle it failed on, the fault
/// is reported (LastRenderError, listeners, a sentence naming the unit) by the end of that cycle,
/// the host lives on, and a restart brings the node back.
final class FaultContainmentTests: XCTestCase {
    static let frames: UInt32 = 256
    /// The fixtures copy for four cycles and fail in the fifth (index 4).
    static let faultCycle = 4

    final class ListenerLog: @unchecked Sendable {
        let lock = NSLock()
        var statuses: [OSStatus] = []
        let fired = DispatchSemaphore(value: 0)
    }

    func runGraph(fixture: String, expectedStatus: OSStatus, deadline: Double, sentence: String) throws {
        registerTestUnits()
        let graph = AudioGraph()
        let faulty = try graph.attach(try FaultFixtures.component(fixture).description, outOfProcess: true)
        let gain = try graph.attach(TestGainUnit.description)
        let sum = try graph.attach(IsolationSumUnit.registered.description)
        let output = try graph.attach(
            AudioComponentDescription(
                type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput, manufacturer: kAudioUnitManufacturer_Apple))
        try graph.open()
        let mono = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 1)
        for node in [faulty, gain, sum, output] {
            let unit = try XCTUnwrap(try graph.unit(node))
            var frames: UInt32 = 512
            try AudioError.check(
                AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max")
            var format = mono
            let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            let inputs: UInt32 = node == sum ? 2 : 1
            for bus in 0..<inputs {
                try AudioError.check(
                    AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus, &format, size), "in format")
            }
            try AudioError.check(
                AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size), "out format")
        }
        let faultyUnit = try XCTUnwrap(try graph.unit(faulty))
        var seconds = deadline
        try AudioError.check(
            AudioUnitSetProperty(faultyUnit, kAUHostIsolatedUnitProperty_RenderDeadline, kAudioUnitScope_Global, 0, &seconds, 8), "deadline"
        )
        try AudioError.check(AudioUnitSetParameter(try XCTUnwrap(try graph.unit(gain)), 0, kAudioUnitScope_Global, 0, 0.5, 0), "gain")
        let log = ListenerLog()
        try AudioError.check(
            AudioUnitAddPropertyListener(
                faultyUnit, kAudioUnitProperty_LastRenderError,
                { refCon, unit, _, _, _ in
                    let log = Unmanaged<ListenerLog>.fromOpaque(refCon).takeUnretainedValue()
                    var status: OSStatus = 0
                    var size: UInt32 = 4
                    _ = AudioUnitGetProperty(unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &status, &size)
                    log.lock.withLock { log.statuses.append(status) }
                    log.fired.signal()
                }, Unmanaged.passUnretained(log).toOpaque()), "listener")
        var position = 0
        let signal: (UInt32, UnsafeMutableAudioBufferListPointer) -> OSStatus = { frames, buffers in
            // Both branches are pulled once per cycle with the same time, so each sees the same samples.
            let samples = buffers[0].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) { samples[i] = testSignal(position + i, 0) }
            return noErr
        }
        try graph.setInputBlock(faulty, 0, signal)
        try graph.setInputBlock(gain, 0, signal)
        try graph.connect(faulty, 0, to: sum, 0)
        try graph.connect(gain, 0, to: sum, 1)
        try graph.connect(sum, 0, to: output, 0)
        try graph.initialize()
        let buffers = AudioBufferStorage(format: mono, capacity: 512)

        func lastRenderError() -> OSStatus {
            var status: OSStatus = 0
            var size: UInt32 = 4
            XCTAssertEqual(
                AudioUnitGetProperty(faultyUnit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &status, &size), noErr)
            return status
        }
        /// Renders one cycle and checks it: the sum of both branches while the fixture is good,
        /// the gain branch alone (exactly) once it failed.
        func cycle(_ index: Int, faultyGood: Bool) throws {
            try graph.render(frames: Self.frames, into: buffers)
            let out = UnsafeMutableAudioBufferListPointer(buffers.list)[0].mData!.assumingMemoryBound(to: Float.self)
            var wrong = 0
            for i in 0..<Int(Self.frames) {
                let x = testSignal(position + i, 0)
                let expected = faultyGood ? x + x * 0.5 : 0 + x * 0.5
                if out[i].bitPattern != expected.bitPattern { wrong += 1 }
            }
            XCTAssertEqual(
                wrong, 0,
                "\(fixture), cycle \(index): \(wrong) samples differ from \(faultyGood ? "both branches" : "the gain branch alone")")
            position += Int(Self.frames)
        }

        for i in 0..<Self.faultCycle {
            try cycle(i, faultyGood: true)
            XCTAssertEqual(lastRenderError(), noErr, "\(fixture) before its fault")
        }
        try cycle(Self.faultCycle, faultyGood: false)
        // Reported by the end of the cycle it happened in.
        XCTAssertEqual(lastRenderError(), expectedStatus, fixture)
        let description = try XCTUnwrap(AUHostIsolatedUnitCopyFaultDescription(faultyUnit)).takeRetainedValue()
        let text = CFBridge.value(UnsafeRawPointer(Unmanaged.passUnretained(description).toOpaque()))?.stringValue ?? ""
        XCTAssertTrue(text.contains("urn:auhost:fault:\(fixture)"), "the sentence names the unit: \(text)")
        XCTAssertTrue(text.contains(sentence), "the sentence says what happened (\(sentence)): \(text)")
        for i in Self.faultCycle + 1..<Self.faultCycle + 6 { try cycle(i, faultyGood: false) }
        XCTAssertEqual(log.fired.wait(timeout: .now() + 10), .success, "the LastRenderError listener fired")
        XCTAssertEqual(log.lock.withLock { log.statuses.first }, expectedStatus)

        // Restart: a fresh child, good for four cycles again.
        XCTAssertEqual(AUHostIsolatedUnitRestart(faultyUnit), noErr, LastErrorMessage.current ?? "")
        XCTAssertEqual(lastRenderError(), noErr, "restart clears the fault")
        XCTAssertNil(AUHostIsolatedUnitCopyFaultDescription(faultyUnit))
        for i in 0..<Self.faultCycle { try cycle(100 + i, faultyGood: true) }
        try graph.uninitialize()
        graph.close()
    }

    /// A faulted unit uninitialized and initialized again (as a graph being reconfigured does)
    /// initializes and stays silent, and its renders report the fault again; a restart then brings its plug-in back.
    func testAFaultedUnitReinitializesSilentlyUntilRestarted() throws {
        let rig = try IsolationRig(try makeAudioUnit(try FaultFixtures.component("nan"), outOfProcess: true), maxFrames: 256)
        let good = try rig.render(blocks: Self.faultCycle, frames: 256)
        XCTAssertTrue(good[0].contains { $0 != 0 })
        let faulted = try rig.render(blocks: 2, frames: 256)
        XCTAssertEqual(faulted[0].map(abs).max(), 0)
        XCTAssertEqual(AudioUnitUninitialize(rig.unit), noErr)
        XCTAssertEqual(AudioUnitInitialize(rig.unit), noErr, LastErrorMessage.current ?? "")
        XCTAssertEqual(try rig.render(blocks: 2, frames: 256)[0].map(abs).max(), 0, "still silent")
        // Initialize clears LastRenderError; a cycle of the still faulted unit says again why it is silent.
        var status: OSStatus = noErr
        var size = UInt32(MemoryLayout<OSStatus>.size)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &status, &size), noErr)
        XCTAssertEqual(status, kAUHostIsolatedUnitErr_NonFiniteOutput, "LastRenderError after reinitializing")
        XCTAssertEqual(AUHostIsolatedUnitRestart(rig.unit), noErr, LastErrorMessage.current ?? "")
        let back = try rig.render(blocks: 1, frames: 256)[0]
        let start = Int(rig.time.mSampleTime) - 256
        XCTAssertEqual(
            back.indices.filter { back[$0] != testSignal(start + $0, 0) }.count, 0, "the restarted plug-in copies its input again")
    }

    func testCrashInRun() throws {
        try runGraph(
            fixture: "crash", expectedStatus: kAudioComponentErr_InstanceInvalidated, deadline: 30,
            sentence: "crashed: its process ended on signal 11")
    }

    func testAbortInRun() throws {
        try runGraph(
            fixture: "abort", expectedStatus: kAudioComponentErr_InstanceInvalidated, deadline: 30,
            sentence: "crashed: its process ended on signal 6")
    }

    func testInfiniteLoopInRun() throws {
        try runGraph(fixture: "hang", expectedStatus: kAudioUnitErr_RenderTimeout, deadline: 0.5, sentence: "hung")
    }

    func testNaNInRun() throws {
        try runGraph(fixture: "nan", expectedStatus: kAUHostIsolatedUnitErr_NonFiniteOutput, deadline: 30, sentence: "NaN or an infinity")
    }

    /// A unit with no scan of its own (the built-in delay, all dry) passes a NaN or an infinity of
    /// its input on: its child answers noErr, and the host's own scan of the audio that comes back
    /// faults the unit, wherever in the block the sample falls.
    func testNonFiniteAudioAChildCallsGoodIsCaughtByTheHost() throws {
        var desc = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay, manufacturer: kAudioUnitManufacturer_Apple)
        let delay = try XCTUnwrap(AudioComponentFindNext(nil, &desc))
        for (value, frame) in [(Float.nan, 0), (Float.infinity, 511), (-Float.infinity, 300)] {
            let rig = try IsolationRig(try instantiate(delay, outOfProcess: true))
            // All dry: the output is the input.
            try AudioError.check(AudioUnitSetParameter(rig.unit, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 0, 0), "mix")
            // The rig's signal, with `value` at `frame` of the second block.
            let broken = UnsafeMutablePointer<(Float, Int)>.allocate(capacity: 1)
            defer { broken.deallocate() }
            broken.initialize(to: (value, 512 + frame))
            var callback = AURenderCallbackStruct(
                inputProc: { refCon, _, timeStamp, _, frames, ioData in
                    let (value, at) = refCon.assumingMemoryBound(to: (Float, Int).self).pointee
                    let start = Int(timeStamp.pointee.mSampleTime)
                    for (c, buffer) in UnsafeMutableAudioBufferListPointer(ioData!).enumerated() {
                        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                        for i in 0..<Int(frames) { samples[i] = start + i == at ? value : testSignal(start + i, c) }
                    }
                    return noErr
                }, inputProcRefCon: UnsafeMutableRawPointer(broken))
            try AudioError.check(
                AudioUnitSetProperty(
                    rig.unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                    UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
            XCTAssertEqual(rig.renderBlock(512), noErr, "\(value)")
            XCTAssertEqual(rig.storage.samples(channel: 0, frames: 512), (0..<512).map { testSignal($0, 0) }, "\(value): the input, dry")
            // A faulted cycle renders silence and reports the fault as LastRenderError.
            XCTAssertEqual(rig.renderBlock(512), noErr, "\(value)")
            XCTAssertEqual(rig.storage.samples(channel: 0, frames: 512), [Float](repeating: 0, count: 512), "\(value) at frame \(frame)")
            var status: OSStatus = 0
            var size = UInt32(MemoryLayout<OSStatus>.size)
            XCTAssertEqual(
                AudioUnitGetProperty(rig.unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &status, &size), noErr)
            XCTAssertEqual(status, kAUHostIsolatedUnitErr_NonFiniteOutput, "\(value) at frame \(frame)")
        }
    }
}
