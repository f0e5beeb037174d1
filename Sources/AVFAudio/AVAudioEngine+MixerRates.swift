import AUHost
import AudioToolbox
import Foundation

/// A format converter the engine puts between a source and a mixer input whose sample rate differs
/// from the mixer's output rate: Apple's mixer resamples its inputs, the multichannel mixer unit
/// takes one rate on every bus. It belongs to the connection and is not an attached node.
///
/// Thread: setup.
final class MixerRateConverter: AVAudioNode {
    init() { super.init(unit: try! makeUnit(AVAudioPlayerNode.converter)) }  // built in: always there
}

extension AVAudioEngine {
    /// The converter a connection of `format` into `mixer` needs, in the graph with its formats
    /// set (`format` in, the same at the mixer's output rate out); nil when the rates agree.
    ///
    /// Thread: setup, under `lock`.
    func rateConverter(for format: AVAudioFormat, into mixer: AVAudioMixerNode) throws -> MixerRateConverter? {
        let rate = mixer.outputFormat(forBus: 0).sampleRate
        guard rate > 0, format.sampleRate != rate else { return nil }
        guard
            let converted = AVAudioFormat(
                commonFormat: format.commonFormat, sampleRate: rate, channels: format.channelCount, interleaved: format.isInterleaved)
        else { throw osStatusError(kAudioUnitErr_FormatNotSupported, "No \(format.channelCount)-channel format at \(rate) Hz") }
        let converter = MixerRateConverter()
        try setStreamFormat(converter.unit, kAudioUnitScope_Input, 0, format, "The mixer's rate converter")
        try setStreamFormat(converter.unit, kAudioUnitScope_Output, 0, converted, "The mixer's rate converter")
        converter.graphNode = try graph.attach(adopting: converter.unit)
        return converter
    }

    /// Takes a connection out of the graph, its rate converter too.
    ///
    /// Thread: setup, under `lock`.
    func unplug(_ c: EngineConnection) {
        if let d = c.destination.graphNode { try? graph.disconnect(d, UInt32(c.destinationBus)) }
        if let id = c.converter?.graphNode {
            try? graph.detach(id)
            c.converter?.graphNode = nil
        }
    }

    /// Remakes the connections into mixers whose output rate changed since they were made (a
    /// mixer connected to its destination after its sources), so that each bus gets its source's
    /// format at the mixer's rate.
    ///
    /// Thread: setup, under `lock`.
    func reconcileMixerRates() {
        for c in connections {
            guard let mixer = c.destination as? AVAudioMixerNode else { continue }
            let arriving = c.converter?.outputFormat(forBus: 0).sampleRate ?? c.format.sampleRate
            if arriving != mixer.outputFormat(forBus: 0).sampleRate {
                connect(c.source, to: mixer, fromBus: c.sourceBus, toBus: c.destinationBus, format: c.format)
            }
        }
    }
}
