// The streaming-player pattern of Apple's Audio File Stream Services guide and the AudioFileStream
// examples (AudioFileStreamExample's MyPropertyListenerProc / MyPacketsProc): bytes arrive in
// pieces and go to AudioFileStreamParseBytes; the property listener waits for
// kAudioFileStreamProperty_ReadyToProducePackets, then reads kAudioFileStreamProperty_DataFormat
// and creates an AudioConverter to the player's format (setting the magic cookie, if any); the
// packets procedure keeps the packets; AudioConverterFillComplexBuffer then pulls them through an
// input procedure that hands out packets with their descriptions.
import AudioToolbox
import Foundation

final class StreamedFilePlayer {
    var outputFormat: AudioStreamBasicDescription
    var converter: AudioConverterRef?
    var status: OSStatus = noErr
    /// Packets kept from the packets procedure (bytes, and descriptions for VBR formats).
    var packetBytes: [UInt8] = []
    var packetDescriptions: [AudioStreamPacketDescription] = []
    var packetCount: UInt32 = 0
    var bytesPerPacket: UInt32 = 0
    /// The input procedure's position.
    var nextPacket: UInt32 = 0
    var handedOut: [AudioStreamPacketDescription] = []

    init(outputFormat: AudioStreamBasicDescription) { self.outputFormat = outputFormat }

    deinit { if let converter { AudioConverterDispose(converter) } }

    /// Streams `file` in pieces of `chunk` bytes and converts it all; returns Float32 interleaved samples.
    func play(_ file: [UInt8], chunk: Int) -> [Float] {
        var stream: AudioFileStreamID?
        let me = Unmanaged.passUnretained(self).toOpaque()
        status = AudioFileStreamOpen(me, playerPropertyListener, playerPackets, kAudioFileWAVEType, &stream)
        guard status == noErr, let stream else { return [] }
        defer { AudioFileStreamClose(stream) }
        var offset = 0
        while offset < file.count && status == noErr {
            let n = min(chunk, file.count - offset)
            status = file.withUnsafeBytes { AudioFileStreamParseBytes(stream, UInt32(n), $0.baseAddress! + offset, []) }
            offset += n
        }
        guard status == noErr, let converter else { return [] }
        var samples: [Float] = []
        let channels = Int(outputFormat.mChannelsPerFrame)
        var buffer = [Float](repeating: 0, count: 1024 * channels)
        while true {
            var frames: UInt32 = 1024
            let result = buffer.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(
                    mNumberBuffers: 1,
                    mBuffers: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return AudioConverterFillComplexBuffer(converter, playerInputProc, me, &frames, &list, nil)
            }
            guard result == noErr, frames > 0 else { break }
            samples += buffer.prefix(Int(frames) * channels)
        }
        return samples
    }

    func propertyChanged(_ stream: AudioFileStreamID, _ property: AudioFileStreamPropertyID) {
        guard property == kAudioFileStreamProperty_ReadyToProducePackets else { return }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_DataFormat, &size, &format)
        guard status == noErr else { return }
        bytesPerPacket = format.mBytesPerPacket
        status = AudioConverterNew(&format, &outputFormat, &converter)
        guard status == noErr, let converter else { return }
        var cookieSize: UInt32 = 0
        var writable: DarwinBoolean = false
        if AudioFileStreamGetPropertyInfo(stream, kAudioFileStreamProperty_MagicCookieData, &cookieSize, &writable) == noErr {
            var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
            if AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_MagicCookieData, &cookieSize, &cookie) == noErr {
                status = AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, cookieSize, cookie)
            }
        }
    }

    func packets(
        _ bytes: UInt32, _ count: UInt32, _ data: UnsafeRawPointer, _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    ) {
        let base = Int64(packetBytes.count)
        packetBytes += UnsafeRawBufferPointer(start: data, count: Int(bytes))
        if let descriptions {
            for i in 0..<Int(count) {
                var description = descriptions[i]
                description.mStartOffset += base
                packetDescriptions.append(description)
            }
        }
        packetCount += count
    }

    func provide(
        _ ioPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>,
        _ outDescriptions: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?
    ) -> OSStatus {
        let count = min(ioPackets.pointee, packetCount - nextPacket)
        ioPackets.pointee = count
        guard count > 0 else { return noErr }
        packetBytes.withUnsafeMutableBytes { all in
            if packetDescriptions.isEmpty {
                let start = Int(nextPacket * bytesPerPacket)
                ioData.pointee.mBuffers.mData = all.baseAddress! + start
                ioData.pointee.mBuffers.mDataByteSize = count * bytesPerPacket
            } else {
                let first = packetDescriptions[Int(nextPacket)]
                handedOut = (0..<Int(count)).map {
                    var d = packetDescriptions[Int(nextPacket) + $0]
                    d.mStartOffset -= first.mStartOffset
                    return d
                }
                let last = handedOut[handedOut.count - 1]
                ioData.pointee.mBuffers.mData = all.baseAddress! + Int(first.mStartOffset)
                ioData.pointee.mBuffers.mDataByteSize = UInt32(last.mStartOffset) + last.mDataByteSize
            }
        }
        if !packetDescriptions.isEmpty {
            handedOut.withUnsafeMutableBufferPointer { outDescriptions?.pointee = $0.baseAddress }
        }
        nextPacket += count
        return noErr
    }
}

private let playerPropertyListener: AudioFileStream_PropertyListenerProc = { client, stream, property, _ in
    Unmanaged<StreamedFilePlayer>.fromOpaque(client!).takeUnretainedValue().propertyChanged(stream, property)
}

private let playerPackets: AudioFileStream_PacketsProc = { client, bytes, count, data, descriptions in
    Unmanaged<StreamedFilePlayer>.fromOpaque(client!).takeUnretainedValue().packets(bytes, count, data, descriptions)
}

private let playerInputProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, user in
    Unmanaged<StreamedFilePlayer>.fromOpaque(user!).takeUnretainedValue().provide(ioPackets, ioData, outDescriptions)
}
