import AUHost
import Foundation

/// An output file written under a temporary name beside its target and renamed over the target
/// only when everything was written: a render that fails (disk full, a unit's error) or is
/// killed leaves a file that stood at the target as it was. `rename(2)` within one directory is
/// atomic, so a reader sees the old file or the new one, never half of one.
///
/// A symlink at the target is followed (the file it points to is replaced, the link stays).
/// SIGINT, SIGTERM and SIGHUP remove the temporary file before the process ends; SIGKILL leaves
/// it (a hidden ".NAME.auhost-PID.partial" beside the target) but still not the target.
final class StagedOutput {
    /// The file the user named, symlinks resolved.
    let target: String
    /// Where the data goes until `commit`.
    let temporary: String
    private var finished = false

    /// Reserves a temporary name beside `path`; throws when its folder is missing or cannot be
    /// written (named by the user's path, not the temporary one). Thread: setup.
    init(_ path: String) throws {
        var resolved = path
        if let real = realpath(path, nil) { resolved = String(cString: real); free(real) }
        target = resolved
        let directory = (resolved as NSString).deletingLastPathComponent
        let name = (resolved as NSString).lastPathComponent
        // The extension stays last: libsndfile and messages see the type the user asked for.
        let ext = (name as NSString).pathExtension
        temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).auhost-\(getpid()).partial" + (ext.isEmpty ? "" : ".\(ext)")
        let folder = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            finished = true
            throw AudioError(kAudio_FileNotFoundError, "Cannot create \(path): the folder \(folder) does not exist.")
        }
        guard access(folder, W_OK) == 0 else {
            finished = true
            throw AudioError(kAudioFilePermissionsError, "Cannot create \(path): the folder \(folder) cannot be written.")
        }
        // Renaming would replace a file the user made read-only; writing it in place would not.
        guard access(target, F_OK) != 0 || access(target, W_OK) == 0 else {
            finished = true
            throw AudioError(kAudioFilePermissionsError, "Cannot replace \(path): it is read-only; the file there is unchanged.")
        }
        StagedOutput.removeOnSignal(temporary)
    }

    deinit { discard() }

    /// Renames the finished temporary file over the target. Thread: setup.
    func commit() throws {
        guard !finished else { return }
        finished = true
        StagedOutput.removeOnSignal(nil)
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AudioError(kAudioFileUnspecifiedError, "Cannot put the finished output in place at \(target): \(reason); the file there is unchanged.")
        }
    }

    /// Removes the temporary file (nothing at the target changes). Thread: setup.
    func discard() {
        guard !finished else { return }
        finished = true
        StagedOutput.removeOnSignal(nil)
        unlink(temporary)
    }

    /// Runs `body` with the temporary path, commits when it returns and discards when it throws.
    ///
    /// Thread: setup.
    static func write<T>(_ path: String, _ body: (String) throws -> T) throws -> T {
        let staged = try StagedOutput(path)
        do {
            let result = try body(staged.temporary)
            try staged.commit()
            return result
        } catch {
            staged.discard()
            throw error
        }
    }

    /// Refuses an output that is the input: the same file by device and inode, however named
    /// (./x.wav, a symlink, a hard link). Checked before anything is created.
    ///
    /// Thread: setup.
    static func refuseOverwriting(input: String, with output: String) throws {
        var a = stat(), b = stat()
        guard stat(input, &a) == 0, stat(output, &b) == 0 else { return }
        guard a.st_dev == b.st_dev && a.st_ino == b.st_ino else { return }
        throw AudioError(kAudio_ParamError, "The output \(output) is the input \(input) (the same file); name another output, the input is left as it is.")
    }

    // MARK: - Removal on a fatal signal

    /// The path a signal handler removes; a fixed C buffer, since the handler may only call
    /// async-signal-safe functions (unlink, signal, raise).
    private static let signalPath: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(PATH_MAX) + 1)
        buffer.initialize(repeating: 0, count: Int(PATH_MAX) + 1)
        return buffer
    }()
    private static var handlersInstalled = false

    private static func removeOnSignal(_ path: String?) {
        signalPath[0] = 0
        guard let path, path.utf8.count < Int(PATH_MAX) else { return }
        _ = path.withCString { strcpy(signalPath, $0) }
        guard !handlersInstalled else { return }
        handlersInstalled = true
        for s in [SIGTERM, SIGHUP, SIGINT] {
            // Keep a handler someone else installed (capture's Ctrl-C ends the recording cleanly).
            var old = sigaction()
            sigaction(s, nil, &old)
            guard old.__sigaction_handler.sa_handler == nil else { continue }
            signal(s, stagedOutputSignalHandler)
        }
    }

    fileprivate static var pathForHandler: UnsafeMutablePointer<CChar> { signalPath }
}

/// Removes the temporary output, then dies of the signal as it would have.
private let stagedOutputSignalHandler: @convention(c) (Int32) -> Void = { s in
    let path = StagedOutput.pathForHandler
    if path[0] != 0 { unlink(path) }
    signal(s, SIG_DFL)
    raise(s)
}
