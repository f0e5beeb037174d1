import Foundation

/// A scratch HOME for one example: an asoundrc of file PCMs (over `null`, unpaced) and the
/// files they read and write.
struct Workspace {
    let directory: URL

    /// The PCMs every example may use: playback to out.raw, capture from in.raw, and both as one
    /// device (what a sound card is to the pass-through patterns).
    static let asoundrc = """
        pcm.example_out { type file slave.pcm "null" file "@DIR@/out.raw" format "raw" }
        pcm.example_in { type file slave.pcm "null" file "/dev/null" infile "@DIR@/in.raw" format "raw" }
        pcm.example_duplex { type asym playback.pcm "example_out" capture.pcm "example_in" }
        """

    init(_ name: String) throws {
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("auhost-example-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.asoundrc.replacingOccurrences(of: "@DIR@", with: directory.path)
            .write(to: directory.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Writes interleaved Float32 little-endian samples (the capture PCM's raw input).
    func writeFloats(_ samples: [Float], to name: String) {
        let data = samples.withUnsafeBufferPointer { Data(buffer: $0) }
        guard FileManager.default.createFile(atPath: path(name), contents: data) else { fatalError("cannot write \(path(name))") }
    }

    /// Reads interleaved Float32 little-endian samples (what the playback PCM received).
    func readFloats(_ name: String) -> [Float] {
        guard let data = FileManager.default.contents(atPath: path(name)) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Runs an example program with HOME set to this workspace: from $EXAMPLES_BIN when it holds
    /// the program (`make check-c` builds the C examples there against a release install), else
    /// the one built beside this checker. Returns its standard output; throws with its standard
    /// error when it fails.
    /// `subdirectory`: run there instead of in the workspace itself (listings that name files by
    /// relative paths).
    func run(_ program: String, _ arguments: [String], in subdirectory: String? = nil, seconds: Double = 60) throws -> String {
        let process = Process()
        let beside = Bundle.main.executableURL!.deletingLastPathComponent()
        let installed = ProcessInfo.processInfo.environment["EXAMPLES_BIN"].map { URL(fileURLWithPath: $0).appendingPathComponent(program) }
        process.executableURL =
            installed.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }
            ?? beside.appendingPathComponent(program)
        process.arguments = arguments
        process.currentDirectoryURL = subdirectory.map { directory.appendingPathComponent($0) } ?? directory
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        environment.removeValue(forKey: "ALSA_CONFIG_PATH")
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CheckFailure(
                "\(program) exited with \(process.terminationStatus): "
                    + String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Why an example's check failed, in one sentence.
struct CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `key value` lines an example printed.
func printedValues(_ output: String) -> [String: String] {
    var values: [String: String] = [:]
    for line in output.split(separator: "\n") {
        let parts = line.split(separator: " ", maxSplits: 1)
        if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    return values
}

func printedInt(_ output: String, _ key: String) throws -> Int {
    guard let text = printedValues(output)[key], let value = Int(text) else {
        throw CheckFailure("the example did not print '\(key) <number>'")
    }
    return value
}
