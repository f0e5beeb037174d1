import AudioToolbox
import AudioFiles
import AudioTypes
import ExtAudioFile
import Foundation

/// Audio files through Extended Audio File Services: the bytes are written to a file, opened
/// (any type libsndfile reads), given a client format (canonical Float32, or interleaved 16-bit
/// integers, picked by the first byte), and read to their end in blocks, as `auhost render` does.
/// Every outcome is data or an error naming the file; at most `maximumFrames` are read, so one
/// input cannot take minutes.
public enum AudioFileFuzz {
    /// Frames read per input at most: more than any seed holds; a few kilobytes of FLAC or
    /// Vorbis can decode to millions of frames, which only slows the search down.
    public static let maximumFrames = 1 << 16

    /// One file per process, rewritten for each input (in /dev/shm when there is one).
    private static let path: String = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(folder)/auhost-fuzz-audio-\(getpid()).bin"
    }()

    /// Thread: any (one call at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        guard write(data) else { return }
        defer { unlink(path) }
        guard let file = try? ExtendedAudioFile.open(path: path) else { return }
        defer { try? file.dispose() }
        let rate = file.fileFormat.mSampleRate, channels = file.fileFormat.mChannelsPerFrame
        precondition(
            AudioFileLimits.accepts(sampleRate: rate) && AudioFileLimits.channels.contains(Int(channels)),
            "a header outside the limits was accepted: \(rate) Hz, \(channels) ch")
        _ = file.lengthFrames
        let interleaved16 = (data.first ?? 0) & 1 == 1
        let client: AudioStreamBasicDescription =
            interleaved16
            ? AudioStreamBasicDescription(
                mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels,
                mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
            : .canonical(sampleRate: rate, channels: channels)
        guard (try? file.setClientFormat(client)) != nil else { return }
        let block: UInt32 = 1024
        let buffers = AudioBufferStorage(format: client, capacity: block)
        var total = 0
        while total < maximumFrames {
            buffers.prepare(frames: block)
            guard let got = try? file.read(into: buffers.list, frames: Int(block)) else { return }
            precondition(got >= 0 && got <= Int(block))
            total += got
            if got < Int(block) { break }
        }
    }

    private static func write(_ data: UnsafeRawBufferPointer) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var done = 0
        while done < data.count {
            let n = Foundation.write(fd, data.baseAddress! + done, data.count - done)
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}
