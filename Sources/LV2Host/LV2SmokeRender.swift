/// The check the sweep runs on each plug-in: instantiate offline, feed 0.5 s of noise to every
/// audio and CV input (as the unit sweep does: CV inputs are input elements of the unit) and a
/// few notes to a MIDI input, and look at the output.
public enum LV2SmokeRender {
    /// What one smoke render produced.
    public struct Report: Equatable, Sendable {
        public var framesRendered: Int
        /// The largest absolute output sample (0 for plug-ins without audio outputs).
        public var peak: Float
        /// Some output sample was NaN or infinite.
        public var producedNonFinite: Bool

        /// Thread: any.
        public init(framesRendered: Int, peak: Float, producedNonFinite: Bool) {
            self.framesRendered = framesRendered; self.peak = peak; self.producedNonFinite = producedNonFinite
        }
    }

    /// Renders `seconds` of noise (and notes) through `plugin` in 512-frame blocks at 48 kHz.
    /// Throws what instantiation throws. Thread: setup (non-real-time).
    public static func run(_ plugin: LV2PluginDescriptor, seconds: Double = 0.5) throws -> Report {
        let block = 512
        let instance = try LV2Instance(
            plugin: plugin,
            configuration: .init(
                sampleRate: 48_000, maxBlockLength: block,
                logSink: { _, _, _ in }))
        instance.activate()
        defer { instance.deactivate() }
        var generator = NoiseGenerator(seed: 0x1234_5678)
        let total = Int(seconds * 48_000)
        var report = Report(framesRendered: 0, peak: 0, producedNonFinite: false)
        var cycle = 0
        while report.framesRendered < total {
            let frames = min(block, total - report.framesRendered)
            for input in 0..<instance.audioInputCount {
                let buffer = instance.audioInput(input)
                for frame in 0..<frames { buffer[frame] = generator.next() * 0.5 }
            }
            for input in 0..<instance.cvInputCount {
                let buffer = instance.cvInput(input)
                for frame in 0..<frames { buffer[frame] = generator.next() * 0.5 }
            }
            // A note on at the start of every 8th block, off four blocks later.
            if cycle % 8 == 0 { _ = [UInt8(0x90), 60 + UInt8(cycle / 8 % 12), 100].withUnsafeBytes { instance.queueMIDI($0, atFrame: 0) } }
            if cycle % 8 == 4 { _ = [UInt8(0x80), 60 + UInt8(cycle / 8 % 12), 0].withUnsafeBytes { instance.queueMIDI($0, atFrame: 0) } }
            _ = instance.run(frames: frames)
            if instance.outputsContainNonFinite(frames: frames) { report.producedNonFinite = true }
            for output in 0..<instance.audioOutputCount {
                let buffer = instance.audioOutput(output)
                for frame in 0..<frames where buffer[frame].isFinite { report.peak = max(report.peak, abs(buffer[frame])) }
            }
            report.framesRendered += frames
            cycle += 1
        }
        return report
    }
}

/// A small deterministic white-noise source (xorshift32), uniform in -1…1.
public struct NoiseGenerator: Sendable {
    private var state: UInt32

    /// Thread: any.
    public init(seed: UInt32) { state = seed == 0 ? 1 : seed }

    /// The next sample. Thread: any (real-time safe).
    public mutating func next() -> Float {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return Float(state) / Float(UInt32.max) * 2 - 1
    }
}
