import AudioToolbox

// AudioFile status codes (AudioFile.h in Apple's SDK) that the C headers here do not declare yet;
// the numbers are the documented four-char codes. kAudio_FileNotFoundError (-43) comes from
// CoreAudioTypes.h.

/// 'wht?': something failed that has no more specific code.
public let kAudioFileUnspecifiedError: OSStatus = 0x7768_743F
/// 'typ?': the file is not of a type this build can read or write.
public let kAudioFileUnsupportedFileTypeError: OSStatus = 0x7479_703F
/// 'fmt?': the data format is not supported by the file type (or at all).
public let kAudioFileUnsupportedDataFormatError: OSStatus = 0x666D_743F
/// 'prm?': the file cannot be opened or created with the requested permissions.
public let kAudioFilePermissionsError: OSStatus = 0x7072_6D3F
/// 'dta?': the file is malformed (bad header, truncated, wrong magic).
public let kAudioFileInvalidFileError: OSStatus = 0x6474_613F
/// -38: the file was closed.
public let kAudioFileNotOpenError: OSStatus = -38
/// -40: a seek went outside the file.
public let kAudioFilePositionError: OSStatus = -40

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
