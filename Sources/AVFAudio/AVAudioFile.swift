import AudioToolbox
import Foundation

/// An audio file (Apple's AVAudioFile) over Extended Audio File Services: read and written in
/// its processing format (by default the standard format at the file's rate and channel count),
/// converted to and from its file format.
///
/// Thread: setup (file I/O; never on the render thread).
public final class AVAudioFile {
    public let url: URL
    /// The format of the data in the file.
    public let fileFormat: AVAudioFormat
    /// The format of the buffers read and written.
    public let processingFormat: AVAudioFormat
    private var file: ExtAudioFileRef?
    private let writing: Bool
    private var framesWritten: AVAudioFramePosition = 0

    /// Opens a file for reading in the standard format.
    ///
    /// Thread: setup.
    public convenience init(forReading fileURL: URL) throws {
        try self.init(forReading: fileURL, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Opens a file for reading, its buffers in `format` (interleaved or not).
    ///
    /// Thread: setup.
    public init(forReading fileURL: URL, commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        url = fileURL
        writing = false
        var ref: ExtAudioFileRef?
        try checkStatus(ExtAudioFileOpenPath(fileURL.path, &ref), "Could not open \(fileURL.path) for reading")
        file = ref
        var d = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        do {
            try checkStatus(
                ExtAudioFileGetProperty(ref!, kExtAudioFileProperty_FileDataFormat, &size, &d),
                "Could not read the format of \(fileURL.path)")
            guard let fileFormat = AVAudioFormat(streamDescription: &d),
                let processing = AVAudioFormat(
                    commonFormat: format, sampleRate: d.mSampleRate, channels: d.mChannelsPerFrame, interleaved: interleaved)
            else { throw osStatusError(kAudioFileUnsupportedDataFormatError, "\(fileURL.path) has no PCM format AVAudioFile can read") }
            self.fileFormat = fileFormat
            processingFormat = processing
            var client = processing.streamDescription.pointee
            try checkStatus(
                ExtAudioFileSetProperty(ref!, kExtAudioFileProperty_ClientDataFormat, size, &client),
                "Could not read \(fileURL.path) as \(processing)")
        } catch {
            ExtAudioFileDispose(ref!)
            throw error
        }
    }

    /// Creates a file (replacing any) whose type follows the extension (.wav, .aif/.aiff, .caf)
    /// and whose data format the settings give; buffers are written in the standard format.
    ///
    /// Thread: setup.
    public convenience init(forWriting fileURL: URL, settings: [String: Any]) throws {
        try self.init(forWriting: fileURL, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Creates a file whose buffers are written in `format`.
    ///
    /// Thread: setup.
    public init(forWriting fileURL: URL, settings: [String: Any], commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        url = fileURL
        writing = true
        let type: AudioFileTypeID
        switch fileURL.pathExtension.lowercased() {
        case "wav", "wave": type = kAudioFileWAVEType
        case "aif", "aiff", "aifc": type = kAudioFileAIFFType
        case "caf": type = kAudioFileCAFType
        default:
            throw osStatusError(
                kAudioFileUnsupportedFileTypeError,
                "AVAudioFile writes .wav, .aif and .caf files; \(fileURL.lastPathComponent) is none of them")
        }
        guard var d = AVAudioFormat.streamDescription(settings: settings), let fileFormat = AVAudioFormat(streamDescription: &d),
            let processing = AVAudioFormat(
                commonFormat: format, sampleRate: d.mSampleRate, channels: d.mChannelsPerFrame, interleaved: interleaved)
        else {
            throw osStatusError(
                kAudioFileUnsupportedDataFormatError,
                "The settings give no linear PCM format (AVSampleRateKey and AVNumberOfChannelsKey are needed): \(settings)")
        }
        var ref: ExtAudioFileRef?
        try checkStatus(
            ExtAudioFileCreateWithPath(fileURL.path, type, &d, nil, AudioFileFlags.eraseFile.rawValue, &ref),
            "Could not create \(fileURL.path)")
        file = ref
        self.fileFormat = fileFormat
        processingFormat = processing
        var client = processing.streamDescription.pointee
        let status = ExtAudioFileSetProperty(
            ref!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        if status != noErr {
            ExtAudioFileDispose(ref!)
            throw osStatusError(status, "Could not write \(processing) into \(fileURL.path)")
        }
    }

    deinit { close() }

    /// Finishes the file (header written) and closes it; later reads and writes throw.
    ///
    /// Thread: setup.
    public func close() {
        if let file { ExtAudioFileDispose(file) }
        file = nil
    }

    /// Whether the file is open.
    ///
    /// Thread: setup.
    public var isOpen: Bool { file != nil }

    private func open() throws -> ExtAudioFileRef {
        guard let file else { throw osStatusError(kAudioFileNotOpenError, "\(url.lastPathComponent) is closed") }
        return file
    }

    /// The file's length in sample frames (of the file format).
    ///
    /// Thread: setup.
    public var length: AVAudioFramePosition {
        if writing { return framesWritten }
        guard let file else { return 0 }
        var frames: Int64 = 0
        var size = UInt32(MemoryLayout<Int64>.size)
        ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &frames)
        return frames
    }

    /// Where the next read or write happens, in frames; setting it seeks (reading only).
    ///
    /// Thread: setup.
    public var framePosition: AVAudioFramePosition {
        get {
            guard let file else { return 0 }
            var position: Int64 = 0
            ExtAudioFileTell(file, &position)
            return position
        }
        set {
            if let file, !writing { ExtAudioFileSeek(file, max(0, min(newValue, length))) }
        }
    }

    /// Reads up to the buffer's capacity; frameLength says how many came (0 at the end).
    ///
    /// Thread: setup.
    public func read(into buffer: AVAudioPCMBuffer) throws {
        try read(into: buffer, frameCount: buffer.frameCapacity)
    }

    /// Reads up to `frames` frames into the buffer (in the processing format).
    ///
    /// Thread: setup.
    public func read(into buffer: AVAudioPCMBuffer, frameCount frames: AVAudioFrameCount) throws {
        let file = try open()
        guard buffer.format == processingFormat else {
            throw osStatusError(
                kAudio_ParamError, "The buffer's format \(buffer.format) is not the file's processing format \(processingFormat)")
        }
        guard frames <= buffer.frameCapacity else {
            throw osStatusError(kAudio_ParamError, "\(frames) frames do not fit a buffer of \(buffer.frameCapacity)")
        }
        buffer.frameLength = frames
        var count = frames
        let status = ExtAudioFileRead(file, &count, buffer.mutableAudioBufferList)
        buffer.frameLength = status == noErr ? count : 0
        try checkStatus(status, "Could not read from \(url.lastPathComponent)")
    }

    /// Writes the buffer's frameLength frames at the end of the file.
    ///
    /// Thread: setup.
    public func write(from buffer: AVAudioPCMBuffer) throws {
        let file = try open()
        guard writing else { throw osStatusError(kAudioFilePermissionsError, "\(url.lastPathComponent) was opened for reading") }
        guard buffer.format == processingFormat else {
            throw osStatusError(
                kAudio_ParamError, "The buffer's format \(buffer.format) is not the file's processing format \(processingFormat)")
        }
        try checkStatus(ExtAudioFileWrite(file, buffer.frameLength, buffer.audioBufferList), "Could not write to \(url.lastPathComponent)")
        framesWritten += AVAudioFramePosition(buffer.frameLength)
    }
}
