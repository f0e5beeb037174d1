import AUHost
import CJACK
import Foundation

extension JACKMIDIInput {
    /// Connects `source` to this input: a MIDI output port ("client:port"), or a client name, whose
    /// MIDI output ports all connect. Errors (kAudioUnitErr_NoConnection) name the source and the
    /// MIDI output ports JACK has.
    ///
    /// Thread: setup.
    public func connect(from source: String) throws {
        let ports = midiOutputPorts()
        let chosen = source.contains(":") ? ports.filter { $0 == source } : ports.filter { $0.hasPrefix(source + ":") }
        guard !chosen.isEmpty else {
            let known =
                ports.isEmpty ? "JACK has no MIDI output ports" : "JACK's MIDI output ports are " + ports.prefix(20).joined(separator: ", ")
            throw AudioError(
                kAudioUnitErr_NoConnection,
                "No JACK MIDI output port \(source.contains(":") ? "is" : "belongs to") \"\(source)\"; \(known).")
        }
        for port in chosen {
            let status = jack_connect(client, port, portName)
            // EEXIST: already connected, which is what was asked.
            guard status == 0 || status == EEXIST else {
                throw AudioError(kAudioUnitErr_NoConnection, "JACK refused to connect \(port) to \(portName) (status \(status)).")
            }
        }
    }

    /// Every MIDI output port of the server (full names).
    private func midiOutputPorts() -> [String] {
        guard let list = jack_get_ports(client, nil, JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue)) else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(mutating: list)) }
        var names: [String] = []
        var i = 0
        while let name = list[i] {
            names.append(String(cString: name))
            i += 1
        }
        return names
    }
}
