import Foundation
import XCTest

/// A private X server for UI tests: Xvfb on a display it picks itself (`-displayfd`), so tests
/// never meet another program's windows. Stopped when the test process ends.
final class XvfbDisplay {
    /// ":N", for DISPLAY.
    let name: String
    private let process = Process()

    /// One server for the whole test run; a skip (not a failure) only when Xvfb is not installed
    /// (`make test` installs it: scripts/debian-packages.txt). A server that does not start fails.
    static func shared() throws -> XvfbDisplay {
        switch sharedDisplay {
        case .success(let display?): return display
        case .success(nil): throw XCTSkip("Xvfb is not installed (apt-get install xvfb, or run make test, which installs it).")
        case .failure(let error): throw error
        }
    }

    private static let sharedDisplay: Result<XvfbDisplay?, Error> = {
        let candidates: [String] = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
        guard let path = candidates.first(where: { (candidate: String) in access(candidate, X_OK) == 0 }) else { return .success(nil) }
        return Result { try XvfbDisplay(path: path) }
    }()

    private init(path: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Xvfb writes the display number once it accepts clients.
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw ToolFailure("Xvfb did not start (it wrote no display number).") }
            number += String(decoding: byte, as: UTF8.self)
        }
        name = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = process
        atexit_register { server.terminate() }
    }

    /// The pixels of `window` as 8-bit RGB (ImageMagick's `import`).
    func screenshot(window: UInt64) throws -> [UInt8] {
        try run("/usr/bin/import", ["-display", name, "-window", String(window), "-depth", "8", "rgb:-"])
    }

    /// A click of `button` (1: left, 3: right) at (x, y) inside `window` (xdotool, through XTest).
    func click(window: UInt64, x: Int, y: Int, button: Int = 1) throws {
        _ = try run("/usr/bin/xdotool", ["mousemove", "--window", String(window), String(x), String(y), "click", String(button)])
    }

    /// Destroys `window` as a session ending would (xdotool windowclose; Xvfb runs no window manager
    /// to send WM_DELETE_WINDOW).
    func close(window: UInt64) throws {
        _ = try run("/usr/bin/xdotool", ["windowclose", String(window)])
    }

    /// `xwininfo -tree` of `window`: its children, by hexadecimal ID.
    func tree(of window: UInt64) throws -> String {
        String(decoding: try run("/usr/bin/xwininfo", ["-display", name, "-tree", "-id", String(window)]), as: UTF8.self)
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> [UInt8] {
        guard access(tool, X_OK) == 0 else { throw ToolFailure("\(tool) is not installed (make test installs it).") }
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ["DISPLAY": name, "PATH": "/usr/bin:/bin"]
        process.standardOutput = output
        try process.run()
        // A stuck tool fails the test instead of hanging it (import waits for a click when it
        // cannot grab its window): 30 s is a deadline, not a timing.
        let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: deadline)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        guard process.terminationStatus == 0 else {
            throw ToolFailure("\(tool) \(arguments) failed (status \(process.terminationStatus)).")
        }
        return [UInt8](data)
    }
}

struct ToolFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Programs built beside the test bundle (.build/<config>/).
enum LV2UIChildPath {
    static func beside(_ name: String) -> String {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return folder.appendingPathComponent(name).path
    }
}

/// Stops the server when the test process exits (XCTest has no global tear-down on Linux).
private nonisolated(unsafe) var exitActions: [() -> Void] = []
private func atexit_register(_ action: @escaping () -> Void) {
    if exitActions.isEmpty { atexit { exitActions.forEach { $0() } } }
    exitActions.append(action)
}
