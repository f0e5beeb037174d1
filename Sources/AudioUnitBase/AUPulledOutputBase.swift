import AudioTypes

/// An output unit no device drives (a generic output, an offline voice processor): the
/// application pulls it with AudioUnitRender. AudioOutputUnitStart and Stop only mark it running,
/// answer kAudioOutputUnitProperty_IsRunning and tell its listeners, as Apple's output units do.
open class AUPulledOutputBase: AUBase {
    /// AudioOutputUnitStart was called and Stop not since.
    public private(set) var isRunning = false

    /// Thread: setup.
    open override func startIO() throws {
        guard !isRunning else { return }
        isRunning = true
        propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
    }

    /// Thread: setup.
    open override func stopIO() throws {
        guard isRunning else { return }
        isRunning = false
        propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
    }

    /// IsRunning (UInt32, global, read-only); a subclass asks this after its own properties.
    ///
    /// Thread: setup.
    open override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        guard id == kAudioOutputUnitProperty_IsRunning else { return nil }
        guard scope == kAudioUnitScope_Global else { throw AudioError(kAudioUnitErr_InvalidScope, "IsRunning lives in global scope.") }
        return (4, false)
    }

    /// Thread: setup.
    open override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        if id == kAudioOutputUnitProperty_IsRunning { data.storeBytes(of: UInt32(isRunning ? 1 : 0), as: UInt32.self) }
    }
}
