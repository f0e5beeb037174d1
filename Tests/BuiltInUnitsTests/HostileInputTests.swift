import XCTest
import TestSupport

/// Issue 21's C API findings, replayed through the C API on the built-in units: each answers its
/// documented status (and a message naming the cause), none traps, hangs or writes where it must not.
final class HostileInputTests: XCTestCase {
    private func lastMessage() -> String { String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? "" }
    private static let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)

    private static let builtIns: [(OSType, OSType)] = [
        (kAudioUnitType_Output, kAudioUnitSubType_GenericOutput), (kAudioUnitType_Effect, kAudioUnitSubType_Delay),
        (kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ), (kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ),
        (kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer), (kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter),
        (kAudioUnitType_Mixer, kAudioUnitSubType_AU3DMixerEmbedded), (kAudioUnitType_Generator, kAudioUnitSubType_AudioFilePlayer),
        (kAudioUnitType_Effect, kAudioUnitSubType_Reverb2), (kAudioUnitType_Effect, kAudioUnitSubType_Distortion),
        (kAudioUnitType_FormatConverter, kAudioUnitSubType_NewTimePitch), (kAudioUnitType_FormatConverter, kAudioUnitSubType_Varispeed),
    ]

    // MARK: A. Stream formats checked at the boundary

    func testRatesOutsideTheStatedRangeAreRefusedByEveryBuiltIn() throws {
        for (type, subType) in Self.builtIns {
            let h = try UnitHarness(type: type, subType: subType)
            for rate in [1e19, 9.3e18, 1e300, Double.leastNonzeroMagnitude, 0.5, 1_536_001, .infinity, .nan, -44_100] {
                var format = AudioStreamBasicDescription.canonical(sampleRate: rate, channels: 2)
                XCTAssertEqual(
                    AudioUnitSetProperty(h.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, Self.asbdSize),
                    kAudioUnitErr_FormatNotSupported, "\(FourCC.string(subType)) at \(rate) Hz")
                XCTAssertTrue(lastMessage().contains("outside 1…1536000 Hz"), lastMessage())
                var sampleRate = rate
                XCTAssertEqual(
                    AudioUnitSetProperty(h.unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &sampleRate, 8),
                    kAudioUnitErr_InvalidPropertyValue, "\(FourCC.string(subType)) SampleRate \(rate)")
            }
            // The ends of the range are real rates and stay accepted where the unit takes them.
            var edge = AudioStreamBasicDescription.canonical(sampleRate: 1_536_000, channels: 2)
            if subType != kAudioUnitSubType_AU3DMixerEmbedded && subType != kAudioUnitSubType_AudioFilePlayer {
                XCTAssertEqual(
                    AudioUnitSetProperty(h.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &edge, Self.asbdSize),
                    noErr, FourCC.string(subType))
            }
        }
    }

    func testInconsistentLayoutsAreRefusedWithAMessage() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay)
        var cases: [AudioStreamBasicDescription] = []
        var f = AudioStreamBasicDescription.canonical(sampleRate: 1e19, channels: 2)
        f.mBytesPerFrame = 3  // the refusal message of a bad layout printed 1e19 Hz
        cases.append(f)
        f = .canonical(sampleRate: 44_100, channels: 0); cases.append(f)
        f = .canonical(sampleRate: 44_100, channels: 100_000); cases.append(f)
        f = .canonical(sampleRate: 44_100, channels: 2); f.mBitsPerChannel = 0; cases.append(f)
        f = .canonical(sampleRate: 44_100, channels: 2); f.mBytesPerPacket = 8; cases.append(f)
        f = .canonical(sampleRate: 44_100, channels: 2); f.mFramesPerPacket = 0; cases.append(f)
        f = .canonical(sampleRate: 44_100, channels: 2); f.mFormatID = kAudioFormatMPEG4AAC; cases.append(f)
        f = .linearPCM(sampleRate: 44_100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        f.mBytesPerFrame = 2; f.mBytesPerPacket = 2; cases.append(f)  // two 16-bit channels in 2 bytes
        for var format in cases {
            XCTAssertEqual(
                AudioUnitSetProperty(h.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, Self.asbdSize),
                kAudioUnitErr_FormatNotSupported, "\(format)")
            XCTAssertTrue(lastMessage().hasPrefix("The stream format"), lastMessage())
        }
    }

    func testPrintingAnyFormatNeverTraps() {
        // Each rate as "%.0f" prints it where it can (the least subnormal rounds to 0), else in Swift's shortest form.
        let rates: [(Double, String)] = [
            (1e19, "1e+19"), (-1e19, "-1e+19"), (9.3e18, "9.3e+18"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (.nan, "nan"), (.infinity, "inf"), (.leastNonzeroMagnitude, "0"),
        ]
        for (rate, text) in rates {
            var f = AudioStreamBasicDescription.canonical(sampleRate: rate, channels: .max)
            f.mBitsPerChannel = 0
            f.mFormatFlags = kAudioFormatFlagIsSignedInteger | (63 << kLinearPCMFormatFlagsSampleFractionShift)
            // Every field as given: 0 bits with 63 fraction bits is "-63.63", not a trap.
            XCTAssertEqual(f.description, "4294967295 ch, \(text) Hz, lpcm (0x1f84), 0-bit little-endian -63.63 fixed point, interleaved")
            func row(_ label: String) -> String? {
                let prefix = "  \(label):"
                return f.fieldDump.split(separator: "\n").first { $0.hasPrefix(prefix) }
                    .map { $0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
            }
            XCTAssertEqual(row("Sample Rate"), text, f.fieldDump)
            XCTAssertEqual(row("Channels per Frame"), "4294967295", f.fieldDump)
            XCTAssertEqual(row("Bits per Channel"), "0", f.fieldDump)
        }
        XCTAssertEqual(
            AudioStreamBasicDescription.canonical(sampleRate: 1e19, channels: 2).description,
            "2 ch, 1e+19 Hz, lpcm (0x29), 32-bit little-endian float, deinterleaved")
        XCTAssertEqual(
            AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2).description,
            "2 ch, 44100 Hz, lpcm (0x29), 32-bit little-endian float, deinterleaved")
    }

    // MARK: D. Every property's size is checked, the units' own included

    func testUnitSpecificPropertiesCheckTheirSize() throws {
        let mixer = try UnitHarness(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_MultiChannelMixer)
        var byte: UInt8 = 1
        XCTAssertEqual(
            AudioUnitSetProperty(mixer.unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Global, 0, &byte, 1),
            kAudioUnitErr_InvalidPropertyValue)
        XCTAssertTrue(lastMessage().contains("takes 4 bytes; 1 were passed"), lastMessage())
        var on: UInt32 = 1
        XCTAssertEqual(AudioUnitSetProperty(mixer.unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Global, 0, &on, 4), noErr)

        let player = try UnitHarness(type: kAudioUnitType_Generator, subType: kAudioUnitSubType_AudioFilePlayer)
        try player.initialize()
        var big = [UInt8](repeating: 0, count: 256)
        for id in [
            kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitProperty_ScheduledFilePrime,
            kAudioUnitProperty_ScheduledFileBufferSizeFrames, kAudioUnitProperty_ScheduledFileNumberBuffers,
        ] {
            XCTAssertEqual(
                AudioUnitSetProperty(player.unit, id, kAudioUnitScope_Global, 0, &byte, 1), kAudioUnitErr_InvalidPropertyValue, "\(id)")
            XCTAssertEqual(
                AudioUnitSetProperty(player.unit, id, kAudioUnitScope_Global, 0, &big, 256), kAudioUnitErr_InvalidPropertyValue, "\(id)")
        }
        // An array property takes whole entries only, up to its bound.
        XCTAssertEqual(
            AudioUnitSetProperty(player.unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &big, 12),
            kAudioUnitErr_InvalidPropertyValue)
        XCTAssertEqual(AudioUnitSetProperty(player.unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &big, 0), noErr)

        let converter = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_AUConverter)
        XCTAssertEqual(
            AudioUnitSetProperty(converter.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Global, 0, &big, 6),
            kAudioUnitErr_InvalidPropertyValue)
        var huge = [Int32](repeating: 0, count: 2000)
        XCTAssertEqual(
            AudioUnitSetProperty(converter.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Global, 0, &huge, 8000),
            kAudioUnitErr_InvalidPropertyValue)
    }

    // MARK: C. AudioUnitProcess checks the caller's list

    func testProcessRefusesAListShorterThanTheFrameCount() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay)
        try h.initialize()
        // Two buffers of 64 frames inside one block with a guard after each; asked for 512 frames.
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { block.deallocate() }
        block.initialize(repeating: 7, count: 256)
        let list = AudioBufferStorage.allocateList(bufferCount: 2)
        defer { AudioBufferStorage.deallocateList(list) }
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        buffers[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 256, mData: block)
        buffers[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 256, mData: block + 128)
        var flags: AudioUnitRenderActionFlags = []
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleTimeValid
        XCTAssertEqual(AudioUnitProcess(h.unit, &flags, &stamp, 512, list), kAudio_ParamError)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: block, count: 256)), [Float](repeating: 7, count: 256), "nothing written")
        // Wrong buffer count and a NULL buffer are refused too; a list that fits is processed.
        list.pointee.mNumberBuffers = 1
        XCTAssertEqual(AudioUnitProcess(h.unit, &flags, &stamp, 64, list), kAudio_ParamError)
        list.pointee.mNumberBuffers = 2
        buffers[1].mData = nil
        XCTAssertEqual(AudioUnitProcess(h.unit, &flags, &stamp, 64, list), kAudio_ParamError)
        buffers[1].mData = UnsafeMutableRawPointer(block + 128)
        XCTAssertEqual(AudioUnitProcess(h.unit, &flags, &stamp, 64, list), noErr)
        // ProcessMultiple takes one input and one output list, each checked the same way; NULL lists
        // (as C passes them), other counts and lists too short are refused, nothing written.
        XCTAssertEqual(_AudioUnitProcessMultiple(h.unit, &flags, &stamp, 64, 0, nil, 0, nil), kAudio_ParamError)
        block.update(repeating: 7, count: 256)
        var inputs = [UnsafePointer(list), UnsafePointer(list)]
        var outputs = [list]
        XCTAssertEqual(AudioUnitProcessMultiple(h.unit, &flags, &stamp, 64, 2, &inputs, 1, &outputs), kAudio_ParamError)
        XCTAssertEqual(AudioUnitProcessMultiple(h.unit, &flags, &stamp, 512, 1, &inputs, 1, &outputs), kAudio_ParamError)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: block, count: 256)), [Float](repeating: 7, count: 256), "nothing written")
        XCTAssertEqual(AudioUnitProcessMultiple(h.unit, &flags, &stamp, 64, 1, &inputs, 1, &outputs), noErr)
    }

    // MARK: B. Delay: values outside the range, extreme rates, ramps

    /// As Apple's units: a finite value outside the range is taken and clamped (noErr), at once or
    /// at an offset; NaN and infinities are refused and the value stays (docs/PORTING.md).
    func testDelayClampsOutOfRangeValuesAndRefusesNonFiniteOnes() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay)
        try h.initialize()
        for value in [Float.infinity, -.infinity, .nan] {
            XCTAssertEqual(
                AudioUnitSetParameter(h.unit, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, value, 0),
                kAudioUnitErr_InvalidParameterValue, "\(value)")
            XCTAssertEqual(
                AudioUnitSetParameter(h.unit, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, value, 5),
                kAudioUnitErr_InvalidParameterValue, "\(value) at an offset")
        }
        XCTAssertEqual(try h.get(kDelayParam_DelayTime), 1)
        for (value, clamped) in [(Float.greatestFiniteMagnitude, Float(2)), (2.001, 2), (-1, 0), (-.greatestFiniteMagnitude, 0)] {
            XCTAssertEqual(AudioUnitSetParameter(h.unit, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, value, 0), noErr, "\(value)")
            XCTAssertEqual(try h.get(kDelayParam_DelayTime), clamped, "\(value)")
        }
        XCTAssertEqual(AudioUnitSetParameter(h.unit, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, 9, 5), noErr)
        try h.feed(bus: 0, [[Float](repeating: 0.5, count: 512), [Float](repeating: 0.5, count: 512)])
        _ = try h.render(frames: 10, channels: 2)
        XCTAssertEqual(try h.get(kDelayParam_DelayTime), 2, "a scheduled value is clamped too")
        var ramp = AudioUnitParameterEvent()
        ramp.scope = kAudioUnitScope_Global
        ramp.parameter = kDelayParam_Feedback
        ramp.eventType = .parameterEvent_Ramped
        ramp.eventValues.ramp = .init(startBufferOffset: 0, durationInFrames: 100, startValue: -100, endValue: .infinity)
        XCTAssertEqual(AudioUnitScheduleParameters(h.unit, &ramp, 1), kAudioUnitErr_InvalidParameterValue)
        // A ramp between huge values runs between the range's ends, every value inside it.
        ramp.eventValues.ramp = .init(
            startBufferOffset: 0, durationInFrames: 100,
            startValue: -.greatestFiniteMagnitude, endValue: .greatestFiniteMagnitude)
        XCTAssertEqual(AudioUnitScheduleParameters(h.unit, &ramp, 1), noErr)
        _ = try h.render(frames: 50, channels: 2)
        let midway = try h.get(kDelayParam_Feedback)
        XCTAssertEqual(midway, -100 + 200 * 49 / 100, accuracy: 1e-4)
        _ = try h.render(frames: 100, channels: 2)
        XCTAssertEqual(try h.get(kDelayParam_Feedback), 100)
    }

    func testAllocationsSizedByInputAreBoundedAtInitialize() throws {
        // 64 channels of 2 s at 1.536 MHz would be 786 MB of delay line.
        let delay = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay)
        try delay.setFormat(.canonical(sampleRate: 1_536_000, channels: 64), scope: kAudioUnitScope_Input)
        try delay.setFormat(.canonical(sampleRate: 1_536_000, channels: 64), scope: kAudioUnitScope_Output)
        XCTAssertEqual(AudioUnitInitialize(delay.unit), kAudio_MemFullError)
        XCTAssertTrue(lastMessage().contains("more than the 256 MiB"), lastMessage())
        // The file player's ring: 2^20 frames × 64 buffers × 2 channels.
        let player = try UnitHarness(type: kAudioUnitType_Generator, subType: kAudioUnitSubType_AudioFilePlayer)
        var frames: UInt32 = 1 << 20, count: UInt32 = 64
        XCTAssertEqual(
            AudioUnitSetProperty(player.unit, kAudioUnitProperty_ScheduledFileBufferSizeFrames, kAudioUnitScope_Global, 0, &frames, 4),
            noErr)
        XCTAssertEqual(
            AudioUnitSetProperty(player.unit, kAudioUnitProperty_ScheduledFileNumberBuffers, kAudioUnitScope_Global, 0, &count, 4), noErr)
        XCTAssertEqual(AudioUnitInitialize(player.unit), kAudio_MemFullError)
        // A mixer with 1024 eight-channel buses of 65 536 frames would take 2 GB of bus buffers.
        let mixer = try UnitHarness(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_MultiChannelMixer, slice: 65_536)
        var buses: UInt32 = 1024
        XCTAssertEqual(AudioUnitSetProperty(mixer.unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, 4), noErr)
        for bus in 0..<buses {
            try mixer.setFormat(.canonical(sampleRate: 44_100, channels: 8), scope: kAudioUnitScope_Input, element: bus)
        }
        XCTAssertEqual(AudioUnitInitialize(mixer.unit), kAudio_MemFullError)
        XCTAssertTrue(lastMessage().contains("1024 input and 1 output elements"), lastMessage())
    }

    // MARK: E. Converter: extreme rates

    func testConverterRefusesExtremeRatesAtOnce() throws {
        let h = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_AUConverter)
        for (scope, rate) in [
            (kAudioUnitScope_Input, 1e300), (kAudioUnitScope_Output, Double.leastNonzeroMagnitude),
            (kAudioUnitScope_Output, 1e300), (kAudioUnitScope_Input, Double.leastNonzeroMagnitude),
        ] {
            var f = AudioStreamBasicDescription.canonical(sampleRate: rate, channels: 2)
            XCTAssertEqual(
                AudioUnitSetProperty(h.unit, kAudioUnitProperty_StreamFormat, scope, 0, &f, Self.asbdSize),
                kAudioUnitErr_FormatNotSupported)
        }
        // Rates inside the range but further apart than the resampler's bound fail initialization, at once.
        try h.setFormat(.canonical(sampleRate: 1, channels: 2), scope: kAudioUnitScope_Input)
        try h.setFormat(.canonical(sampleRate: 1_536_000, channels: 2), scope: kAudioUnitScope_Output)
        XCTAssertEqual(AudioUnitInitialize(h.unit), kAudioUnitErr_FormatNotSupported)
        XCTAssertTrue(lastMessage().contains("ratio beyond 1:64"), lastMessage())
        // The widest ratio allowed, at the top of the range, builds its resampler and converts.
        try h.setFormat(.canonical(sampleRate: 1_536_000, channels: 2), scope: kAudioUnitScope_Input)
        try h.setFormat(.canonical(sampleRate: 24_000, channels: 2), scope: kAudioUnitScope_Output)
        try h.initialize()
        try h.feed(bus: 0, [[Float](repeating: 0.25, count: 65_536), [Float](repeating: 0.25, count: 65_536)])
        let out = try h.render(frames: 512, channels: 2)
        XCTAssertTrue(out.allSatisfy { $0.allSatisfy(\.isFinite) })
    }

    // MARK: F. 3D mixer: extreme rates, NaN playback rate

    func testMixer3DRefusesExtremeRatesAndANaNPlaybackRate() throws {
        let h = try UnitHarness(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_AU3DMixerEmbedded)
        var f = AudioStreamBasicDescription.canonical(sampleRate: 1e19, channels: 1)
        XCTAssertEqual(
            AudioUnitSetProperty(h.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &f, Self.asbdSize),
            kAudioUnitErr_FormatNotSupported)
        try h.setFormat(.canonical(sampleRate: 1_536_000, channels: 1), scope: kAudioUnitScope_Input)
        try h.setFormat(.canonical(sampleRate: 8_000, channels: 2), scope: kAudioUnitScope_Output)
        XCTAssertEqual(AudioUnitInitialize(h.unit), kAudioUnitErr_FormatNotSupported)
        XCTAssertTrue(lastMessage().contains("more than 16 times"), lastMessage())
        try h.setFormat(.canonical(sampleRate: 44_100, channels: 1), scope: kAudioUnitScope_Input)
        try h.setFormat(.canonical(sampleRate: 44_100, channels: 2), scope: kAudioUnitScope_Output)
        try h.initialize()
        XCTAssertEqual(
            AudioUnitSetParameter(h.unit, k3DMixerParam_PlaybackRate, kAudioUnitScope_Input, 0, .nan, 0),
            kAudioUnitErr_InvalidParameterValue)
        XCTAssertEqual(AudioUnitSetParameter(h.unit, k3DMixerParam_PlaybackRate, kAudioUnitScope_Input, 0, 100, 0), noErr)
        XCTAssertEqual(try h.get(k3DMixerParam_PlaybackRate, scope: kAudioUnitScope_Input), 2, "clamped to the maximum")
        try h.feed(bus: 0, [[Float](repeating: 0.25, count: 4096)])
        let out = try h.render(frames: 512, channels: 2)
        XCTAssertTrue(out.allSatisfy { $0.allSatisfy(\.isFinite) })
    }

    // MARK: G. ClassInfo refuses values SetParameter refuses and clamps those it clamps

    func testClassInfoWithNonFiniteValuesIsRefusedAndOutOfRangeOnesAreClamped() throws {
        let h = try UnitHarness(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_AU3DMixerEmbedded)
        var ref: UnsafeRawPointer?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        try AudioError.check(AudioUnitGetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &ref, &size), "get")
        guard case .dictionary(var dict)? = CFBridge.value(ref), case .data(let data)? = dict[kAUPresetDataKey] else {
            return XCTFail("ClassInfo is not a dictionary with data")
        }
        Unmanaged<AnyObject>.fromOpaque(ref!).release()
        // Find the record of input bus 0's playback rate and poison it.
        func word(_ d: [UInt8], _ i: Int) -> UInt32 { d[i..<i + 4].reduce(0) { ($0 << 8) | UInt32($1) } }
        let record = stride(from: 0, to: data.count, by: 16).first {
            word(data, $0) == kAudioUnitScope_Input && word(data, $0 + 4) == 0 && word(data, $0 + 8) == k3DMixerParam_PlaybackRate
        }!
        for poison in [Float.nan, .infinity] {
            var bad = data
            let bits = poison.bitPattern
            for k in 0..<4 { bad[record + 12 + k] = UInt8(truncatingIfNeeded: bits >> (24 - 8 * k)) }
            dict[kAUPresetDataKey] = .data(bad)
            var plist: UnsafeRawPointer? = UnsafeRawPointer(CFBridge.propertyList(.dictionary(dict)).toOpaque())
            XCTAssertEqual(
                AudioUnitSetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &plist, size),
                kAudioUnitErr_InvalidParameterValue, "\(poison)")
            XCTAssertTrue(lastMessage().contains("ClassInfo gives parameter 4"), lastMessage())
            Unmanaged<AnyObject>.fromOpaque(plist!).release()
        }
        XCTAssertEqual(try h.get(k3DMixerParam_PlaybackRate, scope: kAudioUnitScope_Input), 1)
        var loud = data
        for k in 0..<4 { loud[record + 12 + k] = UInt8(truncatingIfNeeded: Float(1000).bitPattern >> (24 - 8 * k)) }
        dict[kAUPresetDataKey] = .data(loud)
        var plist: UnsafeRawPointer? = UnsafeRawPointer(CFBridge.propertyList(.dictionary(dict)).toOpaque())
        XCTAssertEqual(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &plist, size), noErr)
        Unmanaged<AnyObject>.fromOpaque(plist!).release()
        XCTAssertEqual(try h.get(k3DMixerParam_PlaybackRate, scope: kAudioUnitScope_Input), 2, "clamped to the maximum")
    }

    // MARK: H. Mixers apply sample-offset and scheduled events at their frame

    func testMultichannelMixerAppliesEventsAtTheirFrame() throws {
        let h = try UnitHarness(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_MultiChannelMixer, slice: 256)
        var one: UInt32 = 1
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &one, 4), "count")
        try h.setFormat(.canonical(sampleRate: 44_100, channels: 1), scope: kAudioUnitScope_Input)
        try h.setFormat(.canonical(sampleRate: 44_100, channels: 1), scope: kAudioUnitScope_Output)
        try h.feed(bus: 0, [[Float](repeating: 1, count: 1024)])
        try h.initialize()
        // Volume 0.5 from frame 100 (a sample offset), then a ramp to 0 over frames 200..<204.
        XCTAssertEqual(AudioUnitSetParameter(h.unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5, 100), noErr)
        var ramp = AudioUnitParameterEvent()
        ramp.scope = kAudioUnitScope_Input
        ramp.parameter = kMultiChannelMixerParam_Volume
        ramp.eventType = .parameterEvent_Ramped
        ramp.eventValues.ramp = .init(startBufferOffset: 200, durationInFrames: 4, startValue: 0.5, endValue: 0)
        XCTAssertEqual(AudioUnitScheduleParameters(h.unit, &ramp, 1), noErr)
        let out = try h.render(frames: 256, channels: 1)[0]
        XCTAssertEqual(Array(out[0..<100]), [Float](repeating: 1, count: 100))
        XCTAssertEqual(Array(out[100..<200]), [Float](repeating: 0.5, count: 100))
        XCTAssertEqual(Array(out[200..<205]), [0.5, 0.375, 0.25, 0.125, 0])
        XCTAssertEqual(Array(out[205..<256]), [Float](repeating: 0, count: 51))
    }

    func testMixer3DAppliesEventsAtTheirFrame() throws {
        let h = try UnitHarness(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_AU3DMixerEmbedded, slice: 256)
        var one: UInt32 = 1
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &one, 4), "count")
        try h.feed(bus: 0, [[Float](repeating: 1, count: 1024)])
        try h.initialize()
        // Disabled from frame 64 on (a sample offset): the first 64 frames sound, the rest are silence.
        XCTAssertEqual(AudioUnitSetParameter(h.unit, k3DMixerParam_Enable, kAudioUnitScope_Input, 0, 0, 64), noErr)
        let out = try h.render(frames: 256, channels: 2)
        let centre = Float(0.5).squareRoot()
        for c in 0..<2 {
            for i in 0..<64 { XCTAssertEqual(out[c][i], centre, accuracy: 1e-6, "channel \(c) frame \(i)") }
            XCTAssertEqual(Array(out[c][64..<256]), [Float](repeating: 0, count: 192), "channel \(c)")
        }
    }
}
