import AudioToolbox
import AudioTypes

/// Decodes a compressed playback queue's packets (MP3, FLAC, Vorbis, Opus) through an Audio
/// Converter into the Float32 interleaved PCM its engine plays. Decoding happens when a buffer is
/// enqueued (a setup call), so the device thread only ever sees PCM. One converter serves the
/// whole queue, in enqueue order, so codec state (MP3's bit reservoir, Vorbis's overlap) carries
/// from one buffer to the next as it does in one continuous decode.
///
/// Thread: setup, under the queue's lock.
final class QueueDecoder {
    /// What the engine plays: Float32 interleaved at the compressed format's rate and channels.
    let pcmFormat: AudioStreamBasicDescription
    let compressedFormat: AudioStreamBasicDescription
    private let converter: AudioConverterRef
    /// The last status the converter failed with (kAudioQueueProperty_ConverterError); noErr when none.
    private(set) var lastError: OSStatus = noErr
    /// Decoded frames of the buffer being enqueued (reused; grows to the largest buffer).
    private var output: [Float] = []

    /// The status the input procedure returns once it has handed over every packet of the
    /// buffer: the converter then returns what it decoded from them and keeps its stream state.
    static let bufferExhausted: OSStatus = 0x6171_6578  // 'aqex', private to this file's procedure

    /// Whether Audio Converter Services decodes `format` (it names MP3, FLAC, Vorbis and Opus).
    ///
    /// Thread: any.
    static func decodes(_ format: AudioStreamBasicDescription) -> Bool {
        [kAudioFormatMPEGLayer3, kAudioFormatFLAC, kAudioFormatVorbis, kAudioFormatOpus].contains(format.mFormatID)
    }

    /// Creates the converter for `format`, or throws 'fmt?' naming why it cannot.
    ///
    /// Thread: setup.
    init(_ format: AudioStreamBasicDescription) throws {
        guard AudioStreamBasicDescription.sampleRateProblem(format.mSampleRate) == nil, (1...64).contains(format.mChannelsPerFrame) else {
            throw AudioError(
                kAudioFileUnsupportedDataFormatError,
                "Audio queue format '\(FourCC.string(format.mFormatID))' × \(format.mChannelsPerFrame) at \(format.mSampleRate) Hz: a compressed queue needs a rate of \(String(format0: kAUHostMinimumSampleRate))…\(String(format0: kAUHostMaximumSampleRate)) Hz and 1 to 64 channels."
            )
        }
        compressedFormat = format
        pcmFormat = .linearPCM(
            sampleRate: format.mSampleRate, channels: format.mChannelsPerFrame, bitsPerChannel: 32, isFloat: true, interleaved: true)
        var made: AudioConverterRef?
        var source = format, destination = pcmFormat
        let status = AudioConverterNew(&source, &destination, &made)
        guard status == noErr, let made else {
            throw AudioError(
                kAudioFileUnsupportedDataFormatError,
                "Audio queue format '\(FourCC.string(format.mFormatID))': the Audio Converter cannot decode it (\(status)): \(LastErrorMessage.current ?? "")"
            )
        }
        converter = made
    }

    deinit { _ = AudioConverterDispose(converter) }

    /// Gives the decoder the magic cookie (FLAC STREAMINFO, Vorbis/Opus headers) and checks it at
    /// once, so a bad cookie is refused by SetProperty rather than by a later enqueue.
    ///
    /// Thread: setup.
    func setCookie(_ cookie: [UInt8]) throws {
        var status = (cookie.isEmpty ? [0] : cookie).withUnsafeBytes { bytes in
            AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(cookie.count), bytes.baseAddress!)
        }
        if status == noErr {
            var info = AudioConverterPrimeInfo()
            var size = UInt32(MemoryLayout<AudioConverterPrimeInfo>.size)
            status = AudioConverterGetProperty(converter, kAudioConverterPrimeInfo, &size, &info)  // builds the decoder
        }
        guard status == noErr else {
            let reason = LastErrorMessage.current ?? "status \(status)"
            var none: UInt8 = 0
            _ = AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, 0, &none)  // forget the bad cookie
            throw AudioError(
                kAudioQueueErr_InvalidPropertyValue,
                "The magic cookie (\(cookie.count) bytes) does not fit '\(FourCC.string(compressedFormat.mFormatID))': \(reason)")
        }
    }

    /// Forgets the stream (after Stop(true) or Reset, the next buffer starts a new one).
    ///
    /// Thread: setup.
    func reset() { _ = AudioConverterReset(converter) }

    /// Decodes the packets of `buffer` (described by `descriptions`) and stores the PCM in the
    /// slot's decoded storage; returns the frames decoded. Throws the converter's status, naming
    /// the packet problem, for data it cannot decode.
    ///
    /// Thread: setup, while the slot is not enqueued.
    func decode(_ slot: UnsafeMutablePointer<QueueBufferSlot>, descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>) throws
        -> Int
    {
        guard !descriptions.isEmpty || compressedFormat.mBytesPerPacket > 0 else {
            throw AudioError(
                kAudio_ParamError,
                "Audio queue: '\(FourCC.string(compressedFormat.mFormatID))' packets vary in size: enqueue the buffer with packet descriptions (AudioFileReadPacketData gives them)."
            )
        }
        // Constant-size packets without descriptions get one made each: bounded as the
        // descriptions a buffer may hold (1-byte packets of a 64 MiB buffer asked for 1 GiB).
        let implied = Int(slot.pointee.buffer.mAudioDataByteSize) / Int(max(compressedFormat.mBytesPerPacket, 1))
        guard !descriptions.isEmpty || implied <= Int(kAUHostAudioQueueMaximumPacketDescriptions) else {
            throw AudioError(
                kAudio_MemFullError,
                "Audio queue: \(implied) packets of \(compressedFormat.mBytesPerPacket) bytes in one buffer; at most \(kAUHostAudioQueueMaximumPacketDescriptions) (AudioQueue.h)."
            )
        }
        let input = PacketInput(
            data: slot.pointee.buffer.mAudioData, byteSize: slot.pointee.buffer.mAudioDataByteSize, given: descriptions,
            bytesPerPacket: compressedFormat.mBytesPerPacket)
        for d in descriptions where d.mStartOffset < 0 || UInt64(d.mStartOffset) + UInt64(d.mDataByteSize) > UInt64(input.byteSize) {
            throw AudioError(
                kAudio_ParamError,
                "Audio queue: a packet description (\(d.mDataByteSize) bytes at offset \(d.mStartOffset)) lies outside the buffer's \(input.byteSize) bytes."
            )
        }
        let user = Unmanaged.passUnretained(input).toOpaque()
        let channels = Int(pcmFormat.mChannelsPerFrame)
        let chunk = 4096
        var frames = 0
        while true {
            if output.count < (frames + chunk) * channels { output += [Float](repeating: 0, count: chunk * channels) }
            var got = UInt32(chunk)
            let status = output.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(
                    mNumberBuffers: 1,
                    mBuffers: AudioBuffer(
                        mNumberChannels: UInt32(channels), mDataByteSize: UInt32(chunk * channels * 4),
                        mData: raw.baseAddress! + frames * channels * 4))
                return AudioConverterFillComplexBuffer(converter, packetInputProc, user, &got, &list, nil)
            }
            frames += Int(got)
            if status == Self.bufferExhausted { break }
            guard status == noErr else {
                lastError = status
                throw AudioError(
                    status,
                    "Audio queue: the '\(FourCC.string(compressedFormat.mFormatID))' buffer did not decode: \(LastErrorMessage.current ?? "status \(status)")"
                )
            }
            if got == 0 { break }
        }
        QueueBufferSlot.storeDecoded(output, frames: frames, channels: channels, in: slot)
        return frames
    }
}

/// The packets of one enqueued buffer, handed to the converter in order (descriptions copied so
/// their storage stays put while the converter holds a pointer into it).
private final class PacketInput {
    let data: UnsafeMutableRawPointer
    let byteSize: UInt32
    let descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>
    let count: Int
    var next = 0

    /// `given` descriptions, or (none given) constant `bytesPerPacket`-byte packets filling `byteSize`.
    init(data: UnsafeMutableRawPointer, byteSize: UInt32, given: UnsafeBufferPointer<AudioStreamPacketDescription>, bytesPerPacket: UInt32)
    {
        self.data = data
        self.byteSize = byteSize
        count = given.isEmpty ? Int(byteSize / max(bytesPerPacket, 1)) : given.count
        descriptions = .allocate(capacity: max(count, 1))
        for i in 0..<count {
            descriptions[i] =
                given.isEmpty
                ? AudioStreamPacketDescription(
                    mStartOffset: Int64(i) * Int64(bytesPerPacket), mVariableFramesInPacket: 0, mDataByteSize: bytesPerPacket)
                : given[i]
        }
    }

    deinit { descriptions.deallocate() }
}

/// Hands the converter as many of the buffer's packets as it asks for (offsets stay relative to
/// the buffer's start), then `QueueDecoder.bufferExhausted`.
private let packetInputProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, userData in
    let input = Unmanaged<PacketInput>.fromOpaque(userData!).takeUnretainedValue()
    let left = input.count - input.next
    guard left > 0 else {
        ioPackets.pointee = 0
        return QueueDecoder.bufferExhausted
    }
    let count = min(Int(ioPackets.pointee), left)
    let list = UnsafeMutableAudioBufferListPointer(ioData)
    list[0].mData = input.data
    list[0].mDataByteSize = input.byteSize
    outDescriptions?.pointee = input.descriptions + input.next
    input.next += count
    ioPackets.pointee = UInt32(count)
    return noErr
}
