import AudioFileStreamServices
import AudioToolbox
import AudioTypes

/// The third pass of AudioFileStreamFuzz, through the C API: from inside the callbacks every
/// property is asked for (its size, then its value; PacketToFrame/FrameToPacket with hostile
/// numbers), and after packets arrive AudioFileStreamSeek is called with a packet offset drawn
/// from the input (often huge or negative); a seek that answers an offset inside the stream
/// continues the parse there with kAudioFileStreamParseFlag_Discontinuity, as a player does.
/// Statuses are free; nothing may trap.
extension AudioFileStreamFuzz {
    static let propertyIDs: [AudioFileStreamPropertyID] = [
        kAudioFileStreamProperty_ReadyToProducePackets, kAudioFileStreamProperty_FileFormat, kAudioFileStreamProperty_DataFormat,
        kAudioFileStreamProperty_MagicCookieData, kAudioFileStreamProperty_AudioDataByteCount,
        kAudioFileStreamProperty_AudioDataPacketCount, kAudioFileStreamProperty_MaximumPacketSize, kAudioFileStreamProperty_DataOffset,
        kAudioFileStreamProperty_PacketToFrame, kAudioFileStreamProperty_FrameToPacket, kAudioFileStreamProperty_PacketSizeUpperBound,
        kAudioFileStreamProperty_AverageBytesPerPacket, kAudioFileStreamProperty_BitRate,
    ]
    static let hostileNumbers: [Int64] = [0, 1, 3, -1, 1_000, Int64.max, Int64.max - 1, Int64.min, 1 << 62, (1 << 62) + 1, 1 << 53]

    final class SeekingClient {
        var id: AudioFileStreamID?
        var seed: UInt64
        var pendingOffset: Int64?
        var seeks = 0

        init(seed: UInt64) { self.seed = seed | 1 }

        /// The next pseudo-random number (xorshift), so a seek's packet follows from the input.
        func next() -> UInt64 {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return seed
        }

        func hostile() -> Int64 {
            let r = next()
            return r & 3 == 0
                ? Int64(bitPattern: next())
                : AudioFileStreamFuzz.hostileNumbers[Int(r >> 8 % UInt64(AudioFileStreamFuzz.hostileNumbers.count))]
        }
    }

    /// Thread: any (one call at a time).
    static func parseWithSeeks(_ data: UnsafeRawBufferPointer) {
        let client = SeekingClient(seed: UInt64(data.count) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(data.last ?? 0))
        let user = Unmanaged.passUnretained(client).toOpaque()
        var id: AudioFileStreamID?
        guard AudioFileStreamOpen(user, seekingProperty, seekingPackets, 0, &id) == noErr, let id else { return }
        defer { _ = AudioFileStreamClose(id) }
        client.id = id
        var start = 0
        var flags = AudioFileStreamParseFlags()
        while start < data.count {
            let end = min(data.count, start + 1 + Int(client.next() % 4_096))
            let status = AudioFileStreamParseBytes(id, UInt32(end - start), data.baseAddress! + start, flags)
            guard status == noErr else { return }
            flags = []
            start = end
            if let offset = client.pendingOffset {
                client.pendingOffset = nil
                var dataOffset: Int64 = 0
                var size = UInt32(8)
                guard AudioFileStreamGetProperty(id, kAudioFileStreamProperty_DataOffset, &size, &dataOffset) == noErr else { continue }
                let (target, overflow) = dataOffset.addingReportingOverflow(offset)
                if !overflow, target >= 0, target < Int64(data.count) {
                    start = Int(target)
                    flags = .discontinuity
                }
            }
        }
        _ = AudioFileStreamParseBytes(id, 0, nil, [])
    }

    static let seekingProperty: AudioFileStream_PropertyListenerProc = { user, id, _, _ in
        let client = Unmanaged<SeekingClient>.fromOpaque(user!).takeUnretainedValue()
        for property in propertyIDs { query(id, property, client) }
    }

    static let seekingPackets: AudioFileStream_PacketsProc = { user, _, _, _, _ in
        let client = Unmanaged<SeekingClient>.fromOpaque(user!).takeUnretainedValue()
        guard let id = client.id, client.seeks < 4, client.next() % 8 == 0 else { return }
        client.seeks += 1
        query(id, propertyIDs[Int(client.next() % UInt64(propertyIDs.count))], client)
        var offset: Int64 = 0
        var flags = AudioFileStreamSeekFlags()
        if AudioFileStreamSeek(id, client.hostile(), &offset, &flags) == noErr { client.pendingOffset = offset }
    }

    /// GetPropertyInfo, then GetProperty with the size it gave (translations with hostile numbers).
    static func query(_ id: AudioFileStreamID, _ property: AudioFileStreamPropertyID, _ client: SeekingClient) {
        var size: UInt32 = 0
        var writable: DarwinBoolean = false
        guard AudioFileStreamGetPropertyInfo(id, property, &size, &writable) == noErr, size > 0, size <= 1 << 24 else { return }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: Int(size))
        if property == kAudioFileStreamProperty_PacketToFrame || property == kAudioFileStreamProperty_FrameToPacket,
            Int(size) == MemoryLayout<AudioFramePacketTranslation>.size
        {
            memory.storeBytes(
                of: AudioFramePacketTranslation(mFrame: client.hostile(), mPacket: client.hostile(), mFrameOffsetInPacket: 0),
                as: AudioFramePacketTranslation.self)
        }
        _ = AudioFileStreamGetProperty(id, property, &size, memory)
    }
}
