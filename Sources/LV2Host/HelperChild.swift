#if canImport(Glibc)
import Glibc
#endif

/// A helper program (`lv2-sweep-child`) running with its standard output on a pipe: the host
/// reads what it printed once it has ended. Its crash is an outcome the caller reports, so it
/// prints no Swift backtrace. Thread: setup (non-real-time).
package struct HelperChild {
    private let pid: pid_t
    private let output: Int32

    /// Starts `arguments[0]` with `arguments`; its standard error goes to /dev/null when `quiet`.
    /// Returns why it could not start instead when it cannot.
    package static func start(_ arguments: [String], quiet: Bool = false) -> Result<HelperChild, StartFailure> {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failure(StartFailure(message: "cannot make a pipe (errno \(errno))")) }
        // Close-on-exec: a helper started later must not hold this pipe open.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var entry = environ
        while let variable = entry.pointee { environment.append(strdup(variable)); entry += 1 }
        environment.append(nil)
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &environment)
        close(fds[1])
        guard status == 0 else {
            close(fds[0])
            return .failure(
                StartFailure(message: "cannot start \(arguments[0]) (errno \(status)); build the lv2-sweep-child product"))
        }
        return .success(HelperChild(pid: pid, output: fds[0]))
    }

    package struct StartFailure: Error {
        package let message: String
    }

    /// Reads the output to its end and waits for the child: what it printed and its wait status.
    package func finish() -> (output: [UInt8], status: Int32) {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(self.output, &chunk, chunk.count)
            if count > 0 { output += chunk[0..<count] } else if count == 0 || errno != EINTR { break }
        }
        close(self.output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (output, status)
    }
}
