import Foundation
import XCTest

/// Runs the built `auhost` binary (beside the test bundle in the build folder) and collects what it
/// printed: the CLI tests exercise the real program, argument parsing and exit codes included.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The auhost executable of this build: beside the test executable (or bundle) in the build folder.
    static var binary: URL {
        let starts = [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), Bundle(for: Marker.self).bundleURL]
        for start in starts {
            var dir = start
            while dir.path != "/" {
                let candidate = dir.deletingLastPathComponent().appendingPathComponent("auhost")
                if FileManager.default.isExecutableFile(atPath: candidate.path) && !candidate.hasDirectoryPath { return candidate }
                dir = dir.deletingLastPathComponent()
            }
        }
        return URL(fileURLWithPath: "auhost")
    }

    /// Runs `auhost arguments…` to completion (in `directory`, else this process's working directory).
    static func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errData = Data()  // read after the group is left
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory for a test's files.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private final class Marker {}
}
