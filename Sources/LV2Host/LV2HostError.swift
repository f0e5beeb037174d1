import AudioToolbox

/// A failure of the LV2 layer: a documented `OSStatus` from the AudioToolbox headers plus a
/// sentence that names the cause and what to do.
///
/// ```swift
/// do { _ = try world.plugin(uri: "urn:missing") }
/// catch let error as LV2HostError { print(error.status, error.message) }
/// ```
public struct LV2HostError: Error, CustomStringConvertible, Equatable {
    /// The status code, one of the AudioToolbox error constants.
    public let status: OSStatus
    /// What went wrong, naming the plug-in, port, feature or file concerned.
    public let message: String

    /// Makes an error from a status and its explanation. Thread: any.
    public init(_ status: OSStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// "message (OSStatus n)". Thread: any.
    public var description: String { "\(message) (OSStatus \(status))" }
}

/// The statuses this module throws, named for their meaning here.
enum LV2Status {
    /// No installed plug-in has the URI asked for.
    static let pluginNotFound = OSStatus(kAudioUnitErr_ExtensionNotFound)
    /// The plug-in's binary file does not exist.
    static let binaryMissing = OSStatus(kAudio_FileNotFoundError)
    /// The plug-in could not be made: a missing feature, a failed instantiate, a bad block length.
    static let failedInitialization = OSStatus(kAudioUnitErr_FailedInitialization)
    /// The plug-in's Turtle data is inconsistent (ports missing, unknown port kinds).
    static let invalidPluginData = OSStatus(kAudioUnitErr_InvalidFile)
    /// A port or parameter index/symbol that the plug-in does not have.
    static let invalidParameter = OSStatus(kAudioUnitErr_InvalidParameter)
    /// More frames than the maximum block length, or not the fixed length the plug-in needs.
    static let tooManyFrames = OSStatus(kAudioUnitErr_TooManyFramesToProcess)
    /// A bad argument (sample rate, block length, path).
    static let parameterError = OSStatus(kAudio_ParamError)
    /// A state file or preset could not be read or written.
    static let stateFileError = OSStatus(kAudioUnitErr_InvalidFile)
}
