import AudioToolbox
import Foundation
import JACKIOUnit

/// The device an engine's output node opens, chosen at run time as SDL_AUDIODRIVER or
/// ALSOFT_DRIVERS choose theirs, so that code written for Apple runs unchanged on either:
/// `AUHOST_AUDIO_DEVICE` = "jack" or "jack:CLIENT" for the JACK I/O unit (a client named CLIENT,
/// else after the program, on $JACK_DEFAULT_SERVER), any other value an ALSA PCM name for the
/// ALSA I/O unit; unset or empty, ALSA's "default".
///
/// Thread: setup.
enum EngineDevice: Equatable {
    case alsa(pcm: String?)
    case jack(client: String)

    /// The environment variable that chooses the device.
    static let variable = "AUHOST_AUDIO_DEVICE"

    /// The device the environment names now.
    static var chosen: EngineDevice {
        parse(ProcessInfo.processInfo.environment[variable], program: ProcessInfo.processInfo.processName)
    }

    /// "jack" / "jack:CLIENT" / a PCM name / nothing, as the variable says it.
    static func parse(_ value: String?, program: String) -> EngineDevice {
        guard let value, !value.isEmpty else { return .alsa(pcm: nil) }
        // A JACK client name holds 63 bytes, "-01" appended when it is taken: the program's first 56.
        if value == "jack" { return .jack(client: program.isEmpty ? "auhost" : String(decoding: program.utf8.prefix(56), as: UTF8.self)) }
        if value.hasPrefix("jack:"), value.count > 5 { return .jack(client: String(value.dropFirst(5))) }
        return .alsa(pcm: value)
    }

    static let alsaDescription = AudioComponentDescription(
        componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_HALOutput,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// The I/O unit for the device, set up as the engine expects it: on ALSA the session's
    /// preferred rate and period; on JACK the client name and both app sides at the server's rate
    /// (stereo, as the engine's output and input start), which JACK alone decides. A JACK server
    /// that does not answer now leaves the unit at 48 kHz: starting then fails with the unit's
    /// error naming the server.
    func makeUnit() throws -> AudioUnit {
        switch self {
        case .alsa(let pcm):
            let unit = try AVFAudio.makeUnit(EngineDevice.alsaDescription)
            if let pcm {
                try checkStatus(
                    setStringProperty(unit, kAudioOutputUnitProperty_CurrentDevice, pcm),
                    "The ALSA I/O unit refused the PCM \"\(pcm)\" named by \(EngineDevice.variable)")
            }
            AVAudioSession.sharedInstance().configure(unit)
            return unit
        case .jack(let client):
            JACKProvider.installOnce()
            let unit = try AVFAudio.makeUnit(JACKIOUnit.identity)
            try checkStatus(
                setStringProperty(unit, kAUHostJACKProperty_ClientName, client),
                "The JACK I/O unit refused the client name \"\(client)\" named by \(EngineDevice.variable)")
            if let rate = try? JACKIOUnit.serverSampleRate() {
                let app = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2)!
                try setStreamFormat(unit, kAudioUnitScope_Input, 0, app, "The JACK I/O unit")
                try setStreamFormat(unit, kAudioUnitScope_Output, 1, app, "The JACK I/O unit")
            }
            return unit
        }
    }
}

/// Sets a CFString property in global scope, element 0.
///
/// Thread: setup.
func setStringProperty(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ value: String) -> OSStatus {
    let string = CFStringCreateWithCString(nil, value, CFStringBuiltInEncodings.UTF8.rawValue)!
    var reference: Unmanaged<CFString>? = Unmanaged.passUnretained(string)
    return AudioUnitSetProperty(
        unit, id, kAudioUnitScope_Global, 0, &reference, UInt32(MemoryLayout<Unmanaged<CFString>?>.size))
}
