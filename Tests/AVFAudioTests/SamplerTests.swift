import AVFAudio
import Foundation
import XCTest

/// AVAudioUnitSampler over FluidSynth-DSSI (package fluidsynth-dssi) with the General MIDI bank
/// TimGM6mb (package timgm6mb-soundfont): half a second of one note, rendered offline at 48 kHz
/// through the main mixer, measured by its RMS and its period (autocorrelation).
final class SamplerTests: XCTestCase {
    static let bank = URL(fileURLWithPath: "/usr/share/sounds/sf2/TimGM6mb.sf2")
    static let middleC = 261.626

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.bank.path), "timgm6mb-soundfont is not installed")
    }

    /// Renders `seconds` of `note` (velocity 100) on a sampler loaded with `program` of bank
    /// `bankMSB`; the left channel, and the sampler (stopped and detached: one runs at a time).
    func play(
        program: UInt8 = 0, bankMSB: UInt8 = UInt8(kAUSampler_DefaultMelodicBankMSB), note: UInt8 = 60, seconds: Double = 0.5,
        configure: (AVAudioUnitSampler) -> Void = { _ in }
    ) throws -> [Float] {
        let rig = OfflineRig(channels: 2)
        let sampler = AVAudioUnitSampler()
        rig.engine.attach(sampler)
        rig.engine.connect(sampler, to: rig.engine.mainMixerNode, format: rig.format)
        try rig.enable()
        try sampler.loadSoundBankInstrument(at: Self.bank, program: program, bankMSB: bankMSB, bankLSB: UInt8(kAUSampler_DefaultBankLSB))
        configure(sampler)
        try rig.engine.start()
        defer {
            rig.engine.stop()
            rig.engine.detach(sampler)
        }
        sampler.startNote(note, withVelocity: 100, onChannel: 0)
        return try rig.render(Int(seconds * 48_000))[0]
    }

    /// Middle C on the piano (program 0, melodic bank 0x79) is audible (RMS over 0.003, -50 dBFS,
    /// after the first 50 ms; it measures 0.0078) and its fundamental is 261.6 Hz within 2 %. Mutation tried: the render's
    /// select_program skipped (LADSPAUnit+Render.swift) still passes here (piano is the bank's
    /// first preset), which is why the violin test exists; run_multiple_synths not called: silent, fails.
    func testPianoMiddleCIsAudibleAtItsPitch() throws {
        let samples = Array(try play().dropFirst(2_400))
        XCTAssertGreaterThan(rms(samples), 0.003)
        let pitch = try XCTUnwrap(fundamental(samples, sampleRate: 48_000))
        XCTAssertEqual(pitch.frequency, Self.middleC, accuracy: Self.middleC * 0.02)
        XCTAssertGreaterThan(pitch.periodicity, 0.9)
    }

    /// Note 72 is an octave up: 523.3 Hz within 2 %. Mutation tried: startNote's note masked
    /// with 0x3F instead of 0x7F (AVAudioUnitMIDIInstrument; 72 becomes 8): no pitch found, fails.
    func testNoteSeventyTwoIsAnOctaveUp() throws {
        let samples = Array(try play(note: 72).dropFirst(2_400))
        let pitch = try XCTUnwrap(fundamental(samples, sampleRate: 48_000))
        XCTAssertEqual(pitch.frequency, 2 * Self.middleC, accuracy: 2 * Self.middleC * 0.02)
    }

    /// Program 40 (violin) is not program 0 (piano): the two renders differ by more than half the
    /// piano's RMS, and the violin still plays middle C. Mutation tried: the unit's render skips
    /// select_program (ladspaUnitSelectBankProgram): both are the piano (difference 0), fails.
    func testViolinIsADifferentInstrumentThanPiano() throws {
        let piano = Array(try play(program: 0).dropFirst(2_400))
        let violin = Array(try play(program: 40).dropFirst(2_400))
        XCTAssertGreaterThan(rms(violin), 0.005)
        XCTAssertGreaterThan(rms(zip(piano, violin).map { $0 - $1 }), 0.5 * rms(piano))
        let pitch = try XCTUnwrap(fundamental(violin, sampleRate: 48_000))
        XCTAssertEqual(pitch.frequency, Self.middleC, accuracy: Self.middleC * 0.02)
    }

    /// Percussion bank 0x78 (SoundFont bank 128) program 0, note 38 is the acoustic snare:
    /// audible, and noise more than pitch: its best autocorrelation between 50 and 1000 Hz is
    /// under 0.85 (measured 0.75) and it crosses zero upwards over 1500 times a second (2875),
    /// where note 38 on the piano (D2, 73.4 Hz) is over 0.9 (0.97) and under 1000 (655).
    /// Mutation tried: 0x78 mapped to bank 0 (AVAudioUnitSampler.soundFontBank): the piano's D2, fails.
    func testPercussionBankPlaysASnareNotAPitch() throws {
        func crossingsPerSecond(_ x: [Float]) -> Double {
            Double(zip(x, x.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count) / (Double(x.count) / 48_000)
        }
        let snare = Array(try play(bankMSB: UInt8(kAUSampler_DefaultPercussionBankMSB), note: 38, seconds: 0.25).dropFirst(480))
        XCTAssertGreaterThan(rms(snare), 0.003)
        XCTAssertLessThan(try XCTUnwrap(fundamental(snare, sampleRate: 48_000)).periodicity, 0.85)
        XCTAssertGreaterThan(crossingsPerSecond(snare), 1500)
        let piano = Array(try play(note: 38, seconds: 0.25).dropFirst(2_400))
        let pianoPitch = try XCTUnwrap(fundamental(piano, sampleRate: 48_000))
        XCTAssertGreaterThan(pianoPitch.periodicity, 0.9)
        XCTAssertEqual(pianoPitch.frequency, 73.42, accuracy: 73.42 * 0.02)
        XCTAssertLessThan(crossingsPerSecond(piano), 1000)
    }

    /// masterGain -20 dB is a tenth of the RMS at 0 dB, within 3 %. Mutation tried: the gain
    /// computed as 10^(dB/10) (a hundredth): fails.
    func testMasterGainMinusTwentyDecibelsIsATenthOfTheLevel() throws {
        let loud = rms(Array(try play().dropFirst(2_400)))
        let quiet = rms(Array(try play { $0.masterGain = -20 }.dropFirst(2_400)))
        XCTAssertEqual(quiet / loud, 0.1, accuracy: 0.003)
    }

    /// NaN and infinities leave gain, pan and tuning as they were (a NaN pan trapped converting
    /// to a MIDI value); finite values outside the ranges are clamped.
    func testNonFiniteSettingsAreIgnoredAndOthersClamped() {
        let sampler = AVAudioUnitSampler()
        sampler.masterGain = -20
        sampler.stereoPan = 50
        sampler.globalTuning = 100
        for bad: Float in [.nan, .infinity, -.infinity] {
            sampler.masterGain = bad
            sampler.stereoPan = bad
            sampler.globalTuning = bad
        }
        XCTAssertEqual(sampler.masterGain, -20)
        XCTAssertEqual(sampler.stereoPan, 50)
        XCTAssertEqual(sampler.globalTuning, 100)
        sampler.masterGain = 1000
        sampler.stereoPan = -1000
        sampler.globalTuning = 1e9
        XCTAssertEqual(sampler.masterGain, 12)
        XCTAssertEqual(sampler.stereoPan, -100)
        XCTAssertEqual(sampler.globalTuning, 2400)
    }

    /// globalTuning 1200 cents puts middle C an octave up (RPN coarse tuning). Mutation tried:
    /// the coarse-tuning RPN number 2 sent as 0 (pitch-bend range): fails.
    func testGlobalTuningOfAnOctaveDoublesThePitch() throws {
        let samples = Array(try play { $0.globalTuning = 1200 }.dropFirst(2_400))
        let pitch = try XCTUnwrap(fundamental(samples, sampleRate: 48_000))
        XCTAssertEqual(pitch.frequency, 2 * Self.middleC, accuracy: 2 * Self.middleC * 0.02)
    }

    /// A missing file is kAudio_FileNotFoundError; a kind FluidSynth cannot read (.dls, .aupreset)
    /// is kAudioUnitErr_InvalidFile; audio files as zones are kAudio_UnimplementedError.
    /// Mutation tried: the existence check removed: no error at all (a unit not yet initialized
    /// only remembers the "load" value), fails.
    func testFilesItCannotLoadThrow() throws {
        let sampler = AVAudioUnitSampler()
        assertThrowsStatus(OSStatus(kAudio_FileNotFoundError), "missing .sf2") {
            try sampler.loadSoundBankInstrument(
                at: URL(fileURLWithPath: "/nonexistent/missing.sf2"), program: 0, bankMSB: UInt8(kAUSampler_DefaultMelodicBankMSB),
                bankLSB: 0)
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sampler-\(getpid()).aupreset")
        try Data("<plist/>".utf8).write(to: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        assertThrowsStatus(kAudioUnitErr_InvalidFile, ".aupreset") { try sampler.loadInstrument(at: scratch) }
        assertThrowsStatus(kAudio_UnimplementedError, "audio files") { try sampler.loadAudioFiles(at: [scratch]) }
        XCTAssertNoThrow(try sampler.loadInstrument(at: Self.bank))
    }
    /// One sampler runs at a time (FluidSynth-DSSI renders all its instances in one call): a second
    /// engine with a sampler cannot start until the first sampler is detached. kDSSIUnitProperty_Program
    /// reads back the SoundFont bank and program a load selected (percussion: bank 128), and is
    /// not in use before. Mutation tried: the claim check removed (LADSPAUnit+MultipleSynths):
    /// the second initializes, fails.
    func testOneSamplerRunsAtATimeAndReportsItsProgram() throws {
        let rigs = [OfflineRig(channels: 2), OfflineRig(channels: 2)]
        let samplers = [AVAudioUnitSampler(), AVAudioUnitSampler()]
        var program = DSSIUnitProgram()
        var size = UInt32(MemoryLayout<DSSIUnitProgram>.size)
        let unit = samplers[0].audioUnit
        let before = AudioUnitGetProperty(unit, kDSSIUnitProperty_Program, kAudioUnitScope_Global, 0, &program, &size)
        XCTAssertEqual(before, kAudioUnitErr_PropertyNotInUse)
        for (rig, sampler) in zip(rigs, samplers) {
            rig.engine.attach(sampler)
            rig.engine.connect(sampler, to: rig.engine.mainMixerNode, format: rig.format)
            try rig.enable()
            try sampler.loadSoundBankInstrument(at: Self.bank, program: 0, bankMSB: UInt8(kAUSampler_DefaultPercussionBankMSB), bankLSB: 0)
        }
        XCTAssertEqual(AudioUnitGetProperty(unit, kDSSIUnitProperty_Program, kAudioUnitScope_Global, 0, &program, &size), noErr)
        XCTAssertEqual([program.bank, program.program], [128, 0])
        try rigs[0].engine.start()
        XCTAssertThrowsError(try rigs[1].engine.start())
        rigs[0].engine.stop()
        rigs[0].engine.detach(samplers[0])
        XCTAssertNoThrow(try rigs[1].engine.start())
        rigs[1].engine.stop()
        rigs[1].engine.detach(samplers[1])
    }
}

/// Root mean square. Thread: any.
func rms(_ samples: [Float]) -> Double {
    guard !samples.isEmpty else { return 0 }
    return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
}

/// The fundamental by normalized autocorrelation over lags for 50…1000 Hz: the shortest lag whose
/// correlation is within 10 % of the best (so a multiple of the period does not win), refined by
/// a parabola through its neighbours; `periodicity` is that correlation (1 for a pure period).
func fundamental(_ x: [Float], sampleRate: Double) -> (frequency: Double, periodicity: Double)? {
    let shortest = Int(sampleRate / 1000), longest = Int(sampleRate / 50)
    guard x.count > 2 * longest + 2 else { return nil }
    let n = x.count - longest - 1  // room for the longest lag tried, longest + 1
    func correlation(_ lag: Int) -> Double {
        var product = 0.0, a = 0.0, b = 0.0
        for i in 0..<n {
            product += Double(x[i]) * Double(x[i + lag])
            a += Double(x[i]) * Double(x[i])
            b += Double(x[i + lag]) * Double(x[i + lag])
        }
        return a > 0 && b > 0 ? product / (a * b).squareRoot() : 0
    }
    let values = (shortest - 1...longest + 1).map(correlation)
    let best = values.max() ?? 0
    guard best > 0 else { return nil }
    var index = 1
    func isPeak(_ i: Int) -> Bool { values[i] >= 0.9 * best && values[i] >= values[i - 1] && values[i] >= values[i + 1] }
    while index < values.count - 1, !isPeak(index) { index += 1 }
    guard index < values.count - 1 else { return nil }
    let (left, centre, right) = (values[index - 1], values[index], values[index + 1])
    let curvature = left - 2 * centre + right
    let offset = curvature == 0 ? 0 : 0.5 * (left - right) / curvature
    let lag = Double(shortest - 1 + index) + offset
    return (sampleRate / lag, centre)
}
