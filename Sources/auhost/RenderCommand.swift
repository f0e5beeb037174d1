import ArgumentParser
import AudioFiles
import AUHost
import ExtAudioFile
import Foundation
import GraphFileFormat

/// `auhost render -i IN -o OUT UNIT`: applies a unit to a file offline, like lv2apply. The unit is
/// pulled directly (AudioUnitRender) the way a generic-output head pulls it; files go through
/// Extended Audio File Services, so any format libsndfile reads is accepted. The unit's latency
/// is compensated (its first latency frames are dropped and as many more rendered at the end) and
/// its tail is rendered after the input ends.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Apply a unit to an audio file offline (latency compensated, tail rendered).")

    @Option(name: .shortAndLong, help: "Input audio file (any format libsndfile reads).")
    var input: String?

    @Option(help: "Play a Standard MIDI File into UNIT (an instrument) instead of applying UNIT to -i.")
    var midi: String?

    @Option(help: "With --midi: the sample rate to render at.")
    var rate: Double = 48_000

    @Option(name: .shortAndLong, help: "Output file; its extension picks the type: wav, aif(f), caf, flac, ogg.")
    var output: String

    @Argument(help: "A triple (\"aufx dely AUHs\"), an LV2 URI, or a unique fragment of the unit's name.")
    var unit: String?

    @Option(help: "Render through a graph file instead of one unit: the input feeds its source node (docs/GRAPH-FILES.md).")
    var graph: String?

    @Option(name: .customShort("p"), help: "Set a parameter before rendering: NAME=VALUE (name or id; number or value string).")
    var parameters: [String] = []

    @Option(help: "Choose a factory preset (name or number) before the parameters are set.")
    var preset: String?

    @Flag(
        help:
            "Run the unit (or every node of --graph) out of process (AUHostIsolation.h): a crash, hang or NaN silences it, auhost says so and restarts it."
    )
    var isolate = false

    @Option(help: "Frames per render call.")
    var block: UInt32 = 4096

    @Option(help: "Seconds of tail to render after the input (default: the unit's TailTime).")
    var tail: Double?

    @OptionGroup var time: TempoOptions

    func validate() throws {
        guard (unit == nil) != (graph == nil) else { throw ValidationError("Name one UNIT or one --graph FILE.") }
        if midi != nil && time.tempo != nil {
            throw ValidationError("--midi plays at the MIDI file's own tempo map; --tempo goes with -i.")
        }
        guard (input == nil) != (midi == nil) else { throw ValidationError("Give one input: -i AUDIO or --midi FILE.mid.") }
        if midi != nil && graph != nil { throw ValidationError("--midi plays into one instrument UNIT, not a --graph.") }
        guard rate >= 1, rate <= 768_000 else { throw ValidationError("--rate must be 1…768000 Hz, not \(rate).") }
        if graph != nil && (!parameters.isEmpty || preset != nil) {
            throw ValidationError("-p and --preset apply to a UNIT; a graph file sets its nodes' parameters and presets itself.")
        }
        guard (1...65_536).contains(block) else { throw ValidationError("--block must be 1…65536 frames, not \(block).") }
        if let tail, !(tail >= 0 && tail <= 3600) { throw ValidationError("--tail must be 0…3600 seconds, not \(tail).") }
        guard Self.fileType(output) != nil else {
            throw ValidationError("Cannot tell the output type from \"\(output)\"; end it in .wav, .aiff, .caf, .flac or .ogg.")
        }
    }

    func run() throws {
        if let midi { return try renderMIDI(midi) }
        let input = self.input!
        // Before anything is opened or created: the output must not be the input.
        try StagedOutput.refuseOverwriting(input: input, with: output)
        if let graph { return try renderGraph(graph) }
        let component = try UnitLookup.component(unit!)
        let source = try ExtendedAudioFile.open(path: input)
        let rate = source.fileFormat.mSampleRate, fileChannels = Int(source.fileFormat.mChannelsPerFrame)
        try source.setClientFormat(.canonical(sampleRate: rate, channels: UInt32(fileChannels)))
        let rig = try OfflineUnitRig(
            component: component, sampleRate: rate, channels: fileChannels, maxFrames: block, outOfProcess: isolate, tempo: time.setting
        ) { unit in
            try UnitSettings.apply(preset: preset, parameters: parameters, to: unit)
        }
        let facts = UnitFacts(rig.unit)
        let latencyFrames = Self.frames(seconds: facts.latency, rate: rate)
        let tailFrames = Self.frames(seconds: tail ?? facts.tailTime, rate: rate, limit: tail == nil ? Self.defaultTailLimit : 3600)
        // The header's length is only a hint (a truncated Ogg stream declares Int64.max frames):
        // the input is read to its real end, and the output length is known once it is reached.
        let declaredFrames = source.file.isLengthKnown ? Int(source.lengthFrames) : 0

        let type = Self.fileType(output)!
        let staged = try StagedOutput(output)
        let destination = try ExtendedAudioFile.create(
            path: staged.temporary, type: type,
            fileFormat: AudioFileDataFormat(
                sampleRate: rate, channelCount: rig.outputChannels,
                encoding: Self.encoding(for: type, input: source.file.dataFormat.encoding)))
        try destination.setClientFormat(.canonical(sampleRate: rate, channels: UInt32(rig.outputChannels)))

        let fileBuffer = AudioBufferStorage(format: .canonical(sampleRate: rate, channels: UInt32(fileChannels)), capacity: block)
        let progress = ProgressBar(total: latencyFrames + declaredFrames + tailFrames)
        var pulled = 0, written = 0, inputFrames = 0
        var outputFrames: Int?  // nil until the input has ended
        let isolation = IsolationSupervisor([(component.name, rig.unit.handle)])
        while outputFrames.map({ written < $0 }) ?? true {
            let frames = UInt32(outputFrames.map { min(Int(block), latencyFrames + $0 - pulled) } ?? Int(block))
            var got = 0
            if outputFrames == nil {
                fileBuffer.prepare(frames: frames)
                got = try source.read(into: fileBuffer.list, frames: Int(frames))
                inputFrames += got
                if got < Int(frames) { outputFrames = inputFrames + tailFrames }
            }
            if let into = rig.input {
                // File channels map onto the unit's inputs in turn (mono feeds every input); silence after the end.
                for c in 0..<rig.inputChannels {
                    let to = into.channel(c)
                    if got > 0 { to.update(from: fileBuffer.channel(c % fileChannels), count: got) }
                    if got < Int(frames) { (to + got).update(repeating: 0, count: Int(frames) - got) }
                }
            }
            try AudioError.check(
                rig.render(frames: frames), LastErrorMessage.current ?? "\(component.name) failed to render at frame \(pulled).")
            isolation.check()
            // Drop the first latencyFrames frames of output: they hold the unit's delay, not the input.
            let skip = max(0, min(Int(frames), latencyFrames - pulled))
            let keep = min(Int(frames) - skip, (outputFrames ?? Int.max) - written)
            if keep > 0 {
                if skip > 0 {
                    try writeShifted(rig.output, skip: skip, count: keep, channels: rig.outputChannels, to: destination)
                } else {
                    try destination.write(from: rig.output.list, frames: keep)
                }
                written += keep
            }
            pulled += Int(frames)
            progress.update(pulled)
        }
        try destination.dispose()
        try staged.commit()
        reportClipping(of: destination, writtenTo: output)
        try source.dispose()
        progress.finish()
        print(
            "Rendered \(inputFrames) frames of \(input) through \(component.name) into \(output)"
                + " (\(rig.outputChannels) ch, \(Int(rate)) Hz; latency \(latencyFrames) frames compensated, tail \(tailFrames) frames).")
    }

    /// The longest tail rendered when a unit reports its own (TailTime), in seconds: a unit's
    /// report is input too (a plug-in may say 1e30 or NaN); --tail asks for up to an hour.
    static let defaultTailLimit = 60.0

    /// `seconds` at `rate` as frames, 0 for a NaN or negative report, at most `limit` seconds.
    static func frames(seconds: Double, rate: Double, limit: Double = defaultTailLimit) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((min(seconds, limit) * rate).rounded())
    }

    /// `render --graph`: the input feeds the graph's source node; the head becomes a generic output
    /// writing `output` at the input's rate.
    private func renderGraph(_ path: String) throws {
        let input = self.input!
        var file = try GraphFile.load(path)
        time.apply(to: &file)
        if isolate { for i in file.nodes.indices { file.nodes[i].isolated = true } }
        try GraphMIDI.refuse(file, in: "render --graph")
        let source = try LoadedAudio.load(input)
        file.sampleRate = source.sampleRate
        file.head = .file(output)
        file.block = block
        let built = try BuiltGraph(file, input: source.samples, inputFrames: source.frames)
        let tailFrames = Self.frames(
            seconds: tail ?? built.tailSeconds, rate: source.sampleRate, limit: tail == nil ? Self.defaultTailLimit : 3600)
        let latency = try GraphFileRenderer.render(built, frames: source.frames + tailFrames, to: output, encodingLike: source.encoding)
        print(
            "Rendered \(source.frames) frames of \(input) through \(path) into \(output)"
                + " (\(built.outputChannels) ch, \(Int(source.sampleRate)) Hz; latency \(latency) frames compensated, tail \(tailFrames) frames)."
        )
    }

    /// `render --midi`: the file played into the instrument (MIDIPlayback.swift).
    private func renderMIDI(_ midi: String) throws {
        try StagedOutput.refuseOverwriting(input: midi, with: output)
        let playback = try MIDIPlayback(
            midi: midi, instrument: unit!, device: nil, sampleRate: rate, block: block, preset: preset, parameters: parameters)
        let tailSeconds = tail ?? 2
        let frames = Int(((playback.seconds + tailSeconds) * rate).rounded())
        try playback.render(frames: frames, block: block, to: output)
        print(
            "Rendered \(midi) (\(String(format: "%.3f", playback.seconds)) s) through \(playback.instrumentName) into \(output)"
                + " (\(playback.channels) ch, \(Int(rate)) Hz; tail \(Int((tailSeconds * rate).rounded())) frames).")
    }

    /// Writes frames skip..<skip+count of `buffers` (the part after the latency).
    private func writeShifted(_ buffers: AudioBufferStorage, skip: Int, count: Int, channels: Int, to file: ExtendedAudioFile) throws {
        let list = AudioBufferStorage.allocateList(bufferCount: channels)
        defer { AudioBufferStorage.deallocateList(list) }
        let view = UnsafeMutableAudioBufferListPointer(list)
        for c in 0..<channels {
            view[c] = AudioBuffer(
                mNumberChannels: 1, mDataByteSize: UInt32(count * 4), mData: UnsafeMutableRawPointer(buffers.channel(c) + skip))
        }
        try file.write(from: list, frames: count)
    }

    /// The container type an output path's extension names.
    static func fileType(_ path: String) -> AudioFileType? { GraphFile.fileType(path) }

    /// The input's encoding when `type` holds it, else the type's natural one (float for PCM containers).
    static func encoding(for type: AudioFileType, input: AudioFileEncoding?) -> AudioFileEncoding {
        switch type {
        case .flac:
            if case .flac(let bits)? = input { return .flac(bitDepth: bits) }
            return input == .int16 ? .flac(bitDepth: 16) : .flac(bitDepth: 24)
        case .ogg: return .vorbis(quality: 0.5)
        case .wave, .aiff, .caf:
            switch input {
            case .int16?, .int24?, .int32?, .float32?, .float64?: return input!
            case .flac(let bits)?: return bits == 16 ? .int16 : .int24
            default: return .float32
            }
        }
    }
}

/// A one-line progress bar on standard output, drawn only when it is a terminal.
final class ProgressBar {
    private let total: Int
    private let enabled = isatty(STDOUT_FILENO) != 0
    private var shownPercent = -1

    init(total: Int) { self.total = max(total, 1) }

    /// Thread: setup.
    func update(_ done: Int) {
        guard enabled else { return }
        let percent = min(100, done * 100 / total)
        guard percent != shownPercent else { return }
        shownPercent = percent
        let filled = percent * 30 / 100
        print("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] \(percent)%", terminator: "")
        fflush(stdout)
    }

    /// Thread: setup.
    func finish() {
        if enabled && shownPercent >= 0 { print("") }
    }
}
