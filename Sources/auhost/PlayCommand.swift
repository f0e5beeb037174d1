import ArgumentParser
import AUHost
import Foundation
import GraphFileFormat

/// `auhost play FILE (UNIT | --graph FILE) [--device PCM]`: plays an audio file through a unit or
/// a graph on an ALSA device (the ALSA I/O unit as the head), until the file and the tail are done
/// or Ctrl-C.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Play an audio file through a unit or graph on an ALSA device.")

    @Argument(help: "The audio file to play (any format libsndfile reads).")
    var file: String

    @Argument(help: "A triple, an LV2 URI, or a unique fragment of the unit's name.")
    var unit: String?

    @Option(help: "Play through a graph file (docs/GRAPH-FILES.md); its head becomes the device.")
    var graph: String?

    @Option(help: "ALSA PCM name (default: the graph file's device, else \"default\").")
    var device: String?

    @Option(name: .customShort("p"), help: "Set a parameter of UNIT: NAME=VALUE.")
    var parameters: [String] = []

    @Option(help: "Choose a factory preset of UNIT.")
    var preset: String?

    func validate() throws {
        guard (unit == nil) != (graph == nil) else { throw ValidationError("Name one UNIT or one --graph FILE.") }
        if graph != nil && (!parameters.isEmpty || preset != nil) {
            throw ValidationError("-p and --preset apply to a UNIT; a graph file sets its nodes' parameters and presets itself.")
        }
    }

    func run() throws {
        let input = try LoadedAudio.load(file)
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
        spec.sampleRate = input.sampleRate
        spec.seconds = nil
        let built = try BuiltGraph(spec, input: input.samples, inputFrames: input.frames)
        let frames = input.frames + RenderCommand.frames(seconds: built.tailSeconds, rate: input.sampleRate)
        try GraphRunLength.perform(built, frames: frames, input: input, what: file)
    }
}
