import AudioToolbox
import AudioTypes

/// The byte offsets AudioFileStreamSeek answers: at most ``maximum`` (2^62 bytes, AudioFileStream.h),
/// computed without trapping whatever packet offset the caller passes.
enum SeekOffset {
    /// 4 EiB: larger than any stream, small enough that DataOffset can be added to it.
    static let maximum: Int64 = 1 << 62

    /// `packet` × `bytesPerPacket` for packets of one size. Thread: setup.
    static func exact(packet: Int64, bytesPerPacket: Int64) throws -> Int64 {
        let (product, overflow) = packet.multipliedReportingOverflow(by: bytesPerPacket)
        guard !overflow, product <= maximum else { throw tooFar(packet) }
        return product
    }

    /// `packet` × the average packet size, rounded: an estimate for variable packets. A NaN or
    /// infinite average (no packet seen yet) counts as too far. Thread: setup.
    static func estimated(packet: Int64, averageBytes: Double) throws -> Int64 {
        let product = (Double(packet) * averageBytes).rounded()
        // Compared as a Double before converting: Int64(x) traps for x ≥ 2^63 or NaN.
        guard product.isFinite, product >= 0, product <= Double(maximum) else { throw tooFar(packet) }
        return Int64(product)
    }

    static func tooFar(_ packet: Int64) -> AudioError {
        AudioError(
            kAudioFileStreamError_InvalidPacketOffset,
            "Packet \(packet) lies past the 2^62 bytes a stream offset may reach (AudioFileStreamSeek, AudioFileStream.h).")
    }
}
