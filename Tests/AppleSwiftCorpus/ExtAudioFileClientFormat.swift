// Ported from: Extended Audio File Services Reference and Core Audio Overview, "Core Audio
// Essentials", "Audio File Services"/"Extended Audio File Services" (an ExtAudioFile converts
// between the file's data format and a client format the app sets with
// kExtAudioFileProperty_ClientDataFormat): ExtAudioFileCreateWithURL writes a 16-bit interleaved
// WAVE file from canonical float, non-interleaved client buffers; ExtAudioFileOpenURL reads any
// file back into the same client format, chunk by chunk until ExtAudioFileRead returns 0 frames.
//
// URL: on Apple one writes `URL(fileURLWithPath: path) as CFURL`. Foundation on Linux does not
// bridge URL to CFURL (docs/PORTING.md), so the CFURL is made with CoreFoundation's own
// CFURLCreateFromFileSystemRepresentation, which Apple has too.
import AudioToolbox
import Foundation

enum AudioFileURL {
    static func make(_ path: String) -> CFURL {
        CFURLCreateFromFileSystemRepresentation(nil, path, CFIndex(strlen(path)), false)!
    }
}

/// The canonical client format: native float, packed, non-interleaved.
func canonicalClientFormat(sampleRate: Float64, channels: UInt32) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
        mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
        mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
}

enum ExtAudioFileWriter {
    /// Writes `channels` (one array per channel) as a 16-bit interleaved file of `fileType`.
    static func writeInt16File(path: String, fileType: AudioFileTypeID, sampleRate: Float64, channels: [[Float32]]) -> OSStatus {
        let channelCount = UInt32(channels.count)
        var fileFormat = AudioStreamBasicDescription()
        fileFormat.mSampleRate = sampleRate
        fileFormat.mFormatID = kAudioFormatLinearPCM
        fileFormat.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked
        fileFormat.mChannelsPerFrame = channelCount
        fileFormat.mBitsPerChannel = 16
        fileFormat.mBytesPerFrame = 2 * channelCount
        fileFormat.mBytesPerPacket = 2 * channelCount
        fileFormat.mFramesPerPacket = 1

        var file: ExtAudioFileRef?
        var status = ExtAudioFileCreateWithURL(
            AudioFileURL.make(path), fileType, &fileFormat, nil,
            AudioFileFlags.eraseFile.rawValue, &file)
        guard status == noErr else { return status }
        defer { ExtAudioFileDispose(file!) }

        var clientFormat = canonicalClientFormat(sampleRate: sampleRate, channels: channelCount)
        status = ExtAudioFileSetProperty(
            file!, kExtAudioFileProperty_ClientDataFormat,
            UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &clientFormat)
        guard status == noErr else { return status }

        let frameCount = channels[0].count
        let chunk = 1000
        let bufferList = AudioBufferList.allocate(maximumBuffers: channels.count)
        let storage = UnsafeMutablePointer<Float32>.allocate(capacity: chunk * channels.count)
        defer {
            storage.deallocate()
            free(bufferList.unsafeMutablePointer)
        }
        var start = 0
        while start < frameCount {
            let frames = min(chunk, frameCount - start)
            for (index, channel) in channels.enumerated() {
                let samples = storage + index * chunk
                for i in 0..<frames { samples[i] = channel[start + i] }
                bufferList[index] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: samples)
            }
            status = ExtAudioFileWrite(file!, UInt32(frames), bufferList.unsafeMutablePointer)
            guard status == noErr else { return status }
            start += frames
        }
        return noErr
    }
}

struct DecodedAudioFile {
    var fileDataFormat = AudioStreamBasicDescription()
    var fileLengthFrames: Int64 = 0
    var channels: [[Float32]] = []
}

enum ExtAudioFileReader {
    /// Reads the whole file into canonical float channels at the file's own rate and channel count.
    static func read(path: String) -> DecodedAudioFile? {
        var file: ExtAudioFileRef?
        guard ExtAudioFileOpenURL(AudioFileURL.make(path), &file) == noErr else { return nil }
        defer { ExtAudioFileDispose(file!) }

        var decoded = DecodedAudioFile()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileDataFormat, &size, &decoded.fileDataFormat) == noErr else {
            return nil
        }
        size = UInt32(MemoryLayout<Int64>.size)
        guard ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileLengthFrames, &size, &decoded.fileLengthFrames) == noErr else {
            return nil
        }

        let channelCount = Int(decoded.fileDataFormat.mChannelsPerFrame)
        var clientFormat = canonicalClientFormat(sampleRate: decoded.fileDataFormat.mSampleRate, channels: UInt32(channelCount))
        guard
            ExtAudioFileSetProperty(
                file!, kExtAudioFileProperty_ClientDataFormat,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &clientFormat) == noErr
        else { return nil }

        decoded.channels = [[Float32]](repeating: [], count: channelCount)
        let framesPerRead = 4096
        let bufferList = AudioBufferList.allocate(maximumBuffers: channelCount)
        let storage = UnsafeMutablePointer<Float32>.allocate(capacity: framesPerRead * channelCount)
        defer {
            storage.deallocate()
            free(bufferList.unsafeMutablePointer)
        }
        while true {
            for channel in 0..<channelCount {
                bufferList[channel] = AudioBuffer(
                    mNumberChannels: 1, mDataByteSize: UInt32(framesPerRead * 4),
                    mData: storage + channel * framesPerRead)
            }
            var frames = UInt32(framesPerRead)
            guard ExtAudioFileRead(file!, &frames, bufferList.unsafeMutablePointer) == noErr else { return nil }
            if frames == 0 { break }
            for (channel, buffer) in bufferList.enumerated() {
                decoded.channels[channel] += UnsafeBufferPointer<Float32>(
                    start: buffer.mData!.assumingMemoryBound(to: Float32.self),
                    count: Int(frames))
            }
        }
        return decoded
    }
}
