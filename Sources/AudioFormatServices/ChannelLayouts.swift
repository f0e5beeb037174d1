import AudioToolbox
import AudioTypes

/// Channel layouts: each tag's channel labels in order, as Apple's CoreAudioBaseTypes.h lists
/// them, and their names.
enum ChannelLayouts {
    /// Thread: any.
    static let labelsForTag: [AudioChannelLayoutTag: [AudioChannelLabel]] = [
        kAudioChannelLayoutTag_Mono: [42],
        kAudioChannelLayoutTag_Stereo: [1, 2],
        kAudioChannelLayoutTag_StereoHeadphones: [301, 302],
        kAudioChannelLayoutTag_MatrixStereo: [38, 39],
        kAudioChannelLayoutTag_MidSide: [204, 205],
        kAudioChannelLayoutTag_XY: [206, 207],
        kAudioChannelLayoutTag_Binaural: [208, 209],
        kAudioChannelLayoutTag_Ambisonic_B_Format: [200, 201, 202, 203],
        kAudioChannelLayoutTag_Quadraphonic: [1, 2, 5, 6],
        kAudioChannelLayoutTag_Pentagonal: [1, 2, 5, 6, 3],
        kAudioChannelLayoutTag_Hexagonal: [1, 2, 5, 6, 3, 9],
        kAudioChannelLayoutTag_Octagonal: [1, 2, 5, 6, 3, 9, 10, 11],
        kAudioChannelLayoutTag_MPEG_3_0_A: [1, 2, 3],
        kAudioChannelLayoutTag_MPEG_3_0_B: [3, 1, 2],
        kAudioChannelLayoutTag_MPEG_4_0_A: [1, 2, 3, 9],
        kAudioChannelLayoutTag_MPEG_4_0_B: [3, 1, 2, 9],
        kAudioChannelLayoutTag_MPEG_5_0_A: [1, 2, 3, 5, 6],
        kAudioChannelLayoutTag_MPEG_5_0_B: [1, 2, 5, 6, 3],
        kAudioChannelLayoutTag_MPEG_5_0_C: [1, 3, 2, 5, 6],
        kAudioChannelLayoutTag_MPEG_5_0_D: [3, 1, 2, 5, 6],
        kAudioChannelLayoutTag_MPEG_5_1_A: [1, 2, 3, 4, 5, 6],
        kAudioChannelLayoutTag_MPEG_5_1_B: [1, 2, 5, 6, 3, 4],
        kAudioChannelLayoutTag_MPEG_5_1_C: [1, 3, 2, 5, 6, 4],
        kAudioChannelLayoutTag_MPEG_5_1_D: [3, 1, 2, 5, 6, 4],
        kAudioChannelLayoutTag_MPEG_6_1_A: [1, 2, 3, 4, 5, 6, 9],
        kAudioChannelLayoutTag_MPEG_7_1_A: [1, 2, 3, 4, 5, 6, 7, 8],
        kAudioChannelLayoutTag_MPEG_7_1_B: [3, 7, 8, 1, 2, 5, 6, 4],
        kAudioChannelLayoutTag_MPEG_7_1_C: [1, 2, 3, 4, 5, 6, 33, 34],
    ]

    /// Names of the tags whose name is not their labels'.
    private static let tagNames: [AudioChannelLayoutTag: String] = [
        kAudioChannelLayoutTag_Mono: "Mono", kAudioChannelLayoutTag_Stereo: "Stereo (L R)",
        kAudioChannelLayoutTag_StereoHeadphones: "Stereo Headphones", kAudioChannelLayoutTag_MatrixStereo: "Matrix Stereo (Lt Rt)",
        kAudioChannelLayoutTag_MidSide: "Mid/Side", kAudioChannelLayoutTag_XY: "X/Y", kAudioChannelLayoutTag_Binaural: "Binaural",
        kAudioChannelLayoutTag_Ambisonic_B_Format: "Ambisonic B-Format (W X Y Z)", kAudioChannelLayoutTag_Quadraphonic: "Quadraphonic",
        kAudioChannelLayoutTag_Pentagonal: "Pentagonal", kAudioChannelLayoutTag_Hexagonal: "Hexagonal",
        kAudioChannelLayoutTag_Octagonal: "Octagonal",
    ]

    /// Short names of channel labels, as in Apple's layout names ("5.1 (L R C LFE Ls Rs)").
    private static let labelNames: [AudioChannelLabel: String] = [
        1: "L", 2: "R", 3: "C", 4: "LFE", 5: "Ls", 6: "Rs", 7: "Lc", 8: "Rc", 9: "Cs", 10: "Lsd", 11: "Rsd", 12: "Ts", 13: "Vhl",
        14: "Vhc", 15: "Vhr", 16: "Ltr", 17: "Ctr", 18: "Rtr", 33: "Rls", 34: "Rrs", 38: "Lt", 39: "Rt", 42: "M", 200: "W", 201: "X",
        202: "Y", 203: "Z", 204: "Mid", 205: "Side", 206: "X", 207: "Y", 208: "Left", 209: "Right", 301: "L", 302: "R",
    ]

    /// The labels a layout names: by tag, bitmap (bit n is label n + 1) or descriptions.
    ///
    /// Thread: setup.
    static func labels(_ layout: UnsafeRawPointer, size: Int) throws -> [AudioChannelLabel] {
        let header = MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)!
        guard size >= header else {
            throw AudioError(kAudioFormatBadSpecifierSizeError, "An AudioChannelLayout takes at least \(header) bytes, not \(size).")
        }
        let tag = layout.loadUnaligned(as: AudioChannelLayoutTag.self)
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions:
            let count = Int(layout.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            let stride = MemoryLayout<AudioChannelDescription>.stride
            guard size >= header + count * stride else {
                throw AudioError(kAudioFormatBadSpecifierSizeError, "The layout names \(count) descriptions but holds \(size) bytes.")
            }
            return (0..<count).map { layout.loadUnaligned(fromByteOffset: header + $0 * stride, as: AudioChannelLabel.self) }
        case kAudioChannelLayoutTag_UseChannelBitmap:
            return try labels(bitmap: layout.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        default:
            return try labels(tag: tag)
        }
    }

    /// Thread: setup.
    static func labels(tag: AudioChannelLayoutTag) throws -> [AudioChannelLabel] {
        if tag & 0xFFFF_0000 == kAudioChannelLayoutTag_DiscreteInOrder {
            return (0..<tag & 0xFFFF).map { kAudioChannelLabel_Discrete | $0 }
        }
        guard let labels = labelsForTag[tag] else {
            throw AudioError(
                kAudioFormatUnsupportedDataFormatError, "Layout tag \(tag >> 16)|\(tag & 0xFFFF) is not one AUHost knows (AudioFormat.h).")
        }
        return labels
    }

    /// Thread: setup.
    static func labels(bitmap: UInt32) throws -> [AudioChannelLabel] {
        guard bitmap & ~UInt32(0x3FFFF) == 0 else {
            throw AudioError(kAudioFormatUnsupportedDataFormatError, "Channel bitmap 0x\(String(bitmap, radix: 16)) has undefined bits.")
        }
        return (0..<18).filter { bitmap & (1 << $0) != 0 }.map { AudioChannelLabel($0 + 1) }
    }

    /// The layout's name: its tag's ("5.1 (L R C LFE Ls Rs)", "Stereo (L R)") or its labels'.
    ///
    /// Thread: setup.
    static func name(_ layout: UnsafeRawPointer, size: Int) throws -> String {
        let tag = layout.loadUnaligned(as: AudioChannelLayoutTag.self)
        if let name = tagNames[tag] { return name }
        let labels = try labels(layout, size: size)
        let names = labels.map { label in
            label & 0xFFFF_0000 == kAudioChannelLabel_Discrete ? "D\(label & 0xFFFF)" : labelNames[label] ?? "?"
        }.joined(separator: " ")
        if tag & 0xFFFF_0000 == kAudioChannelLayoutTag_DiscreteInOrder { return "\(labels.count) Discrete Channels (\(names))" }
        guard labelsForTag[tag] != nil else { return names }
        let lfe = labels.filter { $0 == kAudioChannelLabel_LFEScreen }.count
        return "\(labels.count - lfe).\(lfe) (\(names))"
    }

    /// An AudioChannelLayout that lists `labels` as descriptions (Apple's answer for a tag or bitmap).
    ///
    /// Thread: setup.
    static func layoutBytes(_ labels: [AudioChannelLabel]) -> [UInt8] {
        let header = MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)!
        let stride = MemoryLayout<AudioChannelDescription>.stride
        var bytes = [UInt8](repeating: 0, count: header + labels.count * stride)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: kAudioChannelLayoutTag_UseChannelDescriptions, as: UInt32.self)
            raw.storeBytes(of: UInt32(labels.count), toByteOffset: 8, as: UInt32.self)
            for (index, label) in labels.enumerated() { raw.storeBytes(of: label, toByteOffset: header + index * stride, as: UInt32.self) }
        }
        return bytes
    }
}
