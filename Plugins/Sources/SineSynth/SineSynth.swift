import AUHostSDK
import Foundation

/// A small instrument ('aumu'): eight sine voices with a linear attack/release envelope, played by
/// MIDI note on/off at their frame. Voice level = Level × velocity/127; every output channel gets
/// the same signal. Note 69 is 440 Hz (equal temperament).
public struct SineSynth: InstrumentKernel {
    public enum Param: AudioUnitParameterID { case attack, release, level }

    public static let componentDescription = AudioComponentDescription(
        type: kAudioUnitType_MusicDevice,
        subType: FourCC.code("sins")!, manufacturer: FourCC.code("AUSd")!)
    public static let parameters = [
        Parameter(Param.attack, "Attack", 0...2000, unit: kAudioUnitParameterUnit_Milliseconds, default: 5),
        Parameter(Param.release, "Release", 0...5000, unit: kAudioUnitParameterUnit_Milliseconds, default: 200),
        Parameter(Param.level, "Level", -60...0, unit: kAudioUnitParameterUnit_Decibels, default: -12),
    ]

    struct Voice {
        var note: UInt8 = 0
        var velocity: Float = 0
        var phase: Double = 0
        var increment: Double = 0
        var envelope: Float = 0
        var held = false
        var active: Bool { held || envelope > 0 }
    }

    static let voiceCount = 8
    private let sampleRate: Double
    private let voices: UnsafeMutablePointer<Voice>

    /// Thread: setup.
    public init(sampleRate: Double, channels: Int, maxFrames: Int) {
        self.sampleRate = sampleRate
        voices = .allocate(capacity: SineSynth.voiceCount)
        voices.initialize(repeating: Voice(), count: SineSynth.voiceCount)
    }

    /// Thread: setup.
    public mutating func reset() {
        voices.update(repeating: Voice(), count: SineSynth.voiceCount)
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func midi(status: UInt8, data1: UInt8, data2: UInt8) {
        let kind = status & 0xF0
        if kind == 0x90 && data2 > 0 {
            // A free voice, else the quietest.
            var chosen = 0
            for v in 0..<SineSynth.voiceCount {
                if !voices[v].active { chosen = v; break }
                if voices[v].envelope < voices[chosen].envelope { chosen = v }
            }
            let frequency = 440 * exp2Approximation((Double(data1) - 69) / 12)
            voices[chosen] = Voice(
                note: data1, velocity: Float(data2) / 127, phase: 0,
                increment: frequency / sampleRate, envelope: 0, held: true)
        } else if kind == 0x80 || (kind == 0x90 && data2 == 0) {
            for v in 0..<SineSynth.voiceCount where voices[v].held && voices[v].note == data1 { voices[v].held = false }
        } else if kind == 0xB0 && (data1 == 123 || data1 == 120) {
            for v in 0..<SineSynth.voiceCount { voices[v].held = false }  // all notes off
        }
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func render(_ output: KernelBuffers, _ parameters: ParameterValues) {
        let attackFrames = Float(Double(parameters[Param.attack.rawValue]) * sampleRate / 1000)
        let releaseFrames = Float(Double(parameters[Param.release.rawValue]) * sampleRate / 1000)
        let attackStep: Float = attackFrames < 1 ? 1 : 1 / attackFrames
        let releaseStep: Float = releaseFrames < 1 ? 1 : 1 / releaseFrames
        let level = decibelsToLinear(parameters[Param.level.rawValue])
        let first = output.output(0)
        for i in 0..<output.frames { first[i] = 0 }
        for v in 0..<SineSynth.voiceCount where voices[v].active {
            var voice = voices[v]
            for i in 0..<output.frames {
                voice.envelope = voice.held ? min(voice.envelope + attackStep, 1) : max(voice.envelope - releaseStep, 0)
                let p = voice.phase
                // glibc's sin is pure arithmetic: it neither allocates nor locks.
                first[i] += level * voice.velocity * voice.envelope * Float(_unsafePerformance { sin(2 * Double.pi * p) })
                voice.phase += voice.increment
                if voice.phase >= 1 { voice.phase -= 1 }
            }
            voices[v] = voice
        }
        var c = 1
        while c < output.channels {
            let other = output.output(c)
            for i in 0..<output.frames { other[i] = first[i] }
            c += 1
        }
    }
}

extension SineSynth: ReleasableKernel {
    /// Thread: setup.
    public func release() { voices.deallocate() }
}

/// 2^x for the note's frequency (setup-grade accuracy is plenty: 1e-9 relative), without a C call.
@_noAllocation @_noLocks
func exp2Approximation(_ x: Double) -> Double {
    let truncated = Double(Int(x))
    let whole = truncated > x ? truncated - 1 : truncated
    var f = (x - whole) * 0.693_147_180_559_945_3  // ln 2
    // e^f by its series on [0, ln 2).
    var term = 1.0, sum = 1.0
    for n in 1...18 { term *= f / Double(n); sum += term }
    f = sum
    return f * Double(sign: .plus, exponent: Int(whole), significand: 1)
}

/// Thread: setup (the host calls the factory when it makes an instance).
@_cdecl("SineSynthFactory") public func sineSynthFactory(_ d: UnsafePointer<AudioComponentDescription>?) -> UnsafeMutableRawPointer? {
    exportUnit(SineSynth.self, d)
}

/// The same unit as an LV2 plug-in (SDK/README.md, "LV2"): build.sh makes the bundle.
///
/// Thread: setup (LV2 discovery).
@_cdecl("lv2_descriptor") public func lv2Descriptor(_ index: UInt32) -> UnsafeRawPointer? { exportLV2(SineSynth.self, index) }
