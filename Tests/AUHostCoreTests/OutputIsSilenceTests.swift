import XCTest
import TestSupport

/// kAudioUnitRenderAction_OutputIsSilence through AUEffectBase, as Apple's AUEffectBase handles it:
/// input marked silent makes the output silent (zeroed, marked, not processed) once the unit's
/// latency and tail have passed; until then, and for any sounding input, the output is processed
/// and not marked.
final class OutputIsSilenceTests: XCTestCase {
    /// What the test source produces: `value` in every sample, marked silent or not.
    struct Source {
        var value: Float = 1
        var marksSilence = false
        var pulls = 0
    }

    static let sourceCallback: AURenderCallback = { refCon, flags, _, _, frames, ioData in
        refCon.assumingMemoryBound(to: Source.self).pointee.pulls += 1
        let source = refCon.assumingMemoryBound(to: Source.self).pointee
        let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
        for c in 0..<buffers.count { buffers.floatChannel(c)!.initialize(repeating: source.value, count: Int(frames)) }
        if source.marksSilence { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
        return noErr
    }

    /// An effect `description` fed by a Source, and a render that reports the flags it got back.
    final class Rig {
        let unit: AudioUnit
        let source = UnsafeMutablePointer<Source>.allocate(capacity: 1)
        let out = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 512)
        var timeStamp = AudioTimeStamp()

        init(_ description: AudioComponentDescription) throws {
            registerGraphTestUnits()
            _ = registerTestUnits()
            source.initialize(to: Source())
            var desc = description
            var u: AudioUnit?
            try AudioError.check(AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, &u), "instance")
            unit = u!
            var callback = AURenderCallbackStruct(inputProc: OutputIsSilenceTests.sourceCallback, inputProcRefCon: source)
            try AudioError.check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                    &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
            try AudioError.check(AudioUnitInitialize(unit), "initialize")
            timeStamp.mFlags = .sampleTimeValid
        }

        deinit {
            AudioComponentInstanceDispose(unit)
            source.deallocate()
        }

        /// Renders `frames` frames (the caller's flags start as `flags`); returns whether the
        /// output came back marked silent and its left channel.
        func render(_ frames: UInt32, flags start: AudioUnitRenderActionFlags = []) throws -> (silent: Bool, left: [Float]) {
            out.prepare(frames: frames)
            var flags = start
            try AudioError.check(AudioUnitRender(unit, &flags, &timeStamp, 0, frames, out.list), "render")
            timeStamp.mSampleTime += Double(frames)
            return (flags.contains(.unitRenderAction_OutputIsSilence), out.samples(channel: 0, frames: Int(frames)))
        }
    }

    /// No latency, no tail: input marked silent gives zeroed output marked silent at once, without
    /// processing (the source's samples, marked silent but not zero, do not come through).
    func testSilentInputGivesSilentOutputWhenTheUnitHasNoTail() throws {
        let rig = try Rig(TestGainUnit.description)
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, 2, 0), noErr)
        var result = try rig.render(64)
        XCTAssertFalse(result.silent)
        XCTAssertEqual(result.left, [Float](repeating: 2, count: 64))
        rig.source.pointee.marksSilence = true
        result = try rig.render(64)
        XCTAssertTrue(result.silent, "input marked silent, nothing to ring out")
        XCTAssertEqual(result.left, [Float](repeating: 0, count: 64))
        rig.source.pointee.marksSilence = false
        result = try rig.render(64)
        XCTAssertFalse(result.silent)
        XCTAssertEqual(result.left, [Float](repeating: 2, count: 64))
    }

    /// A mark the caller left in its flags is not the unit's word: sounding output clears it, and
    /// the callback is not handed it as if it had said so.
    func testAStaleSilenceMarkInTheCallersFlagsIsCleared() throws {
        let rig = try Rig(TestGainUnit.description)
        let result = try rig.render(32, flags: .unitRenderAction_OutputIsSilence)
        XCTAssertFalse(result.silent)
        XCTAssertEqual(result.left, [Float](repeating: 1, count: 32))
    }

    /// Latency and tail: a unit delaying its input by 240 frames (its Latency) keeps sounding for
    /// 240 frames of silent input, unmarked, and only then marks its output silent.
    func testTheOutputIsMarkedSilentOnlyAfterTheLatencyAndTail() throws {
        let rig = try Rig(TestLatencyUnit.description)
        var result = try rig.render(240)
        XCTAssertFalse(result.silent)
        XCTAssertEqual(result.left, [Float](repeating: 0, count: 240), "the delay's first 240 frames")
        rig.source.pointee.marksSilence = true
        rig.source.pointee.value = 0
        result = try rig.render(120)
        XCTAssertFalse(result.silent, "the delayed sound is still coming out")
        XCTAssertEqual(result.left, [Float](repeating: 1, count: 120))
        result = try rig.render(120)
        XCTAssertFalse(result.silent)
        XCTAssertEqual(result.left, [Float](repeating: 1, count: 120))
        result = try rig.render(120)
        XCTAssertTrue(result.silent, "240 frames of silence: the latency has passed")
        XCTAssertEqual(result.left, [Float](repeating: 0, count: 120))
        // Sound again restarts the count for the next silence.
        rig.source.pointee.marksSilence = false
        rig.source.pointee.value = 1
        XCTAssertFalse(try rig.render(120).silent)
        rig.source.pointee.marksSilence = true
        rig.source.pointee.value = 0
        XCTAssertFalse(try rig.render(120).silent)
    }

    /// A second pull of the same time stamp, served from the cache, carries the mark again (the
    /// samples are the same).
    func testCachedOutputKeepsItsSilenceMark() throws {
        let rig = try Rig(TestGainUnit.description)
        rig.source.pointee.marksSilence = true
        for pull in 0..<2 {
            rig.out.prepareNull(frames: 32)
            var flags: AudioUnitRenderActionFlags = []
            XCTAssertEqual(AudioUnitRender(rig.unit, &flags, &rig.timeStamp, 0, 32, rig.out.list), noErr)
            XCTAssertTrue(flags.contains(.unitRenderAction_OutputIsSilence), "pull \(pull)")
        }
        XCTAssertEqual(rig.source.pointee.pulls, 1, "the second pull is served from the cache")
    }

    /// Bypassed, the input passes with its mark, as Apple's AUEffectBase leaves it.
    func testBypassPassesTheInputsMark() throws {
        let rig = try Rig(TestGainUnit.description)
        var on: UInt32 = 1
        XCTAssertEqual(AudioUnitSetProperty(rig.unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &on, 4), noErr)
        rig.source.pointee.marksSilence = true
        rig.source.pointee.value = 0
        XCTAssertTrue(try rig.render(32).silent)
        rig.source.pointee.marksSilence = false
        XCTAssertFalse(try rig.render(32).silent)
    }

    /// Parameter changes due in a render call that is not processed still land when due.
    func testAParameterChangeDueDuringSilenceLands() throws {
        let rig = try Rig(TestGainUnit.description)
        rig.source.pointee.marksSilence = true
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, 0.5, 10), noErr)
        XCTAssertTrue(try rig.render(32).silent)
        var gain: Float = 0
        XCTAssertEqual(AudioUnitGetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, &gain), noErr)
        XCTAssertEqual(gain, 0.5)
        rig.source.pointee.marksSilence = false
        XCTAssertEqual(try rig.render(8).left, [Float](repeating: 0.5, count: 8))
    }
}
