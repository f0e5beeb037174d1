import XCTest
import TestSupport

/// The unit model's behaviour, checked sample by sample through the documented C API.
final class UnitModelTests: XCTestCase {
    func testImmediateScheduledParameterChangesAtItsFrame() throws {
        let f = try GainFixture()
        XCTAssertEqual(AudioUnitSetParameter(f.unit, 0, kAudioUnitScope_Global, 0, 2, 100), noErr)
        XCTAssertEqual(f.render(256), noErr)
        let left = f.left(256)
        for i in 0..<100 { XCTAssertEqual(left[i], Float(i)) }
        for i in 100..<256 { XCTAssertEqual(left[i], 2 * Float(i)) }
    }

    func testRampIsExactPerFrameAndCarriesIntoTheNextCall() throws {
        let f = try GainFixture()
        var event = AudioUnitParameterEvent()
        event.scope = kAudioUnitScope_Global
        event.parameter = 0
        event.eventType = .parameterEvent_Ramped
        event.eventValues.ramp = .init(startBufferOffset: 64, durationInFrames: 128, startValue: 0, endValue: 1)
        XCTAssertEqual(AudioUnitScheduleParameters(f.unit, &event, 1), noErr)
        XCTAssertEqual(f.render(128), noErr)
        var out = f.left(128)
        for i in 0..<64 { XCTAssertEqual(out[i], Float(i), "before the ramp the gain is 1") }
        for i in 64..<128 { XCTAssertEqual(out[i], Float(i) * Float(i - 64) / 128, accuracy: 1e-4) }
        XCTAssertEqual(f.render(128), noErr)
        out = f.left(128)
        for i in 0..<64 { XCTAssertEqual(out[i], Float(128 + i) * Float(64 + i) / 128, accuracy: 1e-3) }
        for i in 64..<128 { XCTAssertEqual(out[i], Float(128 + i), "after the ramp the gain is 1") }
    }

    func testInvalidScheduledParameterIsRefused() throws {
        let f = try GainFixture()
        var event = AudioUnitParameterEvent()
        event.parameter = 42
        event.eventType = .parameterEvent_Immediate
        XCTAssertEqual(AudioUnitScheduleParameters(f.unit, &event, 1), kAudioUnitErr_InvalidParameter)
        XCTAssertEqual(AudioUnitSetParameter(f.unit, 0, kAudioUnitScope_Global, 0, .nan, 0), kAudioUnitErr_InvalidParameterValue)
    }

    func testRenderNotifySeesPreAndPostRender() throws {
        let f = try GainFixture()
        // The notification records the flags it sees into preallocated memory.
        let seen = UnsafeMutablePointer<UInt32>.allocate(capacity: 8)
        seen.initialize(repeating: 0, count: 8)
        defer { seen.deallocate() }
        XCTAssertEqual(AudioUnitAddRenderNotify(f.unit, flagLogNotify, seen), noErr)
        f.render(64)
        XCTAssertEqual(seen[0], 2)
        let phases: AudioUnitRenderActionFlags = [.unitRenderAction_PreRender, .unitRenderAction_PostRender]
        XCTAssertEqual(AudioUnitRenderActionFlags(rawValue: seen[1]).intersection(phases), .unitRenderAction_PreRender)
        XCTAssertEqual(AudioUnitRenderActionFlags(rawValue: seen[2]).intersection(phases), .unitRenderAction_PostRender)
        XCTAssertEqual(AudioUnitRemoveRenderNotify(f.unit, flagLogNotify, seen), noErr)
        f.render(64)
        XCTAssertEqual(seen[0], 2)
    }

    func testBypassPassesInputThrough() throws {
        let f = try GainFixture()
        XCTAssertEqual(AudioUnitSetParameter(f.unit, 0, kAudioUnitScope_Global, 0, 3, 0), noErr)
        var on: UInt32 = 1
        XCTAssertEqual(AudioUnitSetProperty(f.unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &on, 4), noErr)
        f.render(32)
        XCTAssertEqual(f.left(32), (0..<32).map(Float.init))
    }

    func testOutOfPlaceAndNilDataModesGiveTheSameSamples() throws {
        let f = try GainFixture(initialize: false)
        var off: UInt32 = 0
        XCTAssertEqual(AudioUnitSetProperty(f.unit, kAudioUnitProperty_InPlaceProcessing, kAudioUnitScope_Global, 0, &off, 4), noErr)
        XCTAssertEqual(AudioUnitInitialize(f.unit), noErr)
        XCTAssertEqual(AudioUnitSetParameter(f.unit, 0, kAudioUnitScope_Global, 0, 0.25, 0), noErr)
        // nil mData: the unit points the caller's buffers at its own output.
        f.storage.prepareNull(frames: 64)
        var flags: AudioUnitRenderActionFlags = []
        XCTAssertEqual(AudioUnitRender(f.unit, &flags, &f.timeStamp, 0, 64, f.storage.list), noErr)
        let buffers = UnsafeMutableAudioBufferListPointer(f.storage.list)
        let out = try XCTUnwrap(buffers.floatChannel(1))
        XCTAssertEqual(Array(UnsafeBufferPointer(start: out, count: 64)), (0..<64).map { 0.25 * Float($0 + 1000) })
    }

    func testConnectedUnitsPullAndASharedOutputRendersOncePerTimeStamp() throws {
        let source = try GainFixture()
        registerTestUnits()
        var desc = TestGainUnit.description
        var u: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, &u), noErr)
        let downstream = try XCTUnwrap(u)
        defer { AudioComponentInstanceDispose(downstream) }
        var connection = AudioUnitConnection(sourceAudioUnit: source.unit, sourceOutputNumber: 0, destInputNumber: 0)
        XCTAssertEqual(
            AudioUnitSetProperty(
                downstream, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                UInt32(MemoryLayout<AudioUnitConnection>.size)), noErr)
        XCTAssertEqual(AudioUnitSetParameter(source.unit, 0, kAudioUnitScope_Global, 0, 2, 0), noErr)
        XCTAssertEqual(AudioUnitSetParameter(downstream, 0, kAudioUnitScope_Global, 0, 3, 0), noErr)
        XCTAssertEqual(AudioUnitInitialize(downstream), noErr)
        let out = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 512)
        out.prepare(frames: 128)
        var flags: AudioUnitRenderActionFlags = []
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        XCTAssertEqual(AudioUnitRender(downstream, &flags, &ts, 0, 128, out.list), noErr)
        XCTAssertEqual(out.samples(channel: 0, frames: 128), (0..<128).map { 6 * Float($0) })
        // A second consumer in the same cycle (nil mData) gets the cached output: the source's
        // callback does not run again.
        let counterBefore = source.counter
        source.storage.prepareNull(frames: 128)
        XCTAssertEqual(AudioUnitRender(source.unit, &flags, &ts, 0, 128, source.storage.list), noErr)
        XCTAssertEqual(source.counter, counterBefore + 128, "first nil-mData pull renders")
        source.storage.prepareNull(frames: 128)
        XCTAssertEqual(AudioUnitRender(source.unit, &flags, &ts, 0, 128, source.storage.list), noErr)
        XCTAssertEqual(source.counter, counterBefore + 128, "same time stamp: served from the cache")
    }

    /// As Apple's AUBase::DoRender: a second pull of the same time stamp is served from the cache
    /// (the unit does not render again) and still runs the render notifications, pre and post.
    func testASecondPullOfTheSameTimeStampNotifiesToo() throws {
        let f = try GainFixture()
        let seen = UnsafeMutablePointer<UInt32>.allocate(capacity: 8)
        seen.initialize(repeating: 0, count: 8)
        defer { seen.deallocate() }
        XCTAssertEqual(AudioUnitAddRenderNotify(f.unit, flagLogNotify, seen), noErr)
        var flags: AudioUnitRenderActionFlags = []
        for pull in 0..<2 {
            f.storage.prepareNull(frames: 64)
            XCTAssertEqual(AudioUnitRender(f.unit, &flags, &f.timeStamp, 0, 64, f.storage.list), noErr)
            let buffers = UnsafeMutableAudioBufferListPointer(f.storage.list)
            let left = try XCTUnwrap(buffers.floatChannel(0))
            XCTAssertEqual(Array(UnsafeBufferPointer(start: left, count: 64)), (0..<64).map(Float.init), "pull \(pull)")
        }
        XCTAssertEqual(f.counter, 64, "the second pull is served from the cache")
        XCTAssertEqual(seen[0], 4)
        let phases: AudioUnitRenderActionFlags = [.unitRenderAction_PreRender, .unitRenderAction_PostRender]
        for (i, phase) in [
            AudioUnitRenderActionFlags.unitRenderAction_PreRender, .unitRenderAction_PostRender,
            .unitRenderAction_PreRender, .unitRenderAction_PostRender,
        ].enumerated() {
            XCTAssertEqual(AudioUnitRenderActionFlags(rawValue: seen[i + 1]).intersection(phases), phase, "notification \(i)")
        }
        XCTAssertEqual(AudioUnitRemoveRenderNotify(f.unit, flagLogNotify, seen), noErr)
    }

    func testParameterInfoListAndFactoryPresets() throws {
        let f = try GainFixture()
        var ids = [AudioUnitParameterID](repeating: 9, count: 4)
        var size = UInt32(16)
        XCTAssertEqual(AudioUnitGetProperty(f.unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size), noErr)
        XCTAssertEqual(size, 4)
        XCTAssertEqual(ids[0], 0)
        var info = AudioUnitParameterInfo()
        size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        XCTAssertEqual(AudioUnitGetProperty(f.unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, 0, &info, &size), noErr)
        XCTAssertEqual(String(cfString: info.cfNameString?.takeRetainedValue()), "Gain")
        XCTAssertEqual(withUnsafeBytes(of: info.name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }, "Gain")
        XCTAssertEqual(info.maxValue, 8)
        XCTAssertEqual(info.defaultValue, 1)
        XCTAssertTrue(info.flags.contains(.flag_IsWritable))

        var presets: Unmanaged<CFArray>?
        size = UInt32(MemoryLayout<CFArray?>.size)
        XCTAssertEqual(AudioUnitGetProperty(f.unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &presets, &size), noErr)
        let array = try XCTUnwrap(presets?.takeRetainedValue())
        XCTAssertEqual(CFArrayGetCount(array), 2)
        let half = CFArrayGetValueAtIndex(array, 1)!.assumingMemoryBound(to: AUPreset.self).pointee
        XCTAssertEqual(String(cfString: half.presetName!.takeUnretainedValue()), "Half")
        var choice = half
        XCTAssertEqual(
            AudioUnitSetProperty(
                f.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &choice,
                UInt32(MemoryLayout<AUPreset>.size)), noErr)
        var gain: Float = 0
        XCTAssertEqual(AudioUnitGetParameter(f.unit, 0, kAudioUnitScope_Global, 0, &gain), noErr)
        XCTAssertEqual(gain, 0.5)
        choice.presetNumber = 7
        XCTAssertEqual(
            AudioUnitSetProperty(
                f.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &choice,
                UInt32(MemoryLayout<AUPreset>.size)), kAudioUnitErr_InvalidPropertyValue)
    }

    func testClassInfoRoundTripsAndRefusesAnotherUnitsState() throws {
        let f = try GainFixture()
        let unit = try AudioUnitInstance(TestGainUnit.description)
        try unit.setParameter(0, 3.25)
        let state = try unit.classInfo()
        XCTAssertEqual(state[kAUPresetTypeKey]?.integerValue, Int64(kAudioUnitType_Effect))
        try unit.setParameter(0, 1)
        try unit.setClassInfo(state)
        XCTAssertEqual(try unit.parameter(0), 3.25)

        // Through the C API, as ported code does it.
        var plist: Unmanaged<AnyObject>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(unit.handle, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &plist, &size), noErr)
        var object = plist
        XCTAssertEqual(AudioUnitSetProperty(f.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &object, size), noErr)
        var gain: Float = 0
        XCTAssertEqual(AudioUnitGetParameter(f.unit, 0, kAudioUnitScope_Global, 0, &gain), noErr)
        XCTAssertEqual(gain, 3.25)
        plist?.release()

        var foreign = state
        if case .dictionary(var d) = foreign { d[kAUPresetSubtypeKey] = .integer(Int64(FourCC.code("dely")!)); foreign = .dictionary(d) }
        XCTAssertThrowsError(try unit.setClassInfo(foreign)) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAudioUnitErr_InvalidPropertyValue)
        }
    }

    func testPropertyListenersFireOnSetAndLastRenderErrorOffTheRenderThread() throws {
        let f = try GainFixture(initialize: false)
        final class Box { var ids: [AudioUnitPropertyID] = []; var threadIsMain: [Bool] = [] }
        let box = Box()
        let listener: AudioUnitPropertyListenerProc = { refCon, _, id, _, _ in
            let b = Unmanaged<Box>.fromOpaque(refCon).takeUnretainedValue()
            b.ids.append(id)
        }
        let refCon = Unmanaged.passUnretained(box).toOpaque()
        XCTAssertEqual(AudioUnitAddPropertyListener(f.unit, kAudioUnitProperty_StreamFormat, listener, refCon), noErr)
        XCTAssertEqual(AudioUnitAddPropertyListener(f.unit, kAudioUnitProperty_LastRenderError, listener, refCon), noErr)
        var rate: Float64 = 48_000
        XCTAssertEqual(AudioUnitSetProperty(f.unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, 8), noErr)
        XCTAssertEqual(box.ids, [kAudioUnitProperty_StreamFormat])

        // A callback that fails: the render returns its status, LastRenderError records it and the
        // listener hears about it on the watcher's thread.
        let failing: AURenderCallback = { _, _, _, _, _, _ in kAudioUnitErr_NoConnection }
        var cb = AURenderCallbackStruct(inputProc: failing, inputProcRefCon: nil)
        XCTAssertEqual(
            AudioUnitSetProperty(
                f.unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), noErr)
        XCTAssertEqual(AudioUnitInitialize(f.unit), noErr)
        XCTAssertEqual(f.render(64), kAudioUnitErr_NoConnection)
        var status: OSStatus = 0
        var size = UInt32(4)
        XCTAssertEqual(AudioUnitGetProperty(f.unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &status, &size), noErr)
        XCTAssertEqual(status, kAudioUnitErr_NoConnection)
        let deadline = Date().addingTimeInterval(2)
        while !box.ids.contains(kAudioUnitProperty_LastRenderError) && Date() < deadline { usleep(1000) }
        XCTAssertTrue(box.ids.contains(kAudioUnitProperty_LastRenderError))
        XCTAssertEqual(AudioUnitRemovePropertyListenerWithUserData(f.unit, kAudioUnitProperty_StreamFormat, listener, refCon), noErr)
    }

    func testCanDoAnswersPerUnit() throws {
        let f = try GainFixture()
        XCTAssertEqual(AudioComponentInstanceCanDo(f.unit, kAudioUnitRenderSelect), 1)
        XCTAssertEqual(AudioComponentInstanceCanDo(f.unit, kAudioUnitProcessSelect), 1)
        XCTAssertEqual(AudioComponentInstanceCanDo(f.unit, kAudioOutputUnitStartSelect), 0)
        XCTAssertEqual(AudioOutputUnitStart(f.unit), badComponentSelector)
    }

    func testResetKeepsParametersAndProcessWorksInPlace() throws {
        let f = try GainFixture()
        XCTAssertEqual(AudioUnitSetParameter(f.unit, 0, kAudioUnitScope_Global, 0, 2, 0), noErr)
        XCTAssertEqual(AudioUnitReset(f.unit, kAudioUnitScope_Global, 0), noErr)
        var gain: Float = 0
        XCTAssertEqual(AudioUnitGetParameter(f.unit, 0, kAudioUnitScope_Global, 0, &gain), noErr)
        XCTAssertEqual(gain, 2)
        f.storage.prepare(frames: 8)
        for c in 0..<2 { for i in 0..<8 { f.storage.channel(c)[i] = Float(i) } }
        var flags: AudioUnitRenderActionFlags = []
        XCTAssertEqual(AudioUnitProcess(f.unit, &flags, &f.timeStamp, 8, f.storage.list), noErr)
        XCTAssertEqual(f.left(8), (0..<8).map { 2 * Float($0) })
    }
}

/// A render notification that logs the flags it sees: refCon[0] counts, refCon[1…] the flags.
let flagLogNotify: AURenderCallback = { refCon, flags, _, _, _, _ in
    let log = refCon.assumingMemoryBound(to: UInt32.self)
    log[Int(log[0]) + 1] = flags.pointee.rawValue
    log[0] += 1
    return noErr
}
