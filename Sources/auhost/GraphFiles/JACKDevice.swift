import AUHost
import GraphFileFormat
import JACKIOUnit

/// Device names that choose the JACK I/O unit for a graph's head: "jack" (client "auhost") or
/// "jack:CLIENT" (`--jack` on play and run means "jack").
enum JACKDevice {
    /// The client name a device name asks for, nil when it names an ALSA PCM.
    ///
    /// Thread: any.
    static func clientName(_ device: String) -> String? {
        if device == "jack" { return "auhost" }
        guard device.hasPrefix("jack:"), device.count > 5 else { return nil }
        return String(device.dropFirst(5))
    }

    /// A JACK server runs at its own rate: the graph runs at it, and the input is resampled to it.
    ///
    /// Thread: setup.
    static func adapt(_ input: LoadedAudio?, to file: inout GraphFile) throws -> LoadedAudio? {
        guard case .device(let name) = file.head, clientName(name) != nil else { return input }
        let rate = try JACKIOUnit.serverSampleRate()
        file.sampleRate = rate
        return try input?.resampled(to: rate)
    }
}
