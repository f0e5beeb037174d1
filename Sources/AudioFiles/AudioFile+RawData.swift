import AudioToolbox
import CSndFile
import Foundation

/// The audio data of linear PCM files as bytes, for Audio File Services' packet and byte calls
/// (AudioFileReadPacketData, AudioFileWritePackets …): a PCM packet is one frame, and its bytes
/// are the file's samples in the byte order the caller's data format states. Compressed files
/// (FLAC, Vorbis) have no byte-level access here.
extension AudioFile {
    /// Bytes per frame of the file's PCM data, or nil for compressed files.
    ///
    /// Thread: any.
    public var pcmBytesPerFrame: Int? {
        switch dataFormat.encoding {
        case .int16: 2 * channelCount
        case .int24: 3 * channelCount
        case .int32, .float32: 4 * channelCount
        case .float64: 8 * channelCount
        default: nil
        }
    }

    private func requirePCM(_ verb: String) throws -> Int {
        guard let bytes = pcmBytesPerFrame else {
            throw AudioFileError(
                status: kAudioFileOperationNotSupportedError, path: path,
                "\(verb) \(path) by packets needs linear PCM data; this file is compressed (read it with ExtAudioFile).")
        }
        return bytes
    }

    /// Whether libsndfile's raw bytes are in the opposite order to this machine's.
    private func rawBytesNeedSwap(_ handle: OpaquePointer) -> Bool {
        sf_command(handle, Int32(SFC_RAW_DATA_NEEDS_ENDSWAP), nil, 0) == Int32(SF_TRUE)
    }

    /// Swaps every sample of `frames` frames in place between byte orders.
    private func swapSamples(_ data: UnsafeMutableRawPointer, frames: Int, bytesPerFrame: Int) {
        let width = bytesPerFrame / channelCount
        guard width > 1 else { return }
        for sample in 0..<frames * channelCount {
            let p = data.assumingMemoryBound(to: UInt8.self) + sample * width
            var i = 0, j = width - 1
            while i < j {
                (p[i], p[j]) = (p[j], p[i])
                i += 1
                j -= 1
            }
        }
    }

    /// Reads up to `frames` frames from frame `start` into `data`, as `bigEndian` samples;
    /// returns the frames read (0 at or after the end).
    ///
    /// Thread: setup (non-real-time).
    public func readPCMFrames(from start: Int64, count frames: Int, into data: UnsafeMutableRawPointer, bigEndian: Bool) throws -> Int {
        let handle = try requireOpen()
        let bytesPerFrame = try requirePCM("Reading")
        guard start >= 0 else {
            throw AudioFileError(status: kAudioFileInvalidPacketOffsetError, path: path, "Packet \(start) of \(path) does not exist.")
        }
        guard frames > 0, start < frameCount else { return 0 }
        guard sf_seek(handle, sf_count_t(start), SEEK_SET) >= 0 else {
            throw AudioFileError(status: kAudioFilePositionError, path: path, "Cannot seek \(path) to packet \(start).")
        }
        let wanted = min(Int64(frames), frameCount - start)
        let bytes = Int(sf_read_raw(handle, data, sf_count_t(wanted) * sf_count_t(bytesPerFrame)))
        let got = bytes / bytesPerFrame
        if got == 0, sf_error(handle) != 0 {
            throw AudioFileError(
                status: kAudioFileInvalidFileError, path: path, "Reading \(path) failed: \(String(cString: sf_strerror(handle))).")
        }
        let fileIsBigEndian = rawBytesNeedSwap(handle) != (UInt16(1).bigEndian == 1)
        if fileIsBigEndian != bigEndian { swapSamples(data, frames: got, bytesPerFrame: bytesPerFrame) }
        return got
    }

    /// Appends `frames` frames of `bigEndian` samples from `data` at frame `start`, which must be
    /// the end of what was written so far.
    ///
    /// Thread: setup (non-real-time).
    public func writePCMFrames(at start: Int64, count frames: Int, from data: UnsafeRawPointer, bigEndian: Bool) throws {
        let handle = try requireOpen()
        let bytesPerFrame = try requirePCM("Writing")
        guard isWritable else {
            throw AudioFileError(status: kAudioFilePermissionsError, path: path, "\(path) was opened for reading only.")
        }
        guard start == writtenFrames else {
            throw AudioFileError(
                status: kAudioFileInvalidPacketOffsetError, path: path,
                "\(path) is written in order: the next packet is \(writtenFrames), not \(start).")
        }
        guard frames > 0 else { return }
        let fileIsBigEndian = rawBytesNeedSwap(handle) != (UInt16(1).bigEndian == 1)
        let byteCount = frames * bytesPerFrame
        var written: Int
        if fileIsBigEndian != bigEndian {
            let copy = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
            defer { copy.deallocate() }
            copy.copyMemory(from: data, byteCount: byteCount)
            swapSamples(copy, frames: frames, bytesPerFrame: bytesPerFrame)
            written = Int(sf_write_raw(handle, copy, sf_count_t(byteCount)))
        } else {
            written = Int(sf_write_raw(handle, data, sf_count_t(byteCount)))
        }
        guard written == byteCount else {
            throw AudioFileError(
                status: kAudioFileUnspecifiedError, path: path, "Writing \(path) failed: \(String(cString: sf_strerror(handle))).")
        }
        writtenFrames += Int64(frames)
    }
}
