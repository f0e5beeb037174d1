import AudioToolbox
import AudioTypes

/// kAudioFormatProperty_FormatName, in Apple's wording ("Linear PCM, 16 bit little-endian signed
/// integer, 2 channels, 44100 Hz"; "MPEG Layer 3, 2 channels, 44100 Hz"); fields left 0 are omitted.
enum FormatNames {
    static let compressedNames: [AudioFormatID: String] = [
        kAudioFormatMPEGLayer3: "MPEG Layer 3", kAudioFormatFLAC: "FLAC", kAudioFormatOpus: "Opus", kAudioFormatVorbis: "Vorbis",
        kAudioFormatMPEG4AAC: "AAC", kAudioFormatAppleLossless: "Apple Lossless", kAudioFormatAppleIMA4: "IMA 4:1",
        kAudioFormatULaw: "\u{00B5}-law 2:1", kAudioFormatALaw: "A-law 2:1", kAudioFormatAC3: "AC-3",
    ]

    /// Thread: setup.
    static func name(_ asbd: AudioStreamBasicDescription) throws -> String {
        var parts: [String] = []
        if asbd.mFormatID == kAudioFormatLinearPCM {
            let flags = asbd.mFormatFlags
            var sample = "Linear PCM"
            if asbd.mBitsPerChannel > 0 {
                let endian = flags & kAudioFormatFlagIsBigEndian != 0 ? "big-endian" : "little-endian"
                let kind =
                    flags & kAudioFormatFlagIsFloat != 0
                    ? "float" : flags & kAudioFormatFlagIsSignedInteger != 0 ? "signed integer" : "unsigned integer"
                sample += ", \(asbd.mBitsPerChannel) bit \(asbd.mBitsPerChannel > 8 ? endian + " " : "")\(kind)"
            }
            parts.append(sample)
        } else if let name = compressedNames[asbd.mFormatID] {
            parts.append(name)
        } else {
            throw AudioError(kAudioFormatUnknownFormatError, "FormatName: '\(FourCC.string(asbd.mFormatID))' is not a format AUHost knows.")
        }
        if asbd.mChannelsPerFrame > 0 { parts.append("\(asbd.mChannelsPerFrame) channel\(asbd.mChannelsPerFrame == 1 ? "" : "s")") }
        if asbd.mSampleRate > 0 {
            parts.append(asbd.mSampleRate == asbd.mSampleRate.rounded() ? "\(Int(asbd.mSampleRate)) Hz" : "\(asbd.mSampleRate) Hz")
        }
        if asbd.mFormatID == kAudioFormatLinearPCM, asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 {
            parts.append("deinterleaved")
        }
        return parts.joined(separator: ", ")
    }
}
