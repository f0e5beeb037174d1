import AudioTypes

/// One element (bus) of a unit's input or output scope, as the host set it up: the setup side's
/// one record of it, in the spirit of Apple's AUIOElement. The render thread reads copies made
/// for it: the buffers in RenderState (made at initialize) and the source in the published
/// RenderConfiguration. Element-scope parameters live in the unit's ParameterTable, keyed by
/// scope and element.
public struct AUElement {
    /// kAudioUnitProperty_StreamFormat.
    public var format: AudioStreamBasicDescription
    /// kAudioUnitProperty_ElementName.
    public var name: String?
    /// kAudioUnitProperty_ShouldAllocateBuffer: false means the source provides the buffers.
    public var allocatesBuffer = true
    /// Input elements: a connection (kAudioUnitProperty_MakeConnection) or a render callback
    /// (kAudioUnitProperty_SetRenderCallback); setting one clears the other.
    public var connection: AudioUnitConnection? {
        didSet { if connection != nil { renderCallback = nil } }
    }
    public var renderCallback: AURenderCallbackStruct? {
        didSet { if renderCallback != nil { connection = nil } }
    }

    /// Thread: setup.
    public init(format: AudioStreamBasicDescription) {
        self.format = format
    }

    /// The source as the render thread pulls it.
    var source: InputSource {
        var source = InputSource()
        if let c = connection {
            source.kind = .connection
            source.sourceUnit = c.sourceAudioUnit
            source.sourceBus = c.sourceOutputNumber
        } else if let cb = renderCallback, let proc = cb.inputProc {
            source.kind = .callback
            source.callback = renderCallbackCall(proc)
            source.callbackRefCon = cb.inputProcRefCon
        }
        return source
    }
}
