import ArgumentParser
import AUHost
import Foundation
import GraphFileFormat

/// `auhost play FILE (UNIT | --graph FILE) [--device PCM]`: plays an audio file through a unit or
/// a graph on an ALSA device (the ALSA I/O unit as the head) or JACK (`--jack`: the JACK I/O unit), until the file and the tail are done
/// or Ctrl-C.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Play an audio file through a unit or graph on an ALSA device or JACK.")

    @Argument(help: "The audio file to play (any format libsndfile reads); with --midi, the instrument.")
    var file: String

    @Option(help: "Play a Standard MIDI File into the instrument named in place of the audio file.")
    var midi: String?

    @Argument(help: "A triple, an LV2 URI, or a unique fragment of the unit's name.")
    var unit: String?

    @Option(help: "Play through a graph file (docs/GRAPH-FILES.md); its head becomes the device.")
    var graph: String?

    @Option(help: "ALSA PCM name, or jack / jack:CLIENT for JACK (default: the graph file's device, else \"default\").")
    var device: String?

    @Flag(help: "Play on JACK (the JACK I/O unit, client \"auhost\", ports connected to the system's): --device jack.")
    var jack = false

    @Option(name: .customShort("p"), help: "Set a parameter of UNIT: NAME=VALUE.")
    var parameters: [String] = []

    @Flag(
        help:
            "Run the unit (or every node of --graph) out of process (AUHostIsolation.h): a crash, hang or NaN silences it, auhost says so and restarts it."
    )
    var isolate = false

    @Option(help: "Choose a factory preset of UNIT.")
    var preset: String?

    @Option(
        help:
            "Threads that render the graph, the head's included: 0 serial, at most 64 (default: the file's \"threads\", else one per core)."
    )
    var threads: Int?

    @Flag(help: "Show UNIT's plug-in UI while it plays; closing the window stops playback.")
    var ui = false

    @Option(help: "The X display for --ui (default: $DISPLAY).")
    var display: String?

    @OptionGroup var time: TempoOptions

    func validate() throws {
        if let threads, !(0...64).contains(threads) { throw ValidationError("--threads must be 0…64, not \(threads).") }
        if midi != nil {
            if ui { throw ValidationError("--ui shows the UI of a UNIT a FILE plays through, not with --midi.") }
            if jack || device.map({ JACKDevice.clientName($0) != nil }) == true {
                throw ValidationError("--midi plays on an ALSA device; JACK plays audio files and graphs.")
            }
            if time.tempo != nil { throw ValidationError("--midi plays at the MIDI file's own tempo map; --tempo goes with a FILE.") }
            guard unit == nil, graph == nil else {
                throw ValidationError("With --midi, name only the instrument: auhost play --midi FILE.mid INSTRUMENT.")
            }
            return
        }
        guard (unit == nil) != (graph == nil) else { throw ValidationError("Name one UNIT or one --graph FILE.") }
        if ui && graph != nil { throw ValidationError("--ui shows UNIT's UI; for a node of a graph: auhost run GRAPH --ui NODE.") }
        if graph != nil && (!parameters.isEmpty || preset != nil) {
            throw ValidationError("-p and --preset apply to a UNIT; a graph file sets its nodes' parameters and presets itself.")
        }
    }

    func run() throws {
        let device = jack ? "jack" : self.device
        if let midi {
            let playback = try MIDIPlayback(
                midi: midi, instrument: file, device: device ?? "default", sampleRate: 48_000, block: 4096, preset: preset,
                parameters: parameters)
            try playback.play(seconds: playback.seconds + 2)
            print("Played \(midi) through \(playback.instrumentName) on \(device ?? "default").")
            return
        }
        var input = try LoadedAudio.load(file)
        var spec: GraphFile
        if let graph {
            spec = try GraphFile.load(graph)
            if case .device(let name) = spec.head, device == nil {
                spec.head = .device(name)
            } else {
                spec.head = .device(device ?? "default")
            }
        } else {
            spec = GraphFile(path: "")
            spec.nodes = [GraphFile.Node(name: "input", unit: unit!, parameters: parameters, preset: preset, line: 1)]
            spec.head = .device(device ?? "default")
            spec.channels = input.samples.bufferCount
        }
        if isolate { for i in spec.nodes.indices { spec.nodes[i].isolated = true } }
        spec.sampleRate = input.sampleRate
        input = try JACKDevice.adapt(input, to: &spec) ?? input
        spec.seconds = nil
        if let threads { spec.threads = threads }
        time.apply(to: &spec)
        let built = try BuiltGraph(spec, input: input.samples, inputFrames: input.frames)
        // A graph file's "midi" and "midiInputs" play along (GraphMIDI.swift).
        let liveInputs = try GraphMIDIInputs(built)
        let midi = try spec.midi.map { try GraphMIDISource(built, $0) }
        let frames = try GraphRunLength.frames(spec, seconds: nil, input: input, midiSeconds: midi?.seconds, built: built)
        let window = try ui ? NodeUIWindow(built, node: "input", display: display) : nil
        try GraphRunLength.perform(built, frames: frames, input: input, midi: midi, ui: window, what: file)
        withExtendedLifetime(liveInputs) {}
    }
}
