@_weakLinked import CAudioToolbox

// Audio Queue functions that take or give MacTypes' Boolean, with Apple's Swift shapes
// (`AudioQueueStop(queue, true)`, a `DarwinBoolean` discontinuity flag); see
// DarwinBoolean+Overlay.swift for why these overloads exist and are emitted into their callers.

/// AudioQueueStop with a Bool, as on Apple. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func AudioQueueStop(_ inAQ: AudioQueueRef, _ inImmediate: Bool) -> OSStatus {
    CAudioToolbox.AudioQueueStop(inAQ, inImmediate ? 1 : 0)
}

/// AudioQueueDispose with a Bool, as on Apple. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func AudioQueueDispose(_ inAQ: AudioQueueRef, _ inImmediate: Bool) -> OSStatus {
    CAudioToolbox.AudioQueueDispose(inAQ, inImmediate ? 1 : 0)
}

/// AudioQueueGetCurrentTime with Apple's `DarwinBoolean` out-parameter. Thread: any.
@_alwaysEmitIntoClient
@_disfavoredOverload
@discardableResult
public func AudioQueueGetCurrentTime(
    _ inAQ: AudioQueueRef, _ inTimeline: AudioQueueTimelineRef?, _ outTimeStamp: UnsafeMutablePointer<AudioTimeStamp>?,
    _ outTimelineDiscontinuity: UnsafeMutablePointer<DarwinBoolean>?
) -> OSStatus {
    guard let outTimelineDiscontinuity else { return CAudioToolbox.AudioQueueGetCurrentTime(inAQ, inTimeline, outTimeStamp, nil) }
    return outTimelineDiscontinuity.withMemoryRebound(to: UInt8.self, capacity: 1) {
        CAudioToolbox.AudioQueueGetCurrentTime(inAQ, inTimeline, outTimeStamp, $0)
    }
}
