import Foundation
import AudioToolbox
import CSndFile
import DSPKernels

/// An audio file opened through libsndfile, read and written as Float32 non-interleaved
/// channels (the client format). Integer PCM and FLAC travel as integers and are converted by
/// `SampleFormatConverter`, so PCM round-trips are bit-exact; floats and Vorbis travel as floats.
///
/// Every method is Thread: setup (non-real-time) — file I/O blocks. For recording from a render
/// thread use `AsyncAudioFileWriter`. One thread at a time may use an instance.
public final class AudioFile {
    /// The path the file was opened or created at.
    public let path: String
    /// The container type, nil for types AudioFiles cannot create (read-only formats).
    public let fileType: AudioFileType?
    /// Rate, channels and encoding.
    public let dataFormat: AudioFileDataFormat
    /// Whether the file was opened for writing.
    public let isWritable: Bool
    var handle: OpaquePointer?
    /// Interleaved scratch for libsndfile calls: `chunkFrames` frames of 8 bytes per channel.
    let scratch: UnsafeMutableRawPointer
    let chunkFrames = 4096
    let scratchChannels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let scratchSources: UnsafeMutablePointer<UnsafePointer<Float>>
    let scratchBuffers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    let readScratchBuffers: UnsafeMutablePointer<UnsafeRawPointer>
    var writtenFrames: Int64 = 0
    /// Samples written beyond an integer encoding's full scale (and so clamped to it), so that a
    /// writer can say once how many, as sox does. Float encodings keep every value: always 0.
    public private(set) var clippedSampleCount = 0

    /// Channels in the file. Thread: any.
    public var channelCount: Int { dataFormat.channelCount }
    /// Frames per second. Thread: any.
    public var sampleRate: Double { dataFormat.sampleRate }

    private init(path: String, handle: OpaquePointer, info: SF_INFO, writable: Bool, encoding: AudioFileEncoding?) {
        self.path = path
        self.handle = handle
        self.isWritable = writable
        fileType = AudioFileType(sndfileMajor: info.format & Int32(SF_FORMAT_TYPEMASK))
        dataFormat = AudioFileDataFormat(
            sampleRate: Double(info.samplerate), channelCount: Int(info.channels),
            encoding: encoding ?? AudioFileEncoding(sndfileFormat: info.format))
        let channels = Int(info.channels)
        scratch = .allocate(byteCount: chunkFrames * channels * 8, alignment: 16)
        scratchChannels = .allocate(capacity: channels)
        scratchSources = .allocate(capacity: channels)
        scratchBuffers = .allocate(capacity: 1)
        scratchBuffers[0] = scratch
        readScratchBuffers = .allocate(capacity: 1)
        readScratchBuffers[0] = UnsafeRawPointer(scratch)
        writtenFrames = writable ? 0 : info.frames
    }

    deinit {
        if let handle { sf_close(handle) }
        scratch.deallocate()
        scratchChannels.deallocate()
        scratchSources.deallocate()
        scratchBuffers.deallocate()
        readScratchBuffers.deallocate()
    }

    /// Opens the file at `path` for reading (WAV, AIFF, CAF, FLAC, Ogg/Vorbis, and anything else
    /// libsndfile reads). Throws `kAudio_FileNotFoundError` (-43) when nothing is there,
    /// `kAudioFilePermissionsError` ('prm?') when it cannot be read,
    /// `kAudioFileUnsupportedFileTypeError` ('typ?') for an unrecognised type (wrong magic),
    /// `kAudioFileInvalidFileError` ('dta?') for a malformed or truncated file,
    /// `kAudioFileUnsupportedDataFormatError` ('fmt?') for an unsupported codec, and
    /// `kAudioFileUnspecifiedError` ('wht?') otherwise; the message names the path.
    /// Thread: setup (non-real-time).
    public static func open(readingAt path: String) throws -> AudioFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AudioFileError(
                status: OSStatus(kAudio_FileNotFoundError), path: path,
                "There is no file at \(path); check the path.")
        }
        guard !isDirectory.boolValue else {
            throw AudioFileError(
                status: kAudioFileUnsupportedFileTypeError, path: path,
                "\(path) is a directory, not an audio file.")
        }
        guard access(path, R_OK) == 0 else {
            throw AudioFileError(
                status: kAudioFilePermissionsError, path: path,
                "\(path) cannot be read: permission denied.")
        }
        // A FIFO, socket or device would block open() or reads for ever (a FIFO with no writer)
        // and cannot seek: only regular files are read, refused at once otherwise.
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw AudioFileError(
                status: kAudioFileUnsupportedFileTypeError, path: path,
                "\(path) is not a regular file (a FIFO, socket or device); audio files are read from seekable files only.")
        }
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw openError(path: path, reading: true)
        }
        let rate = Double(info.samplerate)
        guard AudioFileLimits.channels.contains(Int(info.channels)), AudioFileLimits.accepts(sampleRate: rate) else {
            sf_close(handle)
            throw AudioFileError(
                status: kAudioFileInvalidFileError, path: path,
                "\(path) declares \(info.channels) channels at \(info.samplerate) Hz; AUHost reads"
                    + " \(AudioFileLimits.channels.lowerBound)…\(AudioFileLimits.channels.upperBound) channels at"
                    + " \(Int(AudioFileLimits.sampleRates.lowerBound))…\(Int(AudioFileLimits.sampleRates.upperBound)) Hz, so the header is damaged or hostile."
            )
        }
        // Integers read exactly; floats come back at ±1 full scale either way.
        return AudioFile(path: path, handle: handle, info: info, writable: false, encoding: nil)
    }

    /// Creates (replacing) a file at `path` of `type` holding `format`. Throws
    /// `kAudio_FileNotFoundError` when the directory does not exist, `kAudioFilePermissionsError`
    /// when it cannot be written, `kAudioFileUnsupportedDataFormatError` ('fmt?') for an
    /// encoding the type cannot hold (e.g. Vorbis in WAV, FLAC at 32 bits), `kAudio_ParamError`
    /// for 0 or more than 64 channels or a non-positive rate; the message names the path.
    /// `updatesHeaderAfterEachWrite` keeps the header current after every write
    /// (SFC_SET_UPDATE_HEADER_AUTO), so that a process killed mid-recording leaves a readable
    /// file with every written frame. Thread: setup (non-real-time).
    public static func create(
        writingAt path: String, type: AudioFileType, format: AudioFileDataFormat,
        updatesHeaderAfterEachWrite: Bool = false
    ) throws -> AudioFile {
        guard let encoding = format.encoding else {
            throw AudioFileError(
                status: kAudioFileUnsupportedDataFormatError, path: path,
                "Creating \(path) needs a data encoding (int16/24/32, float32/64, FLAC or Vorbis).")
        }
        guard (1...64).contains(format.channelCount), format.sampleRate >= 1, format.sampleRate < 2_000_000_000 else {
            throw AudioFileError(
                status: OSStatus(kAudio_ParamError), path: path,
                "Cannot create \(path) with \(format.channelCount) channels at \(format.sampleRate) Hz; use 1…64 channels and a positive rate."
            )
        }
        var info = SF_INFO()
        info.samplerate = Int32(format.sampleRate.rounded())
        info.channels = Int32(format.channelCount)
        info.format = type.sndfileMajor | encoding.sndfileSubtype
        let matches: Bool
        switch (type, encoding) {
        case (.flac, .flac), (.ogg, .vorbis): matches = true
        case (.flac, _), (.ogg, _), (_, .flac), (_, .vorbis): matches = false
        default: matches = true
        }
        guard matches, encoding.sndfileSubtype >= 0, sf_format_check(&info) != 0 else {
            throw AudioFileError(
                status: kAudioFileUnsupportedDataFormatError, path: path,
                "A \(type.rawValue) file cannot hold \(encoding) data; choose another encoding for \(path).")
        }
        let directory = (path as NSString).deletingLastPathComponent
        let parent = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AudioFileError(
                status: OSStatus(kAudio_FileNotFoundError), path: path,
                "Cannot create \(path): the directory \(parent) does not exist.")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw openError(path: path, reading: false)
        }
        if case .vorbis(let quality) = encoding {
            var q = min(max(quality, 0), 1)
            sf_command(handle, Int32(SFC_SET_VBR_ENCODING_QUALITY), &q, Int32(MemoryLayout<Double>.size))
        }
        // Ogg pages carry no length header to update, and libsndfile 1.2.0 writes an unreadable
        // stream when asked to (its Vorbis writer re-emits headers mid-stream).
        if updatesHeaderAfterEachWrite && type != .ogg {
            sf_command(handle, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE))
        }
        return AudioFile(path: path, handle: handle, info: info, writable: true, encoding: encoding)
    }

    /// Maps libsndfile's open failure to a documented status, keeping its explanation.
    static func openError(path: String, reading: Bool) -> AudioFileError {
        let code = sf_error(nil)
        let systemErrno = errno
        let reason = String(cString: sf_strerror(nil))
        let status: OSStatus
        switch code {
        case Int32(SF_ERR_UNRECOGNISED_FORMAT): status = kAudioFileUnsupportedFileTypeError
        case Int32(SF_ERR_MALFORMED_FILE): status = kAudioFileInvalidFileError
        case Int32(SF_ERR_UNSUPPORTED_ENCODING): status = kAudioFileUnsupportedDataFormatError
        case Int32(SF_ERR_SYSTEM):
            status =
                systemErrno == ENOENT
                ? OSStatus(kAudio_FileNotFoundError)
                : (systemErrno == EACCES || systemErrno == EPERM || systemErrno == EROFS)
                    ? kAudioFilePermissionsError
                    : kAudioFileUnspecifiedError
        default:
            // libsndfile reports most header problems with its own detailed codes.
            status = reading ? kAudioFileInvalidFileError : kAudioFileUnspecifiedError
        }
        return AudioFileError(
            status: status, path: path,
            "Cannot \(reading ? "open" : "create") \(path): \(reason).")
    }

    func requireOpen() throws -> OpaquePointer {
        guard let handle else {
            throw AudioFileError(status: kAudioFileNotOpenError, path: path, "\(path) has been closed.")
        }
        return handle
    }

    /// Length in frames as the header declares it (for a file being written: the frames written
    /// so far). It may be wrong: a truncated Ogg stream declares SF_COUNT_MAX. Read until `read`
    /// returns fewer frames than asked rather than trusting it; `isLengthKnown` says whether it
    /// is plausible at all.
    /// Thread: setup (non-real-time).
    public var frameCount: Int64 {
        guard let handle, !isWritable else { return writtenFrames }
        var info = SF_INFO()
        sf_command(handle, Int32(SFC_GET_CURRENT_SF_INFO), &info, Int32(MemoryLayout<SF_INFO>.size))
        return info.frames
    }

    /// Whether `frameCount` is a length (not libsndfile's "unknown" nor beyond
    /// `AudioFileLimits.plausibleFrames`). Thread: setup (non-real-time).
    public var isLengthKnown: Bool {
        let frames = frameCount
        return frames >= 0 && frames < AudioFileLimits.plausibleFrames
    }

    /// Reads up to `frameCount` frames from the current position into `channels` (one Float32
    /// buffer per file channel); returns the frames read (fewer at the end, 0 past it).
    /// Thread: setup (non-real-time).
    public func read(into channels: UnsafePointer<UnsafeMutablePointer<Float>>, frameCount: Int) throws -> Int {
        let handle = try requireOpen()
        let count = channelCount
        let integer = dataFormat.encoding?.isInteger ?? false
        let converter = SampleFormatConverter(
            format: SampleFormat(
                encoding: integer ? .int32 : .float32,
                channelCount: count, isInterleaved: true))
        var done = 0
        while done < frameCount {
            let want = min(chunkFrames, frameCount - done)
            let got =
                integer
                ? Int(sf_readf_int(handle, scratch.assumingMemoryBound(to: Int32.self), sf_count_t(want)))
                : Int(sf_readf_float(handle, scratch.assumingMemoryBound(to: Float.self), sf_count_t(want)))
            if got <= 0 { break }
            for c in 0..<count { scratchChannels[c] = channels[c] + done }
            converter.decode(from: readScratchBuffers, to: scratchChannels, frameCount: got)
            done += got
            if got < want { break }
        }
        if done == 0 && sf_error(handle) != 0 {
            throw AudioFileError(
                status: kAudioFileInvalidFileError, path: path,
                "Reading \(path) failed: \(String(cString: sf_strerror(handle))).")
        }
        return done
    }

    /// Writes `frameCount` frames from `channels` (one Float32 buffer per file channel) at the
    /// current position. Integer encodings round to the file's depth and clamp to full scale.
    /// Throws 'prm?' when the file is read-only and 'wht?' when the disk refuses.
    /// Thread: setup (non-real-time) — or the `AsyncAudioFileWriter` thread.
    public func write(from channels: UnsafePointer<UnsafePointer<Float>>, frameCount: Int) throws {
        let handle = try requireOpen()
        guard isWritable else {
            throw AudioFileError(status: kAudioFilePermissionsError, path: path, "\(path) was opened for reading only.")
        }
        let count = channelCount
        let bits = dataFormat.encoding?.integerBits ?? 0
        // Quantise at the file's own depth (libsndfile would truncate), then hand libsndfile the
        // integer width it takes.
        let encoding: SampleFormat.Encoding =
            bits == 16
            ? .int16
            : bits == 24
                ? .int24In32(alignedHigh: true)
                : bits == 32 ? .int32 : .float32
        let converter = SampleFormatConverter(format: SampleFormat(encoding: encoding, channelCount: count, isInterleaved: true))
        var done = 0
        while done < frameCount {
            let n = min(chunkFrames, frameCount - done)
            for c in 0..<count { scratchSources[c] = channels[c] + done }
            if bits > 0 { for c in 0..<count { clippedSampleCount += Self.clippedCount(scratchSources[c], n, bits: bits) } }
            converter.encode(from: scratchSources, to: scratchBuffers, frameCount: n)
            let wrote: Int
            switch bits {
            case 16: wrote = Int(sf_writef_short(handle, scratch.assumingMemoryBound(to: Int16.self), sf_count_t(n)))
            case 24, 32: wrote = Int(sf_writef_int(handle, scratch.assumingMemoryBound(to: Int32.self), sf_count_t(n)))
            default: wrote = Int(sf_writef_float(handle, scratch.assumingMemoryBound(to: Float.self), sf_count_t(n)))
            }
            if wrote > 0 { writtenFrames += Int64(wrote) }
            guard wrote == n else {
                throw AudioFileError(
                    status: kAudioFileUnspecifiedError, path: path,
                    "Writing \(path) stopped after \(done + max(wrote, 0)) of \(frameCount) frames: \(String(cString: sf_strerror(handle)))."
                )
            }
            done += n
        }
    }

    /// How many of `count` samples an integer of `bits` bits cannot hold: those that
    /// SampleFormatConverter's rounding would carry past the integer range (it clamps them).
    static func clippedCount(_ samples: UnsafePointer<Float>, _ count: Int, bits: Int) -> Int {
        let scale = Double(Int64(1) << (bits - 1))
        let high = scale - 0.5, low = -scale - 0.5
        var clipped = 0
        for i in 0..<count {
            let v = Double(samples[i]) * scale
            if v >= high || v <= low { clipped += 1 }
        }
        return clipped
    }

    /// Moves the read/write position to `frame` (0 = start). Throws `kAudioFilePositionError`
    /// (-40) outside the file. Thread: setup (non-real-time).
    public func seek(toFrame frame: Int64) throws {
        let handle = try requireOpen()
        guard frame >= 0, sf_seek(handle, frame, SEEK_SET) >= 0 else {
            throw AudioFileError(
                status: kAudioFilePositionError, path: path,
                "Cannot seek \(path) to frame \(frame); it holds \(frameCount) frames.")
        }
    }

    /// The current read/write position in frames. Thread: setup (non-real-time).
    public func tell() throws -> Int64 {
        let handle = try requireOpen()
        return sf_seek(handle, 0, SEEK_CUR)
    }

    /// Finalises the header and closes the file; later calls throw -38. Closing twice is a no-op.
    /// Thread: setup (non-real-time).
    public func close() throws {
        guard let handle else { return }
        self.handle = nil
        let result = sf_close(handle)
        guard result == 0 else {
            throw AudioFileError(
                status: kAudioFileUnspecifiedError, path: path,
                "Closing \(path) failed: \(String(cString: sf_error_number(result))).")
        }
    }
}
