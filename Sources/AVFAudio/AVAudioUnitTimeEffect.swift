import AudioToolbox

/// A node around a unit that changes the time base of its input (Apple's AVAudioUnitTimeEffect):
/// it pulls more or fewer input frames than it renders.
///
/// Thread: setup.
open class AVAudioUnitTimeEffect: AVAudioUnit {
    /// A node for the first unit matching the description (a node whose unit could not be made
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

    /// Whether the unit passes its input through untouched (kAudioUnitProperty_BypassEffect).
    ///
    /// Thread: setup.
    public var bypass: Bool {
        get { (uint32Property(unit, kAudioUnitProperty_BypassEffect) ?? 0) != 0 }
        set { setUInt32Property(unit, kAudioUnitProperty_BypassEffect, newValue ? 1 : 0) }
    }
}

/// Time stretch and pitch shift (Apple's AVAudioUnitTimePitch) over the built-in NewTimePitch
/// ('aufc' 'nutp', SoundTouch).
///
/// Thread: setup to make; parameters from any thread.
public final class AVAudioUnitTimePitch: AVAudioUnitTimeEffect {
    static let timePitch = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_NewTimePitch,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Thread: setup.
    public init() {
        super.init(unit: try! makeUnit(AVAudioUnitTimePitch.timePitch))  // built in: always there
    }

    /// Playback speed, pitch kept (1/32…32, default 1). Thread: any.
    public var rate: Float {
        get { parameter(unit, kNewTimePitchParam_Rate) }
        set { setParameter(unit, kNewTimePitchParam_Rate, newValue) }
    }
    /// Pitch shift in cents, speed kept (−2400…2400, default 0). Thread: any.
    public var pitch: Float {
        get { parameter(unit, kNewTimePitchParam_Pitch) }
        set { setParameter(unit, kNewTimePitchParam_Pitch, newValue) }
    }
    /// Overlap of the analysis windows (3…32, default 8; SoundTouch's overlap in ms, applied when
    /// the engine next initializes the unit). Thread: any.
    public var overlap: Float {
        get { parameter(unit, kNewTimePitchParam_Overlap) }
        set { setParameter(unit, kNewTimePitchParam_Overlap, newValue) }
    }
}

/// Speed and pitch together, as tape (Apple's AVAudioUnitVarispeed), over the built-in Varispeed
/// ('aufc' 'vari').
///
/// Thread: setup to make; parameters from any thread.
public final class AVAudioUnitVarispeed: AVAudioUnitTimeEffect {
    static let varispeed = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_Varispeed,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Thread: setup.
    public init() {
        super.init(unit: try! makeUnit(AVAudioUnitVarispeed.varispeed))  // built in: always there
    }

    /// Playback rate (0.25…4, default 1): 2 plays twice as fast, an octave up. Thread: any.
    public var rate: Float {
        get { parameter(unit, kVarispeedParam_PlaybackRate) }
        set { setParameter(unit, kVarispeedParam_PlaybackRate, newValue) }
    }
}
