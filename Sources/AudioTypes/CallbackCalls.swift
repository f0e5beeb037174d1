import AudioToolbox

/// An `AURenderCallback` as a host calls it. Apple's Swift signature (and so ours) says inRefCon is
/// non-null, yet C code registers callbacks with a NULL refCon and must get NULL back. The C ABI is
/// the same, so a callback is converted once at setup and called with whatever refCon it was given.
public typealias AURenderCallbackCall =
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutablePointer<AudioUnitRenderActionFlags>, UnsafePointer<AudioTimeStamp>,
        UInt32, UInt32, UnsafeMutablePointer<AudioBufferList>?
    ) -> OSStatus

/// An `AudioUnitPropertyListenerProc` as a host calls it (a NULL refCon passed through, as above).
public typealias AudioUnitPropertyListenerCall =
    @convention(c) (
        UnsafeMutableRawPointer?, AudioUnit?, AudioUnitPropertyID, AudioUnitScope, AudioUnitElement
    ) -> Void

/// The callable form of a render callback. Thread: any.
@inlinable
public func renderCallbackCall(_ callback: AURenderCallback) -> AURenderCallbackCall {
    unsafeBitCast(callback, to: AURenderCallbackCall.self)
}

/// The callable form of a property listener. Thread: any.
@inlinable
public func propertyListenerCall(_ listener: @escaping AudioUnitPropertyListenerProc) -> AudioUnitPropertyListenerCall {
    unsafeBitCast(listener, to: AudioUnitPropertyListenerCall.self)
}
