import AudioToolbox
import AudioTypes
import CLazyLibraries

/// One container's parser: consumes what it can from the queue and tells the stream what it found.
/// Thread: setup.
protocol ContainerParser: AnyObject {
    /// Parses as far as the queued bytes allow; returns when it needs more.
    func parse(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) throws
    /// The bytes that follow do not continue the previous ones (the queue is already empty).
    func discontinuity(_ stream: AudioFileStreamParser)
    /// The byte offset from the data offset to parse from for `packet`, and whether it is estimated.
    func seek(toPacket packet: Int64, _ stream: AudioFileStreamParser) throws -> (offset: Int64, estimated: Bool)
    /// The stream ended: deliver what only the end decides (FLAC's last frame).
    func end(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) throws
}

extension ContainerParser {
    func end(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) throws {}
}

/// Audio File Stream Services' parser: bytes in any pieces, properties and packets out.
///
/// ```swift
/// let parser = AudioFileStreamParser()
/// parser.onPackets = { data, descriptions in /* decode or store */ }
/// try parser.parse(chunk)
/// ```
///
/// Bounds: a header the parser must hold whole (a WAVE `fmt `, a CAF `kuki` or `pakt`, an Ogg
/// packet) is limited (``maximumHeldBytes``); larger ones are an invalid file, never an allocation
/// the input decides. Thread: setup (one thread at a time).
public final class AudioFileStreamParser {
    /// Called as each property becomes known, in the order the stream reveals them.
    public var onProperty: (AudioFileStreamPropertyID) -> Void = { _ in }
    /// Called with the whole packets of one ParseBytes call: bytes, packet count, and per-packet
    /// descriptions (nil for linear PCM).
    public var onPackets: (UnsafeRawBufferPointer, Int, UnsafeMutablePointer<AudioStreamPacketDescription>?) -> Void = { _, _, _ in }

    public private(set) var properties = StreamProperties()
    let fileTypeHint: AudioFileTypeID
    var queue = ByteQueue()
    var container: ContainerParser?
    var failure: AudioError?
    /// Packets found in this call, delivered before the next property or at its end.
    private var batch: [UInt8] = []
    private var batchDescriptions: [AudioStreamPacketDescription] = []
    private var batchPCMPackets = 0

    /// The most bytes a header or packet may need held at once (16 MiB).
    static let maximumHeldBytes = 16 << 20

    /// A parser that has seen no bytes yet. Thread: setup.
    public init(fileTypeHint: AudioFileTypeID = 0) {
        self.fileTypeHint = fileTypeHint
    }

    /// Parses `bytes` (an empty buffer marks the end of the stream). Throws an AudioError with
    /// kAudioFileStreamError_UnsupportedFileType, _UnsupportedDataFormat or _InvalidFile; after
    /// an error the stream refuses further bytes with the same error. Thread: setup.
    public func parse(_ bytes: UnsafeRawBufferPointer, discontinuity: Bool = false) throws {
        if let failure { throw failure }
        do {
            if discontinuity {
                flushBatch()
                queue.reset(at: queue.offset)
                container?.discontinuity(self)
            }
            queue.append(bytes)
            if container == nil { try detect(endOfStream: bytes.isEmpty) }
            if let container {
                try container.parse(&queue, self)
                if bytes.isEmpty { try container.end(&queue, self) }
            }
            flushBatch()
        } catch let error as AudioError {
            flushBatch()
            failure = error
            throw error
        }
    }

    /// The byte offset (from the data offset) to read from for `packet`. Thread: setup.
    public func seek(toPacket packet: Int64) throws -> (offset: Int64, estimated: Bool) {
        guard let container, properties.readyToProducePackets else {
            throw AudioError(
                kAudioFileStreamError_DataUnavailable, "The stream cannot seek before its packets are ready (ReadyToProducePackets).")
        }
        guard packet >= 0 else {
            throw AudioError(kAudioFileStreamError_InvalidPacketOffset, "Packet \(packet) is before the start of the stream.")
        }
        if let count = properties.audioDataPacketCount, packet > Int64(count) {
            throw AudioError(kAudioFileStreamError_InvalidPacketOffset, "Packet \(packet) is past the stream's \(count) packets.")
        }
        return try container.seek(toPacket: packet, self)
    }

    private func detect(endOfStream: Bool) throws {
        guard let head = queue.peek(min(queue.count, 12)), head.count == 12 || endOfStream else { return }
        let parser: ContainerParser
        if head.matches("RIFF") && head.matches("WAVE", at: 8) {
            parser = WAVEParser()
            publish(\.fileFormat, kAudioFileWAVEType, kAudioFileStreamProperty_FileFormat)
        } else if head.matches("FORM") && (head.matches("AIFF", at: 8) || head.matches("AIFC", at: 8)) {
            parser = AIFFParser(isAIFC: head.matches("AIFC", at: 8))
            publish(
                \.fileFormat, head.matches("AIFC", at: 8) ? kAudioFileAIFCType : kAudioFileAIFFType, kAudioFileStreamProperty_FileFormat)
        } else if head.matches("caff") {
            parser = CAFParser()
            publish(\.fileFormat, kAudioFileCAFType, kAudioFileStreamProperty_FileFormat)
        } else if head.matches("fLaC") {
            parser = FLACStreamParser()
            publish(\.fileFormat, kAudioFileFLACType, kAudioFileStreamProperty_FileFormat)
        } else if head.matches("OggS") {
            // The Ogg parser reads pages with libogg and Vorbis headers with libvorbis.
            if let reason = auhost_ogg_unavailable() ?? auhost_vorbis_unavailable() {
                throw AudioError(
                    kAudioFileStreamError_UnsupportedFileType,
                    "Reading an Ogg stream needs a library that cannot be loaded: \(String(cString: reason)).")
            }
            parser = OggStreamParser()
            publish(\.fileFormat, kAudioFileOggType, kAudioFileStreamProperty_FileFormat)
        } else if head.matches("ID3") || MP3FrameHeader(head) != nil || fileTypeHint == kAudioFileMP3Type {
            parser = MP3StreamParser()
            publish(\.fileFormat, kAudioFileMP3Type, kAudioFileStreamProperty_FileFormat)
        } else {
            throw AudioError(
                kAudioFileStreamError_UnsupportedFileType,
                "The stream starts with bytes no supported file type starts with (WAVE, AIFF, CAF, MP3, FLAC, Ogg).")
        }
        container = parser
    }

    // MARK: What parsers call

    /// Records a property and tells the listener (packets found before it are delivered first).
    func publish<T>(_ field: WritableKeyPath<StreamProperties, T?>, _ value: T, _ id: AudioFileStreamPropertyID) {
        flushBatch()
        properties[keyPath: field] = value
        onProperty(id)
    }

    /// The parser has what packets need: tells the listener ReadyToProducePackets.
    func becomeReady() {
        guard !properties.readyToProducePackets else { return }
        flushBatch()
        properties.readyToProducePackets = true
        onProperty(kAudioFileStreamProperty_ReadyToProducePackets)
    }

    /// Whole PCM frames (packets without descriptions).
    func pcmPackets(_ bytes: ArraySlice<UInt8>, count: Int) {
        if !batchDescriptions.isEmpty { flushBatch() }
        batch += bytes
        batchPCMPackets += count
        properties.packetsSeen += Int64(count)
        properties.bytesSeen += Int64(bytes.count)
        if count > 0 { properties.maximumPacketSize = max(properties.maximumPacketSize, UInt32(bytes.count / count)) }
    }

    /// One packet of a format whose packets vary (`frames` 0: the format's constant count).
    func packet(_ bytes: ArraySlice<UInt8>, frames: UInt32 = 0) {
        if batchPCMPackets > 0 { flushBatch() }
        batchDescriptions.append(
            AudioStreamPacketDescription(
                mStartOffset: Int64(batch.count), mVariableFramesInPacket: frames, mDataByteSize: UInt32(bytes.count)))
        batch += bytes
        properties.packetsSeen += 1
        properties.bytesSeen += Int64(bytes.count)
        properties.maximumPacketSize = max(properties.maximumPacketSize, UInt32(bytes.count))
    }

    private func flushBatch() {
        guard batchPCMPackets > 0 || !batchDescriptions.isEmpty else { return }
        let count = batchPCMPackets > 0 ? batchPCMPackets : batchDescriptions.count
        batch.withUnsafeBytes { bytes in
            if batchDescriptions.isEmpty {
                onPackets(bytes, count, nil)
            } else {
                batchDescriptions.withUnsafeMutableBufferPointer { onPackets(bytes, count, $0.baseAddress) }
            }
        }
        batch.removeAll(keepingCapacity: true)
        batchDescriptions.removeAll(keepingCapacity: true)
        batchPCMPackets = 0
    }
}

/// Skips `remaining` bytes of the queue without holding them; true once all are skipped.
func skip(_ remaining: inout Int64, _ queue: inout ByteQueue) -> Bool {
    let n = Int(min(remaining, Int64(queue.count)))
    queue.consume(n)
    remaining -= Int64(n)
    return remaining == 0
}

func invalidFile(_ message: String) -> AudioError { AudioError(kAudioFileStreamError_InvalidFile, message) }
func unsupportedData(_ message: String) -> AudioError { AudioError(kAudioFileStreamError_UnsupportedDataFormat, message) }
