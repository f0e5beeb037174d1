import ArgumentParser
import AUHost
import Foundation
import GraphFileFormat

/// `auhost graph show FILE`: builds a graph file and prints its CAShow text.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph", abstract: "Inspect graph files (docs/GRAPH-FILES.md).",
        subcommands: [GraphShowCommand.self])
}

struct GraphShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Build a graph file and print its CAShow view.")

    @Argument(help: "A graph file (JSON, see docs/GRAPH-FILES.md).")
    var graph: String

    func run() throws {
        let file = try GraphFile.load(graph)
        // A device head is left uninitialized, so showing a graph never opens the device.
        let built = try BuiltGraph(file, initialize: !file.playsOnDevice)
        print(built.graph.showText, terminator: "")
        for n in file.nodes { print("  \(n.name) = node \(built.nodes[n.name]!): \(built.components[n.name]!.name)") }
        switch file.head {
        case .file(let path): print("  output = node \(built.head): file \(path)")
        case .device(let name):
            print("  output = node \(built.head): \(JACKDevice.clientName(name).map { "JACK client \($0)" } ?? "ALSA device \(name)")")
        }
        if !built.sources.isEmpty { print("  input feeds: \(built.sources.joined(separator: ", "))") }
        if let midi = file.midi { print("  midi: \(midi.file) plays into \(midi.node)") }
        for input in file.midiInputs { print("  MIDI input: JACK \(input.jack) plays into \(input.node)") }
    }
}

/// `auhost run GRAPH`: renders a graph file to its output file, or plays it on its device.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Render a graph file to its output file or play it on its device.")

    @Argument(help: "A graph file (JSON, see docs/GRAPH-FILES.md).")
    var graph: String

    @Option(help: "Seconds to render (default: the graph's \"seconds\", else its input's length plus the tail).")
    var seconds: Double?

    @Option(
        help:
            "Threads that render the graph, the head's included: 0 serial, at most 64 (default: the file's \"threads\", else one per core)."
    )
    var threads: Int?
    @Flag(help: "Run every node out of process, as \"isolated\": true does (AUHostIsolation.h).")
    var isolate = false

    @Flag(help: "Play on JACK (the JACK I/O unit, client \"auhost\", ports connected to the system's) instead of the graph's output.")
    var jack = false

    @Option(help: "Show node NODE's plug-in UI while the graph plays on its device; closing the window stops playback.")
    var ui: String?

    @Option(help: "The X display for --ui (default: $DISPLAY).")
    var display: String?

    @OptionGroup var time: TempoOptions

    func validate() throws {
        if let threads, !(0...64).contains(threads) { throw ValidationError("--threads must be 0…64, not \(threads).") }
        if let seconds, !(seconds > 0 && seconds <= 86_400) {
            throw ValidationError("--seconds must be more than 0 and at most a day, not \(seconds).")
        }
    }

    func run() throws {
        var file = try GraphFile.load(graph)
        if let threads { file.threads = threads }
        time.apply(to: &file)
        if isolate { for i in file.nodes.indices { file.nodes[i].isolated = true } }
        if jack { file.head = .device("jack") }
        if case .file(let output) = file.head, let input = file.input {
            do { try StagedOutput.refuseOverwriting(input: input, with: output) } catch let e as AudioError {
                throw file.error(file.headLine, e.message.prefix(1).lowercased() + e.message.dropFirst(), status: e.status)
            }
        }
        var input: LoadedAudio?
        do { input = try file.input.map { try LoadedAudio.load($0) } } catch let e as AudioError {
            throw file.error(file.inputLine, "\"input\": \(e.message)", status: e.status)
        }
        if let input { file.sampleRate = input.sampleRate }
        input = try JACKDevice.adapt(input, to: &file)
        // Without an input file the source node hears silence (an effect needs something to pull).
        let feed = input?.samples ?? AudioBufferStorage(format: .canonical(sampleRate: file.sampleRate, channels: 1), capacity: 1)
        let built = try BuiltGraph(file, input: feed, inputFrames: input?.frames ?? 0)
        // Live inputs first: they refuse an output-file head before a MIDI file is loaded.
        let liveInputs = try GraphMIDIInputs(built)
        let midi = try file.midi.map { try GraphMIDISource(built, $0) }
        let frames = try GraphRunLength.frames(file, seconds: seconds, input: input, midiSeconds: midi?.seconds, built: built)
        let window = try ui.map { try NodeUIWindow(built, node: $0, display: display) }
        try GraphRunLength.perform(built, frames: frames, input: input, midi: midi, ui: window, what: graph)
        withExtendedLifetime(liveInputs) {}
    }
}

/// How long a graph runs, and running it to its head.
enum GraphRunLength {
    /// `seconds`, else the file's, else the longer of the input's and the MIDI file's length,
    /// plus the nodes' tail.
    ///
    /// Thread: setup.
    static func frames(_ file: GraphFile, seconds: Double?, input: LoadedAudio?, midiSeconds: Double? = nil, built: BuiltGraph) throws
        -> Int
    {
        if let s = seconds ?? file.seconds { return Int((s * file.sampleRate).rounded()) }
        guard input != nil || midiSeconds != nil else {
            throw file.error(
                file.headLine, "the graph has no \"input\" or \"midi\" to take its length from; give \"seconds\" (or --seconds).")
        }
        let midiFrames = midiSeconds.map { Int(($0 * file.sampleRate).rounded()) } ?? 0
        return max(input?.frames ?? 0, midiFrames) + RenderCommand.frames(seconds: built.tailSeconds, rate: file.sampleRate)
    }

    /// Renders to the output file or plays on the device, and says what it did.
    ///
    /// Thread: setup.
    static func perform(
        _ built: BuiltGraph, frames: Int, input: LoadedAudio?, midi: GraphMIDISource? = nil, ui: NodeUIWindow? = nil, what: String
    ) throws {
        let file = built.file
        defer { midi?.dispose() }
        switch file.head {
        case .file(let path):
            try midi?.start()
            let latency = try GraphFileRenderer.render(built, frames: frames, to: path, encodingLike: input?.encoding)
            print(
                "Rendered \(frames) frames of \(what) into \(path) (\(built.outputChannels) ch, \(Int(file.sampleRate)) Hz;"
                    + " latency \(latency) frames compensated).")
        case .device(let name):
            var closed = false
            let result = try GraphDevicePlayer.play(
                built, frames: frames, start: midi.map { m in { try m.start() } }, beforeClose: { midi?.dispose() },
                idle: {
                    closed = ui?.idle() == false
                    return !closed
                })
            print(
                "Played \(result.played) frames of \(what) on \(name) (\(built.outputChannels) ch, \(Int(file.sampleRate)) Hz; \(result.xruns) xruns)."
            )
            if closed { print("The UI was closed; playback stopped there.") }
        }
    }
}
