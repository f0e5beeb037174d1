import AudioToolbox
import Foundation

/// The NSError Apple's AVFAudio throws for a failed Core Audio call: domain NSOSStatusErrorDomain,
/// code the OSStatus, and a sentence saying what went wrong and what to do.
///
/// Thread: any.
func osStatusError(_ status: OSStatus, _ message: String) -> NSError {
    NSError(domain: NSOSStatusErrorDomain, code: Int(status), userInfo: [NSLocalizedDescriptionKey: "\(message) (OSStatus \(status))"])
}

/// Throws ``osStatusError(_:_:)`` unless `status` is noErr.
///
/// Thread: any.
func checkStatus(_ status: OSStatus, _ message: @autoclosure () -> String) throws {
    if status != noErr { throw osStatusError(status, message()) }
}

/// The sentence explaining the last error this thread got from a C API call, if any
/// (AUHostCopyLastErrorMessage).
///
/// Thread: any.
func lastErrorSentence() -> String? {
    guard let message = AUHostCopyLastErrorMessage()?.takeRetainedValue() else { return nil }
    return unsafeBitCast(message, to: NSString.self) as String
}

/// The NSError of an error Swift code caught (AUHost's AudioError carries a status).
func asNSError(_ error: Error, _ fallback: OSStatus = kAudioUnitErr_FailedInitialization) -> NSError {
    if let e = error as NSError?, e.domain == NSOSStatusErrorDomain { return e }
    let mirror = Mirror(reflecting: error)
    let status = mirror.children.first { $0.label == "status" }?.value as? OSStatus ?? fallback
    return osStatusError(status, "\(error)")
}
