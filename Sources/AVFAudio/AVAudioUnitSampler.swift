import AudioToolbox
import AudioTypes
import Foundation
import LADSPAUnits

/// Apple's sampler (AVAudioUnitSampler) over the DSSI plug-in FluidSynth-DSSI (Debian package
/// fluidsynth-dssi), found on DSSI_PATH: it plays SoundFont 2 (.sf2) banks. DLS banks, .aupreset,
/// EXS24 instruments and audio files throw (docs/PORTING.md). Only one sampler can run at a time
/// in a process (the plug-in renders all its instances in one call; LADSPAUnit+MultipleSynths).
///
/// Thread: setup to make and load; MIDI from any thread.
public final class AVAudioUnitSampler: AVAudioUnitMIDIInstrument {
    /// The plug-in's DSSI label, and the package that installs it (named in errors).
    static let pluginLabel = "FluidSynth-DSSI"
    static let package = "fluidsynth-dssi"
    /// Apple's sampler, named when the plug-in is missing (attach then refuses the node).
    static let appleSampler = AudioComponentDescription(
        componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_Sampler,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    /// FluidSynth's own gain (synth.gain) at masterGain 0 dB.
    static let unityGain = 0.2

    /// Whether the plug-in was found (Apple's initializer cannot fail; loading reports it).
    private let found: Bool
    private var gainDecibels: Float = 0
    private var panValue: Float = 0
    private var tuningCents: Float = 0

    /// Thread: setup.
    public init() {
        if let component = LADSPAProvider.component(label: Self.pluginLabel), let unit = try? makeUnit(component.description) {
            found = true
            super.init(unit: unit)
            // FluidSynth's gain is the plug-in's, kept from the last sampler's: start at 0 dB.
            masterGain = 0
        } else {
            found = false
            super.init(unit: try! makeUnit(AVAudioMixerNode.description))  // stands in; attach refuses it
            missing = Self.appleSampler
        }
    }

    /// Loads program `program` of a SoundFont 2 bank. bankMSB 0x79
    /// (kAUSampler_DefaultMelodicBankMSB) is SoundFont bank `bankLSB`, 0x78
    /// (kAUSampler_DefaultPercussionBankMSB) bank 128 + `bankLSB`, as Apple's sampler maps them;
    /// any other MSB is the MIDI bank MSB × 128 + LSB. A .dls bank throws kAudioUnitErr_InvalidFile.
    ///
    /// Thread: setup.
    public func loadSoundBankInstrument(at bankURL: URL, program: UInt8, bankMSB: UInt8, bankLSB: UInt8) throws {
        try load(bankURL, bank: Self.soundFontBank(msb: bankMSB, lsb: bankLSB), program: UInt32(program & 0x7F))
    }

    /// Loads an instrument file: a .sf2 bank's program 0 of bank 0. Apple's other kinds
    /// (.aupreset, .exs, .dls) throw kAudioUnitErr_InvalidFile.
    ///
    /// Thread: setup.
    public func loadInstrument(at instrumentURL: URL) throws {
        try load(instrumentURL, bank: 0, program: 0)
    }

    /// Apple's sampler plays audio files as zones; FluidSynth-DSSI cannot: throws
    /// kAudio_UnimplementedError.
    ///
    /// Thread: setup.
    public func loadAudioFiles(at audioFiles: [URL]) throws {
        throw osStatusError(
            kAudio_UnimplementedError, "AVAudioUnitSampler on Linux plays SoundFont 2 banks only; audio files cannot be loaded as zones")
    }

    /// The output level in dB (-90…12, Apple's range), FluidSynth's gain (0.2 at 0 dB). Values
    /// outside are clamped; NaN and infinities are ignored, here and for pan and tuning.
    ///
    /// Thread: setup.
    public var masterGain: Float {
        get { gainDecibels }
        set {
            guard newValue.isFinite else { return }  // NaN would reach the plug-in as "nan"
            gainDecibels = min(max(newValue, -90), 12)
            let gain = Self.unityGain * pow(10, Double(gainDecibels) / 20)
            try? configure(["GLOBAL:gain": String(format: "%.9g", gain)])
        }
    }

    /// Left -100 … right 100: MIDI pan (CC 10), sent when set and after each load.
    ///
    /// Thread: setup.
    public var stereoPan: Float {
        get { panValue }
        set {
            guard newValue.isFinite else { return }  // NaN cannot become a MIDI value
            panValue = min(max(newValue, -100), 100)
            sendPan()
        }
    }

    /// Tuning in cents (-2400…2400): the RPNs coarse (semitones) and fine tuning, sent when set
    /// and after each load.
    ///
    /// Thread: setup.
    public var globalTuning: Float {
        get { tuningCents }
        set {
            guard newValue.isFinite else { return }
            tuningCents = min(max(newValue, -2400), 2400)
            sendTuning()
        }
    }

    /// The SoundFont bank of an Apple bank MSB/LSB pair. Thread: any.
    static func soundFontBank(msb: UInt8, lsb: UInt8) -> UInt32 {
        switch Int(msb) {
        case kAUSampler_DefaultMelodicBankMSB: return UInt32(lsb & 0x7F)
        case kAUSampler_DefaultPercussionBankMSB: return 128 + UInt32(lsb & 0x7F)
        default: return UInt32(msb & 0x7F) << 7 | UInt32(lsb & 0x7F)
        }
    }

    /// Gives the plug-in the bank ("load") and selects the program by number. Thread: setup.
    private func load(_ url: URL, bank: UInt32, program: UInt32) throws {
        guard found else {
            throw osStatusError(
                kAudioUnitErr_InvalidFile,
                "AVAudioUnitSampler needs the DSSI plug-in \(Self.pluginLabel) on DSSI_PATH: install the Debian package \(Self.package)")
        }
        guard url.isFileURL, FileManager.default.isReadableFile(atPath: url.path) else {
            throw osStatusError(OSStatus(kAudio_FileNotFoundError), "No readable instrument file at \(url.path)")
        }
        guard url.pathExtension.lowercased() == "sf2" else {
            throw osStatusError(
                kAudioUnitErr_InvalidFile, "AVAudioUnitSampler on Linux loads SoundFont 2 (.sf2) banks only, not .\(url.pathExtension)")
        }
        try configure(["load": url.path])
        var selection = DSSIUnitProgram(bank: bank, program: program)
        try checkStatus(
            AudioUnitSetProperty(
                unit, kDSSIUnitProperty_Program, kAudioUnitScope_Global, 0, &selection, UInt32(MemoryLayout<DSSIUnitProgram>.size)),
            "Could not select bank \(bank) program \(program) of \(url.lastPathComponent)")
        sendPan()
        sendTuning()
    }

    /// Sets DSSI configure() keys on the unit (kept for each new instance). Thread: setup.
    private func configure(_ values: [String: String]) throws {
        let dictionary = CFBridge.propertyList(.dictionary(values.mapValues { .string($0) }))
        defer { dictionary.release() }
        var ref: UnsafeRawPointer? = UnsafeRawPointer(dictionary.toOpaque())
        let size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        try checkStatus(
            AudioUnitSetProperty(unit, kDSSIUnitProperty_Configure, kAudioUnitScope_Global, 0, &ref, size),
            "\(Self.pluginLabel) refused \(values.keys.sorted().joined(separator: ", "))")
    }

    /// Thread: setup.
    private func sendPan() {
        guard found else { return }
        sendController(10, withValue: UInt8(min(max((64 + panValue * 0.635).rounded(), 0), 127)), onChannel: 0)
    }

    /// Coarse tuning (RPN 2) in semitones, the rest as fine tuning (RPN 1, ±100 cents over 14 bits).
    ///
    /// Thread: setup.
    private func sendTuning() {
        guard found else { return }
        let semitones = (tuningCents / 100).rounded(.towardZero)
        let fine = Int(min(max(8192 + (tuningCents - semitones * 100) / 100 * 8192, 0), 16383).rounded())
        for (rpn, msb, lsb) in [(2, 64 + Int(semitones), 0), (1, fine >> 7, fine & 0x7F)] {
            sendController(101, withValue: 0, onChannel: 0)
            sendController(100, withValue: UInt8(rpn), onChannel: 0)
            // LSB first: FluidSynth applies the value when the MSB (CC 6) arrives.
            sendController(38, withValue: UInt8(lsb), onChannel: 0)
            sendController(6, withValue: UInt8(min(max(msb, 0), 127)), onChannel: 0)
        }
        sendController(101, withValue: 127, onChannel: 0)  // RPN null: later data entry changes nothing
        sendController(100, withValue: 127, onChannel: 0)
    }
}
