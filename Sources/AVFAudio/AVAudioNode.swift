import AudioToolbox
import Foundation

/// A node of an AVAudioEngine (Apple's AVAudioNode): one audio unit in the engine's graph, with
/// input and output buses.
///
/// Thread: setup for every member unless it says otherwise.
open class AVAudioNode {
    /// The unit the node renders through (the output node swaps its unit when manual rendering
    /// is switched on or off).
    var unit: AudioUnit
    /// Whether the node disposes its unit when it goes.
    let ownsUnit: Bool
    /// The engine the node is attached to.
    public internal(set) weak var engine: AVAudioEngine?
    /// The node's id in the engine's graph while attached.
    var graphNode: AUNode?
    /// Taps by output bus.
    var taps: [AVAudioNodeBus: NodeTap] = [:]
    // AVAudioMixing: applied to every mixer input this node feeds.
    var mixingVolume: Float = 1
    var mixingPan: Float = 0

    init(unit: AudioUnit, ownsUnit: Bool = true) {
        self.unit = unit
        self.ownsUnit = ownsUnit
    }

    deinit {
        for tap in taps.values { tap.remove() }
        if ownsUnit { AudioComponentInstanceDispose(unit) }
    }

    /// A name for messages: the unit's type and subtype.
    var nodeName: String {
        let name = String(describing: type(of: self))
        return graphNode.map { "\(name) (node \($0))" } ?? name
    }

    /// Thread: setup.
    public var numberOfInputs: Int { elementCount(unit, kAudioUnitScope_Input) }
    /// Thread: setup.
    public var numberOfOutputs: Int { elementCount(unit, kAudioUnitScope_Output) }

    /// The format of an input bus (the standard 44.1 kHz stereo format when the unit has none).
    ///
    /// Thread: setup.
    public func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { format(kAudioUnitScope_Input, bus) }

    /// The format of an output bus.
    ///
    /// Thread: setup.
    public func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { format(kAudioUnitScope_Output, bus) }

    private func format(_ scope: AudioUnitScope, _ bus: AVAudioNodeBus) -> AVAudioFormat {
        if var d = streamFormat(unit, scope, bus), let f = AVAudioFormat(streamDescription: &d) { return f }
        return AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
    }

    /// The name of an input bus (nil: buses have no names here).
    ///
    /// Thread: setup.
    public func name(forInputBus bus: AVAudioNodeBus) -> String? { nil }
    /// Thread: setup.
    public func name(forOutputBus bus: AVAudioNodeBus) -> String? { nil }

    /// Clears the unit's state (delay lines, filters) as AudioUnitReset does.
    ///
    /// Thread: setup.
    open func reset() {
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
    }

    /// The time of the last render cycle that reached this node's engine (nil before one).
    ///
    /// Thread: any.
    public var lastRenderTime: AVAudioTime? { engine?.lastRenderTime }

    /// The unit's Latency property, in seconds.
    ///
    /// Thread: setup.
    public var latency: TimeInterval {
        var seconds: Float64 = 0
        var size = UInt32(8)
        AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &seconds, &size)
        return seconds
    }

    /// Called when the node's connections change (mixers apply AVAudioMixing values).
    func connectionsChanged() {}

    /// Sets an output bus's format (overridden by nodes whose output follows something else).
    func setOutputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus) throws {
        try setStreamFormat(unit, kAudioUnitScope_Output, bus, format, "\(nodeName)'s output bus \(bus)")
    }

    /// Sets an input bus's format; an effect's output follows its input (as Apple's effects do).
    func setInputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus) throws {
        try setStreamFormat(unit, kAudioUnitScope_Input, bus, format, "\(nodeName)'s input bus \(bus)")
        var d = AudioComponentDescription()
        if AudioComponentGetDescription(AudioComponentInstanceGetComponent(unit), &d) == noErr,
            d.componentType == kAudioUnitType_Effect || d.componentType == kAudioUnitType_MusicEffect, bus < numberOfOutputs
        {
            try setOutputFormat(format, bus: bus)
        }
    }
}
