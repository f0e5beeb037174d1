import AUHostCore
import Foundation

/// One LV2 UI shown for this host (the protocol is in Sources/CUIHost/ui_host_child.h): by an
/// `auhost-ui-host` child of its own, or by the process of a unit out of process, beside the
/// plug-in (a UI that needs its instance). A socket carries the protocol both ways; a child of
/// its own also gives a pipe holding the tail of what the UI printed, and its fate when it ends.
///
/// Thread: setup, one thread at a time (the owning ``LV2PluginUI`` serialises calls).
final class LV2UIChildProcess {
    private let process: Process?
    private let socket: Int32
    private let errorPipe: Pipe?
    /// For a UI in a unit's process: the signal that ended that process, once it did.
    private let unitProcessEndSignal: (() -> Int32?)?
    private var received: [UInt8] = []
    /// Set after a line longer than `maximumLine` was dropped, until its end has gone by.
    private var skipping = false
    /// The longest line read (an atom's Turtle, CAUHostAtomText's 1 MiB); a hostile UI's longer
    /// line is dropped as it arrives, not kept.
    static let maximumLine = 1024 * 1024 + 64
    /// The last 4 KB of the child's stderr: the UI's (and suil's) own reasons.
    private(set) var errorTail = ""
    private(set) var reachedEnd = false
    /// Whether the UI runs in its unit's process (whose end is the unit's fault, not the UI's alone).
    var isBesidePlugin: Bool { unitProcessEndSignal != nil }

    /// The child executable: `$AUHOST_UI_HOST`, else where ``HelperProgram`` finds it. Thread: any.
    static func childPath() -> String {
        HelperProgram.path(named: "auhost-ui-host", environment: "AUHOST_UI_HOST")
    }

    /// Starts the child with `arguments`; `display` (nil: inherited) becomes its `DISPLAY`, and
    /// `requestable` (nil: none) its AUHOST_UI_REQUESTS: the parameter URIs the host answers a
    /// ui:requestValue for (ui_host_child.h).
    init(arguments: [String], display: String?, requestable: [String]? = nil) throws {
        let process = Process(), errorPipe = Pipe()
        (self.process, self.errorPipe, unitProcessEndSignal) = (process, errorPipe, nil)
        let path = Self.childPath()
        guard access(path, X_OK) == 0 else {
            throw AudioError(
                kAUHostLV2UIErr_LoadFailed,
                "The UI host \(path) is missing or not executable (build the auhost-ui-host product, or set AUHOST_UI_HOST).")
        }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw AudioError(kAUHostLV2UIErr_LoadFailed, "No socket pair for the UI: \(String(cString: strerror(errno))).")
        }
        socket = pair[0]
        let childEnd = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        if let display { environment["DISPLAY"] = display }
        // The child is C, but SwiftPM links it with the Swift runtime, whose backtracer would
        // turn a UI's crash into a page of registers; the signal alone is the report.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment["AUHOST_UI_REQUESTS"] = requestable?.joined(separator: " ")
        process.environment = environment
        process.standardInput = childEnd
        process.standardOutput = childEnd
        process.standardError = errorPipe
        do {
            try process.run()
        } catch {
            close(socket)
            throw AudioError(kAUHostLV2UIErr_LoadFailed, "Could not start the UI host \(path): \(error.localizedDescription).")
        }
        try? childEnd.close()
        try? errorPipe.fileHandleForWriting.close()
        _ = fcntl(errorPipe.fileHandleForReading.fileDescriptor, F_SETFL, O_NONBLOCK)
    }

    /// A UI a unit's process started beside its plug-in (``UnitProcessUIHosting``).
    init(besidePlugin ui: UnitProcessUI) {
        (process, errorPipe, socket, unitProcessEndSignal) = (nil, nil, ui.socket, ui.endSignal)
    }

    deinit {
        close(socket)
    }

    /// Sends one protocol line; false if the child is gone. Never raises SIGPIPE.
    @discardableResult
    func send(_ line: String) -> Bool {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeMutableBytes {
                Foundation.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// The complete lines the child sent, waiting up to `timeout` seconds for the first
    /// (0: only what has arrived). Sets `reachedEnd` when the child closed its end.
    func receiveLines(timeout: Double = 0) -> [String] {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        if timeout > 0 { _ = poll(&descriptor, 1, Int32(timeout * 1000)) }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = recv(socket, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if got > 0 {
                received += chunk[0..<got]
                continue
            }
            if got == 0 { reachedEnd = true }
            if got < 0 && errno == EINTR { continue }
            break
        }
        readErrors()
        var lines: [String] = []
        var start = 0
        while let newline = received[start...].firstIndex(of: 10) {
            if skipping { skipping = false } else { lines.append(String(decoding: received[start..<newline], as: UTF8.self)) }
            start = newline + 1
        }
        received.removeSubrange(..<start)
        if received.count > Self.maximumLine {
            received.removeAll()
            skipping = true
        }
        return lines
    }

    private func readErrors() {
        guard let errorPipe else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = read(errorPipe.fileHandleForReading.fileDescriptor, &chunk, chunk.count)
            guard got > 0 else { break }
            errorTail = String((errorTail + String(decoding: chunk[0..<got], as: UTF8.self)).suffix(4096))
        }
    }

    /// How the UI ended, once it has (call after `reachedEnd`): the signal that killed its
    /// process, or nil for a normal end. Waits for a child of its own; a unit's process is given
    /// 0.3 s to be seen ending (its socket closes as it dies, its reaper runs just after).
    func waitForEnd() -> Int32? {
        guard let process else {
            let deadline = Date().addingTimeInterval(0.3)
            while Date() < deadline {
                if let signal = unitProcessEndSignal?() { return signal }
                usleep(10_000)
            }
            return nil
        }
        process.waitUntilExit()
        readErrors()
        return process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
    }

    /// Asks the UI to quit; kills a child of its own if it has not within `grace` seconds (a UI
    /// in a unit's process is left to end: the process ends it when its unit is uninitialized).
    /// Thread: setup.
    func stop(grace: Double = 2) {
        send("quit")
        let deadline = Date().addingTimeInterval(grace)
        guard let process else {
            while !reachedEnd && Date() < deadline { _ = receiveLines(timeout: 0.05) }
            return
        }
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
