import AudioTypes
import GraphFileFormat

/// The graph-file reader: the bytes as a graph file, read and checked (JSON syntax, keys, types,
/// ranges, names, connections) as `auhost run` does before building anything; no unit is
/// instantiated. Every outcome is a GraphFile or an AudioError whose message names FILE:LINE.
public enum GraphFileFuzz {
    /// Thread: any.
    public static func run(_ data: UnsafeRawBufferPointer) {
        let text = String(decoding: data, as: UTF8.self)
        do {
            let file = try GraphFile.parse(text, path: "fuzz.json")
            // What the builder reads next must hold what the reader promised.
            precondition(!file.nodes.isEmpty && (1...64).contains(file.channels) && (1...65_536).contains(file.block))
            precondition(file.sampleRate.isFinite && file.seconds.map { $0 > 0 && $0 <= 86_400 } ?? true)
            for n in file.nodes { _ = GraphFile.shown(n.name) + GraphFile.shown(n.unit) }
            // The MIDI keys name nodes the graph has (the builder looks them up unchecked).
            let names = Set(file.nodes.map(\.name))
            precondition(file.midi.map { names.contains($0.node) && !$0.file.isEmpty } ?? true)
            precondition(file.midiInputs.count <= GraphFile.maximumMIDIInputs && file.midiInputs.allSatisfy { names.contains($0.node) })
        } catch let error as AudioError {
            precondition(error.message.hasPrefix("fuzz.json:"), "an error without FILE:LINE: \(error.message)")
            // A message never echoes more than a few hundred characters of the input.
            precondition(error.message.utf8.count < 2_000, "a message of \(error.message.utf8.count) bytes")
        } catch {
            preconditionFailure("an error that is not an AudioError: \(error)")
        }
    }
}
