import AudioFileStreamServices
import AudioToolbox
import Foundation

/// Everything a parse produced: the property notifications in order, the properties at the end,
/// and the packets (bytes, and each packet's size and frame count; PCM packets are frames).
struct StreamRecord: Equatable {
    var notifications: [AudioFileStreamPropertyID] = []
    var properties = StreamProperties()
    var bytes: [UInt8] = []
    var packetSizes: [UInt32] = []
    var packetFrames: [UInt32] = []
    var pcmPackets = 0
}

/// Parses `file` cut at `cuts` (offsets; none = in one piece), then marks the end of the stream.
func parse(_ file: [UInt8], cuts: [Int] = []) throws -> StreamRecord {
    let parser = AudioFileStreamParser()
    var record = StreamRecord()
    parser.onProperty = { record.notifications.append($0) }
    parser.onPackets = { bytes, count, descriptions in
        record.bytes += bytes
        if let descriptions {
            for i in 0..<count {
                record.packetSizes.append(descriptions[i].mDataByteSize)
                record.packetFrames.append(descriptions[i].mVariableFramesInPacket)
                precondition(Int(descriptions[i].mStartOffset) + Int(descriptions[i].mDataByteSize) <= bytes.count)
            }
        } else {
            record.pcmPackets += count
        }
    }
    try file.withUnsafeBytes { all in
        var start = 0
        for cut in cuts + [file.count] where cut > start {
            try parser.parse(UnsafeRawBufferPointer(rebasing: all[start..<cut]))
            start = cut
        }
    }
    try parser.parse(UnsafeRawBufferPointer(start: nil, count: 0))
    record.properties = parser.properties
    return record
}

/// A small deterministic generator (SplitMix64), so a failing chunking can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Cut points for chunks of 1 byte to 64 KiB, sizes drawn log-uniformly (small ones as often as large).
func randomCuts(length: Int, using rng: inout SplitMix64) -> [Int] {
    var cuts: [Int] = []
    var position = 0
    while position < length {
        let size = Int(pow(2, Double.random(in: 0...16, using: &rng)))
        position += max(1, min(size, 65_536))
        cuts.append(min(position, length))
    }
    return cuts
}
