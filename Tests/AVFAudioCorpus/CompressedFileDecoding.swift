// After Apple's AVAudioCompressedBuffer and AVAudioConverter documentation and the Audio File
// Stream Services guide: a compressed file's bytes are parsed with AudioFileStream, each group of
// packets it delivers is copied into an AVAudioCompressedBuffer with its packet descriptions, and
// AVAudioConverter decodes the buffers into the standard format, 4096 frames at a time.
import AVFAudio
import Foundation

final class CompressedFileDecoder {
    private(set) var format: AVAudioFormat?
    private var packets: [AVAudioCompressedBuffer] = []
    private var streamID: AudioFileStreamID?

    /// Decodes the file at `url` (MP3, FLAC, Ogg Opus, Ogg Vorbis) to one array per channel.
    func decode(url: URL) throws -> [[Float]] {
        let data = try Data(contentsOf: url)
        let context = Unmanaged.passUnretained(self).toOpaque()
        var status = AudioFileStreamOpen(context, propertyListener, packetsListener, 0, &streamID)
        guard status == noErr, let streamID else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        defer { AudioFileStreamClose(streamID) }
        // Feed the bytes in pieces, as they would arrive from the network.
        var offset = 0
        while offset < data.count {
            let length = min(16_384, data.count - offset)
            status = data.withUnsafeBytes { bytes in
                AudioFileStreamParseBytes(streamID, UInt32(length), bytes.baseAddress! + offset, [])
            }
            guard status == noErr else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
            offset += length
        }
        AudioFileStreamParseBytes(streamID, 0, nil, [])
        guard let format else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioFileStreamError_UnsupportedDataFormat)) }

        let outputFormat = AVAudioFormat(standardFormatWithSampleRate: format.sampleRate, channels: format.channelCount)!
        guard let converter = AVAudioConverter(from: format, to: outputFormat) else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioConverterErr_FormatNotSupported))
        }
        let output = AVAudioPCMBuffer(pcmFormat: outputFormat, frameCapacity: 4_096)!
        var samples = [[Float]](repeating: [], count: Int(outputFormat.channelCount))
        var next = 0
        while true {
            var error: NSError?
            let status = converter.convert(to: output, error: &error) { _, outStatus in
                guard next < self.packets.count else {
                    outStatus.pointee = .endOfStream
                    return nil
                }
                defer { next += 1 }
                outStatus.pointee = .haveData
                return self.packets[next]
            }
            if status == .error, let error { throw error }
            for channel in 0..<samples.count {
                samples[channel] += UnsafeBufferPointer(start: output.floatChannelData![channel], count: Int(output.frameLength))
            }
            if status == .endOfStream || status == .inputRanDry { break }
        }
        return samples
    }

    fileprivate func propertyChanged(_ stream: AudioFileStreamID, _ property: AudioFileStreamPropertyID) {
        guard property == kAudioFileStreamProperty_ReadyToProducePackets else { return }
        var description = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_DataFormat, &size, &description) == noErr else { return }
        format = AVAudioFormat(streamDescription: &description)
        var cookieSize: UInt32 = 0
        if AudioFileStreamGetPropertyInfo(stream, kAudioFileStreamProperty_MagicCookieData, &cookieSize, nil) == noErr, cookieSize > 0 {
            var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
            if AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_MagicCookieData, &cookieSize, &cookie) == noErr {
                format?.magicCookie = Data(cookie)
            }
        }
    }

    fileprivate func packetsArrived(
        _ byteCount: UInt32, _ packetCount: UInt32, _ bytes: UnsafeRawPointer,
        _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    ) {
        guard let format, let descriptions else { return }
        let maximumPacketSize = (0..<Int(packetCount)).map { Int(descriptions[$0].mDataByteSize) }.max() ?? 0
        let buffer = AVAudioCompressedBuffer(format: format, packetCapacity: packetCount, maximumPacketSize: maximumPacketSize)
        buffer.data.copyMemory(from: bytes, byteCount: Int(byteCount))
        buffer.packetDescriptions!.update(from: descriptions, count: Int(packetCount))
        buffer.packetCount = packetCount
        buffer.byteLength = byteCount
        packets.append(buffer)
    }
}

private func propertyListener(
    _ clientData: UnsafeMutableRawPointer?, _ stream: AudioFileStreamID, _ property: AudioFileStreamPropertyID,
    _ flags: UnsafeMutablePointer<AudioFileStreamPropertyFlags>
) {
    Unmanaged<CompressedFileDecoder>.fromOpaque(clientData!).takeUnretainedValue().propertyChanged(stream, property)
}

private func packetsListener(
    _ clientData: UnsafeMutableRawPointer?, _ byteCount: UInt32, _ packetCount: UInt32, _ bytes: UnsafeRawPointer,
    _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
) {
    Unmanaged<CompressedFileDecoder>.fromOpaque(clientData!).takeUnretainedValue().packetsArrived(
        byteCount, packetCount, bytes, descriptions)
}
