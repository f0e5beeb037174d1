import AUHostCore

/// The generic output unit ('auou' 'genr'): the head of a graph rendered offline. It renders by
/// pulling its input element 0 into the caller's buffers; the application pulls by calling
/// AudioUnitRender on it. Start and Stop only mark it running (it has no device clock).
public final class GenericOutput: AUBase {
    public static let identity = AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput,
                                                           manufacturer: kAudioUnitManufacturer_AUHost)
    private var running = false

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = GenericOutput.identity) {
        super.init(description: description, inputs: 1, outputs: 1)
    }

    public override var supportsInPlace: Bool { true }

    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard super.accepts(format: format, scope: scope, element: element) else { return false }
        // Input and output must agree: a generic output passes audio through unchanged.
        let other = scope == kAudioUnitScope_Input ? outputFormats[0] : inputFormats[0]
        return other.mChannelsPerFrame == format.mChannelsPerFrame || !isInitialized
    }

    public override func allocateRenderResources() throws {
        guard inputFormats[0] == outputFormats[0] else {
            throw AudioError(kAudioUnitErr_FormatNotSupported,
                             "A generic output passes audio through: its input format (\(inputFormats[0])) must equal its output format (\(outputFormats[0])).")
        }
    }

    /// Thread: render.
    public override func renderBus(_ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                                   timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
                                   output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        pullInput(0, flags, timeStamp, frames, into: output)
    }

    /// Starting and stopping tell IsRunning's listeners, as Apple's output units do.
    public override func startIO() throws {
        guard !running else { return }
        running = true
        propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
    }

    public override func stopIO() throws {
        guard running else { return }
        running = false
        propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
    }

    public override func customPropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
                                            _ element: AudioUnitElement) throws -> (size: UInt32, writable: Bool)? {
        guard id == kAudioOutputUnitProperty_IsRunning else { return nil }
        guard scope == kAudioUnitScope_Global else {
            throw AudioError(kAudioUnitErr_InvalidScope, "IsRunning lives in global scope.")
        }
        return (4, false)
    }

    public override func getCustomProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                                           _ data: UnsafeMutableRawPointer) throws {
        data.storeBytes(of: UInt32(running ? 1 : 0), as: UInt32.self)
    }
}
