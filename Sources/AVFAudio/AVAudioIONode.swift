import AudioToolbox
import Foundation

/// A node that is the engine's door to the outside (Apple's AVAudioIONode).
///
/// Thread: setup.
open class AVAudioIONode: AVAudioNode {
    /// The I/O latency in seconds (the unit's Latency).
    ///
    /// Thread: setup.
    public var presentationLatency: TimeInterval { latency }

    /// The I/O unit (on the device, the ALSA I/O unit — choose the PCM with
    /// kAudioOutputUnitProperty_CurrentDevice before start — or the JACK I/O unit when
    /// AUHOST_AUDIO_DEVICE says "jack").
    ///
    /// Thread: setup.
    public var audioUnit: AudioUnit? { unit }
}

/// The engine's output (Apple's AVAudioOutputNode): the device's I/O unit — ALSA's ('auou' 'ahal')
/// or JACK's ('auou' 'jack' 'AUHs'), as AUHOST_AUDIO_DEVICE chooses (``EngineDevice``) — or in
/// manual rendering mode a generic output ('auou' 'genr') the application pulls.
///
/// Thread: setup.
public final class AVAudioOutputNode: AVAudioIONode {
    /// The device the unit opens (nil in manual rendering mode, or when its unit could not be made).
    private(set) var device: EngineDevice?
    /// Whether the unit is a device's I/O unit (not manual rendering's generic output).
    var isDevice: Bool { device != nil }
    /// Why the chosen device's unit could not be made: the engine's start throws it.
    private(set) var deviceError: Error?

    init(manual: Bool) {
        let (unit, device, error) = manual ? (AVAudioOutputNode.makeGeneric(), nil, nil) : AVAudioOutputNode.makeDevice()
        super.init(unit: unit)
        self.device = device
        deviceError = error
    }

    static let generic = AudioComponentDescription(
        componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private static func makeGeneric() -> AudioUnit { try! makeUnit(generic) }  // built in: always there

    /// The chosen device's unit, else (its unit cannot be made) a generic output and the reason.
    private static func makeDevice() -> (AudioUnit, EngineDevice?, Error?) {
        let device = EngineDevice.chosen
        do { return (try device.makeUnit(), device, nil) } catch { return (makeGeneric(), nil, error) }
    }

    /// Swaps in a new unit (the node must be detached from the graph).
    func replaceUnit(manual: Bool) throws {
        let device = manual ? nil : EngineDevice.chosen
        let new = try device?.makeUnit() ?? makeUnit(AVAudioOutputNode.generic)
        for tap in taps.values { tap.remove() }
        taps = [:]
        AudioComponentInstanceDispose(unit)
        unit = new
        self.device = device
        deviceError = nil
    }

    /// The manual rendering format on both sides of the generic output, and the slice size.
    func setManualFormat(_ format: AVAudioFormat, maximumFrameCount: AVAudioFrameCount) throws {
        try checkStatus(
            setUInt32Property(unit, kAudioUnitProperty_MaximumFramesPerSlice, maximumFrameCount),
            "The output node refused \(maximumFrameCount) frames a slice")
        try setStreamFormat(unit, kAudioUnitScope_Output, 0, format, "The output node")
        let inside = AVAudioFormat(standardFormatWithSampleRate: format.sampleRate, channels: format.channelCount)!
        try setStreamFormat(unit, kAudioUnitScope_Input, 0, inside, "The output node")
    }

    /// The output node's output side is the device's or the application's: connections never set it.
    override func setOutputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus) throws {}
}
