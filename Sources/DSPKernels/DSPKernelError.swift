import AudioToolbox

/// A kernel refused its configuration: the documented status and a sentence naming the cause.
///
/// Kernels validate at setup time and throw this; their render-thread methods never throw.
public struct DSPKernelError: Error, CustomStringConvertible, Sendable {
    /// The documented OSStatus (`kAudio_ParamError`, `kAudioUnitErr_FormatNotSupported`, ...).
    public let status: OSStatus
    /// What was wrong and what to do about it.
    public let message: String

    /// Creates an error carrying `status` and a sentence explaining it. Thread: any.
    public init(status: OSStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The message followed by the status code. Thread: any.
    public var description: String { "\(message) (OSStatus \(status))" }

    /// `kAudio_ParamError` (-50) with `message`. Thread: any.
    static func parameter(_ message: String) -> DSPKernelError {
        DSPKernelError(status: OSStatus(kAudio_ParamError), message)
    }

    /// `kAudioUnitErr_FormatNotSupported` (-10868) with `message`. Thread: any.
    static func format(_ message: String) -> DSPKernelError {
        DSPKernelError(status: OSStatus(kAudioUnitErr_FormatNotSupported), message)
    }
}
