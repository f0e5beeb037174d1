import AUHost
import Foundation

/// An output file written under a temporary name beside its target and renamed over the target
/// only when everything was written: a render that fails (disk full, a unit's error) or is
/// killed leaves a file that stood at the target as it was. `rename(2)` within one directory is
/// atomic, so a reader sees the old file or the new one, never half of one.
///
/// A symlink at the target is followed (the file it points to is replaced, the link stays).
/// SIGINT, SIGTERM and SIGHUP remove the temporary file before the process ends — or, for a
/// recording (`keepOnSignal`), whose header is kept current, put it in place as the result;
/// SIGKILL leaves it (a hidden ".NAME.auhost-PID.partial.EXT" beside the target), never the target.
final class StagedOutput {
    /// The file the user named, symlinks resolved.
    let target: String
    /// Where the data goes until `commit`.
    let temporary: String
    private var finished = false

    /// Reserves a temporary name beside `path`; throws when its folder is missing or cannot be
    /// written (named by the user's path, not the temporary one). `keepOnSignal`: a fatal signal
    /// renames what was written over the target (a recording stopped by `kill`). Thread: setup.
    init(_ path: String, keepOnSignal: Bool = false) throws {
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
        StagedOutput.removeOnSignal(temporary, keepingAs: keepOnSignal ? target : nil)
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
            throw AudioError(
                kAudioFileUnspecifiedError, "Cannot put the finished output in place at \(target): \(reason); the file there is unchanged.")
        }
    }

    /// Removes the temporary file (nothing at the target changes). Thread: setup.
    func discard() {
        guard !finished else { return }
        finished = true
        StagedOutput.removeOnSignal(nil)
        unlink(temporary)
    }

    /// Refuses an output that is the input: the same file by device and inode, however named
    /// (./x.wav, a symlink, a hard link). Checked before anything is created.
    ///
    /// Thread: setup.
    static func refuseOverwriting(input: String, with output: String) throws {
        var a = stat(), b = stat()
        guard stat(input, &a) == 0, stat(output, &b) == 0 else { return }
        guard a.st_dev == b.st_dev && a.st_ino == b.st_ino else { return }
        throw AudioError(
            kAudio_ParamError,
            "The output \(output) is the input \(input) (the same file); name another output, the input is left as it is.")
    }

    // MARK: - Removal on a fatal signal

    /// The paths a signal handler uses: fixed C buffers, since the handler may only call
    /// async-signal-safe functions (unlink, rename, signal, raise).
    private static let signalPaths: (temporary: UnsafeMutablePointer<CChar>, target: UnsafeMutablePointer<CChar>) = {
        let count = Int(PATH_MAX) + 1
        let a = UnsafeMutablePointer<CChar>.allocate(capacity: count), b = UnsafeMutablePointer<CChar>.allocate(capacity: count)
        a.initialize(repeating: 0, count: count)
        b.initialize(repeating: 0, count: count)
        return (a, b)
    }()
    private static var handlersInstalled = false

    /// Arms the handler for `path` (nil disarms it); with `target`, a signal renames instead of removing.
    private static func removeOnSignal(_ path: String?, keepingAs target: String? = nil) {
        signalPaths.temporary[0] = 0
        signalPaths.target[0] = 0
        guard let path, path.utf8.count < Int(PATH_MAX), (target?.utf8.count ?? 0) < Int(PATH_MAX) else { return }
        if let target { _ = target.withCString { strcpy(signalPaths.target, $0) } }
        _ = path.withCString { strcpy(signalPaths.temporary, $0) }
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

    fileprivate static var pathsForHandler: (temporary: UnsafeMutablePointer<CChar>, target: UnsafeMutablePointer<CChar>) { signalPaths }
}

/// Removes the temporary output (or puts a recording in place), then dies of the signal as it would have.
private let stagedOutputSignalHandler: @convention(c) (Int32) -> Void = { s in
    let paths = StagedOutput.pathsForHandler
    if paths.temporary[0] != 0 {
        if paths.target[0] != 0 { rename(paths.temporary, paths.target) } else { unlink(paths.temporary) }
    }
    signal(s, SIG_DFL)
    raise(s)
}
