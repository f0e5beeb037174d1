import AudioToolbox

/// What a source node's mix into a mixer is (Apple's AVAudioMixing): its volume and pan on every
/// mixer input bus it feeds.
public protocol AVAudioMixing: AnyObject {
    /// Linear gain, 0…1, on the mixer input bus.
    var volume: Float { get set }
    /// −1 (left) … +1 (right), the mixer's equal-power law.
    var pan: Float { get set }
}

extension AVAudioMixing where Self: AVAudioNode {
    /// Thread: setup.
    public var volume: Float {
        get { mixingVolume }
        set {
            mixingVolume = newValue
            applyMixingToMixers()
        }
    }

    /// Thread: setup.
    public var pan: Float {
        get { mixingPan }
        set {
            mixingPan = newValue
            applyMixingToMixers()
        }
    }
}

extension AVAudioNode {
    /// Writes volume and pan onto every mixer input bus this node feeds.
    ///
    /// Thread: setup (parameters: any).
    func applyMixingToMixers() {
        guard let engine else { return }
        for c in engine.connections where c.source === self && c.destination is AVAudioMixerNode {
            setParameter(c.destination.unit, kMultiChannelMixerParam_Volume, mixingVolume, kAudioUnitScope_Input, c.destinationBus)
            setParameter(c.destination.unit, kMultiChannelMixerParam_Pan, mixingPan, kAudioUnitScope_Input, c.destinationBus)
        }
    }
}
