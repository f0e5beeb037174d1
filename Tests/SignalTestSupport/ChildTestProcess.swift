import Foundation

/// Runs one test method of this very test binary in a child process, with extra environment.
/// Used where a check needs a fresh process (LD_PRELOAD of glibc's malloc tracer, a library taken
/// as missing before its first use).
/// Returns the exit status and everything the child printed.
public func runTestInChildProcess(_ testName: String, environment: [String: String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [testName]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
