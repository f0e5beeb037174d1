import AVFAudio
import CALSA
import Foundation

/// A temporary HOME whose ~/.asoundrc defines the PCMs one test needs (ALSA reads it at the next
/// open once its configuration is dropped); restore() puts the process's HOME back. The tests
/// of this target run one at a time, so HOME is theirs while they run.
final class TemporaryALSAHome {
    let directory: URL
    private let savedHome: String?

    /// `asoundrc` is given the folder (for the PCMs' files) and answers the file's text.
    ///
    /// Thread: setup.
    init(_ prefix: String, asoundrc: (URL) -> String) throws {
        savedHome = ProcessInfo.processInfo.environment["HOME"]
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(prefix)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try asoundrc(directory).write(to: directory.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        setenv("HOME", directory.path, 1)
        snd_config_update_free_global()
    }

    /// Thread: setup.
    func restore() {
        if let savedHome { setenv("HOME", savedHome, 1) }
        snd_config_update_free_global()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Points an I/O unit at the ALSA PCM `name` (kAudioOutputUnitProperty_CurrentDevice). Thread: setup.
func setCurrentDevice(_ unit: AudioUnit, _ name: String) -> OSStatus {
    let string = CFStringCreateWithCString(nil, name, CFStringBuiltInEncodings.UTF8.rawValue)!
    var reference: Unmanaged<CFString>? = Unmanaged.passUnretained(string)
    let size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
    return AudioUnitSetProperty(unit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &reference, size)
}
