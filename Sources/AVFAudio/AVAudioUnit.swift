import AudioToolbox
import Foundation

/// A node around any audio unit (Apple's AVAudioUnit): built-in, SDK plug-in or LV2, in process
/// or, with `.loadOutOfProcess`, in a child process of its own.
///
/// Thread: setup.
open class AVAudioUnit: AVAudioNode {
    /// The unit's component description (the component's own, as found).
    public let audioComponentDescription: AudioComponentDescription
    /// What was asked for when no unit matched (the node holds a stand-in; attach refuses it).
    var missing: AudioComponentDescription?

    init(unit: AudioUnit) {
        var d = AudioComponentDescription()
        AudioComponentGetDescription(AudioComponentInstanceGetComponent(unit), &d)
        audioComponentDescription = d
        super.init(unit: unit)
    }

    /// The underlying AudioUnit (for AudioUnitSetParameter and the like).
    ///
    /// Thread: any.
    public var audioUnit: AudioUnit { unit }

    /// The component's name.
    ///
    /// Thread: setup.
    public var name: String {
        let component = AudioComponentInstanceGetComponent(unit)
        var cfName: Unmanaged<CFString>?
        guard AudioComponentCopyName(component, &cfName) == noErr, let string = cfName?.takeRetainedValue() else { return "" }
        var bytes = [CChar](repeating: 0, count: 512)
        CFStringGetCString(string, &bytes, 512, CFStringBuiltInEncodings.UTF8.rawValue)
        return String(cString: bytes)
    }

    /// The component's manufacturer code as four characters.
    ///
    /// Thread: any.
    public var manufacturerName: String { fourCC(audioComponentDescription.componentManufacturer) }

    /// The component's version.
    ///
    /// Thread: setup.
    public var version: UInt {
        let component = AudioComponentInstanceGetComponent(unit)
        var v: UInt32 = 0
        AudioComponentGetVersion(component, &v)
        return UInt(v)
    }

    /// Makes a node for the first component matching `audioComponentDescription` and hands it
    /// over (here before this returns); the error has domain NSOSStatusErrorDomain.
    ///
    /// Thread: setup.
    public class func instantiate(
        with audioComponentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = [],
        completionHandler: @escaping (AVAudioUnit?, Error?) -> Void
    ) {
        do {
            completionHandler(try instantiate(audioComponentDescription, options), nil)
        } catch {
            completionHandler(nil, error)
        }
    }

    /// The same, as Swift's async form of the call.
    ///
    /// Thread: setup.
    public class func instantiate(
        with audioComponentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []
    ) async throws -> AVAudioUnit {
        try instantiate(audioComponentDescription, options)
    }

    static func instantiate(_ description: AudioComponentDescription, _ options: AudioComponentInstantiationOptions) throws -> AVAudioUnit {
        var d = description
        guard let component = AudioComponentFindNext(nil, &d) else {
            throw osStatusError(
                kAUGraphErr_InvalidAudioUnit,
                "No audio unit matches \(fourCC(d.componentType)) \(fourCC(d.componentSubType)) \(fourCC(d.componentManufacturer))")
        }
        var made: AudioUnit?
        var status: OSStatus = noErr
        AudioComponentInstantiate(component, options) { unit, s in
            made = unit
            status = s
        }
        guard status == noErr, let unit = made else {
            throw osStatusError(
                status == noErr ? kAUGraphErr_InvalidAudioUnit : status, "Could not instantiate \(fourCC(d.componentSubType))")
        }
        switch d.componentType {
        case kAudioUnitType_Effect, kAudioUnitType_MusicEffect: return AVAudioUnitEffect(unit: unit)
        case kAudioUnitType_MusicDevice: return AVAudioUnitMIDIInstrument(unit: unit)
        default: return AVAudioUnit(unit: unit)
        }
    }
}

/// An effect node (Apple's AVAudioUnitEffect): one input, one output, and bypass.
///
/// Thread: setup.
open class AVAudioUnitEffect: AVAudioUnit {
    /// A node for the first effect matching the description (a node whose unit could not be made
    /// fails at attach time with its status in the engine's configurationError).
    ///
    /// Thread: setup.
    public convenience init(audioComponentDescription: AudioComponentDescription) {
        if let unit = try? makeUnit(audioComponentDescription) {
            self.init(unit: unit)
        } else {
            self.init(unit: try! makeUnit(AVAudioUnitEffect.placeholder))
            missing = audioComponentDescription
        }
    }

    override init(unit: AudioUnit) { super.init(unit: unit) }

    /// A unit that stands in for a missing one (so the node exists, as Apple's initializer
    /// cannot fail); the engine refuses to start with it.
    static let placeholder = AVAudioOutputNode.generic

    /// Whether the effect passes its input through untouched (kAudioUnitProperty_BypassEffect).
    ///
    /// Thread: setup.
    public var bypass: Bool {
        get { (uint32Property(unit, kAudioUnitProperty_BypassEffect) ?? 0) != 0 }
        set { setUInt32Property(unit, kAudioUnitProperty_BypassEffect, newValue ? 1 : 0) }
    }
}
