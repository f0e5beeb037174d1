import CLADSPA
import Foundation

/// One port of a LADSPA plug-in as its descriptor declares it: direction and kind, name, and the
/// range hint (flags and bounds) that says how a host should present a control.
public struct LADSPAPortInfo: Equatable, Sendable {
    /// LADSPA_PORT_* flags.
    public var descriptor: Int32
    /// LADSPA_HINT_* flags.
    public var hints: Int32
    public var lowerBound: Float
    public var upperBound: Float
    public var name: String

    /// Thread: any.
    public init(descriptor: Int32, hints: Int32, lowerBound: Float, upperBound: Float, name: String) {
        self.descriptor = descriptor; self.hints = hints
        self.lowerBound = lowerBound; self.upperBound = upperBound; self.name = name
    }

    // The port's kind and hints, from its flags (Thread: any, all of them).
    public var isInput: Bool { descriptor & LADSPA_PORT_INPUT != 0 }
    public var isOutput: Bool { descriptor & LADSPA_PORT_OUTPUT != 0 }
    public var isAudio: Bool { descriptor & LADSPA_PORT_AUDIO != 0 }
    public var isControl: Bool { descriptor & LADSPA_PORT_CONTROL != 0 }
    public var isToggled: Bool { hints & LADSPA_HINT_TOGGLED != 0 }
    public var isInteger: Bool { hints & LADSPA_HINT_INTEGER != 0 }
    public var isLogarithmic: Bool { hints & LADSPA_HINT_LOGARITHMIC != 0 }
    public var isSampleRateRelative: Bool { hints & LADSPA_HINT_SAMPLE_RATE != 0 }
    /// A control output named "latency" reports the plug-in's delay in frames (the convention
    /// Ardour and Carla follow; LADSPA itself names none).
    public var reportsLatency: Bool { isControl && isOutput && name.lowercased() == "latency" }

    /// The range a host offers for this control at `sampleRate`: the declared bounds (times the
    /// rate for LADSPA_HINT_SAMPLE_RATE), a toggle's 0…1, and ±FLT_MAX for a side with no bound.
    /// Thread: any.
    public func range(sampleRate: Double) -> ClosedRange<Float> {
        if isToggled { return 0...1 }
        let scale = isSampleRateRelative ? sampleRate : 1
        var low = hints & LADSPA_HINT_BOUNDED_BELOW != 0 ? Float(Double(lowerBound) * scale) : -Float.greatestFiniteMagnitude
        var high = hints & LADSPA_HINT_BOUNDED_ABOVE != 0 ? Float(Double(upperBound) * scale) : Float.greatestFiniteMagnitude
        if isInteger {
            if low > -Float.greatestFiniteMagnitude { low = low.rounded(.up) }
            if high < Float.greatestFiniteMagnitude { high = high.rounded(.down) }
        }
        // A plug-in whose bounds are the wrong way round (it happens) gets one value, its lower one.
        return low <= high ? low...high : low...low
    }

    /// The default LADSPA_HINT_DEFAULT_* asks for at `sampleRate`, computed as ladspa.h says:
    /// LOW/MIDDLE/HIGH are 1/4, 1/2, 3/4 of the way between the bounds, on a log scale when the
    /// port is LOGARITHMIC (linear when a bound is not positive, where a log is undefined); bounds
    /// are multiplied by the rate for SAMPLE_RATE ports; INTEGER rounds. With no default hint:
    /// the lower bound when there is one, else 0, kept in range. Thread: any.
    public func defaultValue(sampleRate: Double) -> Float {
        let scale = isSampleRateRelative ? sampleRate : 1
        let low = Double(lowerBound) * scale, high = Double(upperBound) * scale
        func between(_ highWeight: Double) -> Double {
            if isLogarithmic && low > 0 && high > 0 {
                return exp(log(low) * (1 - highWeight) + log(high) * highWeight)
            }
            return low * (1 - highWeight) + high * highWeight
        }
        let value: Double
        switch hints & LADSPA_HINT_DEFAULT_MASK {
        case LADSPA_HINT_DEFAULT_MINIMUM: value = low
        case LADSPA_HINT_DEFAULT_LOW: value = between(0.25)
        case LADSPA_HINT_DEFAULT_MIDDLE: value = between(0.5)
        case LADSPA_HINT_DEFAULT_HIGH: value = between(0.75)
        case LADSPA_HINT_DEFAULT_MAXIMUM: value = high
        case LADSPA_HINT_DEFAULT_0: value = 0
        case LADSPA_HINT_DEFAULT_1: value = 1
        case LADSPA_HINT_DEFAULT_100: value = 100
        case LADSPA_HINT_DEFAULT_440: value = 440
        default: value = hints & LADSPA_HINT_BOUNDED_BELOW != 0 ? low : 0
        }
        var result = Float(value)
        if isInteger { result = result.rounded() }
        if isToggled { result = result > 0 ? 1 : 0 }
        let r = range(sampleRate: sampleRate)
        return result.isNaN ? r.lowerBound : min(max(result, r.lowerBound), r.upperBound)
    }
}
