import AudioToolbox
import AudioTypes
import Foundation

/// A system sound's samples, read whole when the sound is created: Float32, interleaved stereo,
/// at the mixer's rate (mono on both channels, further channels dropped, other rates converted
/// by ExtAudioFile).
final class SoundSamples: @unchecked Sendable {
    static let sampleRate: Float64 = 48_000
    static let channels = 2
    /// Apple's limit on a system sound (System Sound Services Reference: "30 seconds or shorter").
    static let maximumSeconds: Float64 = 30

    let frames: Int
    /// frames × 2 samples, never written after init (the render thread reads them).
    let interleaved: UnsafeMutablePointer<Float>

    /// Reads the file a CFURL names.
    ///
    /// Thread: setup.
    init(url: CFURL) throws {
        var opened: ExtAudioFileRef?
        let status = ExtAudioFileOpenURL(url, &opened)
        guard status == noErr, let file = opened else {
            throw AudioError(
                kAudioServicesSystemSoundUnspecifiedError,
                "AudioServicesCreateSystemSoundID: \(Self.describe(url)) could not be read (ExtAudioFileOpenURL answered \(status)): "
                    + (LastErrorMessage.current ?? ""))
        }
        defer { ExtAudioFileDispose(file) }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        _ = ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
        let fileChannels = max(Int(fileFormat.mChannelsPerFrame), 1)
        var length: Int64 = 0
        size = 8
        _ = ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length)
        let rate = fileFormat.mSampleRate > 0 ? fileFormat.mSampleRate : Self.sampleRate
        guard Double(length) / rate <= Self.maximumSeconds else {
            throw AudioError(
                kAudioServicesSystemSoundExceededMaximumDurationError,
                "AudioServicesCreateSystemSoundID: \(Self.describe(url)) lasts \(Double(length) / rate) s; system sounds last at most 30 s."
            )
        }
        // The client format keeps the file's channels (ExtAudioFile does not remix); this
        // object maps them to stereo.
        var client = AudioStreamBasicDescription(
            mSampleRate: Self.sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, mBytesPerPacket: UInt32(4 * fileChannels),
            mFramesPerPacket: 1, mBytesPerFrame: UInt32(4 * fileChannels), mChannelsPerFrame: UInt32(fileChannels),
            mBitsPerChannel: 32, mReserved: 0)
        let set = ExtAudioFileSetProperty(
            file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        guard set == noErr else {
            throw AudioError(
                kAudioServicesSystemSoundUnspecifiedError,
                "AudioServicesCreateSystemSoundID: \(Self.describe(url)) cannot be converted to Float32 at 48 kHz (\(set)).")
        }
        var decoded: [Float] = []
        decoded.reserveCapacity(Int(Double(max(length, 0)) * Self.sampleRate / rate + 1) * fileChannels)
        let chunkFrames = 4_096
        var chunk = [Float](repeating: 0, count: chunkFrames * fileChannels)
        while true {
            var frames = UInt32(chunkFrames)
            let read = chunk.withUnsafeMutableBytes { bytes -> OSStatus in
                var list = AudioBufferList(
                    mNumberBuffers: 1,
                    mBuffers: AudioBuffer(
                        mNumberChannels: UInt32(fileChannels), mDataByteSize: UInt32(bytes.count), mData: bytes.baseAddress))
                return ExtAudioFileRead(file, &frames, &list)
            }
            guard read == noErr else {
                throw AudioError(
                    kAudioServicesSystemSoundUnspecifiedError,
                    "AudioServicesCreateSystemSoundID: reading \(Self.describe(url)) failed (\(read)): " + (LastErrorMessage.current ?? ""))
            }
            if frames == 0 { break }
            decoded.append(contentsOf: chunk.prefix(Int(frames) * fileChannels))
        }
        frames = decoded.count / fileChannels
        interleaved = .allocate(capacity: max(frames * Self.channels, 1))
        for frame in 0..<frames {
            let left = decoded[frame * fileChannels]
            interleaved[2 * frame] = left
            interleaved[2 * frame + 1] = fileChannels > 1 ? decoded[frame * fileChannels + 1] : left
        }
    }

    deinit { interleaved.deallocate() }

    private static func describe(_ url: CFURL) -> String {
        String(cfString: CFURLGetString(url)) ?? "the URL"
    }
}
