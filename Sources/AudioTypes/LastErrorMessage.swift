import Foundation

/// The sentence explaining the last error a thread got from a setup call: the C API returns only
/// a status, and AUHostCopyLastErrorMessage reads this to say what went wrong and what to do.
public enum LastErrorMessage {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { if let p = $0 { Unmanaged<NSString>.fromOpaque(p).release() } }
        return key
    }()

    /// Records `message` for the calling thread.
    ///
    /// Thread: setup.
    public static func set(_ message: String?) {
        if let old = pthread_getspecific(key) { Unmanaged<NSString>.fromOpaque(old).release() }
        let new = message.map { UnsafeMutableRawPointer(Unmanaged.passRetained(NSString(string: $0)).toOpaque()) }
        pthread_setspecific(key, new)
    }

    /// The calling thread's last message, if any.
    ///
    /// Thread: setup.
    public static var current: String? {
        guard let p = pthread_getspecific(key) else { return nil }
        return Unmanaged<NSString>.fromOpaque(p).takeUnretainedValue() as String
    }

    /// Runs a throwing setup call for the C API: noErr on success; otherwise records the
    /// message and returns the error's status (kAudio_ParamError for non-audio errors).
    ///
    /// Thread: setup.
    public static func status(_ body: () throws -> Void) -> OSStatus {
        do {
            try body()
            set(nil)
            return noErr
        } catch let error as AudioError {
            set(error.message)
            return error.status
        } catch {
            set("\(error)")
            return kAudio_ParamError
        }
    }
}
