import AudioToolbox

/// A failure of the LADSPA layer: a documented `OSStatus` plus a sentence naming the library or
/// plug-in concerned and what to do.
public struct LADSPAHostError: Error, CustomStringConvertible, Equatable {
    public let status: OSStatus
    public let message: String

    /// Thread: any.
    public init(_ status: OSStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// "message (OSStatus n)". Thread: any.
    public var description: String { "\(message) (OSStatus \(status))" }
}
