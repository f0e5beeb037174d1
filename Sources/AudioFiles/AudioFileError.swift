import AudioToolbox

// The status codes (kAudioFile*Error) are declared in the C header AudioToolbox/AudioFile.h.

/// A failed file operation: the documented status, the path, and a sentence naming the cause.
public struct AudioFileError: Error, CustomStringConvertible, Sendable {
    /// The documented OSStatus (kAudioFile*Error, kAudio_FileNotFoundError, kAudio_ParamError).
    public let status: OSStatus
    /// The file the operation was about.
    public let path: String
    /// What went wrong and what to do, naming `path`.
    public let message: String

    /// Creates an error; `message` should name `path`. Thread: any.
    public init(status: OSStatus, path: String, _ message: String) {
        self.status = status
        self.path = path
        self.message = message
    }

    /// The message followed by the status code (as a four-char code when it is one). Thread: any.
    public var description: String { "\(message) (OSStatus \(status)\(Self.fourCharSuffix(status)))" }

    static func fourCharSuffix(_ status: OSStatus) -> String {
        let bytes = withUnsafeBytes(of: UInt32(bitPattern: status).bigEndian, Array.init)
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "" }
        return " '" + String(decoding: bytes, as: UTF8.self) + "'"
    }
}
