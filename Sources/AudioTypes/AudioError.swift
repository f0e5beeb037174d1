import AudioToolbox

/// An error carrying a documented OSStatus and a sentence saying what went wrong and what to do.
///
/// Every throwing call in AUHost's Swift API throws this; the C API returns `status`.
public struct AudioError: Error, CustomStringConvertible, Equatable {
    /// The documented status code (kAudioUnitErr_…, kAUGraphErr_…, kAudio_ParamError, …).
    public let status: OSStatus
    /// What went wrong, naming the cause (the property, the file, the node…).
    public let message: String

    /// Thread: setup.
    public init(_ status: OSStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// "message (kAudioUnitErr_InvalidScope, -10866)".
    public var description: String {
        "\(message) (\(AudioError.name(of: status)), \(status))"
    }

    /// Throws an AudioError when `status` is not noErr.
    ///
    /// Thread: setup.
    public static func check(_ status: OSStatus, _ what: @autoclosure () -> String) throws {
        if status != noErr { throw AudioError(status, what()) }
    }

    /// The documented name of a status code, or its four-character/decimal spelling.
    ///
    /// Thread: setup.
    public static func name(of status: OSStatus) -> String {
        statusNames[status] ?? FourCC.string(FourCharCode(bitPattern: status))
    }

    private static let statusNames: [OSStatus: String] = [
        noErr: "noErr",
        kAudio_ParamError: "kAudio_ParamError",
        kAudio_UnimplementedError: "kAudio_UnimplementedError",
        kAudio_FileNotFoundError: "kAudio_FileNotFoundError",
        kAudio_FilePermissionError: "kAudio_FilePermissionError",
        kAudio_MemFullError: "kAudio_MemFullError",
        badComponentInstance: "badComponentInstance",
        badComponentSelector: "badComponentSelector",
        kAudioUnitErr_InvalidProperty: "kAudioUnitErr_InvalidProperty",
        kAudioUnitErr_InvalidParameter: "kAudioUnitErr_InvalidParameter",
        kAudioUnitErr_InvalidElement: "kAudioUnitErr_InvalidElement",
        kAudioUnitErr_NoConnection: "kAudioUnitErr_NoConnection",
        kAudioUnitErr_FailedInitialization: "kAudioUnitErr_FailedInitialization",
        kAudioUnitErr_TooManyFramesToProcess: "kAudioUnitErr_TooManyFramesToProcess",
        kAudioUnitErr_InvalidFile: "kAudioUnitErr_InvalidFile",
        kAudioUnitErr_UnknownFileType: "kAudioUnitErr_UnknownFileType",
        kAudioUnitErr_FileNotSpecified: "kAudioUnitErr_FileNotSpecified",
        kAudioUnitErr_FormatNotSupported: "kAudioUnitErr_FormatNotSupported",
        kAudioUnitErr_Uninitialized: "kAudioUnitErr_Uninitialized",
        kAudioUnitErr_InvalidScope: "kAudioUnitErr_InvalidScope",
        kAudioUnitErr_PropertyNotWritable: "kAudioUnitErr_PropertyNotWritable",
        kAudioUnitErr_CannotDoInCurrentContext: "kAudioUnitErr_CannotDoInCurrentContext",
        kAudioUnitErr_InvalidPropertyValue: "kAudioUnitErr_InvalidPropertyValue",
        kAudioUnitErr_PropertyNotInUse: "kAudioUnitErr_PropertyNotInUse",
        kAudioUnitErr_Initialized: "kAudioUnitErr_Initialized",
        kAudioUnitErr_InvalidOfflineRender: "kAudioUnitErr_InvalidOfflineRender",
        kAudioUnitErr_Unauthorized: "kAudioUnitErr_Unauthorized",
        kAudioUnitErr_MIDIOutputBufferFull: "kAudioUnitErr_MIDIOutputBufferFull",
        kAudioUnitErr_RenderTimeout: "kAudioUnitErr_RenderTimeout",
        kAudioUnitErr_ExtensionNotFound: "kAudioUnitErr_ExtensionNotFound",
        kAudioUnitErr_InvalidParameterValue: "kAudioUnitErr_InvalidParameterValue",
        kAudioUnitErr_InvalidFilePath: "kAudioUnitErr_InvalidFilePath",
        kAudioUnitErr_MissingKey: "kAudioUnitErr_MissingKey",
        kAudioComponentErr_InstanceTimedOut: "kAudioComponentErr_InstanceTimedOut",
        kAudioComponentErr_InstanceInvalidated: "kAudioComponentErr_InstanceInvalidated",
        kAudioComponentErr_DuplicateDescription: "kAudioComponentErr_DuplicateDescription",
        kAudioComponentErr_UnsupportedType: "kAudioComponentErr_UnsupportedType",
        kAudioComponentErr_TooManyInstances: "kAudioComponentErr_TooManyInstances",
        kAudioComponentErr_NotPermitted: "kAudioComponentErr_NotPermitted",
        kAudioComponentErr_InitializationTimedOut: "kAudioComponentErr_InitializationTimedOut",
        kAudioComponentErr_InvalidFormat: "kAudioComponentErr_InvalidFormat",
        -10860: "kAUGraphErr_NodeNotFound",
        -10861: "kAUGraphErr_InvalidConnection",
        -10862: "kAUGraphErr_OutputNodeErr",
        -10864: "kAUGraphErr_InvalidAudioUnit",
        -10846: "kAudioToolboxErr_InvalidSequenceType",
        -10859: "kAudioToolboxErr_TrackIndexError",
        -10858: "kAudioToolboxErr_TrackNotFound",
        -10857: "kAudioToolboxErr_EndOfTrack",
        -10856: "kAudioToolboxErr_StartOfTrack",
        -10855: "kAudioToolboxErr_IllegalTrackDestination",
        -10854: "kAudioToolboxErr_NoSequence",
        -10853: "kAudioToolboxErr_InvalidEventType",
        -10852: "kAudioToolboxErr_InvalidPlayerState",
        -66720: "kAudioToolboxError_NoTrackDestination",
    ]
}
