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

    /// The I/O unit (on the device, the ALSA I/O unit: choose the PCM with
    /// kAudioOutputUnitProperty_CurrentDevice before start).
    ///
    /// Thread: setup.
    public var audioUnit: AudioUnit? { unit }
}

/// The engine's output (Apple's AVAudioOutputNode): the ALSA I/O unit ('auou' 'ahal'), or in
/// manual rendering mode a generic output ('auou' 'genr') the application pulls.
///
/// Thread: setup.
public final class AVAudioOutputNode: AVAudioIONode {
    /// Whether the ALSA device could not be opened (no device): start then fails with this status.
    private(set) var deviceStatus: OSStatus = noErr
    /// Whether the unit is the ALSA I/O unit (not manual rendering's generic output).
    private(set) var isDevice = false

    init(manual: Bool) {
        let unit: AudioUnit
        var status: OSStatus = noErr
        if manual {
            unit = try! makeUnit(AVAudioOutputNode.generic)  // built in: always there
        } else {
            do { unit = try makeUnit(AVAudioOutputNode.device) } catch {
                status = asNSError(error).code32
                unit = try! makeUnit(AVAudioOutputNode.generic)
            }
        }
        super.init(unit: unit)
        deviceStatus = status
        isDevice = !manual && status == noErr
        if !manual { AVAudioSession.sharedInstance().configure(unit) }
    }

    static let generic = AudioComponentDescription(
        componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let device = AudioComponentDescription(
        componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_HALOutput,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Swaps in a new unit (the node must be detached from the graph).
    func replaceUnit(manual: Bool) throws {
        let new = try makeUnit(manual ? AVAudioOutputNode.generic : AVAudioOutputNode.device)
        for tap in taps.values { tap.remove() }
        taps = [:]
        AudioComponentInstanceDispose(unit)
        unit = new
        deviceStatus = noErr
        isDevice = !manual
        if !manual { AVAudioSession.sharedInstance().configure(new) }
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
