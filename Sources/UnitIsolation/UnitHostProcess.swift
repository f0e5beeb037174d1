import AUHostCore
import CUnitIsolation
import Foundation

/// One `auhost-unit-host` child serving one component: its control socket, the shared block
/// (header mapped for the child's life, audio mapped per initialization) and a thread that waits
/// for its exit.
///
/// Thread: setup, except ``header``, ``audio`` and the pid, which the render thread reads.
final class UnitHostProcess {
    let pid: pid_t
    private let control: Int32
    private let blockFD: Int32
    /// Signals go through it, never to a pid the system may have given to another process.
    let pidfd: Int32
    let header: UnsafeMutablePointer<auhost_iso_header>
    private(set) var audio: UnsafeMutableRawPointer?
    private var audioBytes = 0
    private let exited = DispatchSemaphore(value: 0)
    private var reaped = false
    /// The wait status, written by the watcher before it signals `exited` (freed after that).
    private let waitStatus = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    /// The child executable: `$AUHOST_UNIT_HOST`, else where ``HelperProgram`` finds it. Thread: any.
    static func childPath() -> String {
        HelperProgram.path(named: "auhost-unit-host", environment: "AUHOST_UNIT_HOST")
    }

    /// Spawns a child for `component`; `onExit` runs on the watcher thread with the wait status
    /// when the child ends.
    init(component: Component, onExit: @escaping (Int32) -> Void) throws {
        let path = Self.childPath()
        guard access(path, X_OK) == 0 else {
            throw AudioError(
                kAudioComponentErr_NotPermitted,
                "The unit host \(path) is missing or not executable (build the auhost-unit-host product, or set AUHOST_UNIT_HOST).")
        }
        var fds: [Int32] = [-1, -1]
        guard auhost_iso_socketpair(&fds) == 0 else {
            throw AudioError(kAudio_MemFullError, "No socket pair: \(String(cString: strerror(errno))).")
        }
        let block = auhost_iso_memfd("auhost-unit", auhost_iso_header_size())
        guard block >= 0 else {
            close(fds[0])
            close(fds[1])
            throw AudioError(kAudio_MemFullError, "No shared block: \(String(cString: strerror(errno))).")
        }
        let d = component.description
        let argv = [
            path, String(getpid()), String(d.componentType), String(d.componentSubType), String(d.componentManufacturer), component.origin,
        ]
        // The Swift runtime's backtracer would hold a crashing child for seconds.
        var environment = ["SWIFT_BACKTRACE=enable=no"]
        // Sorted: a dictionary's order varies from one copy to the next, and the fork server is
        // replaced whenever the environment it would give a child differs.
        for (key, value) in ProcessInfo.processInfo.environment.sorted(by: { $0.key < $1.key }) where key != "SWIFT_BACKTRACE" {
            environment.append("\(key)=\(value)")
        }
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = auhost_iso_spawn(path, &cArgv, &cEnvironment, fds[1], block, &child)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            close(block)
            throw AudioError(
                kAudioComponentErr_NotPermitted, "The unit host \(path) could not start: \(String(cString: strerror(spawned))).")
        }
        pid = child
        pidfd = auhost_iso_pidfd_open(child)
        control = fds[0]
        blockFD = block
        _ = auhost_iso_socket_timeout(control, 10_000)
        let mapped = mmap(nil, auhost_iso_header_size(), PROT_READ | PROT_WRITE, MAP_SHARED, block, 0)
        guard let mapped, mapped != MAP_FAILED else { fatalError("mmap of a fresh memfd failed: \(String(cString: strerror(errno)))") }
        header = mapped.assumingMemoryBound(to: auhost_iso_header.self)
        header.pointee.magic = AUHOST_ISO_MAGIC
        let exited = self.exited
        // Written once by the watcher before `exited` is signalled; read only after it.
        nonisolated(unsafe) let waitStatus = self.waitStatus
        let thread = Thread { [pid = child] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            waitStatus.pointee = status
            onExit(status)
            exited.signal()
        }
        thread.name = "auhost-unit-host watcher"
        thread.stackSize = 256 << 10
        thread.start()
    }

    deinit {
        terminate()
        munmap(UnsafeMutableRawPointer(header), auhost_iso_header_size())
        if let audio { munmap(audio, audioBytes) }
        close(control)
        close(blockFD)
        if pidfd >= 0 { close(pidfd) }
        waitStatus.deallocate()
    }

    /// Ends the child (SIGKILL) and waits until its watcher has run.
    func terminate() {
        guard !reaped else { return }
        auhost_iso_pidfd_kill(pidfd)
        exited.wait()
        reaped = true
    }

    /// Whether the child has ended (its watcher ran).
    var hasEnded: Bool {
        if reaped { return true }
        if exited.wait(timeout: .now()) == .success {
            reaped = true
            return true
        }
        return false
    }

    /// The signal that ended the child, once it ended on one (nil while it runs, or after an exit).
    var endSignal: Int32? {
        guard hasEnded, (waitStatus.pointee & 0x7F) != 0 else { return nil }
        return waitStatus.pointee & 0x7F
    }

    /// Sends a request and returns the reply payload; a failure status becomes an AudioError with
    /// the child's sentence; a broken or malformed channel an IsolationProtocolError.
    func call(_ op: IsolationOpcode, _ payload: [UInt8] = []) throws -> [UInt8] {
        try ControlChannel.send(control, op.rawValue, payload)
        let (word, reply) = try ControlChannel.receive(control)
        let status = OSStatus(bitPattern: word)
        guard status == noErr else {
            var r = ByteReader(reply)
            throw AudioError(status, (try? r.string()) ?? "The unit's process answered status \(status).")
        }
        return reply
    }

    /// ``call(_:_:)``, then receives the descriptor the child passes after a successful reply.
    func callReceivingDescriptor(_ op: IsolationOpcode, _ payload: [UInt8]) throws -> Int32 {
        _ = try call(op, payload)
        let fd = auhost_iso_receive_fd(control)
        guard fd >= 0 else { throw IsolationProtocolError("no descriptor came with the reply (\(String(cString: strerror(errno))))") }
        return fd
    }

    /// Grows the block to hold `bytes` of audio after the header and maps them.
    func mapAudio(bytes: Int) throws {
        if let audio { munmap(audio, audioBytes) }
        audio = nil
        guard ftruncate(blockFD, off_t(auhost_iso_header_size() + bytes)) == 0 else {
            throw AudioError(kAudio_MemFullError, "The shared block cannot grow to \(bytes) bytes: \(String(cString: strerror(errno))).")
        }
        let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, blockFD, off_t(auhost_iso_header_size()))
        guard let mapped, mapped != MAP_FAILED else {
            throw AudioError(kAudio_MemFullError, "The shared audio block cannot be mapped: \(String(cString: strerror(errno))).")
        }
        audio = mapped
        audioBytes = bytes
    }
}
