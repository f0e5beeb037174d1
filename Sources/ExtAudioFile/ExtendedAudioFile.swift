import AudioFiles
import AudioTypes
import DSPKernels
import Foundation

/// An audio file read or written in a client data format (Extended Audio File Services).
///
/// The file is read and written through `AudioFile` (libsndfile) as Float32 channels; the client
/// format is converted to and from them by `SampleFormatConverter`, so 16- and 24-bit integer PCM
/// and FLAC round-trip bit-exactly (32-bit integers keep 24 significant bits). The client rate
/// and channel count equal the file's: rate conversion is the 'aufc' converter unit's job.
///
/// ```swift
/// let file = try ExtendedAudioFile.create(path: "out.wav", type: .wave,
///                                         fileFormat: AudioFileDataFormat(sampleRate: 48_000, channelCount: 2, encoding: .int16))
/// try file.setClientFormat(.canonical(sampleRate: 48_000, channels: 2))
/// try file.write(from: buffers.list, frames: 512)
/// try file.dispose()
/// ```
///
/// Threads: every member is setup (one thread at a time) except `writeAsync`, which is render.
public final class ExtendedAudioFile {
    /// The file underneath (owned by the async writer once `primeAsync` ran).
    public let file: AudioFile
    /// The path the file was opened or created at.
    public var path: String { file.path }
    /// What the file holds (kExtAudioFileProperty_FileDataFormat).
    public let fileFormat: AudioStreamBasicDescription
    /// What the caller reads and writes (kExtAudioFileProperty_ClientDataFormat).
    public private(set) var clientFormat: AudioStreamBasicDescription
    var converter: SampleFormatConverter
    let channelCount: Int
    /// Float32 channels between the file and the client format (setup-thread I/O).
    let chunkFrames = 4096
    let scratch: UnsafeMutablePointer<Float>
    let scratchChannels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let scratchSources: UnsafeMutablePointer<UnsafePointer<Float>>
    /// The async writer and its render-side state, made by `primeAsync`.
    var asyncWriter: AsyncAudioFileWriter?
    var asyncState: UnsafeMutablePointer<AsyncWriteState>?
    /// Ring size for `primeAsync` (kExtAudioFileProperty_AUHostAsyncBufferFrames).
    public var asyncBufferFrames = AsyncAudioFileWriter.defaultCapacityFrames
    var disposed = false

    init(file: AudioFile) throws {
        self.file = file
        channelCount = file.channelCount
        fileFormat = file.dataFormat.streamDescription(type: file.fileType)
        // The default client format: the file's own PCM layout, or interleaved Float32 for codecs.
        clientFormat =
            fileFormat.mFormatID == kAudioFormatLinearPCM
            ? fileFormat
            : SampleFormat(encoding: .float32, channelCount: file.channelCount, isInterleaved: true)
                .streamDescription(sampleRate: file.sampleRate)
        converter = try SampleFormatConverter(streamDescription: clientFormat)
        scratch = .allocate(capacity: chunkFrames * channelCount)
        scratch.initialize(repeating: 0, count: chunkFrames * channelCount)
        scratchChannels = .allocate(capacity: channelCount)
        scratchSources = .allocate(capacity: channelCount)
        for c in 0..<channelCount {
            scratchChannels[c] = scratch + c * chunkFrames
            scratchSources[c] = UnsafePointer(scratch + c * chunkFrames)
        }
    }

    deinit {
        if !disposed { try? dispose() }
        scratch.deallocate()
        scratchChannels.deallocate()
        scratchSources.deallocate()
    }

    /// Opens `path` for reading (ExtAudioFileOpenURL). Throws the documented kAudioFile* statuses
    /// with a sentence naming the path.
    ///
    /// Thread: setup.
    public static func open(path: String) throws -> ExtendedAudioFile {
        try rethrowingAudioError { try ExtendedAudioFile(file: AudioFile.open(readingAt: path)) }
    }

    /// Creates `path` (ExtAudioFileCreateWithURL) holding `fileFormat`. Without `eraseExisting` an
    /// existing file is refused with kAudioFilePermissionsError.
    ///
    /// Thread: setup.
    public static func create(
        path: String, type: AudioFileType, fileFormat: AudioFileDataFormat,
        eraseExisting: Bool = true
    ) throws -> ExtendedAudioFile {
        if !eraseExisting && FileManager.default.fileExists(atPath: path) {
            throw AudioError(
                kAudioFilePermissionsError,
                "\(path) already exists; pass kAudioFileFlags_EraseFile to replace it.")
        }
        // The header is kept current after every write, so a killed process leaves a readable file.
        return try rethrowingAudioError {
            try ExtendedAudioFile(
                file: AudioFile.create(
                    writingAt: path, type: type, format: fileFormat,
                    updatesHeaderAfterEachWrite: true))
        }
    }

    /// Sets the client data format. It must be linear PCM (kExtAudioFileError_NonPCMClientFormat)
    /// with the file's channel count (kExtAudioFileError_InvalidChannelMap) and rate
    /// (kExtAudioFileError_InvalidDataFormat), in a sample layout SampleFormat knows.
    ///
    /// Thread: setup.
    public func setClientFormat(_ format: AudioStreamBasicDescription) throws {
        guard format.mFormatID == kAudioFormatLinearPCM else {
            throw AudioError(
                kExtAudioFileError_NonPCMClientFormat,
                "The client format of \(path) must be linear PCM, not \(format).")
        }
        guard Int(format.mChannelsPerFrame) == channelCount else {
            throw AudioError(
                kExtAudioFileError_InvalidChannelMap,
                "\(path) has \(channelCount) channels; the client format has \(format.mChannelsPerFrame).")
        }
        guard format.mSampleRate == fileFormat.mSampleRate else {
            throw AudioError(
                kExtAudioFileError_InvalidDataFormat,
                "\(path) runs at \(fileFormat.mSampleRate) Hz; a client rate of \(format.mSampleRate) Hz needs the 'aufc' converter unit.")
        }
        guard asyncWriter == nil else {
            throw AudioError(
                kExtAudioFileError_InvalidOperationOrder,
                "Set the client format of \(path) before the first ExtAudioFileWriteAsync.")
        }
        do {
            converter = try SampleFormatConverter(streamDescription: format)
        } catch {
            throw AudioError(kExtAudioFileError_InvalidDataFormat, "The client format for \(path) is not usable: \(error).")
        }
        clientFormat = format
    }

    /// Frames in the file (kExtAudioFileProperty_FileLengthFrames); for a file being written,
    /// the frames written so far.
    ///
    /// Thread: setup.
    public var lengthFrames: Int64 {
        if let asyncWriter { return Int64(asyncWriter.framesWritten) }
        return file.frameCount
    }

    /// The file's channel layout (kExtAudioFileProperty_FileChannelLayout): mono, stereo, or
    /// discrete channels in order.
    ///
    /// Thread: any.
    public var channelLayoutTag: AudioChannelLayoutTag {
        switch channelCount {
        case 1: kAudioChannelLayoutTag_Mono
        case 2: kAudioChannelLayoutTag_Stereo
        default: kAudioChannelLayoutTag_DiscreteInOrder | UInt32(channelCount)
        }
    }

    /// Writes what is pending (async writes included), finalises the header and closes the file
    /// (ExtAudioFileDispose). Rethrows the first write error; a second call does nothing.
    ///
    /// Thread: setup.
    public func dispose() throws {
        guard !disposed else { return }
        disposed = true
        defer {
            asyncState?.deinitialize(count: 1)
            asyncState?.deallocate()
            asyncState = nil
        }
        if let asyncWriter {
            asyncState?.pointee.free()
            try rethrowingAudioError { try asyncWriter.close() }
        } else {
            try rethrowingAudioError { try file.close() }
        }
    }
}
